#include "interactive/inputrc.h"

#include <cctype>

#include "base/strutil.h"
#include "exec/output.h"
#include "exec/shell.h"
#include "exec/user_files.h"

namespace lash::interactive {

namespace {

constexpr int kMaxDepth = 8;
constexpr size_t kMaxBytes = 1 << 20;

std::string var_or_env(exec::Shell& sh, const char* name) {
  const std::string* v = sh.vars.get(name);
  return v ? *v : std::string();
}

// readline's own rules for an include's name: ~/ is $HOME, a relative name is
// relative to the file that names it.
std::string include_path(exec::Shell& sh, std::string name, const std::string& from) {
  if (name.size() >= 2 && name[0] == '~' && name[1] == '/') return var_or_env(sh, "HOME") + name.substr(1);
  if (!name.empty() && name[0] != '/') {
    size_t slash = from.rfind('/');
    if (slash != std::string::npos) return from.substr(0, slash + 1) + name;
  }
  return name;
}

// Appends TEXT (the file PATH) to OUT, its includes expanded.
void expand(exec::Shell& sh, const std::string& path, const std::string& text, int depth, std::string& out) {
  for (auto& line : str::split(text, '\n')) {
    std::string_view t = str::trim(line);
    // readline matches directive names without regard to case: so does this.
    std::string head(t.substr(0, 8));
    for (char& c : head) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (head == "$include" && (t.size() == 8 || t[8] == ' ' || t[8] == '\t')) {
      std::string name(str::trim(t.substr(8)));
      if (name.empty()) continue;
      std::string target = include_path(sh, name, path);
      std::string body;
      size_t room = out.size() < kMaxBytes ? kMaxBytes - out.size() : 0;
      if (depth >= kMaxDepth || room == 0 || exec::read_user_regular_file(sh, target, body, room) != 0) {
        exec::write_all(2, "lash: inputrc: $include " + target + ": not read (skipped)\n");
        continue;
      }
      expand(sh, target, body, depth + 1, out);
      continue;
    }
    if (out.size() + line.size() + 1 > kMaxBytes) return;
    out.append(line);
    out += '\n';
  }
}

}  // namespace

std::string load_inputrc(exec::Shell& sh) {
  std::string out = "# lash: the init file, as the session's profile lets lash read it\n";
  // As readline: INPUTRC when set, else ~/.inputrc, else /etc/inputrc.
  std::string path = var_or_env(sh, "INPUTRC");
  std::string text;
  int err = -1;
  if (!path.empty()) {
    err = exec::read_user_regular_file(sh, path, text, kMaxBytes);
  } else {
    std::string home = var_or_env(sh, "HOME");
    if (!home.empty()) {
      path = home + "/.inputrc";
      err = exec::read_user_regular_file(sh, path, text, kMaxBytes);
    }
    if (err != 0) {
      path = "/etc/inputrc";
      text.clear();
      err = exec::read_user_regular_file(sh, path, text, kMaxBytes);
    }
  }
  if (err == 0) expand(sh, path, text, 0, out);
  return out;
}

}  // namespace lash::interactive
