// libFuzzer target: the plugin JSON-RPC reader (plugin/rpc.h). The input is fed to a
// LineBuffer in pieces (the first byte chooses the piece size), every complete line is
// parsed as the reply to request 1, and the bytes are also read as `plugin call`
// arguments. Must never crash, hang, throw or buffer more than one line past 1 MiB.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "plugin/rpc.h"

using namespace lash::plugin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t piece = 1 + data[0] % 64;
  std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  LineBuffer buf;
  std::string line;
  for (size_t i = 0; i < in.size(); i += piece) {
    if (!buf.feed(in.substr(i, piece))) break;
    while (buf.next_line(line)) {
      auto r = parse_reply(line, 1);
      if (r && !r->is_error) (void)r->result.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    }
  }
  std::vector<std::string> words;
  for (size_t start = 0; start <= in.size() && words.size() < 16;) {
    size_t sp = in.find(' ', start);
    words.emplace_back(in.substr(start, sp == std::string_view::npos ? std::string_view::npos : sp - start));
    if (sp == std::string_view::npos) break;
    start = sp + 1;
  }
  auto p = params_from_words(words);
  if (p) (void)make_request(1, "m", *p);
  return 0;
}
