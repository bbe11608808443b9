#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "exec/builtin_api.h"
#include "exec/vars.h"

namespace lash::exec {
namespace {
StringMap<const BuiltinDef*>& table() {
  static StringMap<const BuiltinDef*> t;
  return t;
}
}  // namespace

BuiltinEffects no_effects(Shell&, const std::vector<std::string>&) { return {}; }

void register_builtins(std::span<const BuiltinDef> defs) {
  for (const auto& d : defs) {
    if (!d.effects) {  // a programming error, caught by the first run of any test
      std::fprintf(stderr, "lash: builtin '%.*s' declares no effects\n", int(d.name.size()), d.name.data());
      std::abort();
    }
    table().emplace(std::string(d.name), &d);
  }
}

const BuiltinDef* find_builtin(std::string_view name) {
  auto& t = table();
  auto it = t.find(name);
  return it == t.end() ? nullptr : it->second;
}

std::vector<const BuiltinDef*> all_builtins() {
  std::vector<const BuiltinDef*> out;
  for (auto& [name, def] : table()) out.push_back(def);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return out;
}

}  // namespace lash::exec
