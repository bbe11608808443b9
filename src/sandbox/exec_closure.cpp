// A minimal ELF reader: just enough of the headers to find PT_INTERP and the
// dynamic section's DT_NEEDED / DT_RPATH / DT_RUNPATH strings. Every offset read
// from the file is bounds-checked against the file size; a malformed file is a
// problem to report, never a crash.
#include "sandbox/exec_closure.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <unistd.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "base/real_paths.h"
#include "base/state_cache.h"

namespace lash::sandbox {
namespace {

std::string dirname_of(const std::string& p) {
  auto s = p.rfind('/');
  return s == 0 ? "/" : s == std::string::npos ? "." : p.substr(0, s);
}

// The file, read by ranges: only the headers and the needed strings of the dynamic
// string table are touched, never the whole (possibly large) binary. The first read
// (1 KiB) serves the ELF and program headers and PT_INTERP, which lie there in
// practice; anything beyond is read where it is.
class File {
 public:
  // LEAF is opened relative to DIRFD (a single-component lookup), or as PATH when
  // there is no DIRFD.
  File(int dirfd, const std::string& leaf, const std::string& path) {
    fd_ = dirfd >= 0 ? ::openat(dirfd, leaf.c_str(), O_RDONLY | O_CLOEXEC) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd_ >= 0 && fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) size_ = static_cast<uint64_t>(st.st_size);
    if (size_ > 0) {
      ssize_t n;
      do n = pread(fd_, head_, sizeof head_, 0);
      while (n < 0 && errno == EINTR);
      head_len_ = n > 0 ? static_cast<uint64_t>(n) : 0;
    }
  }
  ~File() {
    if (fd_ >= 0) close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  bool ok() const { return fd_ >= 0 && size_ > 0; }
  uint64_t size() const { return size_; }

  bool read(uint64_t off, void* dst, size_t n) const {
    if (off > size_ || size_ - off < n) return false;
    if (off <= head_len_ && head_len_ - off >= n) {
      std::memcpy(dst, head_ + off, n);
      return true;
    }
    size_t got = 0;
    while (got < n) {
      ssize_t r = pread(fd_, static_cast<char*>(dst) + got, n - got, static_cast<off_t>(off + got));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return false;
      got += static_cast<size_t>(r);
    }
    return true;
  }
  template <class T>
  bool get(uint64_t off, T& out) const {
    return read(off, &out, sizeof(T));
  }
  // A NUL-terminated string at OFF, at most PATH_MAX bytes ("" when malformed).
  std::string cstr(uint64_t off) const {
    if (off >= size_) return "";
    if (off < head_len_)
      if (const void* nul = std::memchr(head_ + off, '\0', static_cast<size_t>(head_len_ - off)))
        return std::string(head_ + off, static_cast<const char*>(nul) - (head_ + off));
    char buf[PATH_MAX];
    size_t n = static_cast<size_t>(std::min<uint64_t>(sizeof buf, size_ - off));
    if (!read(off, buf, n)) return "";
    const void* nul = std::memchr(buf, '\0', n);
    return nul ? std::string(buf, static_cast<const char*>(nul) - buf) : "";
  }

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
  char head_[1024];
  uint64_t head_len_ = 0;
};

struct ElfInfo {
  bool elf = false;
  std::string interp;  // PT_INTERP or the #! interpreter
  bool script = false;
  std::vector<std::string> needed, rpath, runpath;
};

std::vector<std::string> split_colon(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ':'))
    if (!part.empty()) out.push_back(part);
  return out;
}

// Translate a virtual address to a file offset through the PT_LOAD segments.
bool vaddr_to_off(const std::vector<Elf64_Phdr>& ph, uint64_t va, uint64_t& off) {
  for (const auto& p : ph)
    if (p.p_type == PT_LOAD && va >= p.p_vaddr && va - p.p_vaddr < p.p_filesz) {
      off = p.p_offset + (va - p.p_vaddr);
      return true;
    }
  return false;
}

