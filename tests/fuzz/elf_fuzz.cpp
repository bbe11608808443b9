// libFuzzer target for the ELF and #! reader behind the exec closure
// (sandbox/exec_closure.h): an allowlisted program may be any file a user put on
// PATH, and lash reads its headers, interpreter, DT_NEEDED, RPATH and RUNPATH
// ($ORIGIN included) before the session starts. Input: the program's bytes,
// written to a file in a private temporary directory. Besides never crashing or
// hanging: the program comes first, every path is absolute and listed once, and
// what was consulted is recorded (the cache checks it).
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include "sandbox/exec_closure.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

const std::string& program_path() {
  static const std::string path = [] {
    char dir[] = "/tmp/lash-elf-fuzz.XXXXXX";
    check(mkdtemp(dir) != nullptr);
    return std::string(dir) + "/prog";
  }();
  static const bool cleanup = [] {
    return std::atexit([] {
      unlink(path.c_str());
      rmdir(path.substr(0, path.rfind('/')).c_str());
    }) == 0;
  }();
  (void)cleanup;
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = program_path();
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  check(fd >= 0);
  check(write(fd, data, size) == static_cast<ssize_t>(size));
  check(close(fd) == 0);

  lash::sandbox::ExecClosure c = lash::sandbox::resolve_exec_closure({path});
  check(!c.files.empty() && c.files[0].path == path);
  check(c.files[0].role == lash::sandbox::ExecFile::Role::program);
  std::set<std::string> seen;
  for (const auto& f : c.files) {
    check(!f.path.empty() && f.path[0] == '/');
    check(seen.insert(f.path).second);
  }
  check(!c.depends_on.empty());
  return 0;
}
