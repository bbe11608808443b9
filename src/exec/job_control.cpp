// Job control of the interactive shell: process groups, the terminal, the jobs table.
#include "exec/job_control.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "sandbox/launch.h"
#include "sandbox/ns.h"

namespace lash::exec {

namespace {

// The shell's own terminal modes, put back whenever it takes the terminal back (a
// program that stopped or died in raw mode must not leave the prompt unusable).
struct termios g_shell_modes;
bool g_have_modes = false;

int decode(int ws) {
  if (WIFEXITED(ws)) return WEXITSTATUS(ws);
  if (WIFSIGNALED(ws)) return 128 + WTERMSIG(ws);
  return 0;
}

void say(Shell& sh, const std::string& text) {
  sh.flush_all();
  write_all(2, text);
}

void take_terminal_back(Shell& sh) {
  if (sh.jc.tty < 0) return;
  (void)sandbox::give_terminal(sh.jc.tty, sh.jc.shell_pgid);
  if (g_have_modes) (void)::tcsetattr(sh.jc.tty, TCSADRAIN, &g_shell_modes);
}

bool contains(const std::vector<pid_t>& v, pid_t p) { return std::find(v.begin(), v.end(), p) != v.end(); }

// The line `jobs` and the prompt's notice print for J.
std::string job_line(Shell& sh, const Job& j, bool with_pid) {
  std::string s = "[" + std::to_string(j.number) + "]";
  s += job_mark(sh, j);
  s += "  ";
  if (with_pid) s += std::to_string(j.shown > 0 ? j.shown : j.pid) + " ";
  std::string state = job_state(j);
  s += state;
  if (state.size() < 24) s.append(24 - state.size(), ' ');
  s += j.text;
  if (!j.done && !j.stopped) s += " &";
  return s + "\n";
}

int next_job_number(const Shell& sh) {
  int n = 0;
  for (const auto& j : sh.jobs)
    if (j.listed) n = std::max(n, j.number);
  return n + 1;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t' || s.back() == '&'))
    s.pop_back();
  size_t b = s.find_first_not_of(" \t\n");
  return b == std::string::npos ? std::string() : s.substr(b);
}

// The command as typed: its part of the line when the shell is running the line
// itself (not a function body or eval text, whose positions are in another text).
std::string job_text(const Shell& sh, const ast::SourceRange& r) {
  const std::string& line = sh.jc.command_text;
  if (sh.call_depth == 0 && r.end > r.begin && r.end <= line.size()) return trimmed(line.substr(r.begin, r.end - r.begin));
  return trimmed(line);
}

}  // namespace

bool init_job_control(Shell& sh) {
  int fd = -1;
  for (int cand : {2, 0, 1})
    if (::isatty(cand)) {
      fd = ::fcntl(cand, F_DUPFD_CLOEXEC, 10);
      break;
    }
  if (fd < 0) return false;
  // Wait until the shell is in the foreground (started in the background, it
  // stops itself until it is brought forward), as POSIX shells do.
  for (int tries = 0; tries < 1000; ++tries) {
    pid_t fg = ::tcgetpgrp(fd);
    if (fg < 0 || fg == ::getpgrp()) break;
    ::kill(0, SIGTTIN);
  }
  pid_t me = ::getpid();
  if (::getpgrp() != me && ::getsid(0) != me) (void)::setpgid(0, 0);
  sh.jc.tty = fd;
  sh.jc.shell_pgid = ::getpgrp();
  if (sandbox::give_terminal(fd, sh.jc.shell_pgid) != 0) {
    ::close(fd);
    sh.jc.tty = -1;
    return false;
  }
  g_have_modes = ::tcgetattr(fd, &g_shell_modes) == 0;
  // The shell itself is never stopped from the keyboard or by terminal access; a
  // handler (not SIG_IGN) so that every program it starts has the default again.
  for (int sig : {SIGTSTP, SIGTTIN, SIGTTOU}) sh.catch_signal_quietly(sig);
  return true;
}

bool job_control_active(const Shell& sh) { return sh.jc.tty >= 0 && sh.opt.monitor && !sh.in_subshell; }

void set_job_control(Shell& sh, bool on) { sh.opt.monitor = on && sh.jc.tty >= 0; }

pid_t job_fork_pgid(const Shell& sh) { return job_control_active(sh) ? sh.jc.pgid : -1; }

int job_fork_tty(const Shell& sh) {
  return job_control_active(sh) && sh.jc.pgid >= 0 && sh.jc.foreground ? sh.jc.tty : -1;
}

void job_process_started(Shell& sh, pid_t pid) {
  if (!job_control_active(sh) || sh.jc.pgid < 0) return;
  if (sh.jc.pgid == 0) sh.jc.pgid = pid;
  if (!sh.jc.foreground) return;
  sh.jc.fg_pids.push_back(pid);
  (void)sandbox::give_terminal(sh.jc.tty, sh.jc.pgid);
}

ForegroundJob::ForegroundJob(Shell& sh, const ast::SourceRange& range) : sh_(sh), range_(range) {
  if (!job_control_active(sh)) return;
  open_ = true;
  saved_pgid_ = sh.jc.pgid;
  saved_foreground_ = sh.jc.foreground;
  saved_pids_ = std::move(sh.jc.fg_pids);
  saved_stop_ = sh.jc.fg_stop_signal;
  sh.jc.pgid = 0;
  sh.jc.foreground = true;
  sh.jc.fg_pids.clear();
  sh.jc.fg_stop_signal = 0;
}

ForegroundJob::~ForegroundJob() { close(); }

void ForegroundJob::close() {
  if (!open_) return;
  open_ = false;
  if (!sh_.jc.fg_pids.empty()) take_terminal_back(sh_);
  sh_.jc.pgid = saved_pgid_;
  sh_.jc.foreground = saved_foreground_;
  sh_.jc.fg_pids = std::move(saved_pids_);
  sh_.jc.fg_stop_signal = saved_stop_;
}

int ForegroundJob::finish(int status) {
  if (!open_) return status;
  int stop = sh_.jc.fg_stop_signal;
  std::vector<pid_t> pids = sh_.jc.fg_pids;
  pid_t pgid = sh_.jc.pgid;
  close();
  if (pids.empty()) return status;
  if (stop != 0) {
    // The members still to be reaped make the stopped job.
    Job j;
    j.pid = pids.back();
    j.pgid = pgid;
    for (pid_t p : pids)
      if (sh_.live_children.count(p)) j.members.push_back(p);
    if (j.members.empty()) j.members = pids;
    j.shown = sandbox::session_pid_of(pids.front());
    if (j.shown <= 0) j.shown = pids.front();
    j.number = next_job_number(sh_);
    j.text = job_text(sh_, range_);
    j.stopped = true;
    j.seq = ++sh_.jc.seq;
    j.reported = true;
    sh_.jobs.push_back(std::move(j));
    say(sh_, "\n" + job_line(sh_, sh_.jobs.back(), false));
    throw JobInterrupted{128 + stop};
  }
  if (status == 128 + SIGINT) {
    say(sh_, "\n");
    throw JobInterrupted{status};
  }
  return status;
}

Job& add_background_job(Shell& sh, pid_t pid, pid_t shown, const ast::SourceRange& range) {
  Job j;
  j.pid = pid;
  j.shown = shown;
  j.members = {pid};
  j.pgid = job_control_active(sh) ? pid : 0;
  j.number = next_job_number(sh);
  j.text = job_text(sh, range);
  j.seq = ++sh.jc.seq;
  sh.jobs.push_back(std::move(j));
  if (sh.opt.interactive && !sh.in_subshell)
    say(sh, "[" + std::to_string(sh.jobs.back().number) + "] " + std::to_string(shown) + "\n");
  return sh.jobs.back();
}

void note_stopped(Shell& sh, pid_t pid, int signal) {
  for (auto& j : sh.jobs)
    if (!j.done && (j.pid == pid || contains(j.members, pid))) {
      if (!j.stopped) {
        j.stopped = true;
        j.reported = false;
        j.seq = ++sh.jc.seq;
      }
      return;
    }
  (void)signal;
}

void notify_jobs(Shell& sh) {
  sh.reap_jobs();
  for (auto& j : sh.jobs) {
    if (!j.listed || j.reported) continue;
    j.reported = true;
    say(sh, job_line(sh, j, false));
    if (j.done) j.listed = false;
  }
}

Job* current_job(Shell& sh) {
  Job* best = nullptr;
  for (auto& j : sh.jobs) {
    if (!j.listed) continue;
    // A stopped job is current before any running one (POSIX, bash).
    bool better = !best || (j.stopped && !best->stopped) || (j.stopped == best->stopped && j.seq > best->seq);
    if (better) best = &j;
  }
  return best;
}

Job* previous_job(Shell& sh) {
  Job* cur = current_job(sh);
  Job* best = nullptr;
  for (auto& j : sh.jobs) {
    if (!j.listed || &j == cur) continue;
    bool better = !best || (j.stopped && !best->stopped) || (j.stopped == best->stopped && j.seq > best->seq);
    if (better) best = &j;
  }
  return best;
}

char job_mark(Shell& sh, const Job& j) {
  if (&j == current_job(sh)) return '+';
  if (&j == previous_job(sh)) return '-';
  return ' ';
}

std::string job_state(const Job& j) {
  if (j.stopped && !j.done) return "Stopped";
  if (!j.done) return "Running";
  if (j.status == 0) return "Done";
  if (j.status > 128) {
    const char* name = ::strsignal(j.status - 128);
    return name ? name : "Signal " + std::to_string(j.status - 128);
  }
  return "Exit " + std::to_string(j.status);
}

Job* find_job(Shell& sh, const std::string& spec, std::string& message) {
  std::string s = spec.size() > 0 && spec[0] == '%' ? spec.substr(1) : spec;
  Job* found = nullptr;
  if (s.empty() || s == "%" || s == "+") {
    found = current_job(sh);
    if (!found) message = "current: no such job";
    return found;
  }
  if (s == "-") {
    found = previous_job(sh);
    if (!found) message = "previous: no such job";
    return found;
  }
  if (s.find_first_not_of("0123456789") == std::string::npos && s.size() < 9) {
    int n = std::stoi(s);
    for (auto& j : sh.jobs)
      if (j.listed && j.number == n) return &j;
    message = spec + ": no such job";
    return nullptr;
  }
  bool anywhere = s[0] == '?';
  std::string want = anywhere ? s.substr(1) : s;
  for (auto& j : sh.jobs) {
    if (!j.listed) continue;
    bool hit = anywhere ? j.text.find(want) != std::string::npos : j.text.rfind(want, 0) == 0;
    if (!hit) continue;
    if (found) {
      message = spec + ": ambiguous job spec";
      return nullptr;
    }
    found = &j;
  }
  if (!found) message = spec + ": no such job";
  return found;
}

namespace {
// Waits until J ends or stops; children of other jobs are noted as they come.
void wait_for_job(Shell& sh, Job& j) {
  while (!j.done && !j.stopped) {
    int ws = 0;
    pid_t r = ::waitpid(-1, &ws, WUNTRACED);
    if (r < 0) {
      if (errno == EINTR) continue;
      // Nothing left to wait for: the members are gone.
      j.done = true;
      j.members.clear();
      break;
    }
    if (WIFSTOPPED(ws)) {
      note_stopped(sh, r, WSTOPSIG(ws));
      continue;
    }
    sh.note_reaped(r, decode(ws));
  }
}
}  // namespace

namespace {
// A stopped job goes on: it becomes the current job and its whole group gets SIGCONT.
void resume(Shell& sh, Job& j) {
  j.stopped = false;
  j.reported = true;
  j.seq = ++sh.jc.seq;
  if (j.pgid > 0)
    ::kill(-j.pgid, SIGCONT);
  else
    ::kill(j.pid, SIGCONT);
}
}  // namespace

int continue_foreground(Shell& sh, Job& j) {
  sh.flush_all();
  bool terminal = sh.jc.tty >= 0 && j.pgid > 0;
  if (terminal) (void)sandbox::give_terminal(sh.jc.tty, j.pgid);
  // The job's text is printed once the terminal is the job's, so a ^C typed as soon
  // as it shows reaches the job (stopped, the job gets it with the SIGCONT below),
  // never the shell; and before the SIGCONT, so the job's output follows it. The
  // shell is in the background now: SIGTTOU blocked lets it write under `stty tostop`.
  sigset_t ttou, old;
  sigemptyset(&ttou);
  sigaddset(&ttou, SIGTTOU);
  bool blocked = ::sigprocmask(SIG_BLOCK, &ttou, &old) == 0;
  sh.out() << j.text << '\n';
  sh.out().flush();
  if (blocked) (void)::sigprocmask(SIG_SETMASK, &old, nullptr);
  resume(sh, j);
  wait_for_job(sh, j);
  if (terminal) take_terminal_back(sh);
  if (j.stopped) {
    j.reported = true;
    say(sh, "\n" + job_line(sh, j, false));
    return 128 + SIGTSTP;
  }
  j.listed = false;  // ended in the foreground: nothing to report
  j.reported = true;
  if (j.status == 128 + SIGINT) say(sh, "\n");
  return j.status;
}

void continue_background(Shell& sh, Job& j) { resume(sh, j); }

int wait_any_job(Shell& sh) {
  sh.reap_jobs();
  for (;;) {
    bool running = false;
    for (auto& j : sh.jobs)
      if (j.listed && !j.done && !j.stopped) running = true;
    if (!running) return 127;
    int ws = 0;
    pid_t r = ::waitpid(-1, &ws, job_control_active(sh) ? WUNTRACED : 0);
    if (r < 0) {
      if (errno != EINTR) return 127;
      for (int sig = 1; sig < NSIG; ++sig)
        if (g_pending[sig] && sh.trap_set[sig]) return 128 + sig;
      continue;
    }
    if (WIFSTOPPED(ws)) {
      note_stopped(sh, r, WSTOPSIG(ws));
      continue;
    }
    sh.note_reaped(r, decode(ws));
    for (auto& j : sh.jobs)
      if (j.listed && j.done && (j.pid == r) && !j.reported) {
        j.listed = false;  // reported by wait -n
        j.reported = true;
        return j.status;
      }
  }
}

void hangup_jobs(Shell& sh) {
  std::vector<pid_t> groups;
  for (auto& j : sh.jobs) {
    if (!j.listed || j.done || j.nohup || j.pgid <= 0) continue;
    ::kill(-j.pgid, SIGHUP);
    if (j.stopped) ::kill(-j.pgid, SIGCONT);
    groups.push_back(j.pgid);
  }
  // The session's end kills whatever it started (cgroup kill) right after this, so a
  // job's HUP trap would rarely get to run on a loaded machine: give the hung-up jobs
  // a bounded grace to finish, reaping them, before the shell goes on to exit.
  constexpr int kGraceMs = 2000, kStepMs = 10;
  for (int waited = 0; !groups.empty() && waited < kGraceMs; waited += kStepMs) {
    std::erase_if(groups, [](pid_t g) {
      int st = 0;
      for (;;) {
        pid_t r = ::waitpid(-g, &st, WNOHANG);
        if (r > 0) continue;          // one member reaped; look for more
        return r < 0;                 // ECHILD: none left in the group (0: still running)
      }
    });
    if (!groups.empty()) ::usleep(kStepMs * 1000);
  }
}

bool has_stopped_jobs(const Shell& sh) {
  for (const auto& j : sh.jobs)
    if (j.listed && j.stopped && !j.done) return true;
  return false;
}

}  // namespace lash::exec
