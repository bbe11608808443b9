// Session builtins: cd pwd umask ulimit times.
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "base/process_caps.h"
#include "base/strutil.h"
#include "builtins/families.h"
#include "builtins/umask_mode.h"
#include "exec/session_view.h"
#include "exec/session.h"
#include "exec/shell.h"
#include "exec/stack_guard.h"

namespace lash::builtins {
using exec::Shell;

namespace {

// Lexically canonical absolute path: removes ., .., and repeated slashes.
std::string canonical(const std::string& path) {
  std::vector<std::string> parts;
  for (auto& p : str::split(path, '/')) {
    if (p.empty() || p == ".") continue;
    if (p == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(p);
  }
  std::string out;
  for (auto& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

std::string physical_cwd() {
  char buf[PATH_MAX];
  if (!::getcwd(buf, sizeof buf)) return {};
  return buf;
}

// $PWD if it names the current directory, else the physical path. A $PWD the session
// cannot see (another process's /proc/PID/cwd) is not compared: that would tell
// whether that process is in the same directory.
std::string logical_cwd(Shell& sh) {
  const std::string* pwd = sh.vars.get("PWD");
  if (pwd && !pwd->empty() && (*pwd)[0] == '/' && !exec::view_hides(sh, *pwd)) {
    struct stat a, b;
    if (::stat(pwd->c_str(), &a) == 0 && ::stat(".", &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
      return *pwd;
  }
  return physical_cwd();
}

int bi_cd(Shell& sh, std::vector<std::string>& argv) {
  bool physical = false;
  size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    if (argv[i] == "-P")
      physical = true;
    else if (argv[i] == "-L")
      physical = false;
    else
      break;
  }
  std::string dir;
  bool print = false;
  if (i >= argv.size()) {
    const std::string* home = sh.vars.get("HOME");
    if (!home || home->empty()) {
      sh.error("cd: HOME not set");
      return 2;
    }
    dir = *home;
  } else if (argv[i] == "-") {
    const std::string* old = sh.vars.get("OLDPWD");
    if (!old) {
      sh.error("cd: OLDPWD not set");
      return 2;
    }
    dir = *old;
    print = true;
  } else {
    dir = argv[i];
  }
  std::string pwd = logical_cwd(sh);

  std::vector<std::string> candidates;
  bool relative_search = !dir.empty() && dir[0] != '/' && dir.substr(0, 2) != "./" && dir != "." &&
                         dir.substr(0, 3) != "../" && dir != "..";
  const std::string* cdpath = sh.vars.get("CDPATH");
  if (relative_search && cdpath) {
    for (auto& c : str::split(*cdpath, ':')) {
      if (c.empty())
        candidates.push_back(dir);
      else
        candidates.push_back(c + "/" + dir);
    }
  }
  candidates.push_back(dir);
  for (size_t k = 0; k < candidates.size(); ++k) {
    const std::string& cand = candidates[k];
    std::string target = cand[0] == '/' ? cand : pwd + "/" + cand;
    std::string logical = canonical(target);
    const std::string& go = physical ? cand : logical;
    // As a program of the session would find it (session_view.h): another process's
    // /proc entries do not exist there, so `pwd -P` cannot name what is behind them.
    if (exec::view_chdir(sh, go) != 0) continue;
    std::string newpwd = physical ? physical_cwd() : logical;
    sh.vars.set("OLDPWD", pwd);
    sh.vars.set("PWD", newpwd);
    bool via_cdpath = k + 1 < candidates.size() && cand != dir;
    if (print || via_cdpath) sh.out() << newpwd << '\n';
    exec::suggest_after_cd(sh);  // profile.auto_detect: another repository root
    return 0;
  }
  sh.error("cd: can't cd to " + dir);
  return 2;
}

// cd changes no variable the policy decides (PWD and OLDPWD are the shell's own), but
// later relative paths are resolved against a directory only the run knows.
exec::BuiltinEffects cd_effects(Shell&, const std::vector<std::string>&) {
  exec::BuiltinEffects e;
  e.walk.changes_cwd = true;
  return e;
}

int bi_pwd(Shell& sh, std::vector<std::string>& argv) {
  bool physical = false;
  for (size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "-P")
      physical = true;
    else if (argv[i] == "-L")
      physical = false;
    else {
      sh.error("pwd: Illegal option " + argv[i]);
      return 2;
    }
  }
  std::string out = physical ? physical_cwd() : logical_cwd(sh);
  if (out.empty()) {
    sh.error(std::string("pwd: ") + std::strerror(errno));
    return 1;
  }
  sh.out() << out << '\n';
  return 0;
}

// ---- umask ---------------------------------------------------------------------

int bi_umask(Shell& sh, std::vector<std::string>& argv) {
  bool symbolic = false;
  size_t i = 1;
  if (i < argv.size() && argv[i] == "-S") {
    symbolic = true;
    ++i;
  }
  mode_t cur = ::umask(0);
  ::umask(cur);
  if (i >= argv.size()) {
    if (symbolic) {
      sh.out() << umask_symbolic_text(cur) << '\n';
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "%04o", unsigned(cur));
      sh.out() << buf << '\n';
    }
    return 0;
  }
  // dash: a leading digit means an octal mask, anything else a symbolic mode.
  const std::string& m = argv[i];
  std::optional<mode_t> mask;
  if (!m.empty() && m[0] >= '0' && m[0] <= '9') {
    mask = umask_parse_octal(m);
    if (!mask) {
      sh.error("umask: Illegal number: " + m);
      return 2;
    }
  } else {
    mask = umask_apply_symbolic(m, cur);
    if (!mask) {
      sh.error("umask: Illegal mode: " + m);
      return 2;
    }
  }
  ::umask(*mask);
  return 0;
}

// ---- ulimit --------------------------------------------------------------------

struct Limit {
  char opt;
  int resource;
  int factor;
  const char* name;
};
constexpr Limit kLimits[] = {
    {'t', RLIMIT_CPU, 1, "time(seconds)"},          {'f', RLIMIT_FSIZE, 512, "file(blocks)"},
    {'d', RLIMIT_DATA, 1024, "data(kbytes)"},       {'s', RLIMIT_STACK, 1024, "stack(kbytes)"},
    {'c', RLIMIT_CORE, 512, "coredump(blocks)"},    {'m', RLIMIT_RSS, 1024, "memory(kbytes)"},
    {'l', RLIMIT_MEMLOCK, 1024, "locked memory(kbytes)"}, {'p', RLIMIT_NPROC, 1, "process"},
    {'n', RLIMIT_NOFILE, 1, "nofiles"},             {'v', RLIMIT_AS, 1024, "vmemory(kbytes)"},
    {'w', RLIMIT_LOCKS, 1, "locks"},                {'r', RLIMIT_RTPRIO, 1, "rtprio"},
};

std::string limit_text(rlim_t v, int factor) {
  if (v == RLIM_INFINITY) return "unlimited";
  return std::to_string(v / rlim_t(factor));
}

// The limits as the script sees them: in a session that keeps an audit log, the
// file-size hard limit the script asked for (Shell::script_file_size_hard) stands in
// for the shell's own, which stays higher for lash's writes.
bool getrlimit_seen(Shell& sh, int resource, struct rlimit* rl) {
  if (::getrlimit(resource, rl) != 0) return false;
  if (resource == RLIMIT_FSIZE) rl->rlim_max = std::min(rl->rlim_max, sh.script_file_size_hard);
  return true;
}

// Sets the file-size limit where the shell keeps its own hard one: the hard value
// asked for is kept for the programs it starts, the shell's soft limit (all that holds
// the script's own builtin writes) goes down to it. Raising the kept hard value needs
// CAP_SYS_RESOURCE, as raising a hard limit does.
int set_file_size_kept(Shell& sh, rlim_t v, bool set_soft, bool set_hard) {
  struct rlimit own;
  if (::getrlimit(RLIMIT_FSIZE, &own) != 0) {
    sh.error(std::string("ulimit: ") + std::strerror(errno));
    return 2;
  }
  rlim_t hard = std::min(own.rlim_max, sh.script_file_size_hard);
  if (set_hard) {
    if (v > hard && !has_capability(CAP_SYS_RESOURCE)) {
      sh.error(std::string("ulimit: error setting limit (") + std::strerror(EPERM) + ")");
      return 2;
    }
    hard = v;
  }
  rlim_t soft = set_soft ? v : own.rlim_cur;  // -H alone below the soft limit: EINVAL, as setrlimit
  if (soft > hard) {
    sh.error(std::string("ulimit: error setting limit (") + std::strerror(EINVAL) + ")");
    return 2;
  }
  struct rlimit mine = {soft, std::max(own.rlim_max, hard)};  // a root raise goes through
  if (::setrlimit(RLIMIT_FSIZE, &mine) != 0) {
    sh.error(std::string("ulimit: error setting limit (") + std::strerror(errno) + ")");
    return 2;
  }
  sh.script_file_size_hard = hard >= mine.rlim_max ? RLIM_INFINITY : hard;
  return 0;
}

int bi_ulimit(Shell& sh, std::vector<std::string>& argv) {
  bool hard = false, soft = false, all = false;
  const Limit* which = &kLimits[1];  // -f is the default
  size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    for (size_t k = 1; k < argv[i].size(); ++k) {
      char c = argv[i][k];
      if (c == 'H') hard = true, soft = false;  // the last of -H/-S wins, as in dash
      else if (c == 'S') soft = true, hard = false;
      else if (c == 'a') all = true;
      else {
        const Limit* found = nullptr;
        for (auto& l : kLimits)
          if (l.opt == c) found = &l;
        if (!found) {
          sh.error(std::string("ulimit: Illegal option -") + c);
          return 2;
        }
        which = found;
      }
    }
  }
  // Shown: the soft limit unless -H alone; set: both unless -H or -S (as dash).
  const bool set_hard = hard || !soft;
  const bool set_soft = soft || !hard;
  if (!hard && !soft) soft = true;
  if (all) {
    for (auto& l : kLimits) {
      struct rlimit rl;
      if (!getrlimit_seen(sh, l.resource, &rl)) continue;
      char head[40];
      std::snprintf(head, sizeof head, "%-20s ", l.name);
      sh.out() << head << limit_text(hard && !soft ? rl.rlim_max : rl.rlim_cur, l.factor) << '\n';
    }
    return 0;
  }
  struct rlimit rl;
  if (!getrlimit_seen(sh, which->resource, &rl)) {
    sh.error(std::string("ulimit: ") + std::strerror(errno));
    return 2;
  }
  if (i >= argv.size()) {
    sh.out() << limit_text(soft ? rl.rlim_cur : rl.rlim_max, which->factor) << '\n';
    return 0;
  }
  if (i + 1 < argv.size()) {
    sh.error("ulimit: too many arguments");
    return 2;
  }
  rlim_t v;
  if (argv[i] == "unlimited") {
    v = RLIM_INFINITY;
  } else {
    auto n = str::parse_int(argv[i]);
    if (!n || *n < 0) {
      sh.error("ulimit: bad number");
      return 2;
    }
    v = rlim_t(*n) * rlim_t(which->factor);
  }
  if (which->resource == RLIMIT_FSIZE && v > sh.file_size_cap && (set_soft || set_hard)) {
    // The soft limit is all that holds the shell's own writes to max_file_size.
    sh.error("ulimit: the session's profile limits file size to " + std::to_string(sh.file_size_cap / which->factor) +
             " blocks");
    return 2;
  }
  if (which->resource == RLIMIT_FSIZE && sh.keeps_own_file_size_hard) return set_file_size_kept(sh, v, set_soft, set_hard);
  // The session's sandbox is made on first use, and making it opens lash's own
  // descriptors (broker, watchdog, ruleset): under a lowered limit that would fail and
  // refuse every program. Made now, while the descriptors are there to be had.
  if (which->resource == RLIMIT_NOFILE && v < rl.rlim_cur) (void)sh.prepared();
  if (set_hard) rl.rlim_max = v;
  if (set_soft) rl.rlim_cur = v;
  if (::setrlimit(which->resource, &rl) != 0) {
    sh.error(std::string("ulimit: error setting limit (") + std::strerror(errno) + ")");
    return 2;
  }
  // The recursion guard measures against the stack limit in force, this one now.
  if (which->resource == RLIMIT_STACK) exec::stack_limit_changed();
  return 0;
}

int bi_times(Shell& sh, std::vector<std::string>&) {
  struct tms t;
  ::times(&t);
  long hz = ::sysconf(_SC_CLK_TCK);
  auto fmt = [&](clock_t c) {
    char buf[48];
    double s = double(c) / double(hz);
    int m = int(s / 60);
    std::snprintf(buf, sizeof buf, "%dm%.6fs", m, s - m * 60);
    return std::string(buf);
  };
  sh.out() << fmt(t.tms_utime) << ' ' << fmt(t.tms_stime) << '\n'
           << fmt(t.tms_cutime) << ' ' << fmt(t.tms_cstime) << '\n';
  return 0;
}

// pwd, times, ulimit and umask change only the shell's own process state (its limits
// are inherited by the sandbox, never raised past the profile's: bi_ulimit).
using exec::no_effects;
using K = exec::BuiltinKind;
constexpr exec::BuiltinDef kSession[] = {
    {"cd", bi_cd, cd_effects, K::regular, "change the working directory"},
    {"pwd", bi_pwd, no_effects, K::regular, "print the working directory"},
    {"times", bi_times, no_effects, K::special, "process times"},
    {"ulimit", bi_ulimit, no_effects, K::regular, "resource limits"},
    {"umask", bi_umask, no_effects, K::regular, "file creation mask"},
};

}  // namespace

void register_session() { exec::register_builtins(kSession); }

}  // namespace lash::builtins
