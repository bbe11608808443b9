// Brace expansion (bash): {a,b,c} alternatives and {x..y[..step]} sequences, done on
// a word's structure before any other expansion. Only unquoted literal text takes
// part; quoted text and expansions are carried through whole.
#pragma once
#include <string>
#include <vector>

#include "syntax/ast.h"

namespace lash::exec {

// A piece of a brace-expanded word: unquoted text, or one of the word's parts.
struct BraceSeg {
  std::string text;
  const ast::WordPart* part = nullptr;
};
using BraceWord = std::vector<BraceSeg>;

// Whether W has an unquoted '{' (the only case brace expansion can change).
bool may_brace_expand(const ast::Word& w);
// The words W expands to, in order (at most kMaxBraceWords; the rest is dropped).
std::vector<BraceWord> brace_expand(const ast::Word& w);

inline constexpr size_t kMaxBraceWords = 1u << 20;

}  // namespace lash::exec
