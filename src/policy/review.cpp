#include "policy/review.h"

#include <algorithm>
#include <set>

#include "policy/explain.h"
#include "policy/resolver.h"

namespace lash::policy {
namespace {

std::string size_text(uint64_t v) {
  if (v == 0) return "0 (unlimited)";
  static const char* kSuffix[] = {"T", "G", "M", "K"};
  for (int i = 0; i < 4; ++i) {
    unsigned shift = unsigned(40 - 10 * i);
    if (v % (uint64_t(1) << shift) == 0) return std::to_string(v >> shift) + kSuffix[i];
  }
  return std::to_string(v);
}

std::string ports_text(const Ports& ports) {
  std::string out;
  for (const auto& r : ports) {
    if (!out.empty()) out += ", ";
    out += std::to_string(r.lo);
    if (r.hi != r.lo) out += "-" + std::to_string(r.hi);
  }
  return out;
}

std::string join(const List& l) {
  std::string out;
  for (const auto& s : l) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Keys whose check exists only in the policy layer (enforcement.md), as review prints them.
constexpr std::string_view kPolicyOnlyNote =
    "Checked by the policy layer only (no kernel counterpart): spawn_denylist (the kernel "
    "cannot refuse single files while spawn_any = true), environment mutation and "
    "safelist, plugin calls, builtin capabilities. An allowed interpreter (sh, python3, "
    "perl) can run anything it can read.";

// What deny does beyond the children's environment (exec/session.cpp), said once.
constexpr std::string_view kDenyDropsNote =
    "Variables that environment.deny names are dropped from the shell's own variables "
    "when the profile becomes active, not only from the children's environment.";

}  // namespace

std::string value_text(const Profile& p, const KeyInfo& key) {
  return std::visit(
      [&](auto member) -> std::string {
        const auto& f = p.*member;
        using T = std::decay_t<decltype(f.value)>;
        if constexpr (std::is_same_v<T, bool>) return f.value ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::string>) return f.value;
        else if constexpr (std::is_same_v<T, List>) {
          if (key.id == "environment.pass" && !f.set) return "(unset: all but deny)";
          return join(f.value);
        } else if constexpr (std::is_same_v<T, Ports>) return ports_text(f.value);
        else if constexpr (std::is_same_v<T, uint64_t>)
          return key.kind == Kind::size ? size_text(f.value)
                                        : f.value == 0 ? "0 (unlimited)" : std::to_string(f.value);
        else if constexpr (std::is_same_v<T, Tmpdir>) return f.value == Tmpdir::session ? "session" : "none";
        else return f.value == Enforcement::warn ? "warn" : "enforce";
      },
      key.field);
}

Json value_json(const Profile& p, const KeyInfo& key) {
  return std::visit(
      [&](auto member) -> Json {
        const auto& f = p.*member;
        using T = std::decay_t<decltype(f.value)>;
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, uint64_t>) return f.value;
        else if constexpr (std::is_same_v<T, std::string>) {
          if (f.value.empty() && key.kind != Kind::text) return nullptr;
          Json o;
          put_string(o, "v", f.value);
          return o["v"];
        } else if constexpr (std::is_same_v<T, List>) {
          if (key.id == "environment.pass" && !f.set) return nullptr;
          Json a = Json::array();
          for (const auto& s : f.value) {
            Json o;
            put_string(o, "v", s);
            a.push_back(o["v"]);
          }
          return a;
        } else if constexpr (std::is_same_v<T, Ports>) {
          Json a = Json::array();
          // Numbers, one shape for a port and a range: {"from": 443, "to": 443}.
          for (const auto& r : f.value) a.push_back(Json{{"from", r.lo}, {"to", r.hi}});
          return a;
        } else {
          return value_text(p, key);
        }
      },
      key.field);
}

static const Provenance& prov(const Profile& p, const KeyInfo& k) {
  return *std::visit([&](auto member) { return &(p.*member).from; }, k.field);
}

std::string review_text(const ResolvedProfile& r) {
  std::string out = "Profile: " + r.name + "\n";
  for (const auto& l : r.chain)
    out += "  " + l.name + (l.source == Source::builtin ? std::string(" (built-in)")
                                                       : " (" + std::string(source_name(l.source)) + ": " + l.path + ")") +
           "\n";
  out += "Inheritance: " + r.chain_text() + "\n";
  std::string_view section;
  for (const auto& k : all_keys()) {
    if (k.section() != section) {
      section = k.section();
      out += "\n[" + std::string(section) + "]\n";
    }
    std::string line = "  " + std::string(k.key()) + " = " + explain::display(value_text(r.values, k));
    if (line.size() < 48) line.resize(48, ' ');
    out += line + "  # " + prov(r.values, k).text() + "; " + std::string(k.enforced) + "\n";
  }
  out += "\n" + std::string(kPolicyOnlyNote) + "\n";
  if (!r.values.env_deny.value.empty()) out += std::string(kDenyDropsNote) + "\n";
  return out;
}

Json review_json(const ResolvedProfile& r) {
  Json o = Json::object();
  o["profile"] = r.name;
  Json chain = Json::array();
  for (const auto& l : r.chain) {
    Json c = Json::object();
    c["name"] = l.name;
    c["source"] = std::string(source_name(l.source));
    put_string(c, "path", l.path);
    chain.push_back(c);
  }
  o["chain"] = chain;
  Json keys = Json::array();
  for (const auto& k : all_keys()) {
    Json e = Json::object();
    e["key"] = std::string(k.id);
    e["value"] = value_json(r.values, k);
    const auto& from = prov(r.values, k);
    e["set"] = !from.is_base();
    put_string(e, "source", from.text());
    e["enforced_by"] = std::string(k.enforced);
    keys.push_back(e);
  }
  o["keys"] = keys;
  o["policy_layer_only"] = {"process.spawn_denylist", "environment.mutation",
                            "environment.safelist", "capabilities.*"};
  return o;
}

