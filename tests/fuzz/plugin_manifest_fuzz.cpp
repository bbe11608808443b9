// libFuzzer target: the plugin manifest loader (plugin/manifest.h) over arbitrary
// plugin.ini text. Must never crash, hang or throw; a manifest it accepts has a valid
// name and an executable inside the plugin's directory.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "plugin/manifest.h"

using namespace lash::plugin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  lash::policy::Diags diags;
  auto m = parse_manifest(in, "plugin.ini", "/plugins/x", diags);
  if (m) {
    if (m->name.empty() || m->executable.rfind("/plugins/x/", 0) != 0 ||
        m->executable.find("..") != std::string::npos)
      std::abort();
    for (const auto& d : diags) (void)d.text();
  }
  return 0;
}
