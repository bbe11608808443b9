// What the shell is about to do, fully resolved by the planner so the engine needs
// nothing from the world (real program path, absolute symlink-resolved redirect target).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lash::policy {

struct Spawn {
  std::string argv0;          // the command word as written ("curl", "./build.sh")
  std::string resolved_path;  // real path of the program; empty when not found
  // For a script under an exec path (one the job wrote): the real paths of what its
  // #! line runs (the interpreter, and NAME of "/usr/bin/env NAME"), found by the
  // planner; the engine refuses the script when one of them is not allowed, instead
  // of a bare "Permission denied" from the kernel. Empty for anything else.
  std::vector<std::string> interpreters = {};  // "= {}": Spawn{argv0, path} is complete (-Wextra)
};

enum class RedirectMode : uint8_t {
  read,         // <
  write,        // >
  append,       // >>
  clobber,      // >|
  read_write,   // <>
  write_both,   // &>
  append_both,  // &>>
};
std::string_view redirect_op(RedirectMode m);
bool is_write(RedirectMode m);

struct Redirect {
  std::string path;  // absolute, symlinks resolved
  RedirectMode mode = RedirectMode::read;
};

enum class EnvOp : uint8_t { set, unset, export_var, readonly };
std::string_view env_op_name(EnvOp op);

// A change to an exported variable (plain shell variables are not actions).
struct EnvChange {
  std::string name;
  EnvOp op = EnvOp::set;
};

struct PluginCall {
  std::string plugin;
  std::string method;
};

enum class Capability : uint8_t {
  plugin_access, config_modify, session_manage, job_control_own, job_control_others,
  audit_access, profile_manage, profile_switch
};
std::string_view capability_name(Capability c);  // "job_control_own"

struct Builtin {
  Capability capability = Capability::job_control_own;
  std::string name;  // the builtin as typed ("fg", "profile switch"), for messages
};

struct NetConnect {
  std::string host;  // name the flow is for (from DNS, SNI or Host); may be empty
  std::string ip;    // destination address literal; may be empty
  uint16_t port = 0;
  // The name the client claims: the TLS server name, or the Host of an HTTP request;
  // empty when none. With HOST set, it must equal HOST (network.md).
  std::string sni;
  // A UDP datagram rather than a TCP connection: the session's namespace lets none
  // out but DNS to the relay (network.md); only the dry run asks about them.
  bool udp = false;
};

using Action = std::variant<Spawn, Redirect, EnvChange, PluginCall, Builtin, NetConnect>;

// "spawn", "redirect", "env", "plugin", "builtin", "network" (cli.md)
std::string_view kind_name(const Action& a);
// The thing acted on, as shown in reports: argv0, path, variable, plugin.method,
// builtin name, host:port.
std::string target_of(const Action& a);

}  // namespace lash::policy
