// realpath() for many files that share a few directories (the allowlist's programs,
// their libraries, the Landlock rules): each directory is resolved and opened (O_PATH)
// once, and a leaf that is a symlink to a name in the same directory (gcc -> gcc-12,
// libz.so.1 -> libz.so.1.2.13) is followed with readlinkat() there. Any other symlink
// falls back to realpath(). glibc's realpath makes a readlink per path component,
// which dominated the session start of a profile with an allowlist.
#pragma once
#include <map>
#include <string>
#include <unordered_set>

#include "base/unique_fd.h"

namespace lash {

class RealPaths {
 public:
  // Under a low RLIMIT_NOFILE (a profile's max_open_files) no directory fd is kept:
  // every lookup is by name, as realpath() would do, so that the few fds there are
  // stay free for the files themselves.
  RealPaths();

  struct Resolved {
    std::string path;  // the real path; "" when PATH does not resolve
    std::string dir;   // its directory (real)
    std::string leaf;  // its last component, not a symlink
    int dir_fd = -1;   // O_PATH fd of DIR, owned by this object; -1 when it could not
                       // be opened (use DIR by name then)
  };
  Resolved resolve(const std::string& path);

  // O_PATH fd of the directory DIR (any spelling), opened once; -1 if it cannot be,
  // with *MISSING set when DIR does not exist (remembered). Any other failure (out
  // of fds under a low RLIMIT_NOFILE) is not remembered: callers fall back to names.
  int dir_fd(const std::string& dir, bool* missing = nullptr);

  // Whether DIR (as passed to dir_fd) may hold NAME. A small directory (st_size at
  // most 16 KiB: a few hundred entries, such as most PATH entries and library
  // directories other than the main one) is listed once and answers from memory, so a
  // name it lacks costs no lookup; a larger one, or one that cannot be listed (a
  // search-only directory), answers true and the caller looks NAME up. A name created
  // after the listing is missed, as it would be had it been created a moment after a
  // lookup.
  bool may_hold(const std::string& dir, const std::string& name);

 private:
  Resolved full(const std::string& path);
  bool keep_fds_ = true;
  std::map<std::string, unique_fd> dirs_;         // spelling -> O_PATH fd (-1: missing)
  std::map<std::string, std::string> dir_real_;   // spelling -> realpath ("" if none)
  struct Listing {
    bool listed = false;
    std::unordered_set<std::string> names;
  };
  std::map<std::string, Listing> listings_;       // spelling -> its names, when small
};

}  // namespace lash
