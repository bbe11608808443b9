// Bash's indexed and associative arrays and its assignment forms. Every change goes
// through Vars (read-only flags, the env guard that the policy installs), like any
// other assignment: arrays are never exported, so they never reach a child.
#include <algorithm>

#include "exec/shell.h"
#include "syntax/parser.h"

namespace lash::exec {

namespace {
[[noreturn]] void assign_failed(Shell& sh, std::string_view name) {
  if (sh.vars.last_refused) throw Refused{};
  throw FatalError{std::string(name) + ": is read only", 1};
}

// "name[sub]" -> name, sub; false when NAME has no subscript.
bool split_subscripted(std::string_view full, std::string_view& name, std::string& sub) {
  size_t lb = full.find('[');
  if (lb == std::string_view::npos || full.empty() || full.back() != ']') return false;
  name = full.substr(0, lb);
  sub.assign(full.substr(lb + 1, full.size() - lb - 2));
  return true;
}
}  // namespace

int64_t Shell::array_index(std::string_view name, const std::string& sub) {
  int64_t i = arith_value(sub);
  if (i < 0) {
    const ArrayValue* a = vars.array(name);
    int64_t top = a && !a->idx.empty() ? a->idx.rbegin()->first + 1 : (vars.get(name) ? 1 : 0);
    i += top;
    if (i < 0) throw FatalError{std::string(name) + "[" + sub + "]: bad array subscript", 1};
  }
  return i;
}

const std::string* Shell::element(std::string_view name, const std::string& sub) {
  const ArrayValue* a = vars.array(name);
  if (a && a->assoc) {
    auto it = a->keys.find(sub);
    return it == a->keys.end() ? nullptr : &it->second;
  }
  int64_t i = array_index(name, sub);
  if (!a) return i == 0 ? vars.get(name) : nullptr;
  auto it = a->idx.find(i);
  return it == a->idx.end() ? nullptr : &it->second;
}

bool Shell::set_element(std::string_view name, const std::string& sub, std::string value, bool append) {
  const ArrayValue* cur = vars.array(name);
  bool assoc = cur && cur->assoc;
  std::string key;
  int64_t idx = 0;
  if (assoc) key = sub;
  else idx = array_index(name, sub);
  ArrayValue* a = vars.array_for_write(name, false);
  if (!a) return false;
  std::string& slot = assoc ? a->keys[key] : a->idx[idx];
  if (append) slot += value;
  else slot = std::move(value);
  vars.array_changed(name);
  return true;
}

bool Shell::unset_element(std::string_view name, const std::string& sub) {
  const ArrayValue* cur = vars.array(name);
  if (!cur) {
    if (arith_value(sub) == 0 || sub == "@" || sub == "*") return vars.unset(name);
    return true;
  }
  if (sub == "@" || sub == "*") return vars.unset(name);
  bool assoc = cur->assoc;
  int64_t idx = assoc ? 0 : array_index(name, sub);
  ArrayValue* a = vars.array_for_write(name, assoc);
  if (!a) return false;
  if (assoc) a->keys.erase(sub);
  else a->idx.erase(idx);
  vars.array_changed(name);
  return true;
}

bool Shell::set_array(const std::string& name, std::vector<std::string> values) {
  const ArrayValue* cur = vars.array(name);
  ArrayValue* a = vars.array_for_write(name, false);
  if (!a) return false;
  (void)cur;
  a->assoc = false;
  a->keys.clear();
  a->idx.clear();
  for (size_t i = 0; i < values.size(); ++i) a->idx.emplace(int64_t(i), std::move(values[i]));
  vars.array_changed(name);
  return true;
}

std::vector<std::string> Shell::element_values(std::string_view name) {
  std::vector<std::string> out;
  if (const ArrayValue* a = vars.array(name)) {
    out.reserve(a->size());
    if (a->assoc)
      for (auto& [k, v] : a->keys) out.push_back(v);
    else
      for (auto& [k, v] : a->idx) out.push_back(v);
  } else if (const std::string* v = vars.get(name)) {
    out.push_back(*v);
  }
  return out;
}

std::vector<std::string> Shell::element_keys(std::string_view name) {
  std::vector<std::string> out;
  if (const ArrayValue* a = vars.array(name)) {
    if (a->assoc)
      for (auto& [k, v] : a->keys) out.push_back(k);
    else
      for (auto& [k, v] : a->idx) out.push_back(std::to_string(k));
  } else if (vars.get(name)) {
    out.push_back("0");
  }
  return out;
}

bool Shell::var_is_set(std::string_view full) {
  std::string_view name;
  std::string sub;
  if (split_subscripted(full, name, sub)) {
    refresh_dynamic_array(name);
    if (sub == "@" || sub == "*") {
      const ArrayValue* a = vars.array(name);
      return a ? a->size() > 0 : vars.get(name) != nullptr;
    }
    return element(name, sub) != nullptr;
  }
  if (const ArrayValue* a = vars.array(full)) return a->size() > 0 && vars.get(full) != nullptr;
  return vars.get(full) != nullptr;
}

// Payload: for each element, an optional "\x1d" KEY, then "\x1f" VALUE "\x1e".
std::string Shell::compound_arg(const ast::Assignment& a) {
  std::string out = a.name + (a.append ? "+=" : "=");
  out.push_back(kCompoundMark);
  for (const auto& e : a.elements) {
    if (e.key) {
      out.push_back('\x1d');
      out += expand_string(*e.key);
      out.push_back('\x1f');
      out += expand_string(e.value);
      out.push_back('\x1e');
      continue;
    }
    std::vector<std::string> fields;
    expand_word(e.value, fields);
    for (auto& f : fields) {
      out.push_back('\x1f');
      out += f;
      out.push_back('\x1e');
    }
  }
  return out;
}

bool Shell::assign_compound_payload(const std::string& name, bool append, std::string_view payload, bool assoc) {
  const ArrayValue* cur = vars.array(name);
  bool is_assoc = cur ? cur->assoc : assoc;
  ArrayValue* a = vars.array_for_write(name, is_assoc);
  if (!a) return false;
  if (!append) {
    a->idx.clear();
    a->keys.clear();
  }
  int64_t next = !a->assoc && !a->idx.empty() ? a->idx.rbegin()->first + 1 : 0;
  size_t i = 0;
  while (i < payload.size()) {
    std::string key;
    bool has_key = false;
    if (payload[i] == '\x1d') {
      size_t e = payload.find('\x1f', i);
      if (e == std::string_view::npos) break;
      key.assign(payload.substr(i + 1, e - i - 1));
      has_key = true;
      i = e;
    }
    if (i >= payload.size() || payload[i] != '\x1f') break;
    size_t end = payload.find('\x1e', i + 1);
    if (end == std::string_view::npos) end = payload.size();
    std::string value(payload.substr(i + 1, end - i - 1));
    i = end + 1;
    if (a->assoc) {
      if (!has_key) continue;  // bash 5.1+ pairs; lash takes [k]=v only
      a->keys[key] = std::move(value);
    } else {
      if (has_key) {
        vars.array_changed(name);
        next = array_index(name, key);
        a = vars.array_for_write(name, false);
      }
      a->idx[next++] = std::move(value);
    }
  }
  vars.array_changed(name);
  return true;
}

void Shell::assign_ast(const ast::Assignment& a) {
  if (a.compound) {
    std::string arg = compound_arg(a);
    size_t mark = arg.find(kCompoundMark);
    if (!assign_compound_payload(a.name, a.append, std::string_view(arg).substr(mark + 1), false))
      assign_failed(*this, a.name);
    return;
  }
  std::string v = expand_string(a.value);
  if (a.subscript) {
    std::string sub = expand_string(*a.subscript);
    if (!set_element(a.name, sub, std::move(v), a.append)) assign_failed(*this, a.name);
    return;
  }
  if (a.append) {
    if (const ArrayValue* arr = vars.array(a.name); arr && !arr->assoc) {
      if (!set_element(a.name, "0", std::move(v), true)) assign_failed(*this, a.name);
      return;
    }
    const Var* cur = vars.find(a.name);
    if (cur && (cur->flags & Var::integer)) {
      int64_t n = arith_value(cur->is_set() ? cur->value : std::string("0")) + arith_value(v);
      v = std::to_string(n);
    } else {
      const std::string* old = vars.get(a.name);
      if (old) v = *old + v;
    }
  }
  if (!assign(a.name, std::move(v))) {
    if (vars.last_refused) throw Refused{};
    throw FatalError{"", 2};
  }
}

}  // namespace lash::exec
