// The interpreter's state and its entry points. One Shell per process; a forked
// subshell continues with a copy of it (that is how POSIX subshells behave).
#pragma once
#include <signal.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sys/resource.h>

#include <new>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "exec/builtin_api.h"
#include "exec/output.h"
#include "exec/session_services.h"
#include "exec/vars.h"
#include "sandbox/prepared.h"
#include "syntax/ast.h"

namespace lash::exec {

struct PolicyGate;

struct Options {
  bool errexit = false;    // -e
  bool nounset = false;    // -u
  bool xtrace = false;     // -x
  bool verbose = false;    // -v
  bool noglob = false;     // -f
  bool noexec = false;     // -n
  bool noclobber = false;  // -C
  bool allexport = false;  // -a
  bool pipefail = false;   // -o pipefail
  // -o posix (also when started as `sh` or with --posix): bash's extensions that
  // change what a POSIX script means are off ([[ is a command name, {a,b} is literal,
  // a=( is a syntax error). See docs/usage.md "Modes".
  bool posix = false;
  bool interactive = false;
  bool monitor = false;    // -m (job control; interactive use, later)
  bool stdin_cmds = false; // -s
  bool ignoreeof = false;  // -o ignoreeof: ^D does not end an interactive shell
  bool nohighlight = false; // -o nohighlight: no red for refused command words
  bool errtrace = false;   // -E: the ERR trap is inherited by functions and subshells
  bool functrace = false;  // -T: DEBUG and RETURN traps are inherited by functions
  // shopt options (builtins/shopt.cpp); bash's defaults
  bool nullglob = false;     // a pattern matching nothing expands to nothing
  bool failglob = false;     // a pattern matching nothing is an error
  bool dotglob = false;      // * and ? match a leading dot
  bool nocaseglob = false;   // pathname patterns ignore case
  bool globstar = false;     // ** matches any depth of directories
  bool extglob = false;      // ?(..) *(..) +(..) @(..) !(..) in patterns
  bool nocasematch = false;  // case and [[ == ]] ignore case
  bool lastpipe = false;     // the last member of a pipeline runs in this shell
  bool expand_aliases = true;
  bool inherit_errexit = false;  // command substitutions keep set -e
};

// Loop and function control requested by break/continue/return/exit: the
// interpreter unwinds by checking this after each command (no exceptions).
enum class Ctl : uint8_t { none, brk, cont, ret, exit };

// A fatal shell error (expansion error, special-builtin failure, set -u): a
// non-interactive shell exits with `status` after printing the message.
struct FatalError {
  std::string message;
  int status = 2;
};

// Runs f; an allocation that fails (the session's max_memory, or the machine's
// memory, ran out) becomes the fatal error a shell reports instead of an abort.
// Unwinding frees what the command held.
template <class F>
auto memory_guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw FatalError{"out of memory", 2};
  }
}

// A change the policy refused; the Problem/Suggestion lines are already printed.
// The command that attempted it ends with status 126 (not a fatal error).
struct Refused {};

// Limits that keep hostile scripts from exhausting the stack.
inline constexpr int kMaxCallDepth = 10000;    // function calls, eval, `.` nesting
inline constexpr int kMaxEvalDepth = 100000;   // nested evaluation (the stack guard usually ends it first)

struct Job {
  pid_t pid = -1;    // as lash's waitpid knows it (the host's numbering)
  bool done = false;
  int status = 0;
  // As the session's processes see it: in a session with its own pid namespace
  // (sandbox/ns.h) what `$!`, `wait` and `kill` speak; else the same as pid.
  pid_t shown = -1;
  // ---- job control (exec/job_control.h) ----
  pid_t pgid = 0;                // its own process group; 0: it is in the shell's
  std::vector<pid_t> members;    // processes not reaped yet (a stopped pipeline has several)
  int number = 0;                // %N
  std::string text;              // the command as typed, for `jobs`
  bool stopped = false;
  bool listed = true;            // `jobs` shows it; false once its end was reported, or disowned
  bool reported = true;          // false: a change of state not shown yet
  bool nohup = false;            // disown -h: no SIGHUP when the shell exits
  uint64_t seq = 0;              // when it last stopped or was started: %+ and %-
};

