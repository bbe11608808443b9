// libFuzzer target: profile loading + inheritance + the engine and renderers over the
// result, plus lash.conf and $LASH_HOME/config parsing of the same bytes. Input: up to
// three profile texts separated by "\n====\n" (named fuzz, p1, p2, so `from = p1` builds
// chains and cycles). Must never crash, hang or throw.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "policy/engine.h"
#include "policy/resolver.h"
#include "policy/review.h"
#include "policy/report.h"
#include "policy/selector.h"
#include "policy/system_policy.h"

using namespace lash::policy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  (void)parse_system_policy(in, "lash.conf");
  (void)config_default_profile(in, "config");

  MemoryStore store;
  const char* names[] = {"fuzz", "p1", "p2"};
  for (int i = 0; i < 3 && !in.empty(); ++i) {
    auto sep = in.find("\n====\n");
    store.set(Source::user, names[i], std::string(in.substr(0, sep)));
    in = sep == std::string_view::npos ? std::string_view() : in.substr(sep + 6);
  }
  auto p = load_resolved(store, "fuzz");
  if (!p) return 0;
  Engine e(*p, SessionFacts{});
  const Action actions[] = {
      Spawn{"ls", "/usr/bin/ls"}, Spawn{"\xff/x", ""}, Redirect{"/tmp/x", RedirectMode::write},
      EnvChange{"PATH", EnvOp::set}, PluginCall{"git", "status"},
      Builtin{Capability::job_control_own, "fg"}, NetConnect{"a.example.com", "10.0.0.1", 443, "a.example.com"}};
  for (const auto& a : actions) (void)action_json(a, e.decide(a)).dump();
  (void)review_text(**p);
  (void)review_json(**p).dump();
  (void)permissions_json(**p).dump();
  return 0;
}
