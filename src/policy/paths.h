// Lexical path helpers shared by validation, the engine and session set-up. Pure.
#pragma once
#include <string>
#include <string_view>

namespace lash::policy::paths {

// Collapses "//", "." and ".." of an absolute path ("/.." stays "/"). No filesystem access.
std::string normalize(std::string_view abs);
// True when PATH equals ROOT or lies below it. Both absolute and normalized.
bool beneath(std::string_view path, std::string_view root);
// Expands a profile path: "." and "./x" against START_DIR, "~" and "~/x" against HOME;
// absolute paths are only normalized.
std::string expand(std::string_view p, std::string_view start_dir, std::string_view home);
std::string_view basename(std::string_view p);

}  // namespace lash::policy::paths
