// HTTP/1.x requests on one client connection, as a pure state machine over the bytes
// the client sends. The relay asks it where each request head ends and what Host it
// names, forwards a head only once its Host is allowed, and passes bodies through
// (Content-Length or chunked), so that every request of a keep-alive or pipelined
// connection is checked, not only the first.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lash::net {

inline constexpr size_t kMaxHttpHead = 32768;

struct HttpStep {
  enum Kind {
    need_more,  // nothing can be forwarded until more bytes arrive
    head,       // a complete request head of `length` bytes naming `host`
    pass,       // `length` bytes of body (or an opaque stream) may be forwarded
    malformed,  // not HTTP/1.x as the relay can follow it: refuse the connection
  } kind = need_more;
  size_t length = 0;
  std::string host;  // lowercase, port and trailing dot removed
};

// Is this a well-formed HTTP/1.x request line (RFC 9112: a method of upper-case
// tchar, one SP, a target of visible ASCII, one SP, HTTP/1.0 or HTTP/1.1, CRLF)?
// Leading empty lines are not skipped. `maybe` when too few bytes arrived to tell.
enum class Looks { yes, no, maybe };
Looks looks_like_http(std::string_view start);

class HttpRequestStream {
 public:
  // PENDING: bytes the client sent that were not forwarded yet, from the current
  // position. After `head`, call accept_head() once the host was allowed; after `pass`,
  // the caller forwards `length` bytes and calls next() with what follows.
  HttpStep next(std::string_view pending);
  void accept_head();
  bool opaque() const { return state_ == State::opaque; }

 private:
  enum class State { head, body, chunk_size, chunk_data, chunk_end, trailers, opaque, failed };
  State state_ = State::head;
  uint64_t remaining_ = 0;      // body or chunk bytes left
  State after_head_ = State::head;
  uint64_t head_body_ = 0;
};

// Parses one request head (request line + header fields, ending with an empty line).
// Exposed for tests and the fuzzer.
struct HttpHead {
  bool ok = false;
  std::string method, host;
  bool chunked = false, has_length = false, upgrade = false;
  uint64_t content_length = 0;
};
HttpHead parse_http_head(std::string_view head);

}  // namespace lash::net
