// Job control of an interactive shell (POSIX 2.11, "set -m"): every job in its own
// process group, the terminal handed to the foreground job and taken back when it
// ends or stops, stopped and finished jobs reported before the next prompt.
//
// Only the main interactive shell does this, and only while the profile allows
// job_control_own: a profile that refuses it gets no process groups, and Ctrl-Z is
// ignored by what the shell starts (a stopped child the shell could never resume
// would hang the terminal). Subshells never do it: their children stay in the job's
// group.
#pragma once
#include <sys/types.h>

#include <string>

#include "exec/shell.h"

namespace lash::exec {

// A foreground job stopped (Ctrl-Z) or was ended by Ctrl-C: the rest of the command
// line is not run, as in bash. Caught by the interactive loop; STATUS is $?.
struct JobInterrupted {
  int status = 0;
};

// Opens the controlling terminal and puts the shell in its own foreground group.
// False when there is no usable terminal (then job control stays off).
bool init_job_control(Shell& sh);
// Whether job control is in force right now (the main shell, a terminal, set -m).
bool job_control_active(const Shell& sh);
// Turns job control on or off for what runs next (set -m, or the profile's
// job_control_own as it is now).
void set_job_control(Shell& sh, bool on);

// The process group and terminal the next fork takes (SpawnSpec::pgid /
// foreground_tty), and the parent's note that it started PID for the job.
pid_t job_fork_pgid(const Shell& sh);
int job_fork_tty(const Shell& sh);
void job_process_started(Shell& sh, pid_t pid);

// One foreground pipeline as a job: opened by eval_pipeline, finished with the
// pipeline's status. A job that stopped goes into the jobs table ("[1]+ Stopped");
// one stopped or killed by SIGINT raises JobInterrupted from finish().
class ForegroundJob {
 public:
  // RANGE: where the pipeline is in the line typed (its text in `jobs`).
  ForegroundJob(Shell& sh, const ast::SourceRange& range);
  ~ForegroundJob();
  int finish(int status);
  ForegroundJob(const ForegroundJob&) = delete;
  ForegroundJob& operator=(const ForegroundJob&) = delete;

 private:
  void close();
  Shell& sh_;
  bool open_ = false;
  pid_t saved_pgid_ = -1;
  bool saved_foreground_ = false;
  std::vector<pid_t> saved_pids_;
  int saved_stop_ = 0;
  ast::SourceRange range_;
};

// A background job started (`cmd &`): its own group, in the jobs table, "[N] PID"
// on stderr when interactive.
Job& add_background_job(Shell& sh, pid_t pid, pid_t shown, const ast::SourceRange& range);

// A child of the shell stopped (waitpid said so).
void note_stopped(Shell& sh, pid_t pid, int signal);

// Reaps what has ended or stopped without blocking, then prints one line per job
// whose state changed ("[1]+  Done   sleep 1") and drops finished ones from the table.
void notify_jobs(Shell& sh);

// %+ %- %N %string %?string (and %% / %). Null with MESSAGE set when there is none.
Job* find_job(Shell& sh, const std::string& spec, std::string& message);
Job* current_job(Shell& sh);
Job* previous_job(Shell& sh);
// '+', '-' or ' ' for `jobs`.
char job_mark(Shell& sh, const Job& j);
// "Running", "Stopped", "Done", "Exit 3", "Terminated"...
std::string job_state(const Job& j);

// fg: the job gets the terminal, its text is printed, then it gets SIGCONT; the shell
// waits for it to end or stop.
int continue_foreground(Shell& sh, Job& j);
// bg: SIGCONT, in the background.
void continue_background(Shell& sh, Job& j);
// Waits (blocking) until one job that is running now ends; its status, or 127 when
// none is running. INTERRUPTIBLE as for wait_pid.
int wait_any_job(Shell& sh);

// Sends SIGHUP (and SIGCONT to stopped ones) to every job not disowned: the
// interactive shell is going away.
void hangup_jobs(Shell& sh);
bool has_stopped_jobs(const Shell& sh);

}  // namespace lash::exec
