// A located problem in a policy file: rendered "FILE:LINE: key: message".
#pragma once
#include <string>
#include <vector>

#include "base/result.h"

namespace lash::policy {

struct Diag {
  std::string file;
  int line = 0;     // 0: the whole file
  std::string key;  // may be empty
  std::string message;
  std::string text() const;
};
using Diags = std::vector<Diag>;

// All diagnostics, one per line, as one Error (for Result<T> returns).
Error to_error(const Diags& diags);

}  // namespace lash::policy