bool parse_elf64(const File& f, ElfInfo& info, std::string& problem) {
  Elf64_Ehdr eh;
  if (!f.get(0, eh)) return problem = "truncated ELF header", false;
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
    return problem = "not a 64-bit little-endian ELF file", false;
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 4096)
    return problem = "bad program header table", false;
  std::vector<Elf64_Phdr> ph(eh.e_phnum);
  if (!ph.empty() && !f.read(eh.e_phoff, ph.data(), ph.size() * sizeof(Elf64_Phdr)))
    return problem = "truncated program headers", false;
  const Elf64_Phdr* dyn = nullptr;
  for (const auto& p : ph) {
    if (p.p_type == PT_INTERP) info.interp = f.cstr(p.p_offset);
    if (p.p_type == PT_DYNAMIC) dyn = &p;
  }
  if (!dyn) return true;  // static
  if (dyn->p_filesz > (1u << 20)) return problem = "oversized dynamic section", false;
  std::vector<Elf64_Dyn> entries(dyn->p_filesz / sizeof(Elf64_Dyn));
  if (!entries.empty() && !f.read(dyn->p_offset, entries.data(), entries.size() * sizeof(Elf64_Dyn)))
    return problem = "truncated dynamic section", false;
  std::vector<uint64_t> needed, rpath, runpath;
  uint64_t strtab_va = 0, strsz = 0;
  for (const Elf64_Dyn& d : entries) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED) needed.push_back(d.d_un.d_val);
    if (d.d_tag == DT_RPATH) rpath.push_back(d.d_un.d_val);
    if (d.d_tag == DT_RUNPATH) runpath.push_back(d.d_un.d_val);
    if (d.d_tag == DT_STRTAB) strtab_va = d.d_un.d_ptr;
    if (d.d_tag == DT_STRSZ) strsz = d.d_un.d_val;
  }
  uint64_t strtab = 0;
  if (!vaddr_to_off(ph, strtab_va, strtab)) return problem = "dynamic string table not in a segment", false;
  if (strtab > f.size() || strsz > f.size() - strtab) return problem = "truncated dynamic string table", false;
  // One read of the part of the table that holds the wanted strings (the table also
  // holds every dynamic symbol name: tens of KB usually, several MB for gcc's cc1, so
  // its size is no reason to give up). The part is bounded; a string outside it, or
  // when the wanted strings lie too far apart, is read on its own, at most
  // kMaxDynString bytes (a longer one is malformed for our purpose: "").
  constexpr uint64_t kMaxPart = 1u << 20, kMaxDynString = 64u << 10;
  if (needed.size() + rpath.size() + runpath.size() > 1024) return problem = "too many DT_NEEDED/RPATH entries", false;
  uint64_t lo = strsz, hi = 0;
  for (const auto* v : {&needed, &rpath, &runpath})
    for (uint64_t i : *v)
      if (i < strsz) lo = std::min(lo, i), hi = std::max(hi, i);
  std::string part;
  if (lo < strsz && hi - lo < kMaxPart) {
    part.resize(static_cast<size_t>(std::min<uint64_t>(strsz, hi + 256) - lo));
    if (!f.read(strtab + lo, part.data(), part.size())) return problem = "truncated dynamic string table", false;
  }
  auto str = [&](uint64_t i) {
    if (i >= strsz) return std::string();
    if (!part.empty() && i >= lo) {
      size_t end = part.find('\0', static_cast<size_t>(i - lo));
      if (end != std::string::npos) return part.substr(static_cast<size_t>(i - lo), end - (i - lo));
    }
    std::string rest(static_cast<size_t>(std::min(strsz - i, kMaxDynString)), '\0');
    if (!f.read(strtab + i, rest.data(), rest.size())) return std::string();
    size_t nul = rest.find('\0');
    return nul == std::string::npos ? std::string() : rest.substr(0, nul);
  };
  for (auto i : needed) info.needed.push_back(str(i));
  for (auto i : rpath)
    for (auto& d : split_colon(str(i))) info.rpath.push_back(d);
  for (auto i : runpath)
    for (auto& d : split_colon(str(i))) info.runpath.push_back(d);
  return true;
}

bool inspect(int dirfd, const std::string& leaf, const std::string& path, ElfInfo& info, std::string& problem) {
  File f(dirfd, leaf, path);
  if (!f.ok()) return problem = "cannot read", false;
  char head[256] = {};
  size_t n = static_cast<size_t>(std::min<uint64_t>(sizeof head - 1, f.size()));
  if (!f.read(0, head, n)) return problem = "cannot read", false;
  if (n >= 2 && head[0] == '#' && head[1] == '!') {
    info.script = true;
    std::string line(head + 2, n - 2);
    line = line.substr(0, line.find('\n'));
    std::istringstream ss(line);
    ss >> info.interp;
    return true;
  }
  if (n < SELFMAG || std::memcmp(head, ELFMAG, SELFMAG) != 0) return problem = "not ELF and no #! line", false;
  info.elf = true;
  return parse_elf64(f, info, problem);
}

