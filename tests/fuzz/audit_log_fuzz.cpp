// libFuzzer target for the audit log reader (`audit tail`, `audit search`): the log
// is a file anyone with write access to it may have filled with any bytes. Input:
// one byte N, a search WORD up to the first NUL, then the log's bytes. The log is
// read from a memfd through /proc/self/fd, as from a file. Checks, besides never
// crashing: tail(N) is the last N lines of a straightforward split, search(WORD)
// the lines a straightforward case-insensitive search finds, and render_text never
// fails and leaves a line that is not a JSON object as it is.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "audit/log_reader.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// The log's lines: the text split at line feeds; a final line feed ends the last
// line rather than starting an empty one ("\n" is one empty line, "" none).
std::vector<std::string> split_lines(std::string_view log) {
  std::vector<std::string> out;
  if (log.empty()) return out;
  if (log.back() == '\n') log.remove_suffix(1);
  size_t start = 0;
  for (;;) {
    size_t nl = log.find('\n', start);
    out.emplace_back(log.substr(start, nl == std::string_view::npos ? nl : nl - start));
    if (nl == std::string_view::npos) return out;
    start = nl + 1;
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const size_t n = data[0] % 40;
  std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  size_t z = in.find('\0');
  std::string_view word = z == std::string_view::npos ? std::string_view() : in.substr(0, z);
  std::string_view log = z == std::string_view::npos ? in : in.substr(z + 1);

  static int fd = memfd_create("audit-log", MFD_CLOEXEC);
  check(fd >= 0);
  check(ftruncate(fd, 0) == 0);
  check(pwrite(fd, log.data(), log.size(), 0) == static_cast<ssize_t>(log.size()));
  const std::string path = "/proc/self/fd/" + std::to_string(fd);

  const std::vector<std::string> lines = split_lines(log);

  auto t = lash::audit::tail(path, n);
  check(t.ok());
  std::vector<std::string> want_tail(lines.end() - static_cast<std::ptrdiff_t>(std::min(n, lines.size())),
                                     lines.end());
  check(*t == want_tail);

  auto s = lash::audit::search(path, word);
  check(s.ok());
  std::vector<std::string> want_found;
  const std::string w = lower(word);
  for (const auto& l : lines)
    if (lower(l).find(w) != std::string::npos) want_found.push_back(l);
  check(*s == want_found);

  for (const auto& l : want_tail) {
    std::string r = lash::audit::render_text(l);
    size_t first = l.find_first_not_of(" \t\r\n");  // JSON's white space
    if (first == std::string::npos || l[first] != '{') check(r == l);
  }
  return 0;
}
