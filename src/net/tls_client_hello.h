// The server name (SNI) of a TLS ClientHello, read from the first bytes a client sends
// on a connection. Pure and incremental: call again with more bytes while it answers
// need_more. The ClientHello may span several TLS records and TCP segments; its size is
// capped, so a client cannot make the relay buffer without bound.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace lash::net {

// Largest ClientHello the relay waits for (post-quantum key shares make them ~2 KiB;
// 16 KiB is one full record and more than any real client sends).
inline constexpr size_t kMaxClientHello = 16384;

struct ClientHelloScan {
  enum Kind {
    need_more,  // a TLS handshake so far; more bytes needed
    not_tls,    // the first byte is not a TLS handshake record: treat as another protocol
    malformed,  // looks like TLS but breaks the format or the cap: refuse
    done,       // a complete ClientHello
  } kind = need_more;
  std::string sni;       // the host_name, lowercase; empty when the extension is absent
  bool has_sni = false;
  bool sni_ok = false;   // host name characters only, 1..253 bytes
  bool ech = false;      // an encrypted_client_hello extension (outer name is what is checked)
};

ClientHelloScan scan_client_hello(std::string_view bytes);

}  // namespace lash::net