void read_ld_conf(const std::string& file, std::vector<std::string>& out, int depth, std::vector<std::string>* read) {
  if (depth > 8) return;
  if (read) read->push_back(file);
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream ss(line);
    std::string w;
    if (!(ss >> w)) continue;
    if (w == "include") {
      std::string pat;
      while (ss >> pat) {
        if (pat[0] != '/') pat = dirname_of(file) + "/" + pat;
        if (read) read->push_back(dirname_of(pat));  // a file added there changes the answer
        glob_t g{};
        if (glob(pat.c_str(), 0, nullptr, &g) == 0)
          for (size_t i = 0; i < g.gl_pathc; ++i) read_ld_conf(g.gl_pathv[i], out, depth + 1, read);
        globfree(&g);
      }
    } else if (w[0] == '/') {
      out.push_back(w);
    }
  }
}

std::string expand_origin(std::string dir, const std::string& origin) {
  for (const char* tok : {"$ORIGIN", "${ORIGIN}"}) {
    size_t pos;
    while ((pos = dir.find(tok)) != std::string::npos) dir.replace(pos, std::strlen(tok), origin);
  }
  return dir;
}

class Resolver {
 public:
  explicit Resolver(ExecClosure& out) : out_(out), dirs_(library_search_dirs(&consulted_)) {
    consulted_set_.insert(consulted_.begin(), consulted_.end());
  }

  // Everything looked at, in the order first met.
  const std::vector<std::string>& consulted() const { return consulted_; }
  void consult(const std::string& path) {
    if (consulted_set_.insert(path).second) consulted_.push_back(path);
  }

  void add(const std::string& path, ExecFile::Role role, const std::string& by) {
    consult(dirname_of(path));  // where this spelling is looked up (a symlink may be replaced)
    // Most programs name the same few libraries by the same paths: resolve each
    // spelling once.
    auto memo = real_of_.find(path);
    if (memo == real_of_.end()) {
      memo = real_of_.emplace(path, real_paths_.resolve(path)).first;
      if (memo->second.path != path) {  // the directories of the symlinks on the way
        std::vector<std::string> chain;
        state_cache::add_symlink_chain(path, chain);
        for (const std::string& d : chain) consult(d);
      }
    }
    const RealPaths::Resolved c = memo->second;
    if (c.path.empty()) {
      out_.problems.push_back(path + (by.empty() ? "" : " (needed by " + by + ")") + ": not found");
      return;
    }
    auto it = seen_.find(c.path);
    if (it != seen_.end()) {
      // Upgrade a library that turns out to be run as an interpreter/program.
      if (role != ExecFile::Role::library) out_.files[it->second].role = role;
      return;
    }
    seen_[c.path] = out_.files.size();
    out_.files.push_back({c.path, role, by});
    consult(c.dir);
    consult(c.path);
    ElfInfo info;
    std::string problem;
    if (!inspect(c.dir_fd, c.leaf, c.path, info, problem)) {
      out_.problems.push_back(c.path + ": " + problem);
      return;
    }
    if (!info.interp.empty()) add(info.interp, ExecFile::Role::interpreter, c.path);
    for (const auto& n : info.needed) add_library(n, info, c.path);
  }

  // Whether DIR/NAME exists and is a directory (or, with REGULAR, a regular file).
  bool has(const std::string& dir, const std::string& name, bool regular) {
    consult(dir);
    bool missing = false;
    int fd = real_paths_.dir_fd(dir, &missing);
    if (missing || !real_paths_.may_hold(dir, name)) return false;
    struct stat st;
    if ((fd >= 0 ? fstatat(fd, name.c_str(), &st, 0) : stat((dir + "/" + name).c_str(), &st)) != 0) return false;
    return regular ? S_ISREG(st.st_mode) : S_ISDIR(st.st_mode);
  }

