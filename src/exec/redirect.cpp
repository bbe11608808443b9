#include "exec/redirect.h"

#include <algorithm>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "exec/output.h"
#include "exec/policy_gate.h"
#include "exec/shell.h"
#include "exec/fd_alias.h"
#include "exec/session_view.h"
#include "exec/user_files.h"

namespace lash::exec {
namespace {

// First fd used for the shell's own saved copies: fds 0-9 belong to the user.
constexpr int kFirstPrivateFd = 10;

bool parse_fd(const std::string& s, int& fd) {
  if (s.empty() || s.size() > 4) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  fd = v;
  return true;
}

int default_fd(ast::RedirOp op) {
  switch (op) {
    case ast::RedirOp::in:
    case ast::RedirOp::read_write:
    case ast::RedirOp::dup_in:
    case ast::RedirOp::heredoc:
    case ast::RedirOp::heredoc_strip:
    case ast::RedirOp::herestring: return 0;
    default: return 1;
  }
}

// "3: bad file descriptor", or for /dev/fd/3 served as a copy of fd 3, the name.
std::string bad_fd_error(const PlannedRedirect& r) {
  if (!r.path.empty()) return "cannot open " + r.path + ": " + std::strerror(EBADF);
  return std::to_string(r.from) + ": bad file descriptor";
}

}  // namespace

// lash's own descriptors are all close-on-exec; the script's are not (fds inherited
// from the invoker never are). A script must not hand lash's audit log, ruleset or
// broker socket to a program.
namespace {
std::vector<int> g_procsub_fds;  // this process's open process substitutions
std::vector<int> g_named_fds;    // fds {name}>file opened (>= 10, not close-on-exec)
}
const std::vector<int>& named_fds() { return g_named_fds; }
void note_procsub_fds(const std::vector<int>& fds) { g_procsub_fds = fds; }

bool script_fd(int fd) {
  if (fd >= kFirstPrivateFd && std::find(g_procsub_fds.begin(), g_procsub_fds.end(), fd) != g_procsub_fds.end())
    return true;  // a process substitution's pipe: the script named it
  if (fd >= kFirstPrivateFd && std::find(g_named_fds.begin(), g_named_fds.end(), fd) != g_named_fds.end())
    return true;  // {name}>file: the script opened it
  if (fd < 0 || fd >= kFirstPrivateFd) return false;
  int flags = ::fcntl(fd, F_GETFD);
  return flags >= 0 && !(flags & FD_CLOEXEC);
}

int shell_fd_named(const std::string& path) {
  if (path == "/dev/stdin") return 0;
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  int fd;
  constexpr std::string_view dev_fd = "/dev/fd/";
  if (path.compare(0, dev_fd.size(), dev_fd) != 0 || !parse_fd(path.substr(dev_fd.size()), fd)) return -1;
  return fd;
}

std::string redirect_error(const PlannedRedirect& r, int err);
int open_redirect_target(Shell& sh, const PlannedRedirect& r);
unique_fd heredoc_fd(const std::string& text);

namespace {

// bash's named descriptors: {name}>file opens FILE (through the same gate as any
// redirection) on the lowest free fd >= 10 and sets NAME to it; {name}>&- closes the
// fd NAME holds. Only fds the script opened this way (or 0-9) can be closed.
bool open_named_fd(Shell& sh, const std::string& name, const PlannedRedirect& p) {
  if (p.kind == PlannedRedirect::Kind::close) {
    const std::string* v = sh.vars.get(name);
    int fd = -1;
    if (!v || !parse_fd(*v, fd) || !script_fd(fd)) {
      sh.error(name + ": " + (v ? *v : std::string()) + ": bad file descriptor");
      return false;
    }
    ::close(fd);
    g_named_fds.erase(std::remove(g_named_fds.begin(), g_named_fds.end(), fd), g_named_fds.end());
    return true;
  }
  if (sh.gate) {
    // The same check as any command's redirection: done now, so checked now.
    SimplePlan rp;
    rp.redirects = {p};
    if (!gate_allows(sh, rp)) return false;
  }
  unique_fd opened;
  int src = -1;
  switch (p.kind) {
    case PlannedRedirect::Kind::open:
      opened.reset(open_redirect_target(sh, p));
      if (!opened) {
        sh.error(redirect_error(p, errno));
        return false;
      }
      src = opened.get();
      break;
    case PlannedRedirect::Kind::dup:
      if (!script_fd(p.from)) {
        sh.error(bad_fd_error(p));
        return false;
      }
      src = p.from;
      break;
    case PlannedRedirect::Kind::heredoc:
      opened = heredoc_fd(p.text);
      if (!opened) {
        sh.error(std::string("cannot create here-document: ") + std::strerror(errno));
        return false;
      }
      src = opened.get();
      break;
    default: return false;
  }
  int fd = ::fcntl(src, F_DUPFD, kFirstPrivateFd);  // inherited by commands, as in bash
  if (fd < 0) {
    sh.error(name + ": cannot allocate a file descriptor: " + std::strerror(errno));
    return false;
  }
  g_named_fds.push_back(fd);
  if (!sh.vars.set(name, std::to_string(fd))) {
    ::close(fd);
    g_named_fds.pop_back();
    sh.error(name + ": readonly variable");
    return false;
  }
  return true;
}
}  // namespace

bool plan_redirects(Shell& sh, const std::vector<ast::Redirect>& rs, std::vector<PlannedRedirect>& out) {
  for (const auto& r : rs) {
    PlannedRedirect p;
    p.op = r.op;
    p.fd = r.fd >= 0 ? r.fd : default_fd(r.op);
    switch (r.op) {
      case ast::RedirOp::heredoc:
      case ast::RedirOp::heredoc_strip:
        p.kind = PlannedRedirect::Kind::heredoc;
        p.text = sh.expand_heredoc(r);
        break;
      case ast::RedirOp::herestring:
        p.kind = PlannedRedirect::Kind::heredoc;
        p.text = sh.expand_string(r.target) + "\n";
        break;
      case ast::RedirOp::dup_in:
      case ast::RedirOp::dup_out: {
        bool was_dynamic = sh.dry_dynamic;
        sh.dry_dynamic = false;
        std::string t = sh.expand_string(r.target);
        bool dynamic = sh.dry_dynamic;
        sh.dry_dynamic = was_dynamic || dynamic;
        if (sh.dry && dynamic) {
          p.kind = PlannedRedirect::Kind::dup;  // which fd, only the run knows; no file opened
          p.from = p.fd;
        } else if (t == "-") {
          p.kind = PlannedRedirect::Kind::close;
        } else if (parse_fd(t, p.from)) {
          p.kind = PlannedRedirect::Kind::dup;
        } else {
          sh.error(t + ": bad fd number");
          return false;
        }
        break;
      }
      default: {
        p.kind = PlannedRedirect::Kind::open;
        bool was_dynamic = sh.dry_dynamic;
        sh.dry_dynamic = false;
        p.path = sh.expand_string(r.target);
        p.dynamic = sh.dry_dynamic;
        sh.dry_dynamic = was_dynamic || p.dynamic;
        // Also /proc/self/fd/N and a symlink to a descriptor (a link to
        // /dev/stderr), resolved here, before the policy looks at the path, which
        // would otherwise check the file behind stderr (fd_alias.h). Only such names
        // are walked: the others cost one lstat (none for /dev). A directory link on
        // the way (`ln -s /dev/fd fds; echo > fds/2`) is found when the broker
        // refuses it (open_user_path).
        int n = -1;
        // A name the session cannot see (another process's /proc/PID/fd/N) is neither
        // walked nor looked at: its open is ENOENT (open_user_path).
        bool hidden = !p.dynamic && view_hides(sh, p.path);
        if (sh.fd_names_are_shell_fds && !p.dynamic && !hidden) {
          n = shell_fd_named(p.path);
          struct stat lst;
          if (n < 0 && (p.path.compare(0, 6, "/proc/") == 0 ||
                        (p.path.compare(0, 5, "/dev/") != 0 && ::lstat(p.path.c_str(), &lst) == 0 &&
                         S_ISLNK(lst.st_mode))))
            n = fd_alias_target(p.path);
        }
        if (n >= 0) {
          // The script's own descriptor, as N>&M (redirect.h): checked and applied
          // as a dup, never opened by path.
          p.kind = PlannedRedirect::Kind::dup;
          p.from = n;
          if (r.op == ast::RedirOp::out_err || r.op == ast::RedirOp::append_err) {
            PlannedRedirect first = p;
            first.fd = 1;
            out.push_back(std::move(first));
            p.fd = 2;
          }
          break;
        }
        switch (r.op) {
          case ast::RedirOp::in: p.flags = O_RDONLY; break;
          case ast::RedirOp::out: p.flags = O_WRONLY | O_CREAT | O_TRUNC; break;
          case ast::RedirOp::clobber: p.flags = O_WRONLY | O_CREAT | O_TRUNC; break;
          case ast::RedirOp::append: p.flags = O_WRONLY | O_CREAT | O_APPEND; break;
          case ast::RedirOp::read_write: p.flags = O_RDWR | O_CREAT; break;
          case ast::RedirOp::out_err:
            p.flags = O_WRONLY | O_CREAT | O_TRUNC;
            p.both = true;
            break;
          case ast::RedirOp::append_err:
            p.flags = O_WRONLY | O_CREAT | O_APPEND;
            p.both = true;
            break;
          default: break;
        }
        if (r.op == ast::RedirOp::out || r.op == ast::RedirOp::out_err) {
          // noclobber: refuse to truncate an existing regular file.
          if (sh.opt.noclobber) {
            struct stat st;
            if (!hidden && ::stat(p.path.c_str(), &st) == 0) {
              if (S_ISREG(st.st_mode)) {
                sh.error(redirect_error(p, EEXIST));
                return false;
              }
              p.flags &= ~(O_CREAT | O_TRUNC);
            } else {
              p.flags |= O_EXCL;
            }
          }
        }
        break;
      }
    }
    if (!r.fd_var.empty() && !sh.dry) {
      // {name}>file: done now and kept, as bash keeps it after the command (the dry
      // run plans it as a redirection of its own and does not do it).
      if (!open_named_fd(sh, r.fd_var, p)) return false;
      continue;
    }
    out.push_back(std::move(p));
  }
  return true;
}

std::string redirect_error(const PlannedRedirect& r, int err) {
  const char* verb = (r.flags & (O_WRONLY | O_RDWR)) ? "cannot create " : "cannot open ";
  return std::string(verb) + r.path + ": " + std::strerror(err);
}

int open_redirect_target(Shell& sh, const PlannedRedirect& r) {
  int fd = open_user_path(sh, r.path, r.flags);
  if (fd < 0 && !sh.services().refusal().empty()) {  // fails closed there: say why
    int err = errno;
    report_sandbox_refusal(sh, "open '" + r.path + "'");
    errno = err;
  }
  return fd;
}

unique_fd heredoc_fd(const std::string& text) {
  // Small bodies fit in a pipe's buffer; larger ones go to an unnamed temporary file.
  if (text.size() <= 65536) {
    int p[2];
    if (::pipe2(p, O_CLOEXEC) == 0) {
      unique_fd rd(p[0]), wr(p[1]);
      if (write_all(wr.get(), text)) return rd;
    }
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? tmp : "/tmp";
  unique_fd fd(::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
  if (!fd) {
    // No O_TMPFILE support: a named file unlinked at once.
    std::string templ = dir + "/lash-heredoc-XXXXXX";
    int f = ::mkostemp(templ.data(), O_CLOEXEC);
    if (f < 0) return unique_fd();
    ::unlink(templ.c_str());
    fd.reset(f);
  }
  if (!write_all(fd.get(), text) || ::lseek(fd.get(), 0, SEEK_SET) < 0) return unique_fd();
  return fd;
}

bool FdSaver::save(int fd) {
  for (auto& s : saved_)
    if (s.fd == fd) return true;
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, kFirstPrivateFd);
  if (copy < 0 && errno != EBADF) {
    // Kept anyway (`exec >f`): the copy only served to undo the redirections of a
    // failed `exec`, which then leaves this one in place.
    if (permanent_) return true;
    // EINVAL: RLIMIT_NOFILE is at or below the private range; EMFILE: no fd left.
    errno = EMFILE;
    return false;
  }
  saved_.push_back({fd, copy});  // -1: FD was closed, restored by closing it
  return true;
}

void FdSaver::restore() {
  for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
    if (it->copy >= 0) {
      // Cannot fail for two open descriptors but EINTR/EBUSY races; then the shell's
      // own descriptor stays redirected, which it must say.
      int rc;
      do rc = ::dup2(it->copy, it->fd);
      while (rc < 0 && (errno == EINTR || errno == EBUSY));
      if (rc < 0) {
        std::string msg = "lash: cannot restore descriptor " + std::to_string(it->fd) + ": " + std::strerror(errno) + "\n";
        (void)!::write(2, msg.data(), msg.size());
      }
      ::close(it->copy);
    } else {
      ::close(it->fd);
    }
  }
  saved_.clear();
}

void FdSaver::keep() {
  for (auto& s : saved_)
    if (s.copy >= 0) ::close(s.copy);
  saved_.clear();
}

namespace {
// FdSaver::save failed for FD (no copy of it could be made): it stays as it was.
std::string save_error(int fd) { return "cannot redirect fd " + std::to_string(fd) + ": " + std::strerror(EMFILE); }

// Puts `src` on `target` in this process; src is consumed.
bool install_fd(int src, int target) {
  if (src == target) {
    // Opened straight onto the wanted number: it must survive exec.
    return ::fcntl(target, F_SETFD, 0) == 0;
  }
  int rc;
  do {
    rc = ::dup2(src, target);
  } while (rc < 0 && errno == EINTR);
  ::close(src);
  return rc >= 0;
}
}  // namespace

bool apply_redirects(Shell& sh, const std::vector<PlannedRedirect>& rs, FdSaver& saver) {
  sh.out().flush();
  sh.err().flush();
  for (const auto& r : rs) {
    switch (r.kind) {
      case PlannedRedirect::Kind::open: {
        int fd = open_redirect_target(sh, r);
        if (fd < 0) {
          sh.error(redirect_error(r, errno));
          return false;
        }
        if (int unsaved = !saver.save(r.fd) ? r.fd : r.both && !saver.save(2) ? 2 : -1; unsaved >= 0) {
          ::close(fd);
          sh.error(save_error(unsaved));
          return false;
        }
        if (r.both && ::dup2(fd, 2) < 0) {
          ::close(fd);
          return false;
        }
        if (!install_fd(fd, r.fd)) {
          sh.error(redirect_error(r, errno));
          return false;
        }
        break;
      }
      case PlannedRedirect::Kind::dup: {
        if (!script_fd(r.from)) {
          sh.error(bad_fd_error(r));
          return false;
        }
        if (r.from == r.fd) break;  // N>&N: only the check
        if (!saver.save(r.fd)) {
          sh.error(save_error(r.fd));
          return false;
        }
        if (::dup2(r.from, r.fd) < 0) {
          sh.error(std::to_string(r.from) + ": " + std::strerror(errno));
          return false;
        }
        break;
      }
      case PlannedRedirect::Kind::close:
        if (!saver.save(r.fd)) {
          sh.error(save_error(r.fd));
          return false;
        }
        ::close(r.fd);
        break;
      case PlannedRedirect::Kind::heredoc: {
        unique_fd fd = heredoc_fd(r.text);
        if (!fd) {
          sh.error(std::string("cannot create here-document: ") + std::strerror(errno));
          return false;
        }
        if (!saver.save(r.fd)) {
          sh.error(save_error(r.fd));
          return false;
        }
        if (!install_fd(fd.release(), r.fd)) return false;
        break;
      }
    }
  }
  return true;
}

bool redirects_to_fd_ops(Shell& sh, const std::vector<PlannedRedirect>& rs,
                         std::vector<sandbox::FdOp>& ops, std::vector<unique_fd>& keep) {
  using K = sandbox::FdOp::Kind;
  // These steps run later, in the child, in order: an fd an earlier step sets up
  // (`3>f 1>&3`, `3>&1 1>&2 2>&3`) is a valid source there although lash has no such
  // fd; one an earlier step closed is not. Others must be the script's own (script_fd).
  enum class Earlier { untouched, set, closed };
  Earlier earlier[kFirstPrivateFd] = {};
  auto mark = [&](int fd, Earlier e) {
    if (fd >= 0 && fd < kFirstPrivateFd) earlier[fd] = e;
  };
  for (const auto& r : rs) {
    switch (r.kind) {
      case PlannedRedirect::Kind::open:
        ops.push_back({K::open, r.fd, r.path, r.flags, -1});
        mark(r.fd, Earlier::set);
        if (r.both) {
          ops.push_back({K::dup, 2, {}, 0, r.fd});
          mark(2, Earlier::set);
        }
        break;
      case PlannedRedirect::Kind::dup: {
        bool ok = (r.from >= 0 && r.from < kFirstPrivateFd &&
                   (earlier[r.from] == Earlier::set || (earlier[r.from] == Earlier::untouched && script_fd(r.from)))) ||
                  (r.from >= kFirstPrivateFd && script_fd(r.from));  // a {name}>file or <(list) fd
        if (!ok) {
          sh.error(bad_fd_error(r));
          return false;
        }
        ops.push_back({K::dup, r.fd, {}, 0, r.from});
        mark(r.fd, Earlier::set);
        break;
      }
      case PlannedRedirect::Kind::close:
        ops.push_back({K::close, r.fd, {}, 0, -1});
        mark(r.fd, Earlier::closed);
        break;
      case PlannedRedirect::Kind::heredoc: {
        unique_fd fd = heredoc_fd(r.text);
        if (!fd) {
          sh.error(std::string("cannot create here-document: ") + std::strerror(errno));
          return false;
        }
        // Move the body fd out of the user's range so a later step cannot clobber it.
        if (fd.get() < kFirstPrivateFd) {
          int hi = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, kFirstPrivateFd);
          if (hi < 0) return false;
          fd.reset(hi);
        }
        ops.push_back({K::dup, r.fd, {}, 0, fd.get()});
        mark(r.fd, Earlier::set);
        keep.push_back(std::move(fd));
        break;
      }
    }
  }
  return true;
}

}  // namespace lash::exec
