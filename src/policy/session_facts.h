// What the engine needs from the world, resolved once when the session (or a dry run)
// is built: real paths of the spawn lists over PATH, and the writable roots expanded
// against the starting directory, HOME and the session tmpdir. Not pure: it reads the
// filesystem through FsProbe (tests pass a fake).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "policy/profile_model.h"

namespace lash::policy {

struct SessionEnv {
  std::string path_var;   // PATH at session start
  std::string start_dir;  // the session's starting directory (include_workdir, "./")
  std::string home;       // HOME ("~/")
  std::string tmpdir;     // the session tmpdir when tmpdir = session, else empty
};

struct FsProbe {
  // Real path of an existing file (symlinks resolved), nullopt if it does not exist.
  std::function<std::optional<std::string>(const std::string&)> realpath;
  // True for an executable regular file (what a PATH search accepts).
  std::function<bool(const std::string&)> executable;
  // Optional faster PATH search with the same result as resolve_on_path's loop.
  std::function<std::optional<std::string>(std::string_view name, std::string_view path_var)>
      which;
  static FsProbe system();
  bool is_system = false;  // the real filesystem (wrapper scripts are read only then)
};

struct WritableRoot {
  std::string path;  // absolute, normalized, symlinks resolved where it exists
  std::string key;   // the key that granted it: filesystem.read_write, .sandbox, ...
  // The directory resolved (st_dev, st_ino; 0 when it did not exist): the sandbox
  // refuses a grant that names another one when it is opened (a swap meanwhile).
  uint64_t dev = 0, ino = 0;
};

// An allowlisted wrapper script whose chain of interpreters and programs leaves the
// allowlist (wrapper_chain.h).
struct WrapperGap {
  std::vector<std::string> chain;  // the wrapper's real path, then each program it runs
  std::string missing;             // the first program of the chain not allowed
};

struct SessionFacts {
  std::unordered_map<std::string, std::string> allow_real_by_name;  // bare entry -> real path
  std::unordered_set<std::string> allow_real;  // real paths of every allowlist entry found
  std::unordered_set<std::string> deny_real;   // real paths of every denylist entry found
  std::vector<WritableRoot> writable_roots;
  // process.exec_paths expanded and resolved like the writable roots (key
  // "process.exec_paths"); "$TMPDIR" without a session tmpdir is left out.
  std::vector<WritableRoot> exec_roots;
  // exec_paths entries whose real path is not inside a writable root: not granted.
  std::vector<std::string> exec_roots_refused;
  std::unordered_map<std::string, WrapperGap> wrapper_gaps;  // by the wrapper's real path
};

// True when the profile leaves writes unrestricted (`read_write = /`).
bool filesystem_unrestricted(const Profile& p);
// Lexical writable roots (no filesystem access): sandbox, read_write, tmpdir,
// include_workdir, in that order.
std::vector<WritableRoot> writable_roots(const Profile& p, const SessionEnv& env);
// The real path PATH lookup would run for bare NAME, or nullopt.
std::optional<std::string> resolve_on_path(std::string_view name, std::string_view path_var,
                                           const FsProbe& fs);

SessionFacts make_session_facts(const ResolvedProfile& profile, const SessionEnv& env,
                                const FsProbe& fs = FsProbe::system());
// Real path of a spawn-list entry: PATH lookup for a bare name, realpath for a path.
std::optional<std::string> resolve_entry(const std::string& entry, const SessionEnv& env, const FsProbe& fs);
// Its two parts: the real paths of the spawn lists, and the writable roots.
void resolve_spawn_lists(SessionFacts& f, const Profile& p, const SessionEnv& env, const FsProbe& fs);
void resolve_writable_roots(SessionFacts& f, const Profile& p, const SessionEnv& env, const FsProbe& fs);
// Absolute allowlist entries with a '*' (/usr/lib/gcc/*/*/cc1): every match, resolved
// at each session start (they are not in the facts cache: a compiler upgrade changes
// them). Also called by resolve_spawn_lists().
void resolve_allowlist_globs(SessionFacts& f, const Profile& p);
bool is_allowlist_glob(const std::string& entry);
// An allowlist ENTRY found as REAL, recorded as make_session_facts does.
void add_allowed(SessionFacts& f, const std::string& entry, const std::string& real);

}  // namespace lash::policy