 private:
  void add_library(const std::string& name, const ElfInfo& info, const std::string& by) {
    if (name.find('/') != std::string::npos) return add(name, ExecFile::Role::library, by);
    std::string origin = dirname_of(by);
    std::vector<std::string> own;  // this object's RPATH/RUNPATH, searched first
    if (info.runpath.empty())
      for (auto& d : info.rpath) own.push_back(expand_origin(d, origin));
    for (auto& d : info.runpath) own.push_back(expand_origin(d, origin));
    for (const auto& d : own)
      if (has(d, name, true)) return add(d + "/" + name, ExecFile::Role::library, by);
    // The default search does not depend on who asks: one lookup per name.
    auto memo = default_lookup_.find(name);
    if (memo == default_lookup_.end()) {
      std::string found;
      for (const auto& d : dirs_)
        if (has(d, name, true)) {
          found = d + "/" + name;
          break;
        }
      memo = default_lookup_.emplace(name, found).first;
    }
    if (!memo->second.empty()) return add(memo->second, ExecFile::Role::library, by);
    out_.problems.push_back(name + " (needed by " + by + "): not found");
  }

  ExecClosure& out_;
  std::vector<std::string> consulted_;  // filled by library_search_dirs() first
  std::set<std::string> consulted_set_;
  std::vector<std::string> dirs_;
  RealPaths real_paths_;
  std::map<std::string, size_t> seen_;
  std::map<std::string, RealPaths::Resolved> real_of_;  // spelling -> real path
  std::map<std::string, std::string> default_lookup_;  // soname -> path in dirs_ ("" if none)
};

// The entry names of DIR, read once (a stat per candidate would cost more).
std::set<std::string> entry_names(const std::string& dir) {
  std::set<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) out.insert(e->d_name);
  closedir(d);
  return out;
}

}  // namespace

std::vector<std::string> library_search_dirs(std::vector<std::string>* read) {
  std::vector<std::string> dirs;
  read_ld_conf("/etc/ld.so.conf", dirs, 0, read);
  for (const char* d : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
                        "/lib", "/usr/lib"})
    dirs.push_back(d);
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (auto& d : dirs)
    if (seen.insert(d).second) out.push_back(d);
  return out;
}

ExecClosure resolve_exec_closure(const std::vector<std::string>& programs) {
  ExecClosure out;
  Resolver r(out);
  for (const auto& p : programs) r.add(p, ExecFile::Role::program, "");
  // The small parents are listed once and only names found there are stat'ed; the
  // library directory holds thousands of entries, where a stat per program is cheaper.
  std::map<std::string, std::set<std::string>> listed;
  for (const char* parent : {"/usr/lib", "/usr/libexec", "/usr/local/lib"}) {
    listed[parent] = entry_names(parent);
    r.consult(parent);  // the runtime directories found depend on its entries
  }
  auto may_exist = [&](const std::string& parent, const std::string& leaf) {
    auto it = listed.find(parent);
    return it == listed.end() || it->second.count(leaf) > 0;
  };
  std::set<std::string> seen;
  for (const ExecFile& f : out.files) {
    if (f.role == ExecFile::Role::library) continue;
    std::string name = f.path.substr(f.path.rfind('/') + 1);
    std::string unversioned = name.substr(0, name.find('.'));
    for (const auto& [parent, leaf] : {std::pair<std::string, std::string>{"/usr/lib", name}, {"/usr/lib", unversioned},
                                       {"/usr/lib/x86_64-linux-gnu", name}, {"/usr/libexec", name},
                                       {"/usr/local/lib", name}}) {
      std::string d = parent + "/" + leaf;
      if (may_exist(parent, leaf) && !seen.count(d) && r.has(parent, leaf, false)) {
        seen.insert(d);
        out.data_dirs.push_back({d, ExecFile::Role::library, f.path});
      }
    }
  }
  out.depends_on = r.consulted();
  return out;
}

std::vector<std::string> list_except(const std::string& dir, const std::vector<std::string>& secrets,
                                     const std::vector<std::string>& descend) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  auto matches = [](const std::vector<std::string>& pats, const std::string& name) {
    for (const auto& p : pats)
      if (fnmatch(p.c_str(), name.c_str(), FNM_PERIOD) == 0) return true;
    return false;
  };
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == ".." || matches(secrets, name)) continue;
    std::string path = dir + "/" + name;
    if (matches(descend, name)) {
      for (auto& sub : list_except(path, secrets, {})) out.push_back(std::move(sub));
      continue;
    }
    out.push_back(path);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace lash::sandbox
