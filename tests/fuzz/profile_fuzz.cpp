// libFuzzer target: profile loading with inheritance over several files, then the
// engine, the renderers and the sandbox compiler over the result. Input: a flags
// byte, then up to five profile texts separated by "\n====\n", named fuzz, p1, p2,
// p3, p4 (so `from = p1` builds chains, diamonds and cycles). Bit i of the flags
// puts file i in the system directory instead of the user's (a user file shadows a
// system one); bit 5 loads as lash.conf assigns (without user files); bit 6 shadows
// the built-in `restricted` with the last file. Each file is also checked alone as
// `profile validate` does. Must never crash, hang or throw.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "policy/engine.h"
#include "policy/resolver.h"
#include "policy/review.h"
#include "policy/report.h"
#include "policy/store.h"
#include "sandbox/compile.h"
#include "sandbox/plan.h"

using namespace lash::policy;

namespace {
void check(bool ok) {
  if (!ok) __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t flags = data[0];
  std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);

  MemoryStore store;
  const char* names[] = {"fuzz", "p1", "p2", "p3", "p4"};
  for (int i = 0; i < 5 && !in.empty(); ++i) {
    auto sep = in.find("\n====\n");
    std::string text(in.substr(0, sep));
    in = sep == std::string_view::npos ? std::string_view() : in.substr(sep + 6);
    const bool last = in.empty() || i == 4;
    std::string name = (last && (flags & 64)) ? "restricted" : names[i];
    store.set((flags >> i) & 1 ? Source::system : Source::user, name, text);
    auto alone = load_profile_text("/fuzz/" + name + ".profile", text);
    if (!alone) check(!alone.error().what.empty());
  }
  ResolveOptions opts;
  opts.include_user = (flags & 32) == 0;
  auto p = load_resolved(store, "fuzz", opts);
  if (!p) {
    check(!p.error().what.empty());
    return 0;
  }
  Engine e(*p, SessionFacts{});
  const Action actions[] = {
      Spawn{"ls", "/usr/bin/ls"}, Spawn{"\xff/x", ""}, Redirect{"/tmp/x", RedirectMode::write},
      EnvChange{"PATH", EnvOp::set}, PluginCall{"git", "status"},
      Builtin{Capability::job_control_own, "fg"}, NetConnect{"a.example.com", "10.0.0.1", 443, "a.example.com"}};
  for (const auto& a : actions) (void)action_json(a, e.decide(a)).dump();
  (void)review_text(**p);
  (void)review_json(**p).dump();
  (void)permissions_json(**p).dump();
  // The plan the sandbox would apply, without the session's I/O (profile review).
  (void)lash::sandbox::plan_lines(lash::sandbox::plan_without_context(**p));
  return 0;
}
