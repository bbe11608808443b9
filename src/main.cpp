// lash: argument parsing, session start and end. Everything else lives in the
// layer libraries.
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/fileio.h"
#include "base/strutil.h"
#include "builtins/families.h"
#include "exec/options.h"
#include "exec/pattern.h"
#include "exec/policy_gate.h"
#include "exec/job_control.h"
#include "exec/stack_guard.h"
#include "interactive/config_vars.h"
#include "interactive/history.h"
#include "interactive/prompt.h"
#include "interactive/repl.h"
#include "interactive/sftp_refusal.h"
#include "exec/session.h"
#include "exec/denial_watch.h"
#include "exec/shell.h"
#include "lash_config.h"
#include "policy/ini_loader.h"
#include "policy/session_select.h"
#include "policy/store.h"
#include "syntax/ast_dump.h"
#include "syntax/parser.h"

extern char** environ;

namespace {

using lash::exec::Shell;

constexpr const char* kUsage =
    "Usage: lash [OPTIONS] [FILE [ARGS...]]\n"
    "       lash [OPTIONS] -c COMMANDS [NAME [ARGS...]]\n"
    "       lash [OPTIONS] -s [ARGS...]\n"
    "\n"
    "A POSIX shell in which every session runs under a security profile.\n"
    "\n"
    "Options:\n"
    "  -c COMMANDS            run COMMANDS; $0 is NAME, $1... are ARGS\n"
    "  -s                     read commands from standard input\n"
    "  -i                     interactive\n"
    "  -l, --login            login shell: read /etc/lash/login, then $LASH_HOME/login\n"
    "  -p NAME, --profile NAME, --profile=NAME\n"
    "                         run under the security profile NAME\n"
    "  -e -u -x -v -f -n -C -a  as for `set` (+X turns an option off)\n"
    "  -o OPTION, +o OPTION   set or unset a long option (pipefail, noclobber, ignoreeof,\n"
    "                         nohighlight, ...)\n"
    "  --dump-ast             with -n: print the syntax tree instead of running\n"
    "  --explain-denials      at exit, explain the refusals programs reported on their\n"
    "                         error output: path, right, the key that would allow it\n"
    "  --version              print the version and exit\n"
    "  --posix                POSIX mode (also when run as sh, or set -o posix)\n"
    "  --help                 print this help and exit\n"
    "\n"
    "A profile that restricts [network] runs its programs in a network namespace whose\n"
    "only way out is lash's relay: hosts are allowed by name (DNS, TLS SNI, HTTP Host).\n"
    "\n"
    "Interactive keys (GNU readline, ~/.inputrc): Tab completes; Alt-Enter prints the\n"
    "dry run (profile test) of the line and keeps it; ^C drops the line; ^D exits;\n"
    "^Z stops the foreground job (jobs, fg, bg). History: $LASH_HOME/history.\n"
    "\n"
    "Plugins, sessions, settings (builtins): plugin list|info|call, session list|kill,\n"
    "jobs --session ID, config get|set|unset|list, profile dismiss (see docs/plugins.md).\n"
    "\n"
    "Exit status: 0 success, 1 builtin failure, 2 usage or syntax error,\n"
    "126 refused by the profile or not executable, 127 not found, 128+N signal N.\n"
    "\n"
    "Profile and audit builtins (`profile help` for all):\n"
    "  profile list | review NAME | test NAME CMDLINE | diff A B | create NAME --from P\n"
    "  profile edit NAME | delete NAME | switch NAME | validate FILE   (--json: schema 1)\n"
    "  profile review --user USER   the profile a login of USER gets, and why\n"
    "  audit tail [N] | audit search WORD\n"
    "\n"
    "Examples:\n"
    "  lash -p ci -c 'make && make check'      run a build under the ci profile\n"
    "  lash -c 'profile review ci'              what ci may run, read, write, reach\n"
    "  lash -c \"profile test ci 'curl x'\"       would it be refused, and why\n"
    "  lash -c 'profile test --net pypi.org:443 ci'   would the relay let it through\n"
    "  lash -p restricted script.sh             a script under the restricted profile\n";

struct Invocation {
  bool command_mode = false;  // -c
  std::string command;
  bool stdin_mode = false;    // -s
  bool interactive = false;   // -i
  bool login = false;
  bool dump_ast = false;
  bool explain_denials = false;  // --explain-denials
  std::optional<std::string> profile;  // -p NAME (policy layer); set even when empty
  std::vector<std::string> operands;
};

[[noreturn]] void usage_error(const std::string& msg) {
  std::string text = "lash: " + msg + "\n" + "Try 'lash --help' for more information.\n";
  (void)!::write(2, text.data(), text.size());
  ::_exit(2);
}

// The arguments after argv[0]. Linux passes everything after the interpreter on a
// #! line as one argument (`#!/usr/bin/lash -p ci` gives "-p ci"), so a first
// argument that starts with - or + and holds spaces or tabs is split at them. Such
// an argument was an error before the split, so no valid invocation changes meaning.
std::vector<std::string> arguments(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i == 1 && (a[0] == '-' || a[0] == '+') && a.find_first_of(" \t") != std::string::npos) {
      std::replace(a.begin(), a.end(), '\t', ' ');
      for (auto& w : lash::str::split(a, ' '))
        if (!w.empty()) args.push_back(w);
      continue;
    }
    args.push_back(std::move(a));
  }
  return args;
}

