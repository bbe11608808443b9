// The guard that keeps deeply nested scripts from overflowing lash's C++ stack: past a
// budget below the first evaluation's frame, evaluation ends with a FatalError (a
// message and status 2) instead of SIGSEGV. The budget follows RLIMIT_STACK as it is
// now, including a limit the script set with `ulimit -s`, not only the one lash
// started with.
#pragma once
#include <cstddef>

namespace lash::exec {

// Throws FatalError when the evaluation has used its budget. The first call marks the
// stack's base (call it from the evaluation's entry, before anything deep).
void check_stack_depth();

// RLIMIT_STACK changed in this process (`ulimit -s`): the next check recomputes the
// budget from the new limit and the stack that is mapped already.
void stack_limit_changed();

// What the evaluation may still use of the stack here: for the parser's own limit
// (syntax::ParseOptions::max_stack_bytes), so that parsing deeply nested text after a
// `ulimit -s` ends with a syntax error, not SIGSEGV.
size_t stack_bytes_left();

}  // namespace lash::exec
