// This process's effective capabilities, as one 64-bit mask (capget(2), version 3):
// what decides whether it may, say, raise a hard limit (CAP_SYS_RESOURCE) or read
// past file permissions (CAP_DAC_*). nullopt when capget fails.
#pragma once
#include <cstdint>
#include <optional>

namespace lash {

std::optional<uint64_t> effective_capabilities();

// Whether capability CAP (CAP_SYS_RESOURCE, ...) is in effect.
bool has_capability(int cap);

}  // namespace lash
