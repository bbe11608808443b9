// Shell life cycle: reading and running source text, eval, command substitution,
// ending the shell and its subshells.
#include "exec/shell.h"
#include "exec/stack_guard.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "exec/interp.h"
#include "exec/output.h"
#include "exec/redirect.h"
#include "sandbox/launch.h"
#include "syntax/parser.h"

namespace lash::exec {

namespace {
Shell* g_shell = nullptr;
constexpr size_t kMaxSubstOutput = size_t(1) << 30;  // 1 GiB of $(...) output
}  // namespace

Shell* current_shell() { return g_shell; }

Shell::Shell() {
  g_shell = this;
  shell_pid = ::getpid();
}

Shell::~Shell() {
  if (g_shell == this) g_shell = nullptr;
}

void Shell::error(std::string_view msg) {
  out_.flush();
  std::string text = "lash: ";
  if (!opt.interactive && line > 0) {
    text += source_name;
    text += ':';
    text += std::to_string(line);
    text += ": ";
  }
  text += msg;
  text += '\n';
  err_.flush();
  write_all(2, text);
}

bool Shell::assign(std::string_view name, std::string value) {
  if (const Var* v = vars.find(name); v && (v->flags & (Var::integer | Var::lower | Var::upper))) {
    // declare -i / -l / -u (bash): the value is evaluated or re-cased first.
    if (v->flags & Var::integer) value = std::to_string(arith_value(value));
    for (auto& c : value) {
      if (v->flags & Var::lower) c = char(std::tolower(static_cast<unsigned char>(c)));
      if (v->flags & Var::upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  if (vars.set(name, std::move(value))) return true;
  if (!vars.last_refused) error(std::string(name) + ": is read only");  // a refusal printed its own lines
  return false;
}

std::string Shell::dollar_dash() const {
  std::string s;
  if (opt.allexport) s += 'a';
  if (opt.noclobber) s += 'C';
  if (opt.errexit) s += 'e';
  if (opt.noglob) s += 'f';
  if (opt.interactive) s += 'i';
  if (opt.monitor) s += 'm';
  if (opt.noexec) s += 'n';
  if (opt.stdin_cmds) s += 's';
  if (opt.nounset) s += 'u';
  if (opt.verbose) s += 'v';
  if (opt.xtrace) s += 'x';
  return s;
}

void Shell::flush_all() {
  out_.flush();
  err_.flush();
}

void Shell::run_exit_trap() {
  if (!trap_set[0] || traps[0].empty()) return;
  std::string action = std::move(traps[0]);
  traps[0].clear();
  trap_set[0] = false;
  int saved = status;
  ctl = Ctl::none;
  try {
    eval_string(action, "trap");
  } catch (const FatalError& e) {
    if (!e.message.empty()) error(e.message);
  }
  if (ctl != Ctl::exit) status = saved;
}

void Shell::exit_shell(int st) {
  status = st;
  run_exit_trap();
  if (ctl == Ctl::exit) st = exit_status_for_ctl;
  flush_all();
  if (exit_hook && !in_subshell) exit_hook();
  ::_exit(st & 0xff);
}

void Shell::child_exit(int st) {
  status = st;
  run_exit_trap();
  if (ctl == Ctl::exit) st = exit_status_for_ctl;
  flush_all();
  ::_exit(st & 0xff);
}

int Shell::run_text(std::string_view text, const std::string& filename, uint32_t first_line) {
  syntax::ParseOptions po;
  po.max_stack_bytes = std::min(po.max_stack_bytes, stack_bytes_left());
  po.extensions = !opt.posix;
  po.filename = filename;
  po.text_is_complete = true;  // the whole script or string: its end is the real end
  po.first_line = first_line;
  po.alias = [this](std::string_view name) -> const std::string* {
    if (!opt.expand_aliases) return nullptr;
    auto it = aliases.find(name);
    return it == aliases.end() ? nullptr : &it->second;
  };
  std::string saved_name = source_name;
  source_name = filename;
  syntax::Parser parser(text, po);
  int st = 0;
  for (;;) {
    auto item = parser.next();
    if (item.kind == syntax::Parser::Item::Kind::end) break;
    if (item.kind == syntax::Parser::Item::Kind::error) {
      flush_all();
      write_all(2, "lash: " + item.error.render() + "\n");
      st = status = 2;
      if (!opt.interactive) {
        source_name = saved_name;
        if (call_depth == 0 && !in_trap) exit_shell(2);
        throw FatalError{"", 2};
      }
      break;
    }
    if (opt.verbose) {
      flush_all();
      // -v echoes input as it is read.
      auto& r = item.command->range;
      if (r.end > r.begin && r.end <= text.size()) write_all(2, text.substr(r.begin, r.end - r.begin));
    }
    if (opt.noexec) continue;
    try {
      st = memory_guarded([&] { return eval_list(*item.command); });
    } catch (const FatalError& e) {
      if (!e.message.empty()) error(e.message);
      st = status = e.status;
      if (!opt.interactive) {
        source_name = saved_name;
        if (call_depth == 0 && !in_subshell && !in_trap) exit_shell(e.status);
        throw;
      }
    }
    if (ctl != Ctl::none) break;
  }
  source_name = saved_name;
  return st;
}

int Shell::eval_string(std::string_view text, const std::string& filename) {
  if (call_depth >= kMaxCallDepth) throw FatalError{"eval/source nesting limit reached", 2};
  ++call_depth;
  struct Dec {
    int& d;
    ~Dec() { --d; }
  } dec{call_depth};
  // Parse the whole text first: a syntax error in eval runs nothing (as dash).
  syntax::ParseOptions po;
  po.max_stack_bytes = std::min(po.max_stack_bytes, stack_bytes_left());
  po.extensions = !opt.posix;
  po.filename = filename;
  po.first_line = line ? line : 1;
  po.alias = [this](std::string_view name) -> const std::string* {
    if (!opt.expand_aliases) return nullptr;
    auto it = aliases.find(name);
    return it == aliases.end() ? nullptr : &it->second;
  };
  auto r = syntax::parse(text, po);
  if (r.error) {
    flush_all();
    write_all(2, "lash: " + r.error->render() + "\n");
    if (!opt.interactive) throw FatalError{"", 2};
    return status = 2;
  }
  if (!r.program) return status = 0;
  if (r.program->items.empty()) return status = 0;
  return eval_list(*r.program);
}

int Shell::run_fd(int fd, const std::string& filename) {
  // Read in blocks when the input can seek back, otherwise byte by byte, so that
  // commands reading the same input get the text after the current command.
  struct stat st;
  bool seekable = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::lseek(fd, 0, SEEK_CUR) >= 0;
  std::string pending;
  size_t incomplete_at = 0;  // size of pending when it last parsed as incomplete
  bool eof = false;
  uint32_t line_no = 1;
  auto prompt = [&](const char* var) {
    if (!opt.interactive) return;
    const std::string* ps = vars.get(var);
    if (ps) write_all(2, *ps);
  };
  bool need_ps1 = true;
  auto read_more = [&]() {
    prompt(need_ps1 ? "PS1" : "PS2");
    need_ps1 = false;
    char buf[4096];
    if (seekable) {
      ssize_t n;
      do n = ::read(fd, buf, sizeof buf);
      while (n < 0 && errno == EINTR);
      if (n <= 0) {
        eof = true;
        return;
      }
      pending.append(buf, size_t(n));
      return;
    }
    for (;;) {
      char c;
      ssize_t n = ::read(fd, &c, 1);
      if (n < 0 && errno == EINTR) {
        if (opt.interactive && g_pending[SIGINT]) {
          // ^C at the prompt: drop the partial command, start over.
          g_pending[SIGINT] = 0;
          pending.clear();
          write_all(2, "\n");
          need_ps1 = true;
          return;
        }
        continue;
      }
      if (n <= 0) {
        eof = true;
        return;
      }
      pending.push_back(c);
      if (c == '\n') return;
    }
  };
  syntax::ParseOptions po;
  po.max_stack_bytes = std::min(po.max_stack_bytes, stack_bytes_left());
  po.extensions = !opt.posix;
  po.filename = filename;
  po.alias = [this](std::string_view name) -> const std::string* {
    if (!opt.expand_aliases) return nullptr;
    auto it = aliases.find(name);
    return it == aliases.end() ? nullptr : &it->second;
  };
  source_name = filename;
  int result = 0;
  while (true) {
    if (pending.find('\n') == std::string::npos && !eof) {
      read_more();
      continue;
    }
    if (pending.empty() && eof) break;
    // A command still incomplete after 4 KiB is parsed again only when its text has
    // doubled, so a huge compound command costs linear, not quadratic, parsing.
    if (!eof && incomplete_at > 4096 && pending.size() < 2 * incomplete_at) {
      read_more();
      continue;
    }
    po.first_line = line_no;
    po.text_is_complete = eof;
    // Whole lines only until the end of the input: a read may cut the last line, and
    // a comment cut in two would end early, its rest read as a command.
    std::string_view lines(pending.data(), eof ? pending.size() : pending.rfind('\n') + 1);
    syntax::Parser parser(lines, po);
    auto item = parser.next();
    if (item.kind == syntax::Parser::Item::Kind::error && item.error.incomplete && !eof) {
      incomplete_at = pending.size();
      read_more();
      continue;
    }
    incomplete_at = 0;
    size_t used = item.kind == syntax::Parser::Item::Kind::end ? lines.size() : parser.offset();
    if (item.kind == syntax::Parser::Item::Kind::end && !eof) {
      // Only blank lines or comments so far.
      for (size_t i = 0; i < used; ++i)
        if (pending[i] == '\n') ++line_no;
      pending.erase(0, used);
      continue;
    }
    if (item.kind == syntax::Parser::Item::Kind::end) break;
    if (item.kind == syntax::Parser::Item::Kind::error) {
      flush_all();
      write_all(2, "lash: " + item.error.render() + "\n");
      status = 2;
      if (!opt.interactive) exit_shell(2);
      pending.clear();
      need_ps1 = true;
      continue;
    }
    need_ps1 = true;
    std::string consumed = pending.substr(0, used);
    for (char c : consumed)
      if (c == '\n') ++line_no;
    pending.erase(0, used);
    if (seekable && !pending.empty()) {
      // Give the unread text back to the file so commands see it.
      if (::lseek(fd, -off_t(pending.size()), SEEK_CUR) >= 0) {
        pending.clear();
        eof = false;
      }
    }
    if (opt.verbose) {
      flush_all();
      write_all(2, consumed);
    }
    if (opt.noexec) continue;
    try {
      result = memory_guarded([&] { return eval_list(*item.command); });
    } catch (const FatalError& e) {
      if (!e.message.empty()) error(e.message);
      result = status = e.status;
      if (!opt.interactive) exit_shell(e.status);
    }
    if (g_pending_any) run_pending_traps();
    // `return` outside a function ends the script, as in dash.
    if (ctl == Ctl::exit || ctl == Ctl::ret) break;
    ctl = Ctl::none;
  }
  if (opt.interactive && ctl != Ctl::exit) write_all(2, "\n");
  return result;
}

// `$(< file)`: bash's shorthand for `$(cat file)`. The body is one simple command with
// no words and one input redirection; the child opens the file through the same
// redirect planner and gate as any `<` and copies it to the pipe.
static const ast::SimpleCommand* read_file_form(const ast::List& body) {
  if (body.items.size() != 1 || body.items[0].background) return nullptr;
  const ast::AndOr& ao = body.items[0].and_or;
  if (!ao.rest.empty() || ao.first.bang || ao.first.commands.size() != 1) return nullptr;
  const auto* sc = std::get_if<ast::SimpleCommand>(&ao.first.commands[0].v);
  if (!sc || !sc->words.empty() || !sc->assignments.empty() || sc->redirects.size() != 1) return nullptr;
  const ast::Redirect& r = sc->redirects[0];
  if (r.op != ast::RedirOp::in || (r.fd != -1 && r.fd != 0)) return nullptr;
  return sc;
}

static int copy_redirected_file(Shell& sh, const std::vector<ast::Redirect>& rs) {
  std::vector<PlannedRedirect> plan;
  FdSaver saver(true);
  if (!plan_redirects(sh, rs, plan) || !apply_redirects(sh, plan, saver)) return 1;
  saver.keep();
  char buf[16384];
  for (;;) {
    ssize_t n = ::read(0, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return 1;
    if (n == 0) return 0;
    if (!write_all(1, std::string_view(buf, size_t(n)))) return 1;
  }
}

std::string Shell::command_substitution(const ast::List& body) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) < 0) throw FatalError{std::string("cannot create pipe: ") + std::strerror(errno), 2};
  unique_fd read_end(fds[0]), write_end(fds[1]);
  pid_t pid = fork_subshell(
      *this,
      [&] {
        read_end.reset();
        if (!move_fd_to(write_end, 1)) {
          error(std::string("cannot redirect the substitution's output: ") + std::strerror(errno));
          child_exit(2);
        }
        // bash runs a command substitution without set -e unless shopt -s
        // inherit_errexit; POSIX mode keeps it, as dash and bash --posix do.
        if (!opt.posix && !opt.inherit_errexit) opt.errexit = false;
      },
      [&] {
        if (const ast::SimpleCommand* sc = read_file_form(body)) return copy_redirected_file(*this, sc->redirects);
        return eval_list(body, true);
      });
  if (pid == kForkRefused) throw Refused{};  // the command ends with 126, as a policy refusal
  if (pid < 0) throw FatalError{"", 2};
  write_end.reset();  // only the child writes: EOF when it is done
  std::string out;
  char buf[16384];
  for (;;) {
    ssize_t n = ::read(read_end.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) {
      exit_if_signal_ends_shell(pid);  // a trapped signal waits until it is done
      continue;
    }
    if (n <= 0) break;
    if (out.size() + size_t(n) > kMaxSubstOutput) {
      read_end.reset();
      wait_pid(pid);
      throw FatalError{"command substitution output exceeds 1 GiB", 2};
    }
    out.append(buf, size_t(n));
  }
  read_end.reset();
  subst_status = status = wait_pid(pid);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace lash::exec

namespace lash::exec {

std::string Shell::process_substitution(const ast::List* body, bool to_list) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) < 0) throw FatalError{std::string("cannot create pipe: ") + std::strerror(errno), 2};
  unique_fd read_end(fds[0]), write_end(fds[1]);
  // The list's end becomes its stdin (>(list)) or stdout (<(list)).
  pid_t pid = fork_subshell(
      *this,
      [&] {
        for (int fd : procsub_fds) ::close(fd);  // earlier substitutions' ends are not the list's
        procsub_fds.clear();
        note_procsub_fds(procsub_fds);
        unique_fd& mine = to_list ? read_end : write_end;
        (to_list ? write_end : read_end).reset();
        if (!move_fd_to(mine, to_list ? 0 : 1)) {
          error(std::string("cannot connect the process substitution: ") + std::strerror(errno));
          child_exit(2);
        }
      },
      [&] { return body ? eval_list(*body, true) : 0; });
  if (pid == kForkRefused) throw Refused{};
  if (pid < 0) throw FatalError{"", 2};
  unique_fd& ours = to_list ? write_end : read_end;
  // The command that names /dev/fd/N must inherit N: the one descriptor lash leaves
  // without O_CLOEXEC, above the user's 0-9, and closed once the command is done.
  int fd = ::fcntl(ours.get(), F_DUPFD, 60);
  if (fd < 0) throw FatalError{std::string("cannot keep the process substitution: ") + std::strerror(errno), 2};
  procsub_fds.push_back(fd);
  procsub_pids.push_back(pid);
  note_procsub_fds(procsub_fds);
  return "/dev/fd/" + std::to_string(fd);
}

void Shell::close_process_substitutions(size_t from) {
  for (size_t i = from; i < procsub_fds.size(); ++i) ::close(procsub_fds[i]);
  procsub_fds.resize(from);
  note_procsub_fds(procsub_fds);
  // A list that has ended is collected now; one still running (>(cat) writing its
  // output) is tried again after a later command.
  std::vector<pid_t> running;
  for (pid_t pid : procsub_pids) {
    int st = 0;
    pid_t r = ::waitpid(pid, &st, WNOHANG);
    if (r == pid) child_gone(pid);
    else if (r == 0) running.push_back(pid);
  }
  procsub_pids.swap(running);
}

}  // namespace lash::exec
