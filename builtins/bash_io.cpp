// bash's input builtins beyond read: mapfile (readarray), which reads lines into an
// indexed array. They read the shell's own descriptors and change only variables.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "base/strutil.h"
#include "builtins/families.h"
#include "exec/shell.h"
#include "syntax/parser.h"

namespace lash::builtins {
using exec::Shell;

namespace {

// mapfile [-d DELIM] [-n COUNT] [-O ORIGIN] [-s SKIP] [-t] [-u FD] [ARRAY]
int bi_mapfile(Shell& sh, std::vector<std::string>& argv) {
  char delim = '\n';
  long count = 0, origin = -1, skip = 0;
  bool trim = false;
  int fd = 0;
  size_t i = 1;
  const std::string me = argv[0];
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    for (size_t k = 1; k < argv[i].size(); ++k) {
      char c = argv[i][k];
      if (c == 't') {
        trim = true;
        continue;
      }
      if (std::strchr("dnOsuCc", c) == nullptr) {
        sh.error(me + ": -" + std::string(1, c) + ": invalid option");
        sh.error(me + ": usage: " + me + " [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [array]");
        return 2;
      }
      std::string val;
      if (k + 1 < argv[i].size()) val = argv[i].substr(k + 1);
      else if (i + 1 < argv.size()) val = argv[++i];
      else {
        sh.error(me + ": -" + std::string(1, c) + ": option requires an argument");
        return 2;
      }
      if (c == 'd') {
        delim = val.empty() ? '\0' : val[0];
      } else if (c != 'C') {
        auto v = str::parse_int(val);
        if (!v || *v < 0) {
          sh.error(me + ": " + val + ": invalid " + (c == 'u' ? "file descriptor specification" : "number"));
          return 1;
        }
        if (c == 'n') count = long(*v);
        else if (c == 'O') origin = long(*v);
        else if (c == 's') skip = long(*v);
        else if (c == 'u') fd = int(*v);
      }
      break;
    }
  }
  std::string name = i < argv.size() ? argv[i] : "MAPFILE";
  if (!syntax::is_name(name)) {
    sh.error(me + ": `" + name + "': not a valid identifier");
    return 1;
  }
  if (::fcntl(fd, F_GETFD) < 0) {
    sh.error(me + ": " + std::to_string(fd) + ": invalid file descriptor: Bad file descriptor");
    return 1;
  }
  // Without -O the array starts empty; with it, lines go from ORIGIN on.
  if (origin < 0) {
    if (!sh.set_array(name, {})) {
      if (sh.vars.last_refused) return 126;
      sh.error(me + ": " + name + ": read-only variable");
      return 1;
    }
    origin = 0;
  }
  // With a count, read a byte at a time so the input after the last line is left
  // for the next reader (as bash does on a pipe); otherwise in blocks.
  std::string pending;
  char buf[4096];
  bool eof = false;
  long stored = 0, seen = 0;
  size_t start = 0;
  auto next_line = [&](std::string& line) -> bool {
    for (;;) {
      size_t nl = pending.find(delim, start);
      if (nl != std::string::npos) {
        line.assign(pending, start, nl - start + (trim ? 0 : 1));
        start = nl + 1;
        return true;
      }
      if (eof) {
        if (start >= pending.size()) return false;
        line.assign(pending, start, std::string::npos);
        start = pending.size();
        return true;
      }
      if (start > 0) {
        pending.erase(0, start);
        start = 0;
      }
      ssize_t n = ::read(fd, buf, count > 0 ? 1 : sizeof buf);
      if (n < 0 && errno == EINTR) {
        if (exec::g_pending_any) sh.run_pending_traps();
        continue;
      }
      if (n <= 0) {
        eof = true;
        continue;
      }
      pending.append(buf, size_t(n));
    }
  };
  std::string line;
  while ((count == 0 || stored < count) && next_line(line)) {
    if (seen++ < skip) continue;
    if (delim != '\0') {  // bash drops NUL bytes
      line.erase(std::remove(line.begin(), line.end(), '\0'), line.end());
    }
    if (!sh.set_element(name, std::to_string(origin + stored), line)) {
      if (sh.vars.last_refused) return 126;
      sh.error(me + ": " + name + ": read-only variable");
      return 1;
    }
    ++stored;
  }
  return 0;
}

// mapfile changes only the array it names (arrays are never exported).
using exec::no_effects;
using K = exec::BuiltinKind;
constexpr exec::BuiltinDef kBashIo[] = {
    {"mapfile", bi_mapfile, no_effects, K::regular, "read lines into an indexed array"},
    {"readarray", bi_mapfile, no_effects, K::regular, "read lines into an indexed array (mapfile)"},
};

}  // namespace

void register_bash_io() { exec::register_builtins(kBashIo); }

}  // namespace lash::builtins