namespace {
bool is_permission_key(const KeyInfo& k) {
  return k.section() == "capabilities" || k.section() == "resources" || k.id == "process.spawn_any" ||
         k.id == "environment.mutation";
}
}  // namespace

std::string permissions_text(const ResolvedProfile& r) {
  std::string out = "Profile: " + r.name + "\n";
  for (const auto& k : all_keys()) {
    if (!is_permission_key(k)) continue;
    std::string line = "  " + std::string(k.key()) + ": " + value_text(r.values, k);
    if (line.size() < 40) line.resize(40, ' ');
    out += line + "  (" + prov(r.values, k).text() + ")\n";
  }
  return out;
}

Json permissions_json(const ResolvedProfile& r) {
  Json o = Json::object();
  o["profile"] = r.name;
  Json caps = Json::object(), limits = Json::object();
  for (const auto& k : all_keys()) {
    if (!is_permission_key(k)) continue;
    (k.section() == "resources" ? limits : caps)[std::string(k.key())] = value_json(r.values, k);
  }
  o["capabilities"] = caps;
  o["resources"] = limits;
  return o;
}

std::string profile_template(std::string_view name, std::string_view parent) {
  std::string n(name), par(parent);
  // With a parent every key is commented out (the parent's values apply until one is
  // set); without one the file starts narrow: deny-by-default, a few read-only tools,
  // and commented examples of what a user adds next.
  std::string c = par.empty() ? "" : "# ";
  std::string out = "# " + n + " - describe its intent here (who uses it, for what).\n#\n";
  if (par.empty())
    out += "# Starts from nothing: whatever no key below grants is refused (docs/profiles.md).\n";
  else
    out += "# Inherits every value of '" + par + "'; only keys set below override it, and a set\n"
           "# list replaces the parent's list entirely (`profile review --keys " + par + "`).\n";
  out += "# Check it:   profile review " + n + "          (what it may run, read, write, reach)\n"
         "# Try it:     profile test " + n + " 'CMDLINE'   (what would be refused, and why)\n"
         "# Use it:     lash -p " + n + "\n\n";
  if (!par.empty()) out += "[inherit]\nfrom = " + par + "\n\n";
  out += "[profile]\ndescription = " + n + (par.empty() ? "" : " (based on " + par + ")") + "\n\n"
         "[process]\n"
         "# Programs it may run: bare names (found on PATH when the session starts), absolute\n"
         "# paths or ~/paths. Indented lines continue the list.\n" +
         c + "spawn_allowlist = ls, cat, head, grep, sort, wc\n"
         "# spawn_denylist = curl, wget\n\n"
         "[filesystem]\n"
         "# Besides system files (/usr, /etc without secrets), readable:\n"
         "# read_only = ~/data\n"
         "# Writable (nothing unless listed):\n"
         "# read_write = ~/out\n"
         "# include_workdir = true      the directory the session starts in\n" +
         c + "tmpdir = session\n\n"
         "[network]\n"
         "# Nothing is reachable unless listed:\n"
         "# allow_hosts = pypi.org, *.pythonhosted.org\n"
         "# allow_ports = 443\n"
         "# allow_bind = 8888         a server of the job, on the session's own loopback\n"
         "# allow_loopback = 5432     a service on this host's 127.0.0.1\n\n"
         "[resources]\n"
         "# max_memory = 4G\n"
         "# max_cpu_seconds = 600\n\n"
         "[capabilities]\n"
         "# file_redirect = true        shell redirections (>, >>) into writable places\n";
  return out;
}

std::vector<ListEntry> list_profiles(const ProfileStore& store, bool include_user) {
  std::set<std::string> names;
  for (Source s : {Source::user, Source::system, Source::builtin})
    if (s != Source::user || include_user)
      for (auto& n : store.names(s)) names.insert(n);
  std::vector<ListEntry> out;
  for (const auto& n : names) {
    ListEntry e;
    e.name = n;
    auto file = find_profile(store, n, include_user);
    if (file) {
      e.source = file->source;
      e.path = file->path;
    }
    auto p = load_resolved(store, n, ResolveOptions{include_user, false});
    if (p)
      e.description = (*p)->values.description.value;
    else
      e.error = p.error().message();
    out.push_back(std::move(e));
  }
  return out;
}

std::string list_text(const std::vector<ListEntry>& entries, std::string_view active) {
  std::string out;
  for (const auto& e : entries) {
    std::string line = (e.name == active ? "* " : "  ") + e.name;
    if (line.size() < 16) line.resize(16, ' ');
    std::string src(source_name(e.source));
    src.resize(9, ' ');
    line += " " + src;
    if (e.error.empty()) {
      line += explain::display(e.description);
    } else {
      std::string err = e.error;
      std::replace(err.begin(), err.end(), '\n', ' ');
      line += "BROKEN: " + explain::display(err);
    }
    out += line + "\n";
  }
  return out;
}

Json list_json(const std::vector<ListEntry>& entries, std::string_view active) {
  Json a = Json::array();
  for (const auto& e : entries) {
    Json o = Json::object();
    o["name"] = e.name;
    o["active"] = e.name == active;
    o["source"] = std::string(source_name(e.source));
    put_string(o, "path", e.path);
    put_string(o, "description", e.description);
    if (!e.error.empty()) put_string(o, "error", e.error);
    a.push_back(o);
  }
  Json out = Json::object();
  out["profiles"] = a;
  return out;
}

}  // namespace lash::policy
