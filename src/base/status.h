// Named exit statuses of cli.md. Every layer uses these names instead of numbers.
#pragma once

namespace lash::status {
inline constexpr int ok = 0;
inline constexpr int failure = 1;          // generic failure of a builtin
inline constexpr int usage = 2;            // usage error, syntax error, unusable requested profile
inline constexpr int refused = 126;        // refused by the profile, or found but not executable
inline constexpr int not_executable = 126;
inline constexpr int not_found = 127;
inline constexpr int signal_base = 128;    // killed by signal N -> 128+N
}  // namespace lash::status
