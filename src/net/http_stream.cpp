#include "net/http_stream.h"

#include <algorithm>

namespace lash::net {
namespace {

bool tchar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

std::string lower(std::string_view s) {
  std::string o(s);
  for (char& c : o)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return o;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "host", "host:port", "[v6]:port" -> host; "" when malformed.
std::string host_of_authority(std::string_view a) {
  if (a.find('@') != std::string_view::npos) return {};  // userinfo: refused, never guessed
  std::string_view h = a;
  if (!h.empty() && h.front() == '[') {
    size_t close = h.find(']');
    if (close == std::string_view::npos) return {};
    std::string_view rest = h.substr(close + 1);
    h = h.substr(1, close - 1);
    if (!rest.empty() && (rest[0] != ':' || rest.find_first_not_of("0123456789", 1) != std::string_view::npos))
      return {};
  } else if (size_t colon = h.find(':'); colon != std::string_view::npos) {
    if (h.find_first_not_of("0123456789", colon + 1) != std::string_view::npos) return {};
    h = h.substr(0, colon);
  }
  if (!h.empty() && h.back() == '.') h.remove_suffix(1);
  if (h.empty() || h.size() > 253) return {};
  std::string out = lower(h);
  for (char c : out)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == ':'))
      return {};
  return out;
}

bool parse_u64(std::string_view s, int base, uint64_t& out) {
  if (s.empty() || s.size() > 15) return false;
  uint64_t v = 0;
  for (char c : s) {
    int d = (c >= '0' && c <= '9') ? c - '0'
            : (base == 16 && c >= 'a' && c <= 'f') ? c - 'a' + 10
            : (base == 16 && c >= 'A' && c <= 'F') ? c - 'A' + 10
                                                   : -1;
    if (d < 0) return false;
    v = v * uint64_t(base) + uint64_t(d);
  }
  out = v;
  return true;
}

// Where the head ends ("\r\n\r\n"), or npos.
size_t head_end(std::string_view s) {
  size_t e = s.find("\r\n\r\n");
  return e == std::string_view::npos ? e : e + 4;
}

}  // namespace

// Strict on purpose: servers skip leading empty lines, accept lower-case methods or
// tolerate stray spaces, so anything looser than the RFC 9112 request line could be
// read by the server as a request the relay never checked.
Looks looks_like_http(std::string_view s) {
  auto more = [&](size_t i) { return i >= s.size(); };
  size_t i = 0;
  while (i < s.size() && i < 32 && tchar(s[i]) && !(s[i] >= 'a' && s[i] <= 'z')) ++i;
  if (more(i)) return i < 32 ? Looks::maybe : Looks::no;
  if (i == 0 || s[i] != ' ') return Looks::no;
  size_t t = ++i;
  while (i < s.size() && i - t < kMaxHttpHead && s[i] > ' ' && s[i] < 0x7f) ++i;
  if (more(i)) return i - t < kMaxHttpHead ? Looks::maybe : Looks::no;
  if (i == t || s[i] != ' ') return Looks::no;
  ++i;
  for (char want : std::string_view("HTTP/1.")) {
    if (more(i)) return Looks::maybe;
    if (s[i++] != want) return Looks::no;
  }
  if (more(i)) return Looks::maybe;
  if (s[i] != '0' && s[i] != '1') return Looks::no;
  if (more(++i)) return Looks::maybe;
  if (s[i] != '\r') return Looks::no;
  if (more(++i)) return Looks::maybe;
  return s[i] == '\n' ? Looks::yes : Looks::no;
}

