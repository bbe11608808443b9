#include "interactive/sftp_refusal.h"

#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>

#include "exec/output.h"
#include "exec/policy_gate.h"
#include "policy/engine.h"

namespace lash::interactive {

namespace {

constexpr uint8_t kInit = 1, kVersion = 2, kStatus = 101;
constexpr uint32_t kPermissionDenied = 3;
constexpr uint32_t kMaxPacket = 256 * 1024;  // a write request of the largest usual size
constexpr int kMaxPackets = 64;
constexpr int kSeconds = 30;

double now() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// Reads exactly N bytes before DEADLINE; false at EOF, on an error or on time.
bool read_exact(int fd, unsigned char* buf, size_t n, double deadline) {
  size_t got = 0;
  while (got < n) {
    double left = deadline - now();
    if (left <= 0) return false;
    struct pollfd p {fd, POLLIN, 0};
    int r = ::poll(&p, 1, int(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    ssize_t k = ::read(fd, buf + got, n - got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    got += size_t(k);
  }
  return true;
}

void put32(std::string& s, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) s += char((v >> shift) & 0xff);
}

uint32_t get32(const unsigned char* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}

std::string packet(const std::string& body) {
  std::string s;
  put32(s, uint32_t(body.size()));
  return s + body;
}

}  // namespace

bool is_sftp_server_command(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  if (text.empty() || text.find_first_of(" \t\n;&|<>()$`\\\"'") != std::string_view::npos) return false;
  std::string_view base = text.substr(text.rfind('/') == std::string_view::npos ? 0 : text.rfind('/') + 1);
  return base == "sftp-server";
}

std::string sftp_refusal_message(exec::Shell& sh, const std::string& command) {
  std::string cmd = command;
  while (!cmd.empty() && (cmd.back() == '\n' || cmd.back() == ' ' || cmd.back() == '\t')) cmd.pop_back();
  while (!cmd.empty() && (cmd.front() == ' ' || cmd.front() == '\t')) cmd.erase(0, 1);
  std::string path = cmd.find('/') != std::string::npos ? cmd : sh.find_command(cmd, false);
  if (sh.gate && !path.empty()) {
    char real[PATH_MAX];
    std::string resolved = ::realpath(path.c_str(), real) ? std::string(real) : path;
    policy::Decision d = sh.gate->engine().decide(policy::Action{policy::Spawn{cmd, resolved}});
    if (!d.allowed()) return "Problem: " + d.problem + " Suggestion: " + d.suggestion + " (lash: sftp refused)";
  }
  return "Problem: this login shell could not start the sftp server '" + cmd +
         "' (see ~/.lash/audit.log on the server). (lash: sftp refused)";
}

void refuse_sftp(int in, int out, const std::string& message) {
  double deadline = now() + kSeconds;
  for (int n = 0; n < kMaxPackets; ++n) {
    unsigned char head[5];
    if (!read_exact(in, head, sizeof head, deadline)) return;
    uint32_t len = get32(head);
    if (len < 1 || len > kMaxPacket) return;
    uint8_t type = head[4];
    // The rest of the packet: the request id first (every request but INIT has one).
    std::string rest(len - 1, '\0');
    if (len > 1 && !read_exact(in, reinterpret_cast<unsigned char*>(rest.data()), rest.size(), deadline)) return;
    std::string body;
    if (type == kInit) {
      if (n != 0) return;
      body += char(kVersion);
      put32(body, 3);
    } else {
      if (n == 0 || rest.size() < 4) return;  // no INIT first, or no id: not sftp
      body += char(kStatus);
      body.append(rest, 0, 4);  // the id, as received
      put32(body, kPermissionDenied);
      put32(body, uint32_t(message.size()));
      body += message;
      put32(body, 2);
      body += "en";
    }
    if (!exec::write_all(out, packet(body))) return;
  }
}

}  // namespace lash::interactive