// Parses options up to the first operand. Shell options go straight into sh.
Invocation parse_args(Shell& sh, int argc_in, char** argv_in) {
  Invocation inv;
  std::vector<std::string> argv = arguments(argc_in, argv_in);
  size_t argc = argv.size();
  size_t i = 0;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "--version") {
      std::string v = std::string("lash ") + LASH_VERSION + "\n";
      (void)!::write(1, v.data(), v.size());
      ::_exit(0);
    }
    if (a == "--help") {
      (void)!::write(1, kUsage, std::strlen(kUsage));
      ::_exit(0);
    }
    if (a == "--posix") {
      sh.opt.posix = true;
      lash::exec::pattern_caret_negates = false;
      continue;
    }
    if (a == "--login") {
      inv.login = true;
      continue;
    }
    if (a == "--dump-ast") {
      inv.dump_ast = true;
      continue;
    }
    if (a == "--explain-denials") {
      inv.explain_denials = true;
      continue;
    }
    if (a == "--profile" || a.rfind("--profile=", 0) == 0) {
      if (a == "--profile") {
        if (i + 1 >= argc) usage_error("--profile needs a profile name");
        inv.profile = argv[++i];
      } else {
        inv.profile = a.substr(10);
      }
      continue;
    }
    if (a.size() >= 2 && a[0] == '-' && a[1] == '-') usage_error("unknown option '" + a + "'");
    if (a.size() < 2 || (a[0] != '-' && a[0] != '+')) break;
    bool on = a[0] == '-';
    for (size_t k = 1; k < a.size(); ++k) {
      char c = a[k];
      if (on && c == 'c') {
        inv.command_mode = true;
      } else if (on && c == 's') {
        inv.stdin_mode = true;
      } else if (on && c == 'i') {
        inv.interactive = true;
      } else if (on && c == 'l') {
        inv.login = true;
      } else if (on && c == 'p') {
        if (i + 1 >= argc) usage_error("-p needs a profile name");
        inv.profile = argv[++i];
      } else if (c == 'o') {
        if (i + 1 >= argc) {
          std::string list = lash::exec::list_options(sh, !on);
          (void)!::write(1, list.data(), list.size());
          continue;
        }
        std::string name = argv[++i];
        if (!lash::exec::set_long_option(sh, name, on)) usage_error("unknown option name '" + name + "'");
      } else if (!lash::exec::set_short_option(sh, c, on)) {
        usage_error(std::string("unknown option '") + a[0] + c + "'");
      }
    }
  }
  for (; i < argc; ++i) inv.operands.push_back(argv[i]);
  if (inv.command_mode) {
    if (inv.operands.empty()) usage_error("-c needs a command string");
    inv.command = inv.operands.front();
    inv.operands.erase(inv.operands.begin());
  }
  return inv;
}

