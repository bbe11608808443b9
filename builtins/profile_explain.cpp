// `profile explain CMDLINE`: for each action the profile refuses, the smallest change
// that would allow it, as a snippet to paste into a profile. The refusals come from
// the same dry run as `profile test`; the change is read off the key that decided.
#include "builtins/profile_explain.h"

#include <algorithm>
#include <map>
#include <memory>

#include "policy/explain.h"
#include "policy/profile_model.h"

namespace lash::builtins {
namespace {

using policy::Action;
using policy::List;

std::string parent_dir(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

// KEY = a, b, c with continuation lines, as a profile writes a long list (the reader
// refuses lines of 200 bytes or more).
std::string list_line(std::string_view key, const List& items) {
  std::string out(key), line = out + " =";
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item = " " + items[i] + (i + 1 < items.size() ? "," : "");
    if (line.size() + item.size() > 76) {
      out = out == key ? line : out + line;
      out += "\n";
      line = "   ";
    }
    line += item;
  }
  return (out == key ? line : out + line) + "\n";
}

const List* list_of(const policy::Profile& p, std::string_view id) {
  const policy::KeyInfo* k = policy::find_key(id);
  if (!k) return nullptr;
  const List* out = nullptr;
  std::visit(
      [&](auto m) {
        if constexpr (std::is_same_v<decltype(m), policy::Field<List> policy::Profile::*>) out = &(p.*m).value;
      },
      k->field);
  return out;
}

struct Change {
  std::map<std::string, List> add;         // list key -> entries to add
  std::map<std::string, List> remove;      // list key -> entries to take out
  std::map<std::string, std::string> set;  // single key -> value
  List notes;                              // refusals no key change allows
};

void change_for(const policy::Profile& p, const Action& a, const policy::Decision& d, Change& c) {
  const std::string& key = d.decided_by.key;
  auto add = [&](const std::string& k, const std::string& v) {
    auto& l = c.add[k];
    if (std::find(l.begin(), l.end(), v) == l.end()) l.push_back(v);
  };
  if (key == "process.spawn_allowlist") {
    const auto* s = std::get_if<policy::Spawn>(&a);
    // The name as written when it is a bare name found on PATH, else the real path.
    bool bare = s && s->argv0.find('/') == std::string::npos;
    if (s) add(key, bare && !std::count(p.spawn_allowlist.value.begin(), p.spawn_allowlist.value.end(), s->argv0)
                        ? s->argv0
                        : s->resolved_path.empty() ? s->argv0 : s->resolved_path);
  } else if (key == "process.spawn_denylist" || key == "filesystem.protect") {
    // The entries that name this program or hold this file.
    auto base = [](const std::string& x) { return x.substr(x.rfind('/') + 1); };
    const List* l = list_of(p, key);
    for (const auto& e : l ? *l : List{}) {
      bool hit = false;
      if (const auto* s = std::get_if<policy::Spawn>(&a))
        hit = e == s->argv0 || e == base(s->argv0) || e == s->resolved_path ||
              (!s->resolved_path.empty() && e == base(s->resolved_path));
      if (const auto* r = std::get_if<policy::Redirect>(&a))
        hit = r->path.find("/" + e + "/") != std::string::npos ||
              (r->path.size() > e.size() && r->path.compare(r->path.size() - e.size() - 1, std::string::npos, "/" + e) == 0);
      if (hit) c.remove[key].push_back(e);
    }
    if (!c.remove.count(key)) c.notes.push_back(d.suggestion);
  } else if (key == "filesystem.read_write" || key == "filesystem.sandbox") {
    if (const auto* r = std::get_if<policy::Redirect>(&a)) add("filesystem.read_write", parent_dir(r->path));
  } else if (key == "environment.safelist") {
    if (const auto* e = std::get_if<policy::EnvChange>(&a)) add(key, e->name);
  } else if (key == "network.allow_hosts") {
    if (const auto* n = std::get_if<policy::NetConnect>(&a)) add(key, n->host.empty() ? n->ip : n->host);
  } else if (key == "network.allow_ports") {
    if (const auto* n = std::get_if<policy::NetConnect>(&a)) add(key, std::to_string(n->port));
  } else if (key == "capabilities.plugin_allowlist") {
    if (const auto* pc = std::get_if<policy::PluginCall>(&a)) add(key, pc->plugin);
  } else if (const policy::KeyInfo* k = policy::find_key(key); k && k->kind == policy::Kind::boolean) {
    c.set[key] = "true";
  } else {
    c.notes.push_back(d.problem + " " + d.suggestion);
  }
}

// The profile with the change made, to decide again: a write refused for
// file_redirect may then be refused for read_write, and both belong in the snippet.
void apply(const Change& c, policy::Profile& p) {
  for (const auto& k : policy::all_keys()) {
    std::string id(k.id);
    std::visit(
        [&](auto m) {
          auto& f = p.*m;
          using T = std::decay_t<decltype(f.value)>;
          if constexpr (std::is_same_v<T, List>) {
            if (auto it = c.remove.find(id); it != c.remove.end())
              for (const auto& e : it->second) f.value.erase(std::remove(f.value.begin(), f.value.end(), e), f.value.end());
            if (auto it = c.add.find(id); it != c.add.end())
              for (const auto& e : it->second)
                if (std::find(f.value.begin(), f.value.end(), e) == f.value.end()) f.value.push_back(e);
          } else if constexpr (std::is_same_v<T, bool>) {
            if (c.set.count(id)) f.value = true;
          }
        },
        k.field);
  }
  // Ports are not a plain list: added as single ports.
  if (auto it = c.add.find("network.allow_ports"); it != c.add.end())
    for (const auto& e : it->second) {
      uint16_t port = uint16_t(std::stoi(e));
      p.allow_ports.value.push_back({port, port});
    }
}

}  // namespace

std::string explain_snippet(const std::shared_ptr<const policy::ResolvedProfile>& original, const DecideFn& decide,
                            std::string& refusals) {
  const policy::ResolvedProfile& r = *original;
  Change c;
  auto current = original;
  // A few rounds: each lifts the refusals of the last; what is still refused after
  // them (a sandbox refusal, a dynamic word) is said as a note.
  for (int round = 0; round < 4; ++round) {
    auto actions = decide(current);
    if (!actions) return {};
    size_t before = c.add.size() + c.remove.size() + c.set.size() + c.notes.size();
    size_t add_items = 0;
    for (const auto& [k, l] : c.add) add_items += l.size();
    bool any = false;
    for (const auto& a : *actions) {
      if (a.decision.verdict != policy::Verdict::deny) continue;
      any = true;
      if (round == 0) refusals += "refused: " + policy::explain::action_line(a.planned.action, a.decision) + "\n";
      change_for(r.values, a.planned.action, a.decision, c);
    }
    size_t add_after = 0;
    for (const auto& [k, l] : c.add) add_after += l.size();
    if (!any || (c.add.size() + c.remove.size() + c.set.size() + c.notes.size() == before && add_after == add_items))
      break;
    auto next = std::make_shared<policy::ResolvedProfile>(r);
    apply(c, next->values);
    current = next;
  }
  // One block per section, in the order of the key table. A set list replaces the
  // parent's, so a list key is written whole: what it holds now plus the additions.
  std::string out;
  std::string_view section;
  for (const auto& k : policy::all_keys()) {
    std::string id(k.id), text;
    if (c.add.count(id) || c.remove.count(id)) {
      List items = list_of(r.values, id) ? *list_of(r.values, id) : List{};
      for (const auto& e : c.remove[id]) items.erase(std::remove(items.begin(), items.end(), e), items.end());
      for (const auto& e : c.add[id])
        if (std::find(items.begin(), items.end(), e) == items.end()) items.push_back(e);
      text = items.empty() ? "# " + std::string(k.key()) + ": remove the key (nothing is left in it)\n"
                           : list_line(k.key(), items);
    } else if (c.set.count(id)) {
      text = std::string(k.key()) + " = " + c.set[id] + "\n";
    }
    if (text.empty()) continue;
    if (k.section() != section) {
      section = k.section();
      out += "[" + std::string(section) + "]\n";
    }
    out += text;
  }
  for (const auto& n : c.notes) out += "# no profile key allows this: " + n + "\n";
  return out;
}

}  // namespace lash::builtins
