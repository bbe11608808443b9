#include "interactive/history.h"

#include <fcntl.h>
#include <malloc.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/fileio.h"
#include "base/strutil.h"
#include "base/unique_fd.h"
#include "exec/builtin_api.h"
#include "interactive/line_editor.h"

namespace lash::interactive {

namespace {

constexpr size_t kMaxFileBytes = size_t(64) << 20;  // a bigger file is not read

size_t number_var(exec::Shell& sh, const char* name, size_t fallback) {
  const std::string* v = sh.vars.get(name);
  if (!v || v->empty()) return fallback;
  auto n = str::parse_int(*v);
  if (!n) return fallback;
  if (*n < 0) return size_t(-1);  // negative: unlimited, as bash
  return size_t(*n);
}

bool is_marker(std::string_view line) {
  return line.size() > 1 && line[0] == '#' && line.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

std::string encode(const std::string& entry) {
  return "#" + std::to_string(::time(nullptr)) + "\n" + entry + "\n";
}

History* g_active = nullptr;

// Where to cut TEXT, a file of marked entries ("#EPOCH" line, then the entry's lines),
// so that it keeps its last LIMIT entries as they are: the offset of the first kept
// entry's marker, or npos when it holds no more. PLAIN: TEXT does not start with a
// marker (lines of another shell's history), which only parse_history reads rightly.
// One pass without a copy: the shared file is trimmed after every command, and at
// 10,000 entries parsing it each time took 20 ms.
size_t cut_offset(std::string_view text, size_t limit, bool& plain) {
  std::vector<size_t> starts;  // the marker of each entry that has a line
  size_t pending = std::string_view::npos;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    if (is_marker(text.substr(pos, end - pos))) {
      pending = pos;
    } else if (pending != std::string_view::npos) {
      starts.push_back(pending);
      pending = std::string_view::npos;
    } else if (starts.empty()) {
      plain = true;
      return std::string_view::npos;
    }
    pos = end + 1;
  }
  return starts.size() > limit ? starts[starts.size() - limit] : std::string_view::npos;
}

}  // namespace

std::vector<std::string> parse_history(const std::string& text) {
  // Views into TEXT, no copy per line: 10,000 entries load in a few milliseconds.
  std::vector<std::string> out;
  std::string_view all(text);
  bool in_entry = false;
  size_t pos = 0;
  while (pos < all.size()) {
    size_t nl = all.find('\n', pos);
    std::string_view line = all.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? all.size() : nl + 1;
    if (is_marker(line)) {
      out.emplace_back();
      in_entry = false;
      continue;
    }
    if (!out.empty() && in_entry) {
      out.back().append("\n").append(line);
    } else if (!out.empty() && out.back().empty() && !in_entry) {
      out.back().assign(line);
    } else {
      out.emplace_back(line);
    }
    in_entry = true;
  }
  std::erase_if(out, [](const std::string& e) { return e.empty(); });
  return out;
}

History::History(exec::Shell& sh, std::string path, std::function<bool()> may_write)
    : sh_(sh), path_(std::move(path)), may_write_(std::move(may_write)) {}

size_t History::size_limit() const { return number_var(sh_, "HISTSIZE", 500); }

size_t History::file_size_limit() const { return number_var(sh_, "HISTFILESIZE", size_limit()); }

std::vector<std::string> History::entries() const {
  std::vector<std::string> out;
  size_t n = editor_history_length();
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(editor_history_entry(i));
  return out;
}

void History::load() {
  editor_clear_history();
  size_t limit = size_limit();
  editor_limit_history(limit == size_t(-1) ? -1 : int(std::min<size_t>(limit, 1000000)));
  unique_fd fd(::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY));
  if (!fd) return;
  struct stat st;
  // Another user's file (or one others may write) is not this user's history.
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 022) ||
      size_t(st.st_size) > kMaxFileBytes)
    return;
  std::string text;
  if (read_all_fd(fd.get(), text, kMaxFileBytes) != 0) return;
  std::vector<std::string> all = parse_history(text);
  size_t from = all.size() > limit ? all.size() - limit : 0;
  for (size_t i = from; i < all.size(); ++i) editor_add_history(all[i]);
  // The file's text and the parse are freed in the middle of the heap: give those
  // pages back, or an idle shell keeps them (its RSS is measured against bash's).
  text = std::string();
  all = std::vector<std::string>();
  ::malloc_trim(0);
}

