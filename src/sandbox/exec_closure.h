// The files a set of allowlisted programs needs to run: each program's real path,
// its ELF interpreter (PT_INTERP) or script interpreter (#!), and the closure of
// shared libraries (DT_NEEDED over DT_RPATH/DT_RUNPATH, /etc/ld.so.conf and the
// default directories). This is I/O, computed once per session and fed to the pure
// compile() through SessionContext.
#pragma once
#include <string>
#include <vector>

namespace lash::sandbox {

struct ExecFile {
  enum class Role { program, interpreter, library };
  std::string path;       // real path
  Role role = Role::library;
  std::string needed_by;  // the program or library that needs it ("" for programs)
};

struct ExecClosure {
  std::vector<ExecFile> files;        // each real path once, programs first
  // Read-only runtime directories of the programs that exist on this machine:
  // /usr/lib/NAME, /usr/lib/NAME-without-version (python3.11 -> python3),
  // /usr/lib/x86_64-linux-gnu/NAME, /usr/libexec/NAME, /usr/local/lib/NAME.
  std::vector<ExecFile> data_dirs;    // role library, needed_by = the program
  std::vector<std::string> problems;  // e.g. "libfoo.so.1 (needed by /usr/bin/x): not found"
  // Every file and directory whose state decided this answer (the files read, each
  // directory a name was looked up in or listed, the ld.so.conf files), so that a
  // copy kept between sessions can be checked against them (closure_cache.h).
  std::vector<std::string> depends_on;
};

// PROGRAMS are real paths (policy::SessionFacts::allow_real).
ExecClosure resolve_exec_closure(const std::vector<std::string>& programs);

// The top-level entries of DIR (absolute paths) minus the names in SECRETS; a
// directory listed in DESCEND is split one level further the same way. Used for the
// /etc baseline, so that a root session does not read /etc/shadow or host keys.
std::vector<std::string> list_except(const std::string& dir, const std::vector<std::string>& secrets,
                                     const std::vector<std::string>& descend);

// The library directories searched after RPATH/RUNPATH (ld.so.conf + defaults).
// READ, when given, receives the configuration files read and the directories their
// include patterns were expanded in.
std::vector<std::string> library_search_dirs(std::vector<std::string>* read = nullptr);

}  // namespace lash::sandbox
