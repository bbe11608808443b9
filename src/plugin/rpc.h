// JSON-RPC 2.0 over a plugin's stdin/stdout, one message per line (nlohmann_json).
// lash sends one request at a time and waits for its reply, so a reply must carry the
// id of the request in flight: anything else (another id, a notification, a batch) is
// "out of order" and the call fails. Pure: no I/O here (host.cpp reads the lines).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace lash::plugin {

inline constexpr size_t kMaxMessage = 1 << 20;  // 1 MiB, newline excluded
// Arrays and objects nested deeper than this are refused before parsing: the parser,
// the printer and the destructor of a value all recurse.
inline constexpr size_t kMaxDepth = 256;

// Whether TEXT (JSON) nests arrays/objects deeper than MAX (strings skipped).
bool nests_deeper_than(std::string_view text, size_t max);

// The request line, newline included. PARAMS is an object.
std::string make_request(int64_t id, std::string_view method, const nlohmann::json& params);

struct Reply {
  bool is_error = false;
  nlohmann::json result;   // the "result" member
  int64_t error_code = 0;  // the "error" member
  std::string error_message;
};

// Parses one reply line (without its newline). An Error names what is wrong:
// malformed JSON, not JSON-RPC 2.0, out of order (another id), oversized.
Result<Reply> parse_reply(std::string_view line, int64_t expected_id);

// Accumulates bytes read from a plugin and cuts them into lines. A line longer than
// kMaxMessage is refused as soon as it is known to be (the plugin cannot make lash
// buffer more than that).
class LineBuffer {
 public:
  // Appends data. False once the pending line is oversized.
  bool feed(std::string_view data);
  // Takes the next complete, non-blank line out (without its newline), if there is one.
  bool next_line(std::string& line);
  bool oversized() const { return oversized_; }
  void clear() {
    buf_.clear();
    pos_ = 0;
    oversized_ = false;
  }

 private:
  std::string buf_;
  size_t pos_ = 0;  // where the unread part of buf_ starts (lines are not erased one
                    // by one: a flood of short lines stays linear)
  bool oversized_ = false;
};

// "key=value" words into a params object: values that read as JSON numbers, true,
// false or null keep that type, everything else is a string. A single word starting
// with '{' is the params object itself. Error on a word without '=' or a repeated key.
Result<nlohmann::json> params_from_words(const std::vector<std::string>& words);

}  // namespace lash::plugin
