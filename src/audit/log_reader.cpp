#include "audit/log_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "audit/record.h"
#include "base/unique_fd.h"

namespace lash::audit {
namespace {

Result<unique_fd> open_log(const std::string& path) {
  unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd && errno != ENOENT) return sys_error("cannot open audit log", path, errno);
  return fd;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

bool contains_nocase(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;  // std::search finds "" in no empty line
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                     [](char a, char b) { return lower(a) == lower(b); }) != hay.end();
}

}  // namespace

Result<std::vector<std::string>> tail(const std::string& path, size_t n) {
  std::vector<std::string> out;
  auto fd = open_log(path);
  if (!fd) return fd.error();
  if (!*fd || n == 0) return out;
  struct stat st;
  if (::fstat(fd->get(), &st) != 0) return sys_error("cannot stat audit log", path, errno);
  off_t end = st.st_size;
  std::string buf;  // the unread tail of the file, from `end` on
  constexpr size_t kChunk = 16384;
  // Collect chunks backwards until N complete lines (N+1 newlines or start of file).
  while (end > 0) {
    size_t len = size_t(std::min<off_t>(end, off_t(kChunk)));
    std::string chunk(len, '\0');
    ssize_t got = ::pread(fd->get(), chunk.data(), len, end - off_t(len));
    if (got < 0) {
      if (errno == EINTR) continue;
      return sys_error("cannot read audit log", path, errno);
    }
    if (size_t(got) != len) return Error{"audit log changed while reading", path, 0, {}};
    end -= off_t(len);
    buf.insert(0, chunk);
    if (size_t(std::count(buf.begin(), buf.end(), '\n')) > n) break;
  }
  size_t stop = buf.size();
  if (stop > 0 && buf[stop - 1] == '\n') --stop;
  // A line may be empty, also the file's first ("\n\nx\n" is three lines, "\n" one):
  // the loop ends at the start of the file, not when `stop` reaches 0.
  while (!buf.empty() && out.size() < n) {
    size_t nl = stop == 0 ? std::string::npos : buf.rfind('\n', stop - 1);
    size_t start = nl == std::string::npos ? 0 : nl + 1;
    if (nl == std::string::npos && end > 0) break;  // partial first line: not needed
    out.push_back(buf.substr(start, stop - start));
    if (nl == std::string::npos) break;
    stop = nl;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

Result<std::vector<std::string>> search(const std::string& path, std::string_view word) {
  std::vector<std::string> out;
  auto fd = open_log(path);
  if (!fd) return fd.error();
  if (!*fd) return out;
  std::string pending;
  char buf[16384];
  for (;;) {
    ssize_t got = ::read(fd->get(), buf, sizeof buf);
    if (got < 0) {
      if (errno == EINTR) continue;
      return sys_error("cannot read audit log", path, errno);
    }
    if (got == 0) break;
    pending.append(buf, size_t(got));
    size_t start = 0;
    for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
      std::string_view line(pending.data() + start, nl - start);
      if (contains_nocase(line, word)) out.emplace_back(line);
    }
    pending.erase(0, start);
  }
  if (!pending.empty() && contains_nocase(pending, word)) out.push_back(pending);
  return out;
}

std::string render_text(const std::string& line) {
  Json j = Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return line;
  auto s = [&](const char* k) -> std::string {
    auto it = j.find(k);
    if (it == j.end() || it->is_null()) return "-";
    return it->is_string() ? it->get<std::string>() : it->dump();
  };
  std::string out = s("time") + " " + s("profile") + " " + s("decision") + " " + s("kind") + " " +
                    s("target");
  if (j.contains("key") && !j["key"].is_null()) out += " [" + s("key") + "]";
  if (j.contains("pid")) out += " pid=" + s("pid");
  if (j.contains("exit_status")) out += " status=" + s("exit_status");
  if (j.contains("problem")) out += " - " + s("problem");
  return out;
}

}  // namespace lash::audit