// The interactive shell's job control (exec/job_control.h). Inactive (tty < 0) in
// scripts, in subshells, and where the profile refuses job_control_own.
struct JobControl {
  int tty = -1;                  // the controlling terminal, O_CLOEXEC, above 9
  pid_t shell_pgid = 0;
  pid_t pgid = -1;               // the group the next fork joins: -1 the shell's, 0 a new one
  bool foreground = false;       // the job being started runs in the foreground
  std::vector<pid_t> fg_pids;    // processes of the foreground job started so far
  int fg_stop_signal = 0;        // the foreground job stopped (SIGTSTP...): 0 while it runs
  uint64_t seq = 0;
  std::string command_text;      // the line being run, as the jobs table shows it
  bool exit_warned = false;      // "There are stopped jobs." said for the last command
};

class Shell {
 public:
  Shell();
  ~Shell();
  Shell(const Shell&) = delete;  // services_ may point into this object
  Shell& operator=(const Shell&) = delete;

  // ---- entry points --------------------------------------------------------
  // Runs the text command by command. `filename` is shown in errors. Returns $?.
  int run_text(std::string_view text, const std::string& filename, uint32_t first_line = 1);
  // Reads commands from fd without reading past the command being run (so a
  // script read from stdin leaves the rest of stdin to the commands it runs).
  int run_fd(int fd, const std::string& filename);
  // Ends the shell: runs the EXIT trap, flushes, and _exit()s (never returns).
  [[noreturn]] void exit_shell(int status);

  // ---- evaluation (interpreter.cpp) ------------------------------------------
  int eval_list(const ast::List& list, bool tail = false);
  int eval_and_or(const ast::AndOr& ao, bool tail);
  int eval_pipeline(const ast::Pipeline& p, bool tail);
  int eval_command(const ast::Command& c, bool tail);
  // eval / . / command-string helpers
  int eval_string(std::string_view text, const std::string& filename);
  int call_function(const std::shared_ptr<const ast::Command>& body, std::vector<std::string>& argv);
  // Runs the program at PATH with ARGV for lash itself (`profile edit`'s $EDITOR)
  // exactly as a typed command would run: checked by the profile (spawn lists),
  // given the children's environment, under the session's sandbox or refused with its
  // refusal, audited. Returns its status (126 when refused).
  int run_program(const std::string& path, const std::vector<std::string>& argv);

  // ---- expansion (expand.cpp) -------------------------------------------------
  void expand_words(const std::vector<ast::Word>& words, std::vector<std::string>& out);
  void expand_word(const ast::Word& w, std::vector<std::string>& out);  // fields, globbed
  // Pathname expansion of the fields an expand.cpp Builder collected.
  void glob_fields(void* builder, std::vector<std::string>& out);
  // The locale (LC_ALL, LC_CTYPE, LANG as the shell has them) has UTF-8 characters:
  // ${#v} and ${v:o:l} count characters, not bytes.
  bool chars_are_utf8() const;
  std::string expand_string(const ast::Word& w);   // no field splitting, no globbing
  std::string expand_pattern(const ast::Word& w);  // quoted characters escaped
  std::string expand_heredoc(const ast::Redirect& r);
  std::string command_substitution(const ast::List& body);
  // <(list) / >(list): starts BODY in a subshell (fork_subshell: the gate, the
  // process limit) with a pipe on its stdout (or stdin with TO_LIST) and returns the
  // /dev/fd/N name of the shell's end, which stays open until the command that
  // named it has run (close_process_substitutions).
  std::string process_substitution(const ast::List* body, bool to_list);
  void close_process_substitutions(size_t from);
  // Closes the substitutions a command opened when it is done (not those of an
  // enclosing command: `f <(list)` keeps its name valid while f runs).
  struct ProcsubScope {
    Shell& sh;
    size_t mark;
    explicit ProcsubScope(Shell& s) : sh(s), mark(s.procsub_fds.size()) {}
    ~ProcsubScope() {
      if (sh.procsub_fds.size() > mark || !sh.procsub_pids.empty()) sh.close_process_substitutions(mark);
    }
  };
  std::vector<int> procsub_fds;     // the shell's ends, open for the current command
  std::vector<pid_t> procsub_pids;  // their lists, reaped once the command is done
  // Evaluates arithmetic text ((( )), let, [[ -eq ]], subscripts); an error is a
  // FatalError with the message dash/bash print.
  int64_t arith_value(std::string_view expr);
  // A [[ ]] =~ right side: quoted parts match themselves.
  std::string expand_regex(const ast::Word& w);

