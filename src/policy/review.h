// Data for the `profile` builtin: review (every key with provenance), permissions
// (capabilities and limits) and list, each as text and as JSON (cli.md). The sandbox
// plan part of `profile review` comes from the sandbox layer and is appended by the
// caller.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "policy/json_text.h"
#include "policy/profile_model.h"
#include "policy/store.h"

namespace lash::policy {

// A key's value as text: lists joined with ", ", sizes with K/M/G/T, "" for empty.
std::string value_text(const Profile& p, const KeyInfo& key);
// The same as JSON (bools, numbers, arrays; null for an unset `pass` or `sandbox`).
Json value_json(const Profile& p, const KeyInfo& key);

std::string review_text(const ResolvedProfile& p);
Json review_json(const ResolvedProfile& p);

std::string permissions_text(const ResolvedProfile& p);
Json permissions_json(const ResolvedProfile& p);

// `profile create NAME`: a commented template inheriting from PARENT.
std::string profile_template(std::string_view name, std::string_view parent);

struct ListEntry {
  std::string name;
  Source source = Source::builtin;
  std::string path;
  std::string description;
  std::string error;  // non-empty: the profile does not load
};
// Every profile name of every source (the winning file per name), resolved to read its
// description; broken ones carry their error.
std::vector<ListEntry> list_profiles(const ProfileStore& store, bool include_user = true);
std::string list_text(const std::vector<ListEntry>& entries, std::string_view active);
Json list_json(const std::vector<ListEntry>& entries, std::string_view active);

}  // namespace lash::policy
