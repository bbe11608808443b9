#include "policy/diag.h"

namespace lash::policy {

std::string Diag::text() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  out += ": ";
  if (!key.empty()) out += key + ": ";
  out += message;
  return out;
}

Error to_error(const Diags& diags) {
  Error e;
  for (const auto& d : diags) {
    if (!e.what.empty()) e.what += '\n';
    e.what += d.text();
  }
  if (!diags.empty()) e.key = diags.front().key;  // the file is already in `what`
  return e;
}

}  // namespace lash::policy
