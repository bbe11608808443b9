#include "policy/profile_loader.h"
#include "policy/auto_detect.h"

#include <algorithm>
#include <type_traits>

#include "policy/ini_loader.h"
#include "policy/validate.h"

namespace lash::policy {
namespace {

struct Ctx {
  const ProfileFile& file;
  Diags& diags;
  void error(int line, std::string_view key, std::string msg) {
    diags.push_back(Diag{file.path, line, std::string(key), std::move(msg)});
  }
};

// Validates one list item according to KIND.
Result<std::string> check_item(Kind kind, std::string_view item) {
  switch (kind) {
    case Kind::path_list: return validate::path(item);
    case Kind::relpath_list: return validate::relative_path(item);
    case Kind::exec_path_list: return validate::exec_path(item);
    case Kind::program_list: return validate::program(item);
    case Kind::host_list: return validate::host_pattern(item);
    case Kind::env_pattern_list: return validate::env_pattern(item);
    case Kind::env_force_list: return validate::env_force(item);
    case Kind::plugin_list: return validate::plugin_name(item);
    default: return std::string(item);
  }
}

// Parses the items of one physical line into OUT (strings or ports).
template <class Item>
bool parse_items(Ctx& cx, const KeyInfo& key, int line, std::string_view text,
                 std::vector<Item>& out) {
  auto items = validate::split_list(text);
  if (!items) {
    cx.error(line, key.key(), items.error().what);
    return false;
  }
  bool ok = true;
  for (const auto& item : *items) {
    if constexpr (std::is_same_v<Item, PortRange>) {
      auto p = validate::port_range(item);
      if (p) {
        out.push_back(*p);
      } else {
        cx.error(line, key.key(), p.error().what);
        ok = false;
      }
    } else {
      auto v = check_item(key.kind, item);
      if (v) {
        out.push_back(std::move(*v));
        continue;
      }
      std::string msg = v.error().what;
      if (item.find('=') != std::string::npos && key.kind != Kind::env_force_list)
        msg += " (an indented line continues the previous key; remove the indentation)";
      cx.error(line, key.key(), msg);
      ok = false;
    }
  }
  return ok;
}

Result<bool> parse_scalar(Kind kind, std::string_view v, Field<bool>&) {
  (void)kind;
  return validate::boolean(v);
}
Result<std::string> parse_scalar(Kind kind, std::string_view v, Field<std::string>&) {
  if (kind == Kind::name) return validate::profile_name(v);
  if (kind == Kind::path) return validate::path(v);
  return std::string(v);
}
Result<uint64_t> parse_scalar(Kind kind, std::string_view v, Field<uint64_t>&) {
  return kind == Kind::size ? validate::size(v) : validate::count(v);
}
Result<Tmpdir> parse_scalar(Kind, std::string_view v, Field<Tmpdir>&) { return validate::tmpdir(v); }
Result<Enforcement> parse_scalar(Kind, std::string_view v, Field<Enforcement>&) {
  return validate::enforcement(v);
}

void apply_entry(Ctx& cx, const KeyInfo& key, const IniEntry& e, Profile& p,
                 const std::string& profile_name) {
  Provenance from{cx.file.path, e.line, profile_name};
  std::visit(
      [&](auto member) {
        auto& field = p.*member;
        using T = std::decay_t<decltype(field.value)>;
        if constexpr (std::is_same_v<T, List> || std::is_same_v<T, Ports>) {
          T items;
          bool ok = parse_items(cx, key, e.line, e.value, items);
          for (const auto& c : e.continuations)
            ok = parse_items(cx, key, c.line, c.value, items) && ok;
          if (!ok) return;
          field = Field<T>{std::move(items), true, from};
        } else {
          if (!e.continuations.empty()) {
            cx.error(e.continuations.front().line, key.key(),
                     "takes a single value; indented lines continue the previous key "
                     "(remove the indentation)");
            return;
          }
          auto v = parse_scalar(key.kind, e.value, field);
          if (!v) {
            cx.error(e.line, key.key(), v.error().what);
            return;
          }
          field = Field<T>{std::move(*v), true, from};
        }
      },
      key.field);
}

std::vector<std::string_view> keys_of(std::string_view section) {
  std::vector<std::string_view> out;
  for (const auto& k : all_keys())
    if (k.section() == section) out.push_back(k.key());
  return out;
}

std::string unknown_key_message(std::string_view section, std::string_view key) {
  std::string msg = "unknown key in [" + std::string(section) + "]";
  for (const auto& k : all_keys())
    if (k.key() == key) return msg + "; '" + std::string(key) + "' belongs in [" +
                               std::string(k.section()) + "]";
  std::string near = nearest(key, keys_of(section));
  if (near.empty()) {
    std::vector<std::string_view> all;
    for (const auto& k : all_keys()) all.push_back(k.key());
    near = nearest(key, all);
  }
  if (!near.empty()) msg += "; did you mean '" + near + "'?";
  return msg;
}

// A port in both allow_bind and allow_loopback would name two services (the session's
// own listener and this host's): refused where one file sets both. Across files the
// session's own listener wins (network.md).
void check_local_ports(Ctx& cx, const Profile& p) {
  if (!p.allow_bind.set || !p.allow_loopback.set) return;
  for (const auto& b : p.allow_bind.value)
    for (const auto& l : p.allow_loopback.value)
      if (b.lo <= l.hi && l.lo <= b.hi) {
        unsigned port = std::max(b.lo, l.lo);
        cx.error(p.allow_loopback.from.line, "allow_loopback",
                 "port " + std::to_string(port) + " is also in allow_bind (line " +
                     std::to_string(p.allow_bind.from.line) +
                     "): 127.0.0.1:" + std::to_string(port) +
                     " would be both the session's own listener and this host's service; keep it in one");
        return;
      }
}

}  // namespace

std::optional<LoadedProfile> parse_profile(const ProfileFile& file, Diags& diags) {
  size_t before = diags.size();
  auto doc = read_ini(file.text, file.path, diags);
  if (!doc) return std::nullopt;
  Ctx cx{file, diags};
  LoadedProfile out{file.name, file.source, file.path, {}};
  for (const auto& sec : doc->sections) {
    if (sec.name.empty()) {
      for (const auto& e : sec.entries)
        cx.error(e.line, e.key, "key outside of a [section]");
      continue;
    }
    bool known = false;
    for (auto s : all_sections()) known = known || s == sec.name;
    if (sec.name == "detect") {
      // Auto-detect rules (auto_detect.h): the file's own, not inherited, checked there.
      for (const auto& e : sec.entries) {
        std::string value = e.value;
        for (const auto& c : e.continuations) value += " " + c.value;
        if (auto r = check_detect_entry(e.key, value); !r) cx.error(e.line, e.key, r.error().what);
      }
      continue;
    }
    if (!known) {
      std::string msg = "unknown section";
      std::vector<std::string_view> secs(all_sections().begin(), all_sections().end());
      if (auto near = nearest(sec.name, secs); !near.empty())
        msg += "; did you mean [" + near + "]?";
      cx.error(sec.line, "[" + sec.name + "]", msg);
      continue;
    }
    for (const auto& e : sec.entries) {
      const KeyInfo* key = find_key(sec.name, e.key);
      if (!key) {
        cx.error(e.line, e.key, unknown_key_message(sec.name, e.key));
        continue;
      }
      apply_entry(cx, *key, e, out.profile, file.name);
    }
  }
  check_local_ports(cx, out.profile);
  if (diags.size() != before) return std::nullopt;
  return out;
}

Result<LoadedProfile> parse_profile(const ProfileFile& file) {
  Diags diags;
  auto p = parse_profile(file, diags);
  if (!p) return to_error(diags);
  return std::move(*p);
}

}  // namespace lash::policy
