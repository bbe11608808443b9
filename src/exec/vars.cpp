#include "exec/vars.h"

#include <algorithm>
#include <cstring>

namespace lash::exec {

void Vars::touched(std::string_view name, bool exported_before, bool exported_after) {
  if (exported_before || exported_after) env_dirty_ = true;
  if (name == "PATH") ++path_gen_;
}

bool Vars::set(std::string_view name, std::string value, bool export_it) {
  last_refused = false;
  auto it = map_.find(name);
  if (env_guard) {
    bool exported = export_it || allexport || (it != map_.end() && (it->second.flags & Var::exported));
    bool readonly = it != map_.end() && (it->second.flags & Var::readonly);
    if (exported && !readonly && !env_guard(name, EnvOp::set)) {
      last_refused = true;
      return false;
    }
  }
  if (it == map_.end()) {
    uint8_t flags = Var::set;
    if (export_it || allexport) flags |= Var::exported;
    map_.emplace(std::string(name), Var{std::move(value), flags});
    touched(name, false, flags & Var::exported);
    return true;
  }
  Var& v = it->second;
  if (v.flags & Var::readonly) return false;
  bool before = v.flags & Var::exported;
  if (v.arr) {  // $a is ${a[0]}
    if (v.arr.use_count() > 1) v.arr = std::make_shared<ArrayValue>(*v.arr);
    if (v.arr->assoc) v.arr->keys["0"] = value;
    else v.arr->idx[0] = value;
  }
  v.value = std::move(value);
  v.flags |= Var::set;
  if (export_it || allexport) v.flags |= Var::exported;
  touched(name, before, v.flags & Var::exported);
  return true;
}

ArrayValue* Vars::array_for_write(std::string_view name, bool assoc) {
  last_refused = false;
  auto it = map_.find(name);
  if (it != map_.end() && (it->second.flags & Var::readonly)) return nullptr;
  if (env_guard && it != map_.end() && (it->second.flags & Var::exported) && !env_guard(name, EnvOp::set)) {
    last_refused = true;
    return nullptr;
  }
  if (it == map_.end()) it = map_.emplace(std::string(name), Var{}).first;
  Var& v = it->second;
  if (!v.arr) {
    v.arr = std::make_shared<ArrayValue>();
    v.arr->assoc = assoc;
    if (v.is_set()) {
      if (assoc) v.arr->keys.emplace("0", v.value);
      else v.arr->idx.emplace(0, v.value);
    }
  } else if (v.arr.use_count() > 1) {
    v.arr = std::make_shared<ArrayValue>(*v.arr);  // a saved `local` copy keeps the old one
  }
  return v.arr.get();
}

void Vars::array_changed(std::string_view name) {
  auto it = map_.find(name);
  if (it == map_.end() || !it->second.arr) return;
  Var& v = it->second;
  const ArrayValue& a = *v.arr;
  const std::string* zero = nullptr;
  if (a.assoc) {
    auto k = a.keys.find("0");
    if (k != a.keys.end()) zero = &k->second;
  } else {
    auto k = a.idx.find(0);
    if (k != a.idx.end()) zero = &k->second;
  }
  if (zero) {
    v.value = *zero;
    v.flags |= Var::set;
  } else {
    v.value.clear();
    v.flags &= uint8_t(~Var::set);
  }
  if (v.flags & Var::exported) env_dirty_ = true;
}

bool Vars::unset(std::string_view name) {
  last_refused = false;
  auto it = map_.find(name);
  if (it == map_.end()) return true;
  if (it->second.flags & Var::readonly) return false;
  if (env_guard && (it->second.flags & Var::exported) && !env_guard(name, EnvOp::unset)) {
    last_refused = true;
    return false;
  }
  bool before = it->second.flags & Var::exported;
  if (!scopes_.empty()) {
    // Keep the entry so a local scope can still restore it; just mark it unset.
    it->second.value.clear();
    it->second.flags = 0;
    it->second.arr.reset();
  } else {
    map_.erase(it);
  }
  touched(name, before, false);
  return true;
}

bool Vars::set_flag(std::string_view name, uint8_t flag) {
  last_refused = false;
  auto it = map_.find(name);
  if (env_guard) {
    bool exported = (flag & Var::exported) || (it != map_.end() && (it->second.flags & Var::exported));
    bool already = it != map_.end() && (it->second.flags & flag) == flag;
    EnvOp op = (flag & Var::exported) ? EnvOp::export_var : EnvOp::readonly;
    if (exported && !already && !env_guard(name, op)) {
      last_refused = true;
      return false;
    }
  }
  if (it == map_.end()) it = map_.emplace(std::string(name), Var{}).first;
  bool before = it->second.flags & Var::exported;
  it->second.flags |= flag;
  touched(name, before, it->second.flags & Var::exported);
  return true;
}

void Vars::clear_flag(std::string_view name, uint8_t flag) {
  auto it = map_.find(name);
  if (it == map_.end()) return;
  bool before = it->second.flags & Var::exported;
  it->second.flags &= uint8_t(~flag);
  touched(name, before, it->second.flags & Var::exported);
}

void Vars::import_environ(char** envp) {
  for (; envp && *envp; ++envp) {
    const char* eq = std::strchr(*envp, '=');
    if (!eq || eq == *envp) continue;
    std::string_view name(*envp, size_t(eq - *envp));
    bool valid = !(name[0] >= '0' && name[0] <= '9');
    for (char c : name)
      if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
        valid = false;
    if (!valid) continue;  // not a shell variable name: POSIX lets us drop it
    set(name, std::string(eq + 1), true);
  }
}

size_t Vars::drop_if(const std::function<bool(std::string_view)>& pred) {
  size_t dropped = 0;
  for (auto it = map_.begin(); it != map_.end();) {
    if (!pred(it->first)) {
      ++it;
      continue;
    }
    if (it->second.is_set()) ++dropped;
    touched(it->first, it->second.flags & Var::exported, false);
    it = map_.erase(it);
  }
  for (auto& scope : scopes_)
    for (auto& saved : scope)
      if (saved.existed && pred(saved.name)) {
        saved.existed = false;
        saved.var = Var{};
      }
  return dropped;
}

void Vars::push_scope() { scopes_.emplace_back(); }

void Vars::pop_scope() {
  if (scopes_.empty()) return;
  auto saved = std::move(scopes_.back());
  scopes_.pop_back();
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
    auto cur = map_.find(it->name);
    bool before = cur != map_.end() && (cur->second.flags & Var::exported);
    if (it->existed) {
      map_[it->name] = std::move(it->var);
    } else if (cur != map_.end()) {
      map_.erase(cur);
    }
    auto now = map_.find(it->name);
    touched(it->name, before, now != map_.end() && (now->second.flags & Var::exported));
  }
}

void Vars::make_local(std::string_view name) {
  if (scopes_.empty()) return;
  auto& scope = scopes_.back();
  for (auto& s : scope)
    if (s.name == name) return;  // already local in this scope
  auto it = map_.find(name);
  if (it == map_.end())
    scope.push_back(Saved{std::string(name), false, {}});
  else
    scope.push_back(Saved{std::string(name), true, it->second});
}

const std::vector<std::string>& Vars::environment() {
  if (!env_dirty_) return env_cache_;
  env_cache_.clear();
  for (auto& [name, v] : map_)
    if ((v.flags & Var::exported) && v.is_set() && !v.arr) env_cache_.push_back(name + "=" + v.value);
  std::sort(env_cache_.begin(), env_cache_.end());
  env_dirty_ = false;
  return env_cache_;
}

std::vector<std::string> Vars::names() const {
  std::vector<std::string> out;
  out.reserve(map_.size());
  for (auto& [name, v] : map_) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace lash::exec
