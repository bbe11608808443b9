#include "plugin/rpc.h"

#include <vector>

namespace lash::plugin {

using nlohmann::json;

std::string make_request(int64_t id, std::string_view method, const json& params) {
  json req = {{"jsonrpc", "2.0"}, {"id", id}, {"method", std::string(method)}, {"params", params}};
  // dump() escapes nothing below 0x20 into raw bytes: the line has no newline inside.
  return req.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

bool nests_deeper_than(std::string_view text, size_t max) {
  size_t depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > max) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

Result<Reply> parse_reply(std::string_view line, int64_t expected_id) {
  if (line.size() > kMaxMessage) return Error{"oversized reply (over 1 MiB)", {}, 0, {}};
  if (nests_deeper_than(line, kMaxDepth))
    return Error{"malformed reply (nested deeper than " + std::to_string(kMaxDepth) + ")", {}, 0, {}};
  json j = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{"malformed reply (not JSON)", {}, 0, {}};
  if (!j.is_object()) return Error{"malformed reply (not a JSON-RPC object)", {}, 0, {}};
  auto ver = j.find("jsonrpc");
  if (ver == j.end() || !ver->is_string() || *ver != "2.0") return Error{"malformed reply (not JSON-RPC 2.0)", {}, 0, {}};
  auto id = j.find("id");
  if (id == j.end() || !id->is_number_integer() || id->get<int64_t>() != expected_id)
    return Error{"out-of-order reply (expected id " + std::to_string(expected_id) + ")", {}, 0, {}};
  auto res = j.find("result");
  auto err = j.find("error");
  if ((res == j.end()) == (err == j.end()))
    return Error{"malformed reply (needs exactly one of result and error)", {}, 0, {}};
  Reply r;
  if (res != j.end()) {
    r.result = std::move(*res);
    return r;
  }
  r.is_error = true;
  if (!err->is_object()) return Error{"malformed reply (error is not an object)", {}, 0, {}};
  auto code = err->find("code");
  auto msg = err->find("message");
  if (code != err->end() && code->is_number_integer()) r.error_code = code->get<int64_t>();
  if (msg != err->end() && msg->is_string()) r.error_message = msg->get<std::string>();
  return r;
}

bool LineBuffer::feed(std::string_view data) {
  if (oversized_) return false;
  if (pos_ > 0 && pos_ >= buf_.size() / 2) {  // drop what was read, now and then
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  buf_.append(data);
  size_t nl = buf_.find('\n', pos_);
  size_t pending = (nl == std::string::npos ? buf_.size() : nl) - pos_;
  if (pending > kMaxMessage) oversized_ = true;
  return !oversized_;
}

bool LineBuffer::next_line(std::string& line) {
  // Blank lines between messages are skipped here, all at once: a flood of them costs
  // one scan, not one call each.
  size_t text = buf_.find_first_not_of("\r\n", pos_);
  pos_ = text == std::string::npos ? buf_.size() : text;
  size_t nl = buf_.find('\n', pos_);
  if (nl == std::string::npos) return false;
  line.assign(buf_, pos_, nl - pos_);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  pos_ = nl + 1;
  return true;
}

namespace {

json scalar_value(const std::string& v) {
  if (v == "true") return true;
  if (v == "false") return false;
  if (v == "null") return nullptr;
  if (!v.empty() && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))) {
    json n = json::parse(v, nullptr, false);
    if (!n.is_discarded() && n.is_number()) return n;
  }
  return v;
}

}  // namespace

Result<json> params_from_words(const std::vector<std::string>& words) {
  if (words.size() == 1 && !words[0].empty() && words[0][0] == '{') {
    if (words[0].size() > kMaxMessage) return Error{"arguments too large", {}, 0, {}};
    if (nests_deeper_than(words[0], kMaxDepth))
      return Error{"arguments nested deeper than " + std::to_string(kMaxDepth), {}, 0, {}};
    json j = json::parse(words[0], nullptr, false);
    if (j.is_discarded() || !j.is_object()) return Error{"not a JSON object: " + words[0], {}, 0, {}};
    return j;
  }
  json obj = json::object();
  for (const std::string& w : words) {
    size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0) return Error{"expected key=value, got '" + w + "'", {}, 0, {}};
    std::string key = w.substr(0, eq);
    if (obj.contains(key)) return Error{"'" + key + "' given twice", {}, 0, {}};
    obj[key] = scalar_value(w.substr(eq + 1));
  }
  return obj;
}

}  // namespace lash::plugin
