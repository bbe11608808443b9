// libFuzzer target for the policy INI reader and the two files read with it besides
// profiles: <system_dir>/lash.conf (which profile each user or group gets) and
// $LASH_HOME/config (`[profile] default`). Any bytes give a document or located
// errors, never a crash; whatever is accepted names valid profiles and accounts.
//
// Round trip: a document read_ini() accepts, written out again as INI (sections,
// `key=value`, continuation lines indented), reads back as the same document.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "policy/ini_loader.h"
#include "policy/selector.h"
#include "policy/system_policy.h"
#include "policy/validate.h"

namespace {

using namespace lash::policy;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

std::string write_ini(const IniDoc& doc) {
  std::string out;
  for (const IniSection& s : doc.sections) {
    if (!s.name.empty() || &s != &doc.sections.front()) out += "[" + s.name + "]\n";
    for (const IniEntry& e : s.entries) {
      // Never longer than the line read (the reader refuses lines over 200 bytes).
      out += e.key + "=" + e.value + "\n";
      for (const IniLine& c : e.continuations) out += " " + c.value + "\n";
    }
  }
  return out;
}

bool same(const IniDoc& a, const IniDoc& b) {
  if (a.sections.size() != b.sections.size()) return false;
  for (size_t i = 0; i < a.sections.size(); ++i) {
    const IniSection& x = a.sections[i];
    const IniSection& y = b.sections[i];
    if (x.name != y.name || x.entries.size() != y.entries.size()) return false;
    for (size_t j = 0; j < x.entries.size(); ++j) {
      const IniEntry& e = x.entries[j];
      const IniEntry& f = y.entries[j];
      if (e.key != f.key || e.value != f.value || e.continuations.size() != f.continuations.size()) return false;
      for (size_t k = 0; k < e.continuations.size(); ++k)
        if (e.continuations[k].value != f.continuations[k].value) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const int lines = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));

  Diags diags;
  auto doc = read_ini(text, "fuzz.ini", diags);
  // A duplicate key is the one soft error: the document comes back with it, so a
  // profile can report every error; every other caller treats it as invalid.
  if (doc && !diags.empty()) {
    for (const auto& d : diags) check(d.message.find("duplicate key") != std::string::npos);
    doc.reset();
  }
  if (doc) {
    for (const IniSection& s : doc->sections)
      for (const IniEntry& e : s.entries) check(e.line >= 1 && e.line <= lines);
    std::string again_text = write_ini(*doc);
    Diags again_diags;
    auto again = read_ini(again_text, "again.ini", again_diags);
    if (!again || !same(*doc, *again)) {
      fprintf(stderr, "written again:\n%s\n", again_text.c_str());
      if (again) fprintf(stderr, "read back:\n%s\n", write_ini(*again).c_str());
      for (const auto& d : again_diags) fprintf(stderr, "diag: %s\n", d.message.c_str());
    }
    check(again.has_value() && same(*doc, *again));
  } else {
    check(!diags.empty());
  }

  auto policy = parse_system_policy(text, "lash.conf");
  if (policy) {
    for (const auto* list : {&policy->users, &policy->groups})
      for (const Assignment& a : *list) {
        check(validate::is_profile_name(a.profile));
        check(!a.who.empty() && a.line >= 1 && a.line <= lines);
      }
    // A user entry wins over any group; otherwise the first listed group that matches.
    const std::vector<std::string> groups = {"wheel", "developers", "users"};
    for (std::string_view user : {"root", "alice", "nobody"}) {
      auto a = assignment_for(*policy, user, groups);
      if (!a) continue;
      if (!a->group) {
        check(a->who == user);
      } else {
        for (const Assignment& u : policy->users) check(u.who != user);
        check(std::find(groups.begin(), groups.end(), a->who) != groups.end());
      }
    }
  } else {
    check(!policy.error().what.empty());
  }

  auto def = config_default_profile(text, "config");
  if (def) {
    if (*def) check(validate::is_profile_name((*def)->first) && (*def)->second >= 1 && (*def)->second <= lines);
  } else {
    check(!def.error().what.empty());
  }
  return 0;
}
