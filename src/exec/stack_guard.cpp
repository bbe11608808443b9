#include "exec/stack_guard.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/fileio.h"
#include "base/strutil.h"
#include "exec/shell.h"

namespace lash::exec {
namespace {

char* g_base = nullptr;       // the frame of the first check
size_t g_budget = 0;          // bytes below g_base the evaluation may use
bool g_limit_changed = false;  // recompute at the next check

constexpr size_t kUnlimitedStack = size_t(8) << 20;  // what an unlimited stack is taken as
// Below the guard point there must be room for what runs without checking: libc, a
// builtin's buffers, signal frames, unwinding the FatalError. A quarter of the stack,
// and never less than this, which a small `ulimit -s` would otherwise leave.
constexpr size_t kMinReserve = size_t(64) << 10;
// A limit this small at start (lash run under `ulimit -s 64`) may be below what is
// mapped: then the mapping is read, as after a `ulimit -s`.
constexpr size_t kReadMappingBelow = size_t(2) << 20;

bool parse_hex(std::string_view s, uintptr_t& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, 16);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// The main thread's stack mapping, [low, high), from /proc/self/maps (this process's
// own entry; lash is outside any sandbox). false when it cannot be read.
bool stack_mapping(uintptr_t& low, uintptr_t& high) {
  int fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  std::string text;
  int err = read_all_fd(fd, text, size_t(16) << 20);
  ::close(fd);
  if (err != 0) return false;
  for (std::string_view line : str::split(text, '\n')) {
    if (line.size() < 7 || line.substr(line.size() - 7) != "[stack]") continue;
    size_t dash = line.find('-'), space = line.find(' ');
    if (dash == std::string_view::npos || space == std::string_view::npos || space < dash) return false;
    if (!parse_hex(line.substr(0, dash), low) || !parse_hex(line.substr(dash + 1, space - dash - 1), high) ||
        low >= high)
      return false;
    return true;
  }
  return false;
}

// How far below g_base evaluation may go. The stack can grow down to the soft limit;
// what is mapped already stays usable even when a lowered limit forbids growing (the
// kernel maps more than the limit at exec when it is tiny, and the stack may have been
// deeper before). Both are measured from the top of the stack, which g_base is below.
// WITH_MAPPING false: the limit alone, from g_base (lash's start under a usual limit,
// where /proc need not be read).
size_t compute_budget(bool with_mapping) {
  struct rlimit rl;
  size_t limit = kUnlimitedStack;
  if (::getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) limit = size_t(rl.rlim_cur);
  with_mapping = with_mapping || limit < kReadMappingBelow;
  size_t usable = limit, above_base = 0;
  uintptr_t low = 0, high = 0;
  uintptr_t base = reinterpret_cast<uintptr_t>(g_base);
  if (with_mapping && stack_mapping(low, high) && base >= low && base < high) {
    usable = std::max(limit, size_t(high - low));
    above_base = size_t(high - base);
  }
  size_t reserve = std::max(usable / 4, kMinReserve);
  if (usable <= reserve + above_base) return 0;
  return usable - reserve - above_base;
}

}  // namespace

void check_stack_depth() {
  char here;
  if (!g_base) {
    g_base = &here;
    g_budget = compute_budget(/*with_mapping=*/false);
    return;
  }
  if (g_limit_changed) {
    g_limit_changed = false;
    g_budget = compute_budget(/*with_mapping=*/true);
  }
  // The stack grows down on every architecture lash builds for. Compared as integers:
  // the two are not parts of one object.
  uintptr_t base = reinterpret_cast<uintptr_t>(g_base), now = reinterpret_cast<uintptr_t>(&here);
  size_t used = base > now ? size_t(base - now) : 0;
  if (used > g_budget) throw FatalError{"evaluation nested too deeply (stack limit reached)", 2};
}

void stack_limit_changed() { g_limit_changed = true; }

size_t stack_bytes_left() {
  check_stack_depth();  // marks the base on first use, recomputes after `ulimit -s`
  char here;
  uintptr_t base = reinterpret_cast<uintptr_t>(g_base), now = reinterpret_cast<uintptr_t>(&here);
  size_t used = base > now ? size_t(base - now) : 0;
  return used < g_budget ? g_budget - used : 0;
}

}  // namespace lash::exec