void History::add(const std::string& entry_in) {
  std::string entry = entry_in;
  while (!entry.empty() && entry.back() == '\n') entry.pop_back();
  if (entry.empty()) return;
  const std::string* ctl = sh_.vars.get("HISTCONTROL");
  std::string control = ctl ? *ctl : "";
  auto has = [&](const char* word) {
    for (const auto& w : str::split(control, ':'))
      if (w == word) return true;
    return false;
  };
  bool ignorespace = has("ignorespace") || has("ignoreboth");
  bool ignoredups = has("ignoredups") || has("ignoreboth");
  if (ignorespace && (entry[0] == ' ' || entry[0] == '\t')) return;
  size_t count = editor_history_length();
  if (ignoredups && count > 0 && editor_history_entry(count - 1) == entry) return;
  if (has("erasedups")) editor_erase_history(entry);
  size_t limit = size_limit();
  if (limit == 0) return;
  // HISTSIZE as it is now (the editor drops the oldest beyond it).
  editor_limit_history(limit == size_t(-1) ? -1 : int(std::min<size_t>(limit, 1000000)));
  editor_add_history(entry);
  append_to_file(entry);
}

void History::append_to_file(const std::string& entry) {
  size_t file_limit = file_size_limit();
  if (file_limit == 0 || path_.empty() || !may_write_ || !may_write_()) return;
  const int flags = O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
  unique_fd fd(::open(path_.c_str(), flags, 0600));
  if (!fd && errno == ENOENT) {
    // $LASH_HOME itself may not exist yet (only sandboxed sessions make it at start).
    size_t slash = path_.rfind('/');
    // Another session may make it at the same moment: EEXIST is as good.
    if (slash != std::string::npos && slash > 0 &&
        (::mkdir(path_.substr(0, slash).c_str(), 0700) == 0 || errno == EEXIST))
      fd.reset(::open(path_.c_str(), flags, 0600));
  }
  if (!fd) return;
  struct stat st;
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || st.st_nlink != 1) return;
  if (::flock(fd.get(), LOCK_EX) != 0) return;
  std::string rec = encode(entry);
  (void)exec::write_all(fd.get(), rec);
  // Trim in place, still under the lock: every session appends with the lock held.
  if (file_limit != size_t(-1) && ::fstat(fd.get(), &st) == 0 && size_t(st.st_size) <= kMaxFileBytes &&
      st.st_size > 0) {
    std::string text;
    if (::lseek(fd.get(), 0, SEEK_SET) == 0 && read_all_fd(fd.get(), text, kMaxFileBytes) == 0) {
      bool plain = false;
      size_t cut = cut_offset(text, file_limit, plain);
      if (!plain) {
        if (cut != std::string::npos && ::ftruncate(fd.get(), 0) == 0)
          (void)exec::write_all(fd.get(), std::string_view(text).substr(cut));
      } else {
        std::vector<std::string> all = parse_history(text);
        if (all.size() > file_limit) {
          std::string kept;
          for (size_t i = all.size() - file_limit; i < all.size(); ++i) kept += encode(all[i]);
          if (::ftruncate(fd.get(), 0) == 0) (void)exec::write_all(fd.get(), kept);
        }
      }
    }
  }
  ::flock(fd.get(), LOCK_UN);
}

void History::clear() {
  editor_clear_history();
}

void set_active_history(History* h) { g_active = h; }

namespace {

int bi_history(exec::Shell& sh, std::vector<std::string>& argv) {
  if (argv.size() > 1 && argv[1] == "-c") {
    if (g_active) g_active->clear();
    return 0;
  }
  size_t count = size_t(-1);
  if (argv.size() > 1) {
    auto n = str::parse_int(argv[1]);
    if (!n || *n < 0) {
      sh.error("history: usage: history [-c] [N]");
      return 2;
    }
    count = size_t(*n);
  }
  if (!g_active) return 0;
  const auto& e = g_active->entries();
  size_t from = count < e.size() ? e.size() - count : 0;
  for (size_t i = from; i < e.size(); ++i) {
    std::string num = std::to_string(i + 1);
    if (num.size() < 5) num.insert(0, 5 - num.size(), ' ');
    sh.out() << num << "  " << e[i] << '\n';
  }
  return 0;
}

constexpr exec::BuiltinDef kHistory[] = {
    {"history", bi_history, exec::no_effects, exec::BuiltinKind::regular, "list the command history"},
};

}  // namespace

void register_history_builtin() { exec::register_builtins(kHistory); }

}  // namespace lash::interactive
