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
  std::vector<std::string> problems;  // e.g. "libfoo.so.1 (needed by /usr/bin/x): not found"
};

// PROGRAMS are real paths (policy::SessionFacts::allow_real).
ExecClosure resolve_exec_closure(const std::vector<std::string>& programs);

// The library directories searched after RPATH/RUNPATH (ld.so.conf + defaults).
std::vector<std::string> library_search_dirs();

}  // namespace lash::sandbox
