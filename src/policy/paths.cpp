#include "policy/paths.h"

#include <vector>

namespace lash::policy::paths {

std::string normalize(std::string_view abs) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i < abs.size()) {
    while (i < abs.size() && abs[i] == '/') ++i;
    size_t j = abs.find('/', i);
    if (j == std::string_view::npos) j = abs.size();
    std::string_view part = abs.substr(i, j - i);
    i = j;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string out;
  for (auto p : parts) {
    out += '/';
    out += p;
  }
  return out.empty() ? "/" : out;
}

bool beneath(std::string_view path, std::string_view root) {
  if (root == "/") return !path.empty() && path[0] == '/';
  if (path.size() < root.size() || path.compare(0, root.size(), root) != 0) return false;
  return path.size() == root.size() || path[root.size()] == '/';
}

std::string expand(std::string_view p, std::string_view start_dir, std::string_view home) {
  if (p == "." || p.substr(0, 2) == "./")
    return normalize(std::string(start_dir) + "/" + std::string(p.substr(1)));
  if (p == "~" || p.substr(0, 2) == "~/")
    return normalize(std::string(home) + "/" + std::string(p.substr(1)));
  return normalize(p);
}

std::string_view basename(std::string_view p) {
  auto pos = p.rfind('/');
  return pos == std::string_view::npos ? p : p.substr(pos + 1);
}

}  // namespace lash::policy::paths
