#include "policy/user_config.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "base/fileio.h"
#include "base/strutil.h"
#include "base/unique_fd.h"
#include "policy/ini_loader.h"
#include "policy/session_select.h"
#include "policy/validate.h"

namespace lash::policy {

const std::vector<ConfigKeyInfo>& config_keys() {
  static const std::vector<ConfigKeyInfo> keys = {
      {"profile.default", "profile", "the profile of a session nothing else chooses one for"},
      {"profile.auto_detect", "bool", "suggest a profile from the context at session start"},
      {"prompt.ps1", "text", "the primary prompt"},
      {"history.size", "count", "history entries kept in memory"},
      {"history.file_size", "count", "history entries kept in the history file"},
      {"plugin.timeout", "seconds", "seconds a plugin call may take (default 10)"},
      {"audit.syslog", "bool", "also send audit records to syslog"},
  };
  return keys;
}

const ConfigKeyInfo* find_config_key(std::string_view key) {
  for (const auto& k : config_keys())
    if (k.name == key) return &k;
  return nullptr;
}

bool is_config_section(std::string_view section) {
  for (const auto& k : config_keys())
    if (k.name.substr(0, k.name.find('.')) == section) return true;
  return false;
}

Result<std::string> validate_config_value(std::string_view key, std::string_view value) {
  const ConfigKeyInfo* k = find_config_key(key);
  if (!k) return Error{"unknown key (see 'config list --keys')", std::string(key), 0, {}};
  auto bad = [&](std::string what) { return Error{std::move(what), std::string(key), 0, {}}; };
  if (k->kind == "profile") {
    auto n = validate::profile_name(value);
    if (!n) return bad(n.error().what);
    return *n;
  }
  if (k->kind == "bool") {
    auto b = validate::boolean(value);
    if (!b) return bad(b.error().what);
    return std::string(*b ? "true" : "false");
  }
  if (k->kind == "count" || k->kind == "seconds") {
    auto v = str::parse_int(value);
    int64_t max = k->kind == "seconds" ? 3600 : 10000000;
    int64_t min = k->kind == "seconds" ? 1 : 0;
    if (!v || *v < min || *v > max)
      return bad("expected a whole number from " + std::to_string(min) + " to " + std::to_string(max));
    return std::to_string(*v);
  }
  // text: one line that the INI reader reads back as written.
  if (value.size() > 150) return bad("longer than 150 bytes");
  for (char c : value)
    if (c == '\n' || c == '\r' || c == '\0') return bad("must be one line");
  if (value.find(" ;") != std::string_view::npos || value.find("\t;") != std::string_view::npos)
    return bad("' ;' would start a comment in the file");
  return std::string(value);
}

std::vector<ConfigValue> parse_config(std::string_view text, const std::string& file, bool system,
                                      std::vector<std::string>* warnings) {
  std::vector<ConfigValue> out;
  Diags diags;
  auto doc = read_ini(text, file, diags);
  // A duplicate key is a soft error of read_ini (the document comes back so a profile
  // can report every error at once); here any error makes the file invalid.
  if (!doc || !diags.empty()) {
    if (warnings)
      for (auto& d : diags) warnings->push_back(d.text());
    return out;
  }
  for (const auto& sec : doc->sections) {
    if (system && !is_config_section(sec.name)) continue;  // [users], [groups]
    for (const auto& e : sec.entries) {
      std::string key = sec.name + "." + e.key;
      std::string_view raw = e.value;
      // A text written with blanks at its ends is quoted (edit_config_text).
      if (const ConfigKeyInfo* k = find_config_key(key); k && k->kind == "text" && raw.size() >= 2 &&
                                                         raw.front() == '"' && raw.back() == '"')
        raw = raw.substr(1, raw.size() - 2);
      auto v = validate_config_value(key, raw);
      if (!v || !e.continuations.empty()) {
        if (warnings)
          warnings->push_back(file + ":" + std::to_string(e.line) + ": " +
                              (v ? key + ": indented lines are not allowed" : v.error().message()));
        continue;
      }
      out.push_back({key, *v, file, e.line, system});
    }
  }
  return out;
}

std::string user_config_path() { return lash_home() + "/config"; }

std::vector<ConfigValue> effective_config(std::vector<std::string>* warnings) {
  std::vector<ConfigValue> out;
  std::string text;
  if (read_whole_file(user_config_path(), text, kMaxPolicyFile + 1) == 0 && text.size() <= kMaxPolicyFile)
    out = parse_config(text, user_config_path(), false, warnings);
  if (auto sys = read_system_policy(system_dir()); sys && sys->untrusted.empty() && sys->error.empty()) {
    for (auto& v : parse_config(sys->text, sys->path, true, warnings)) {
      std::erase_if(out, [&](const ConfigValue& u) { return u.key == v.key; });
      out.push_back(std::move(v));
    }
  }
  return out;
}

std::optional<ConfigValue> config_value(std::string_view key) {
  for (auto& v : effective_config())
    if (v.key == key) return v;
  return std::nullopt;
}

std::string edit_config_text(std::string_view text, std::string_view key, const std::optional<std::string>& value) {
  std::string section(key.substr(0, key.find('.')));
  std::string name(key.substr(key.find('.') + 1));
  std::string shown = value ? *value : "";
  if (value && (value->empty() || str::trim(*value) != *value || value->front() == '"')) shown = "\"" + *value + "\"";
  std::vector<std::string> lines = str::split(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  std::string current;
  long section_end = -1;  // index after the last line of [section]
  bool done = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view t = str::trim(lines[i]);
    if (!t.empty() && t[0] == '[') {
      size_t close = t.find(']');
      current = std::string(str::trim(t.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1)));
      if (current == section) section_end = long(i) + 1;
      continue;
    }
    if (current != section) continue;
    if (!t.empty() && t[0] != ';' && t[0] != '#') section_end = long(i) + 1;
    size_t eq = t.find_first_of("=:");
    if (eq == std::string_view::npos || str::trim(t.substr(0, eq)) != name || done) continue;
    if (value) lines[i] = name + " = " + shown;
    else lines.erase(lines.begin() + long(i)), --i;
    done = true;
  }
  if (!done && value) {
    if (section_end >= 0) {
      lines.insert(lines.begin() + section_end, name + " = " + shown);
    } else {
      if (!lines.empty()) lines.push_back("");
      lines.push_back("[" + section + "]");
      lines.push_back(name + " = " + shown);
    }
  }
  std::string out;
  for (auto& l : lines) out += l + "\n";
  return out;
}

