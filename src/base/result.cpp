#include "base/result.h"

#include <cstring>

namespace lash {

std::string Error::message() const {
  std::string out;
  if (!target.empty()) out += target;
  if (!what.empty()) {
    if (!out.empty()) out += ": ";
    out += what;
  }
  if (err != 0) {
    if (!out.empty()) out += ": ";
    out += std::strerror(err);
  }
  return out;
}

}  // namespace lash
