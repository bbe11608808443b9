#include "base/process_caps.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace lash {

std::optional<uint64_t> effective_capabilities() {
  struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capget, &head, data) != 0) return std::nullopt;
  return static_cast<uint64_t>(data[0].effective) | (static_cast<uint64_t>(data[1].effective) << 32);
}

bool has_capability(int cap) {
  auto caps = effective_capabilities();
  return caps && cap >= 0 && cap < 64 && (*caps >> cap) & 1;
}

}  // namespace lash
