#include "policy/selector.h"

#include "policy/ini_loader.h"
#include "policy/resolver.h"
#include "policy/system_policy.h"
#include "policy/validate.h"

namespace lash::policy {

std::string_view origin_name(Origin o) {
  switch (o) {
    case Origin::assigned: return "assigned";
    case Origin::fallback: return "fallback";
    case Origin::cli: return "-p";
    case Origin::env: return "LASH_PROFILE";
    case Origin::config: return "config";
    case Origin::builtin_default: return "default";
  }
  return "?";
}

Result<std::optional<std::pair<std::string, int>>> config_default_profile(
    std::string_view text, const std::string& file) {
  using Out = std::optional<std::pair<std::string, int>>;
  Diags diags;
  auto doc = read_ini(text, file, diags);
  // A duplicate key is a soft error of read_ini (the document comes back so a profile
  // can report every error at once); here any error makes the file invalid.
  if (!doc || !diags.empty()) return to_error(diags);
  const IniSection* sec = doc->find("profile");
  if (!sec) return Out{};
  Out out;
  for (const auto& e : sec->entries) {
    if (e.key == "auto_detect") continue;  // user_config.h checks it
    if (e.key != "default") {
      std::string msg = "unknown key in [profile]";
      if (!nearest(e.key, {"default"}).empty()) msg += "; did you mean 'default'?";
      diags.push_back(Diag{file, e.line, e.key, msg});
    } else if (!e.continuations.empty()) {
      diags.push_back(Diag{file, e.continuations.front().line, e.key,
                           "indented lines continue the previous key; remove the indentation"});
    } else if (auto n = validate::profile_name(e.value); !n) {
      diags.push_back(Diag{file, e.line, e.key, n.error().what});
    } else {
      out = std::make_pair(*n, e.line);
    }
  }
  if (!diags.empty()) return to_error(diags);
  return out;
}

namespace {

struct Request {
  std::string name;
  Origin origin;
  std::string where;
};

Error request_error(const Request& r, const Error& e) {
  return Error{"cannot use profile '" + r.name + "' (from " + r.where + "):\n" + e.message(), {},
               0, {}};
}

// The user's explicit request (-p, then LASH_PROFILE), if any.
std::optional<Request> explicit_request(const SelectInputs& in) {
  if (in.cli) return Request{*in.cli, Origin::cli, "-p"};
  if (in.env && !in.env->empty()) return Request{*in.env, Origin::env, "LASH_PROFILE"};
  return std::nullopt;
}

Result<Selection> load_requested(const Request& r, const ProfileStore& store, Selection sel) {
  auto p = load_resolved(store, r.name, ResolveOptions{true, false});
  if (!p) return request_error(r, p.error());
  sel.profile = std::move(*p);
  sel.origin = r.origin;
  sel.where = r.where;
  sel.assigned = false;
  return sel;
}

Result<Selection> fallback(Selection sel, const ProfileStore& store, const std::string& why) {
  auto p = load_resolved(store, "restricted", ResolveOptions{false, true});
  if (!p) return Error{why + "; the built-in 'restricted' profile cannot be loaded either", {}, 0, {}};
  sel.warnings.push_back(why + "; using the built-in 'restricted' profile");
  sel.profile = std::move(*p);
  sel.origin = Origin::fallback;
  sel.assigned = true;
  return sel;
}

// Rule 1 once lash.conf has been read and trusted; nullopt when it assigns nothing to
// this user.
std::optional<Result<Selection>> select_assigned(const SelectInputs& in, const ProfileStore& store,
                                  Selection sel) {
  const SystemPolicyFile& sys = *in.system;
  if (!sys.error.empty())
    return fallback(std::move(sel), store, "cannot read " + sys.path + ": " + sys.error);
  auto policy = parse_system_policy(sys.text, sys.path);
  if (!policy)
    return fallback(std::move(sel), store,
                    "the system policy cannot be parsed:\n" + policy.error().message() + "\n");
  std::optional<Assignment> a;
  if (!policy->users.empty() || !policy->groups.empty()) {
    std::string user = in.user_name ? in.user_name() : std::string();
    a = assignment_for(*policy, user, {});
    if (!a && !policy->groups.empty() && in.group_names)  // group lookups cost NSS calls
      a = assignment_for(*policy, user, in.group_names());
  }
  if (!a) return std::nullopt;
  auto req = explicit_request(in);
  sel.assigned_name = a->profile;
  sel.where = sys.path + ":" + std::to_string(a->line);
  auto p = load_resolved(store, a->profile, ResolveOptions{false, false});
  if (p) {
    sel.profile = std::move(*p);
    sel.origin = Origin::assigned;
    sel.assigned = true;
  } else {
    auto fb = fallback(std::move(sel), store,
                       "profile '" + a->profile + "' assigned by " + sys.path + ":" +
                           std::to_string(a->line) + " cannot be loaded: " +
                           p.error().message());
    if (!fb) return fb;
    sel = std::move(fb.value());
  }
  if (!req || req->name == a->profile) return sel;
  if (!sel.profile->values.profile_switch.value)
    return Error{"cannot use profile '" + req->name + "' (from " + req->where + "): " +
                     sel.where + " assigns profile '" + a->profile + "'" +
                     (sel.origin == Origin::fallback ? " (replaced by the built-in 'restricted')"
                                                     : "") +
                     ", which does not allow choosing another (profile_switch = false)",
                 {}, 0, {}};
  return load_requested(*req, store, std::move(sel));
}

}  // namespace

Result<Selection> select_profile(const SelectInputs& in, const ProfileStore& store) {
  Selection sel;
  if (in.system) {
    if (!in.system->untrusted.empty()) {
      sel.warnings.push_back("ignoring " + in.system->path + ": " + in.system->untrusted);
    } else {
      if (auto r = select_assigned(in, store, sel)) return std::move(*r);
    }
  }
  if (auto req = explicit_request(in)) return load_requested(*req, store, std::move(sel));
  if (in.read_config) {
    auto text = in.read_config();
    if (!text) return Error{"cannot read " + in.config_path + ": " + text.error().message(), {}, 0, {}};
    if (*text) {
      auto name = config_default_profile(**text, in.config_path);
      if (!name) return name.error();
      if (*name) {
        Request r{(*name)->first, Origin::config,
                  in.config_path + ":" + std::to_string((*name)->second)};
        return load_requested(r, store, std::move(sel));
      }
    }
  }
  return load_requested(Request{"default", Origin::builtin_default, "default"}, store,
                        std::move(sel));
}

}  // namespace lash::policy
