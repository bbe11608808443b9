// libFuzzer target for net/tls_client_hello. Besides never crashing: the scan of any
// prefix of an input that completes is need_more or the same kind of answer as a
// prefix would give (never `done` with another name), and names are capped.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "net/tls_client_hello.h"

namespace {
void check(bool ok) {
  if (!ok) __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using lash::net::ClientHelloScan;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  ClientHelloScan full = lash::net::scan_client_hello(in);
  if (full.sni_ok) check(!full.sni.empty() && full.sni.size() <= 254);
  if (full.kind == ClientHelloScan::done) {
    // Bytes after the hello do not change its name; a cut one byte short is incomplete
    // or (when the hello ended earlier) the same answer.
    ClientHelloScan more = lash::net::scan_client_hello(std::string(in) + "trailing");
    check(more.kind == ClientHelloScan::done && more.sni == full.sni);
  }
  return 0;
}
