// Unit tests of builtins/umask_mode. Expected masks were produced by dash
// (`umask CURRENT; umask SPEC; umask`).
#include <doctest/doctest.h>

#include <optional>

#include "builtins/umask_mode.h"

using lash::builtins::umask_apply_symbolic;
using lash::builtins::umask_parse_octal;
using lash::builtins::umask_symbolic_text;

namespace {
// -1 stands for "Illegal mode".
int sym(const char* spec, mode_t cur) {
  auto r = umask_apply_symbolic(spec, cur);
  return r ? static_cast<int>(*r) : -1;
}
}  // namespace

TEST_SUITE("umask") {

TEST_CASE("octal") {
  CHECK(umask_parse_octal("022") == std::optional<mode_t>(022));
  CHECK(umask_parse_octal("0") == std::optional<mode_t>(0));
  CHECK(umask_parse_octal("0777") == std::optional<mode_t>(0777));
  CHECK(umask_parse_octal("1234567") == std::optional<mode_t>(0567));  // dash: reduced by umask(2)
  CHECK_FALSE(umask_parse_octal("8").has_value());
  CHECK_FALSE(umask_parse_octal("08").has_value());
  CHECK_FALSE(umask_parse_octal("02x").has_value());
  CHECK_FALSE(umask_parse_octal("").has_value());
}

TEST_CASE("symbolic, checked against dash") {
  CHECK(sym("u=rwx,g=rx,o=", 0) == 0027);
  CHECK(sym("a=rx,u+w", 0) == 0022);
  CHECK(sym("g+r", 077) == 037);
  CHECK(sym("u=", 0) == 0700);
  CHECK(sym("u=rwx,go-w", 0) == 0022);
  CHECK(sym("o+t", 022) == -1);  // t is not accepted by dash
  CHECK(sym("=", 022) == 0777);
  CHECK(sym("+", 022) == 022);
  CHECK(sym("ug=rw,o-rwx,a+X", 022) == 0006);  // X: some x bit was allowed before
  CHECK(sym("a+X", 0555) == 0555);           // ... and here none was
  CHECK(sym("u=g", 022) == 0222);            // copy the group's permissions
  CHECK(sym("u=o", 022) == 0222);
  CHECK(sym("go=u", 077) == 0);
  CHECK(sym("u+s", 022) == 022);             // s is accepted and ignored
  CHECK(sym("a+q", 022) == -1);
  CHECK(sym("q", 022) == -1);
  CHECK(sym("u+r,", 022) == 022);
  CHECK(sym("u-w+x-r", 0) == 0600);          // several operators in one clause
  CHECK(sym("", 022) == 022);
  CHECK(sym("a-w", 0) == 0222);
  CHECK(sym("-w", 0) == 0222);  // no who letter: all (the builtin sees "-w" as an option)
}

TEST_CASE("umask -S text") {
  CHECK(umask_symbolic_text(022) == "u=rwx,g=rx,o=rx");
  CHECK(umask_symbolic_text(0777) == "u=,g=,o=");
  CHECK(umask_symbolic_text(0) == "u=rwx,g=rwx,o=rwx");
  CHECK(umask_symbolic_text(0137) == "u=rw,g=r,o=");
}

}  // TEST_SUITE