HttpHead parse_http_head(std::string_view head) {
  HttpHead h;
  size_t eol = head.find("\r\n");
  if (eol == std::string_view::npos) return h;
  std::string_view line = head.substr(0, eol);
  size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
  if (sp1 == std::string_view::npos || sp1 == 0 || sp2 == sp1) return h;
  h.method = std::string(line.substr(0, sp1));
  for (char c : h.method)
    if (!tchar(c)) return h;
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view version = line.substr(sp2 + 1);
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return h;
  if (target.empty() || target.find(' ') != std::string_view::npos) return h;
  std::string target_host;
  if (h.method == "CONNECT") {
    target_host = host_of_authority(target);
    if (target_host.empty()) return h;
  } else if (target[0] != '/' && target != "*") {
    // absolute-form: scheme "://" authority [path]
    size_t scheme = target.find("://");
    if (scheme == std::string_view::npos) return h;
    std::string_view rest = target.substr(scheme + 3);
    target_host = host_of_authority(rest.substr(0, rest.find_first_of("/?#")));
    if (target_host.empty()) return h;
  }
  int hosts = 0;
  std::string host;
  size_t at = eol + 2;
  while (at < head.size()) {
    size_t e = head.find("\r\n", at);
    if (e == std::string_view::npos) return h;
    std::string_view f = head.substr(at, e - at);
    at = e + 2;
    if (f.empty()) break;
    size_t colon = f.find(':');
    if (colon == std::string_view::npos || colon == 0) return h;
    std::string_view name = f.substr(0, colon);
    for (char c : name)
      if (!tchar(c)) return h;  // also refuses obsolete line folding and "Host :"
    std::string key = lower(name);
    std::string_view value = trim(f.substr(colon + 1));
    // A bare CR or LF ends a line for many servers: a field hiding one could carry a
    // second Host the relay never saw. Control bytes other than TAB are refused.
    for (char c : value)
      if ((uint8_t(c) < 0x20 && c != '\t') || c == 0x7f) return h;
    if (key == "host") {
      ++hosts;
      host = host_of_authority(value);
    } else if (key == "content-length") {
      uint64_t n;
      if (!parse_u64(value, 10, n) || (h.has_length && n != h.content_length)) return h;
      h.has_length = true;
      h.content_length = n;
    } else if (key == "transfer-encoding") {
      if (lower(value) != "chunked" || h.chunked) return h;  // other codings: not followed
      h.chunked = true;
    } else if (key == "upgrade") {
      h.upgrade = true;
    }
  }
  if (h.chunked && h.has_length) return h;  // request smuggling shape: refuse
  if (hosts > 1) return h;
  if (hosts == 1 && host.empty()) return h;
  if (!target_host.empty()) {
    if (hosts == 1 && host != target_host) return h;
    host = target_host;
  }
  if (host.empty()) return h;  // HTTP/1.0 without Host: nothing to check by name
  h.host = host;
  h.ok = true;
  return h;
}

HttpStep HttpRequestStream::next(std::string_view p) {
  switch (state_) {
    case State::failed:
      return {HttpStep::malformed};
    case State::opaque:
      return p.empty() ? HttpStep{} : HttpStep{HttpStep::pass, p.size()};
    case State::head: {
      if (p.empty()) return {};
      if (looks_like_http(p) == Looks::no) break;
      size_t e = head_end(p.substr(0, std::min(p.size(), kMaxHttpHead + 4)));
      if (e == std::string_view::npos) {
        if (p.size() > kMaxHttpHead) break;
        return {};
      }
      HttpHead h = parse_http_head(p.substr(0, e));
      if (!h.ok) break;
      if (h.upgrade || h.method == "CONNECT") after_head_ = State::opaque;  // checked once, then a tunnel
      else if (h.chunked) after_head_ = State::chunk_size;
      else if (h.content_length) after_head_ = State::body;
      else after_head_ = State::head;
      head_body_ = h.content_length;
      return {HttpStep::head, e, h.host};
    }
    case State::body: {
      if (p.empty()) return {};
      size_t n = size_t(std::min<uint64_t>(remaining_, p.size()));
      remaining_ -= n;
      if (remaining_ == 0) state_ = State::head;
      return {HttpStep::pass, n};
    }
    case State::chunk_size:
    case State::trailers: {
      size_t e = p.find("\r\n");
      if (e == std::string_view::npos) {
        if (p.size() > 4096) break;
        return {};
      }
      std::string_view line = p.substr(0, e);
      if (state_ == State::trailers) {
        if (line.empty()) state_ = State::head;
        return {HttpStep::pass, e + 2};
      }
      line = line.substr(0, line.find(';'));
      uint64_t n;
      if (!parse_u64(trim(line), 16, n)) break;
      if (n == 0) state_ = State::trailers;
      else {
        remaining_ = n;
        state_ = State::chunk_data;
      }
      return {HttpStep::pass, e + 2};
    }
    case State::chunk_data: {
      if (p.empty()) return {};
      size_t n = size_t(std::min<uint64_t>(remaining_, p.size()));
      remaining_ -= n;
      if (remaining_ == 0) state_ = State::chunk_end;
      return {HttpStep::pass, n};
    }
    case State::chunk_end: {
      if (p.size() < 2) return {};
      if (p.substr(0, 2) != "\r\n") break;
      state_ = State::chunk_size;
      return {HttpStep::pass, 2};
    }
  }
  state_ = State::failed;
  return {HttpStep::malformed};
}

void HttpRequestStream::accept_head() {
  state_ = after_head_;
  remaining_ = head_body_;
  if (state_ == State::body && remaining_ == 0) state_ = State::head;
}

}  // namespace lash::net