void init_variables(Shell& sh) {
  sh.vars.import_environ(environ);
  sh.vars.set("IFS", " \t\n");
  if (!sh.vars.get("PS1")) sh.vars.set("PS1", ::geteuid() == 0 ? "# " : "$ ");
  if (!sh.vars.get("PS2")) sh.vars.set("PS2", "> ");
  if (!sh.vars.get("PS4")) sh.vars.set("PS4", "+ ");
  sh.vars.set("OPTIND", "1");
  // Lets scripts tell lash apart; BASH_VERSION stays unset so none takes lash for bash.
  sh.vars.set("LASH_VERSION", LASH_VERSION);
  sh.vars.set("PPID", std::to_string(::getppid()));
  // PWD from the environment is kept only if it names the current directory.
  char buf[PATH_MAX];
  const std::string* pwd = sh.vars.get("PWD");
  struct stat a, b;
  bool pwd_ok = pwd && !pwd->empty() && (*pwd)[0] == '/' && ::stat(pwd->c_str(), &a) == 0 &&
                ::stat(".", &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
  if (!pwd_ok && ::getcwd(buf, sizeof buf)) sh.vars.set("PWD", buf);
}

// Login shells read the system login file, then the user's. They are lash's own state,
// read like policy files: one name each (a symlink or second hard link could lie in a
// session's writable grant) and $LASH_HOME as the sandbox protects it.
void run_login_files(Shell& sh) {
  for (const std::string& path : {lash::policy::system_dir() + "/login", lash::policy::lash_home() + "/login"}) {
    auto read = lash::policy::read_policy_file(path, lash::policy::kMaxPolicyFile);
    if (!read) {
      sh.error("login file not read: " + read.error().message());
      continue;
    }
    if (!*read) continue;
    std::string text = std::move(**read);
    try {
      sh.run_text(text, path);
    } catch (const lash::exec::FatalError&) {
    }
    sh.ctl = lash::exec::Ctl::none;
  }
}

int dump_ast(const std::string& text, const std::string& name) {
  lash::syntax::ParseOptions po;
  po.max_stack_bytes = std::min(po.max_stack_bytes, lash::exec::stack_bytes_left());
  po.filename = name;
  auto r = lash::syntax::parse(text, po);
  if (r.error) {
    std::string msg = "lash: " + r.error->render() + "\n";
    (void)!::write(2, msg.data(), msg.size());
    return 2;
  }
  std::string d = lash::syntax::dump(*r.program);
  (void)!::write(1, d.data(), d.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  lash::builtins::register_all();
  lash::interactive::register_history_builtin();
  Shell sh;
  bool ps1_from_environment = ::getenv("PS1") != nullptr;
  init_variables(sh);
  // Started as `sh` (or `-sh`): POSIX mode, as bash --posix.
  if (argv[0]) {
    std::string_view base = argv[0];
    if (auto slash = base.rfind('/'); slash != std::string_view::npos) base.remove_prefix(slash + 1);
    if (!base.empty() && base[0] == '-') base.remove_prefix(1);
    if (base == "sh") sh.opt.posix = true, lash::exec::pattern_caret_negates = false;
  }
  Invocation inv = parse_args(sh, argc, argv);
  if (argv[0] && argv[0][0] == '-') inv.login = true;

  bool from_stdin = !inv.command_mode && (inv.stdin_mode || inv.operands.empty());
  if (inv.interactive || (from_stdin && !inv.stdin_mode && ::isatty(0) && ::isatty(2))) sh.opt.interactive = true;
  sh.opt.stdin_cmds = from_stdin;
  sh.install_signal_handlers();
  if (sh.opt.interactive) sh.install_interactive_handlers();
  // A person at a terminal: line editing, history, completion, job control.
  const bool terminal_session = sh.opt.interactive && from_stdin && ::isatty(0) && !inv.dump_ast;
  if (terminal_session) {
    if (!ps1_from_environment) sh.vars.set("PS1", lash::interactive::kDefaultPs1);
    lash::exec::init_job_control(sh);
  }
  if (sh.opt.interactive) lash::interactive::apply_config_variables(sh);  // prompt.ps1, history.*

  // -n only parses: it needs no profile. Everything else runs under one.
  if (!(sh.opt.noexec && !sh.opt.interactive)) {
    // An empty -p is an error, never "no choice" (a script's `lash -p "$P"` with P
    // unset must not run unsandboxed under the default); the selector refuses it.
    auto started = lash::exec::start_session(sh, inv.profile);
    if (!started) {
      std::string msg = "lash: " + started.error().message() + "\n";
      (void)!::write(2, msg.data(), msg.size());
      return 2;
    }
    if (inv.explain_denials) {
      if (std::string why = lash::exec::start_denial_watch(); !why.empty()) {
        std::string msg = "lash: warning: --explain-denials is off: " + why + "\n";
        (void)!::write(2, msg.data(), msg.size());
      }
    }
  }

  // PS4 expanded with the prompt escapes, as bash does (\p: the active profile).
  sh.trace_prefix = [&sh](const std::string& ps4) {
    return lash::interactive::expand_prompt(sh, ps4, sh.gate ? sh.gate->profile_name : std::string("none"));
  };
  if (inv.login) run_login_files(sh);

  if (inv.command_mode) {
    sh.arg0 = inv.operands.empty() ? argv[0] : inv.operands.front();
    if (!inv.operands.empty()) sh.params.assign(inv.operands.begin() + 1, inv.operands.end());
    if (inv.dump_ast) return dump_ast(inv.command, "-c");
    int st = sh.run_text(inv.command, "-c");
    // sshd's sftp subsystem, refused: said in sftp itself, since sshd drops its stderr.
    if (st == 126 && !::isatty(0) && lash::interactive::is_sftp_server_command(inv.command))
      lash::interactive::refuse_sftp(0, 1, lash::interactive::sftp_refusal_message(sh, inv.command));
    sh.exit_shell(sh.ctl == lash::exec::Ctl::exit ? sh.exit_status_for_ctl : st);
  }
  if (!from_stdin) {
    const std::string& file = inv.operands.front();
    sh.arg0 = file;
    sh.script_path = file;
    sh.params.assign(inv.operands.begin() + 1, inv.operands.end());
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      int err = errno;
      std::string msg = "lash: cannot open " + file + ": " + std::strerror(err) + "\n";
      (void)!::write(2, msg.data(), msg.size());
      return err == ENOENT ? 127 : 126;
    }
    // Keep the script's fd out of the range scripts use (0-9).
    int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
    if (high >= 0) {
      ::close(fd);
      fd = high;
    }
    if (inv.dump_ast) {
      std::string text;
      lash::read_all_fd(fd, text);
      return dump_ast(text, file);
    }
    int st = sh.run_fd(fd, file);
    sh.exit_shell(sh.ctl == lash::exec::Ctl::exit ? sh.exit_status_for_ctl : st);
  }
  sh.arg0 = argv[0];
  sh.params = inv.operands;
  if (terminal_session) lash::interactive::run_interactive(sh);
  int st = sh.run_fd(0, "stdin");
  sh.exit_shell(sh.ctl == lash::exec::Ctl::exit ? sh.exit_status_for_ctl : st);
}
