#include "policy/resolver.h"

#include <algorithm>

#include "policy/profile_loader.h"
#include "policy/validate.h"

namespace lash::policy {
namespace {

std::string chain_text(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) {
    if (!out.empty()) out += " -> ";
    out += n;
  }
  return out;
}

// Located at the `from` line that made the chain fail.
Error chain_error(const LoadedProfile& at, const std::string& what) {
  const auto& from = at.profile.inherit_from.from;
  return to_error({Diag{from.file, from.line, "from", what}});
}

class BuiltinOnly final : public ProfileStore {
 public:
  explicit BuiltinOnly(const ProfileStore& s) : s_(s) {}
  Result<std::optional<ProfileFile>> get(std::string_view n, Source src) const override {
    if (src != Source::builtin) return std::optional<ProfileFile>{};
    return s_.get(n, src);
  }
  std::vector<std::string> names(Source src) const override {
    return src == Source::builtin ? s_.names(src) : std::vector<std::string>{};
  }

 private:
  const ProfileStore& s_;
};

}  // namespace

ResolvedProfile merge_chain(const std::vector<LoadedProfile>& chain) {
  ResolvedProfile out;
  if (chain.empty()) return out;
  out.name = chain.front().name;
  for (const auto& p : chain) out.chain.push_back(ChainLink{p.name, p.source, p.path});
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    for (const auto& key : all_keys()) {
      std::visit(
          [&](auto member) {
            const auto& f = it->profile.*member;
            if (f.set) out.values.*member = f;
          },
          key.field);
    }
  }
  return out;
}

Result<std::shared_ptr<const ResolvedProfile>> load_resolved(const ProfileStore& store_in,
                                                             std::string_view name,
                                                             ResolveOptions opts) {
  BuiltinOnly builtin_only(store_in);
  const ProfileStore& store = opts.builtin_only ? builtin_only : store_in;
  std::vector<LoadedProfile> chain;
  std::vector<std::string> names{std::string(name)};
  // Where the next file is searched from. A parent is looked up at or below its
  // child's source, so a user file never changes what a system or built-in profile
  // inherits (a broken ~/.lash/profiles/default.profile leaves `-p script` working),
  // and a parent of the child's own name is the next file of that name below it: a
  // user's default.profile with `from = default` extends the built-in one.
  Source first = Source::user;
  for (;;) {
    const std::string& current = names.back();
    auto file = find_profile(store, current, opts.include_user, first);
    if (!file) {
      if (chain.empty()) return file.error();
      return chain_error(chain.back(), file.error().message() + " (inheritance " +
                                           chain_text(names) + ")");
    }
    auto loaded = parse_profile(*file);
    if (!loaded) return loaded.error();
    chain.push_back(std::move(*loaded));
    if (!chain.back().profile.inherit_from.set) break;
    std::string parent = chain.back().profile.inherit_from.value;
    Source child = chain.back().source;
    bool same_name = parent == chain.back().name;
    if (same_name && child == Source::builtin)
      return chain_error(chain.back(), "inheritance cycle: " + chain_text(names) + " -> " + parent);
    first = same_name ? Source(uint8_t(child) + 1) : child;
    if (same_name && !find_profile(store, parent, opts.include_user, first))
      return chain_error(chain.back(), "inheritance cycle: " + chain_text(names) + " -> " + parent +
                                           " (a profile may inherit its own name only to extend a system "
                                           "or built-in profile of that name, and there is none)");
    // A cycle is a name seen before in the same or a lower source; the same name one
    // source lower is another file.
    bool cycle = !same_name && std::find(names.begin(), names.end(), parent) != names.end();
    names.push_back(parent);
    if (cycle) return chain_error(chain.back(), "inheritance cycle: " + chain_text(names));
    if (int(names.size()) - 1 > kMaxInheritDepth)
      return chain_error(chain.back(), "inheritance deeper than " +
                                           std::to_string(kMaxInheritDepth) +
                                           " levels: " + chain_text(names));
  }
  return std::shared_ptr<const ResolvedProfile>(
      std::make_shared<ResolvedProfile>(merge_chain(chain)));
}

}  // namespace lash::policy