  // ---- arrays and bash's assignment forms (arrays.cpp) ---------------------------
  // Replaces NAME with an indexed array of VALUES (BASH_REMATCH, read -a, mapfile).
  bool set_array(const std::string& name, std::vector<std::string> values);
  // NAME or NAME[SUB] is set ([[ -v ]]).
  bool var_is_set(std::string_view name);
  // Makes an assignment word (name[sub]=v, name+=v, name=(...), or plain).
  // Throws Refused or FatalError as a failed assignment does.
  void assign_ast(const ast::Assignment& a);
  // A declaration utility's `name=(...)` argument, expanded: "name=" or "name+=",
  // kCompoundMark, then the elements (see arrays.cpp).
  std::string compound_arg(const ast::Assignment& a);
  // Applies such an argument's elements to NAME (ASSOC for a new array).
  bool assign_compound_payload(const std::string& name, bool append, std::string_view payload, bool assoc);
  // An element by an expanded subscript; null when unset.
  const std::string* element(std::string_view name, const std::string& sub);
  // Sets (or with APPEND appends to) an element. False when read-only/refused.
  bool set_element(std::string_view name, const std::string& sub, std::string value, bool append = false);
  bool unset_element(std::string_view name, const std::string& sub);
  // The index of an indexed array's element from subscript text (arithmetic;
  // negative counts from the end).
  int64_t array_index(std::string_view name, const std::string& sub);
  // The values of all elements ("${a[@]}"); a scalar is one element.
  std::vector<std::string> element_values(std::string_view name);
  std::vector<std::string> element_keys(std::string_view name);
  static constexpr char kCompoundMark = '\x1e';

  // ---- state ----------------------------------------------------------------------
  Vars vars;
  std::string arg0;                       // $0
  std::vector<std::string> params;        // $1...
  StringMap<std::shared_ptr<const ast::Command>> functions;  // name -> body
  StringMap<std::string> aliases;
  StringMap<std::string> hashed;          // command -> path (remembered locations)
  uint64_t hashed_generation = 0;
  Options opt;
  int status = 0;                         // $?
  pid_t last_bg = 0;                      // the last background job (host pid)
  pid_t last_bg_shown = 0;                // $!: the same in the session's numbering
  pid_t shell_pid = 0;                    // $$ (the main shell's pid, also in subshells)
  std::vector<Job> jobs;
  JobControl jc;
  std::string traps[NSIG];                // [0] = EXIT; empty = default
  bool trap_set[NSIG] = {};
  bool trap_ignored_at_entry[NSIG] = {};  // non-interactive: cannot be trapped
  // The session's services (sandbox, refusal, broker, relay, audit), injected by the
  // session; PlainServices until then. Not owned: they outlive every use.
  SessionServices& services() { return *services_; }
  void set_services(SessionServices* s) { services_ = s ? s : &plain_services_; }
  // The session sandbox, prepared on first use (before the first fork), in the
  // process that owns the session; forks inherit it.
  const sandbox::Prepared& prepared() { return services_->prepared(); }
  // Set when the profile needs a sandbox: /dev/stdin, /dev/stdout, /dev/stderr and
  // /dev/fd/N in the shell's own opens name the shell's descriptors (redirect.h).
  bool fd_names_are_shell_fds = false;
  std::shared_ptr<PolicyGate> gate;       // the session's policy (null: nothing checked)
  // PS4 as `set -x` prints it: expanded and with the prompt escapes (set by main from
  // interactive/prompt.h, which this layer does not know). Null: PS4 as it is.
  std::function<std::string(const std::string&)> trace_prefix;

