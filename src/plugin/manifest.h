// A plugin's manifest (plugin.ini beside its program), read with the same hardened
// INI reader as profiles:
//
//   [plugin]
//   name = git-info            ; as plugin names in profiles (validate.h)
//   version = 1.0
//   description = one line
//   executable = git-info.py   ; relative to the manifest's directory
//   timeout = 5                ; seconds per call (optional; plugin.timeout otherwise)
//   [method status]
//   description = one line
//   params = path, verbose     ; parameter names (optional)
//   [access]                   ; what the plugin itself needs, in profile keys
//   read_only = /usr, /etc     ; readable (and executable: interpreters, libraries)
//   read_write = ~/.cache/x    ; readable and writable ($LASH_HOME/... allowed too)
//   allow_hosts = example.org  ; empty or absent: no TCP connections at all
//
// The access only ever narrows the session's sandbox (host.h).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/diag.h"

namespace lash::plugin {

struct Method {
  std::string name, description;
  std::vector<std::string> params;
};

struct Access {
  std::vector<std::string> read_only, read_write, allow_hosts;
};

struct Manifest {
  std::string file;        // the manifest's path
  std::string dir;         // its directory
  std::string name, version, description;
  std::string executable;  // absolute (resolved against dir)
  int timeout_seconds = 0;  // 0: the configured default
  std::vector<Method> methods;
  Access access;
  const Method* find(std::string_view method) const;
};

inline constexpr size_t kMaxMethods = 64;

// Parses TEXT (FILE in diagnostics; DIR is the manifest's directory). Appends to DIAGS
// and returns nullopt when the manifest is not valid.
std::optional<Manifest> parse_manifest(std::string_view text, const std::string& file, const std::string& dir,
                                       policy::Diags& diags);

}  // namespace lash::plugin
