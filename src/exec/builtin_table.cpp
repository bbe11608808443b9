#include <algorithm>

#include "exec/builtin_api.h"
#include "exec/vars.h"

namespace lash::exec {
namespace {
StringMap<const BuiltinDef*>& table() {
  static StringMap<const BuiltinDef*> t;
  return t;
}
}  // namespace

void register_builtins(std::span<const BuiltinDef> defs) {
  for (const auto& d : defs) table().emplace(std::string(d.name), &d);
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
