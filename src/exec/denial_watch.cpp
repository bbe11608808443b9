#include "exec/denial_watch.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "exec/denial_explain.h"
#include "exec/output.h"
#include "exec/session.h"
#include "policy/engine.h"
#include "policy/facts_cache.h"
#include "sandbox/launch.h"

namespace lash::exec {
namespace {

constexpr size_t kMaxLines = 100;     // kept lines: 100 x 500 bytes stay under a pipe's 64 KiB
constexpr size_t kMaxLineBytes = 500;
constexpr size_t kMaxScan = 4096;     // longer lines are scanned in their first 4 KiB only

struct Watch {
  pid_t starter = 0;     // the lash that started it (not its subshells)
  pid_t helper = -1;
  int saved_stderr = -1;  // what fd 2 was, CLOEXEC
  int results = -1;       // the helper's kept lines, one per line, then "#seen N"
};
Watch g_watch;

bool write_full(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// The helper: copies IN to OUT unchanged, sends each line that reports a refusal to
// RESULTS (at most kMaxLines) and, at the end of IN, "#seen N". Never returns.
[[noreturn]] void helper_main(int in, int out, int results) {
  // The terminal's ^C and ^Z are for the job, not for the pipe every program of the
  // session writes its errors to (its end would kill them with SIGPIPE).
  for (int sig : {SIGINT, SIGQUIT, SIGTSTP, SIGTTOU, SIGTTIN, SIGHUP, SIGPIPE}) ::signal(sig, SIG_IGN);
  for (int sig : {SIGTERM, SIGCHLD}) ::signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  bool out_ok = true;
  size_t kept = 0, seen = 0;
  std::string line;
  bool long_line = false;
  auto end_line = [&] {
    if (reports_refusal(line)) {
      ++seen;
      if (kept < kMaxLines) {
        std::string l = line.substr(0, kMaxLineBytes) + "\n";
        if (write_full(results, l.data(), l.size())) ++kept;
      }
    }
    line.clear();
    long_line = false;
  };
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    // Copied first: the job's output must not wait for the scan. A closed error
    // output is not a reason to stop reading (writers would block).
    if (out_ok) out_ok = write_full(out, buf, static_cast<size_t>(n));
    for (ssize_t i = 0; i < n; ++i) {
      char c = buf[i];
      if (c == '\n') {
        end_line();
      } else if (line.size() < kMaxScan) {
        line += c;
      } else {
        long_line = true;
      }
    }
  }
  (void)long_line;
  if (!line.empty()) end_line();
  std::string last = "#seen " + std::to_string(seen) + "\n";
  (void)write_full(results, last.data(), last.size());
  ::_exit(0);
}

}  // namespace

std::string start_denial_watch() {
  if (g_watch.helper > 0) return "";
  int data[2], res[2];
  if (::pipe2(data, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
  if (::pipe2(res, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(data[0]);
    ::close(data[1]);
    return std::string("pipe: ") + std::strerror(e);
  }
  int saved = ::fcntl(2, F_DUPFD_CLOEXEC, 10);
  if (saved < 0) {
    int e = errno;
    for (int fd : {data[0], data[1], res[0], res[1]}) ::close(fd);
    return std::string("the error output: ") + std::strerror(e);
  }
  pid_t pid = sandbox::fork_helper();
  if (pid < 0) {
    int e = errno;
    for (int fd : {data[0], data[1], res[0], res[1], saved}) ::close(fd);
    return std::string("fork: ") + std::strerror(e);
  }
  if (pid == 0) {
    ::close(data[1]);
    ::close(res[0]);
    ::setsid();  // out of the job's process group: the terminal's signals are not for it
    helper_main(data[0], saved, res[1]);
  }
  ::close(data[0]);
  ::close(res[1]);
  if (::dup2(data[1], 2) < 0) {
    int e = errno;
    ::close(data[1]);
    ::close(res[0]);
    ::close(saved);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return std::string("dup2: ") + std::strerror(e);
  }
  ::close(data[1]);
  g_watch = Watch{::getpid(), pid, saved, res[0]};
  return "";
}

void finish_denial_watch() {
  if (g_watch.helper <= 0 || g_watch.starter != ::getpid()) return;
  Watch w = g_watch;
  g_watch = Watch{};
  // fd 2 back: lash's own copy of the pipe is closed by it. Programs still running
  // (a background job) hold theirs: what they write after the short wait below is
  // passed on but not explained.
  (void)::dup2(w.saved_stderr, 2);
  ::close(w.saved_stderr);
  std::string got;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
  bool ended = false;
  while (!ended) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{w.results, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    char buf[8192];
    ssize_t n = ::read(w.results, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ended = true;
      break;
    }
    got.append(buf, static_cast<size_t>(n));
  }
  ::close(w.results);
  if (!ended) ::kill(w.helper, SIGKILL);  // writers outlive the session's end: stop waiting
  while (::waitpid(w.helper, nullptr, 0) < 0 && errno == EINTR) {
  }

  std::vector<std::string> lines;
  size_t seen = 0;
  bool have_count = false;
  size_t i = 0;
  while (i < got.size()) {
    size_t j = got.find('\n', i);
    if (j == std::string::npos) break;  // a line cut by the kill
    std::string l = got.substr(i, j - i);
    i = j + 1;
    if (l.rfind("#seen ", 0) == 0) {
      seen = std::strtoull(l.c_str() + 6, nullptr, 10);
      have_count = true;
    } else {
      lines.push_back(std::move(l));
    }
  }
  if (!have_count) seen = lines.size();

  Session* s = current_session();
  std::vector<Explained> ex;
  if (s && s->active && !lines.empty()) {
    policy::Engine engine(s->active, policy::cached_session_facts("", *s->active, s->env));
    ex = explain_lines(lines, engine, active_session_plan(), s->env, real_file_probe(s->env.path_var));
  }
  write_all(2, summary_text(ex, seen, seen > lines.size()));
  for (const auto& e : ex)
    audit_event("denial", e.path, "deny",
                e.right + " refused; " + e.key.key + " [" + e.key.source_text() + "] would allow it (" + e.change +
                    "); seen: " + e.seen);
}

}  // namespace lash::exec