Result<void> update_user_config(std::string_view key, const std::optional<std::string>& value) {
  std::string home = lash_home();
  if (make_directories(home, 0700) != 0 && errno != EEXIST) return sys_error("cannot create", home, errno);
  std::string path = user_config_path();
  unique_fd lock(::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!lock) return sys_error("cannot open the lock", path + ".lock", errno);
  while (::flock(lock.get(), LOCK_EX) != 0)
    if (errno != EINTR) return sys_error("cannot lock", path + ".lock", errno);
  std::string text;
  int err = read_whole_file(path, text, kMaxPolicyFile + 1);
  if (err != 0 && err != ENOENT) return sys_error("cannot read", path, err);
  if (text.size() > kMaxPolicyFile) return Error{"over 64 KiB; not changed", path, 0, {}};
  std::string next = edit_config_text(text, key, value);
  // What is written must read back: the edit is checked before it replaces the file.
  Diags diags;
  if (!read_ini(next, path, diags) || !diags.empty()) return Error{"the edited file would not parse; not changed", path, 0, {}};
  struct stat st;
  mode_t mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 0777) : 0600;
  std::string tmp = path + ".new-XXXXXX";
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return sys_error("cannot create", tmp, errno);
  unique_fd out(fd);
  bool ok = ::fchmod(fd, mode) == 0;
  for (size_t off = 0; ok && off < next.size();) {
    ssize_t n = ::write(fd, next.data() + off, next.size() - off);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) off += size_t(n);
  }
  ok = ok && ::fsync(fd) == 0;
  err = errno;
  out.reset();
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    if (ok) err = errno;
    ::unlink(tmp.c_str());
    return sys_error("cannot write", path, err);
  }
  return {};
}

}  // namespace lash::policy