  // Dry run (`profile test`): expansion runs no command substitution and assigns
  // nothing; what only the run would know is flagged in dry_dynamic.
  bool dry = false;
  bool dry_dynamic = false;
  std::function<void(const ast::List&)> dry_visit;  // plans a substitution's body
  // An assignment made inside an expansion ($((x=1)), ${x=v}) that the dry run does
  // not make: reported as the environment change it is when NAME is exported.
  std::function<void(const std::string&)> dry_assign;
  // Exported variables the walk saw the script change: their value now is not theirs
  // then (HOME for ~ and $HOME, PATH for command lookup).
  std::set<std::string> dry_assigned;

  // control flow
  Ctl ctl = Ctl::none;
  int ctl_count = 0;       // break/continue N
  int loop_depth = 0;
  int call_depth = 0;      // functions + eval + .
  int eval_depth = 0;
  int cond_depth = 0;      // > 0: `set -e` is ignored (conditions, !, && || left sides)
  bool in_subshell = false;
  bool in_trap = false;
  int exit_status_for_ctl = 0;
  int subst_status = 0;    // status of the last command substitution (for `x=$(cmd)`)

  // bash's call stack (FUNCNAME, BASH_SOURCE, BASH_LINENO, caller): one frame per
  // function call or sourced file; the arrays are made from it when a script reads
  // them (call_frames.cpp), so a call costs one push.
  struct CallFrame {
    std::string func;    // the function's name, or "source"
    std::string source;  // the file running it
    uint32_t line = 0;   // the line it was called from
  };
  std::vector<CallFrame> frames;
  int function_depth = 0;       // function calls only (frames also has sourced files)
  std::string script_path;      // the script file run (BASH_SOURCE at the top level)
  std::vector<int> pipestatus;  // the statuses of the last pipeline's members
  // Sets FUNCNAME, BASH_SOURCE, BASH_LINENO or PIPESTATUS from the state above when
  // NAME is one of them (called where a variable is read; one compare otherwise).
  void refresh_dynamic_array(std::string_view name) {
    if (name.size() >= 8 && (name[0] == 'F' || name[0] == 'B' || name[0] == 'P') && !opt.posix)
      refresh_dynamic_array_slow(name);
  }
  void refresh_dynamic_array_slow(std::string_view name);
  // Runs the trap of a bash pseudo-signal (ERR, DEBUG, RETURN) if one is set and
  // applies here (set -E / -T for functions).
  enum PseudoTrap : int { kTrapDebug = 0, kTrapErr = 1, kTrapReturn = 2 };
  void run_pseudo_trap(PseudoTrap which);
  void err_trap_due(const ast::Pipeline& p, int st);
  std::string pseudo_traps[3];
  bool pseudo_trap_set[3] = {};
  bool in_pseudo_trap = false;

  // where we are, for error messages
  std::string source_name = "lash";
  uint32_t line = 0;

  // `local -`: remember the options of the innermost function call.
  void save_options_for_frame() {
    if (!frame_options.empty() && !frame_options.back()) frame_options.back() = opt;
  }
  std::vector<std::optional<Options>> frame_options;  // one per function call

