// The Problem/Suggestion texts of cli.md, one function per rule, and their rendering.
// `Problem:` says what was refused and under which profile; `Suggestion:` names the key
// that decided and what would change the outcome. Pure.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "policy/action.h"
#include "policy/decision.h"

namespace lash::policy::explain {

// Control bytes shown as \xNN, so a refusal stays exactly two lines.
std::string display(std::string_view s);

// "This session (profile: P) cannot run 'X'." (and the matching verb for each kind)
std::string problem(std::string_view profile, const Action& action);

std::string not_in_allowlist(std::string_view argv0);
std::string allowlist_mismatch(std::string_view name, std::string_view allowed,
                               std::string_view actual);
std::string in_denylist(std::string_view argv0);
// An allowlisted wrapper script (a version-manager shim) that runs MISSING, which is not
// allowed; CHAIN is "wrapper -> interpreter -> program".
std::string wrapper_gap(std::string_view argv0, std::string_view chain, std::string_view missing);
// A script the job wrote (under exec_paths) whose #! line runs MISSING, not allowed.
std::string script_interpreter_gap(std::string_view argv0, std::string_view chain, std::string_view missing,
                                   bool denylisted);
std::string no_file_redirect();
std::string outside_writable(std::string_view path, const std::vector<std::string>& roots);
std::string protected_path(std::string_view entry);
std::string no_env_mutation();
std::string not_in_safelist(std::string_view name);
std::string capability_needed(std::string_view what, Capability cap);
std::string no_plugin_access();
std::string plugin_not_allowed(std::string_view plugin);
std::string host_not_allowed(std::string_view host);
std::string port_not_allowed(uint16_t port, std::string_view allowed);
std::string network_closed();
std::string loopback_not_allowed(uint16_t port, std::string_view allowed);
std::string udp_dropped(uint16_t port);

// The two lines printed on stderr for a refusal, each ending in '\n'.
// "Problem: ...\nSuggestion: ..." with the deciding key and where it was set, then
// the session's advice on what would change the outcome.
std::string refusal_lines(const Decision& d);
// What the user can do in this session: change the key, start another profile, or
// (profile assigned by lash.conf, no profile_switch) ask the administrator.
void set_session_advice(std::string advice);
// One line of `profile test`: "deny   spawn curl -> /usr/bin/curl  [process.spawn_allowlist base]"
std::string action_line(const Action& a, const Decision& d);

}  // namespace lash::policy::explain
