// Shell variables: values, export/readonly flags, function-local scopes, and the
// environment handed to children (cached between changes).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lash::exec {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
struct StringEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const noexcept { return a == b; }
};
template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, StringEq>;

// The elements of an indexed or associative array (bash). Shared between a
// variable and the copies `local` saves, copied before a change (copy on write).
struct ArrayValue {
  bool assoc = false;
  std::map<int64_t, std::string> idx;      // indexed: sparse, in index order
  std::map<std::string, std::string> keys; // associative: lash lists keys sorted
  size_t size() const { return assoc ? keys.size() : idx.size(); }
};

struct Var {
  enum : uint8_t { exported = 1, readonly = 2, set = 4, integer = 8, lower = 16, upper = 32 };
  // Scalars: the value. Arrays: a copy of element 0 (key "0"), and `set` says
  // whether that element exists, so $a and every scalar reader see ${a[0]}.
  std::string value;
  uint8_t flags = 0;
  std::shared_ptr<ArrayValue> arr;  // null for a scalar
  bool is_set() const { return flags & set; }
};

class Vars {
 public:
  // The value, or nullptr when unset.
  const std::string* get(std::string_view name) const {
    auto it = map_.find(name);
    if (it == map_.end() || !it->second.is_set()) return nullptr;
    return &it->second.value;
  }
  const Var* find(std::string_view name) const {
    auto it = map_.find(name);
    return it == map_.end() ? nullptr : &it->second;
  }
  // false if the variable is read-only (the value is unchanged).
  bool set(std::string_view name, std::string value, bool export_it = false);
  // false if read-only.
  bool unset(std::string_view name);

  // Arrays. The elements for reading (null: not an array).
  const ArrayValue* array(std::string_view name) const {
    auto it = map_.find(name);
    return it == map_.end() ? nullptr : it->second.arr.get();
  }
  // The elements for changing, made an array first (a scalar's value becomes
  // element 0; ASSOC picks the kind of a new array). Null when read-only or refused
  // by env_guard (last_refused). Call array_changed(name) after the change.
  ArrayValue* array_for_write(std::string_view name, bool assoc);
  void array_changed(std::string_view name);
  // `export name` / `readonly name` without value.
  // false if env_guard refused (last_refused is then set).
  bool set_flag(std::string_view name, uint8_t flag);
  void clear_flag(std::string_view name, uint8_t flag);

  // Imports "NAME=VALUE" strings as exported variables.
  void import_environ(char** envp);

  // Removes every variable whose name PRED accepts, whatever its flags (read-only too),
  // and forgets it in the saved state of every function scope, where a `local` would
  // bring it back when the function returns. For the session, which drops what its
  // profile denies ([environment] deny) when a profile becomes active: that is not a
  // change the script makes, so env_guard is not asked. Returns how many were set.
  size_t drop_if(const std::function<bool(std::string_view)>& pred);

  // `local name`: saves the current state to be restored when the scope ends.
  void push_scope();
  void pop_scope();
  bool in_scope() const { return !scopes_.empty(); }
  void make_local(std::string_view name);

  // NAME=VALUE for every exported, set variable, sorted by name.
  const std::vector<std::string>& environment();
  // Sorted names of all variables (for `set`, `export -p`, `readonly -p`).
  std::vector<std::string> names() const;

  // Incremented whenever PATH changes (the command hash table keys on it).
  uint64_t path_generation() const { return path_gen_; }

  bool allexport = false;  // set -a

  // Asked before an exported variable changes (value, unset, export, readonly);
  // returning false refuses the change. The policy layer's check of changes that
  // no planned command announced (for loops, ${x=...}, read, arithmetic).
  enum class EnvOp { set, unset, export_var, readonly };
  std::function<bool(std::string_view name, EnvOp op)> env_guard;
  // Set when the last set/unset/set_flag was refused by env_guard (not read-only).
  bool last_refused = false;

 private:
  void touched(std::string_view name, bool exported_before, bool exported_after);

  StringMap<Var> map_;
  struct Saved {
    std::string name;
    bool existed;
    Var var;
  };
  std::vector<std::vector<Saved>> scopes_;
  std::vector<std::string> env_cache_;
  bool env_dirty_ = true;
  uint64_t path_gen_ = 0;
};

}  // namespace lash::exec