  // ---- helpers used by builtins ------------------------------------------------
  Output& out() { return out_; }
  Output& err() { return err_; }
  // "lash: [FILE:LINE: ]msg" on stderr.
  void error(std::string_view msg);
  // Sets a variable, reporting read-only failure. Returns false on failure.
  bool assign(std::string_view name, std::string value);
  std::string dollar_dash() const;        // $-
  // PATH search with the remembered-location table. Empty when not found.
  std::string find_command(std::string_view name, bool use_hash = true);
  // The same search over an explicit PATH value (no remembered locations).
  std::string find_command_in(std::string_view name, std::string_view path_value);
  // Reaps finished background jobs without blocking.
  void reap_jobs();
  // A child reaped while waiting for another: a job is marked done, any other child's
  // status is kept for the wait_pid that claims it.
  void note_reaped(pid_t pid, int status);
  std::map<pid_t, int> reaped_unclaimed;
  // The profile's max_processes (0: none), counted by the shell itself over lash and
  // the children this process started and has not reaped, so that it binds with or
  // without a pids cgroup (the kernel bounds the session as a whole). A subshell
  // counts its own children.
  uint64_t max_processes = 0;
  std::set<pid_t> live_children;
  void child_started(pid_t pid) { live_children.insert(pid); }
  void child_gone(pid_t pid) { live_children.erase(pid); }
  // Whether one more child would take lash and its live children past max_processes.
  bool at_process_limit() const { return max_processes != 0 && live_children.size() + 2 > max_processes; }
  // Prints that refusal (Problem/Suggestion; WHAT is "run 'cc'" or "start a
  // subshell") and audits it when ACTION is given; the caller ends the command with
  // status 126.
  void refuse_at_process_limit(const std::string& what, const policy::Action* action);
  // Waits for pid (foreground or job); returns its shell status (128+N for signals).
  int wait_pid(pid_t pid, bool interruptible = false);
  // Runs pending traps, if any (called between commands).
  void run_pending_traps();
  // Whether a signal that interrupted a blocking call the shell makes for the user
  // (opening a FIFO nobody writes to) ends that call, as in dash and bash: one with a
  // trap (which then runs), a TERM or HUP that ends the shell, ^C when interactive.
  bool signal_ends_blocking_call() const;
  // Ends the shell now if a pending TERM or HUP ends it (no trap), passing it to
  // CHILD first; called where a blocking call returned EINTR. A trapped signal's trap
  // runs at the next command boundary instead, not inside this command.
  void exit_if_signal_ends_shell(pid_t child = 0);
  // Whether the signal handler passes TERM/HUP on to the foreground child: only
  // while they end the shell. Called whenever a trap or the interactive mode changes.
  void update_forwarding(int sig) const;
  void set_trap(int sig, std::optional<std::string> action);  // nullopt = reset to default
  static int signal_number(std::string_view name);  // "INT", "SIGINT", "2", "EXIT" -> 0
  static std::string signal_name(int sig);          // 2 -> "INT", 0 -> "EXIT"
  [[noreturn]] void child_exit(int status);         // end a forked child
  // Prepare a fork_shell() child: it is a subshell now.
  void become_subshell();
  void install_signal_handlers();
  void install_interactive_handlers();
  // A handler that does nothing: the system call that raised SIG fails instead
  // (SIGXFSZ: write gives EFBIG). Children get the default back at execve.
  void catch_signal_quietly(int sig);
  // Sets SIG's disposition (a handler, SIG_DFL or SIG_IGN; no SA_RESTART) and tells
  // the launcher (sandbox::note_signal_handler). The only way lash changes one.
  static void set_disposition(int sig, void (*handler)(int));
  // Says so on stderr when the shell itself reaches max_cpu_seconds, then dies of it.
  void notice_cpu_limit();
  // The profile's max_file_size on the shell itself (soft; sandbox::limit_self):
  // `ulimit -f` may not go above it. RLIM_INFINITY without one.
  rlim_t file_size_cap = RLIM_INFINITY;
  // In a session that keeps an audit log, `ulimit -f` (hard) does not lower the
  // shell's own hard limit, which its audit writes are held to: a script could
  // otherwise make every later record fail. The shell lowers its soft limit, and the
  // hard value asked for is kept here and given to every program it starts
  // (SpawnSpec::file_size_hard). RLIM_INFINITY: none asked for.
  bool keeps_own_file_size_hard = false;
  rlim_t script_file_size_hard = RLIM_INFINITY;
  [[noreturn]] void exit_by_signal(int sig);
  void run_exit_trap();
  void flush_all();
  // Called once when the main shell ends (session teardown), not in subshells.
  void (*exit_hook)() = nullptr;

 private:
  friend struct Interp;
  PlainServices plain_services_;
  SessionServices* services_ = &plain_services_;
  Output out_{1};
  Output err_{2};
};

// Process-wide pointer used by signal handlers and atexit paths.
Shell* current_shell();

// Pending-signal flags set by the async handler, read by run_pending_traps().
extern volatile sig_atomic_t g_pending_any;
extern volatile sig_atomic_t g_pending[NSIG];

}  // namespace lash::exec
