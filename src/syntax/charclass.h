// Byte classes for the lexer's fast paths (a 256-entry table instead of chains of
// comparisons per character). Internal to src/syntax.
#pragma once
#include <array>
#include <cstdint>

namespace lash::syntax::detail {

enum CharClass : uint8_t {
  kWordEnd = 1,     // ends an unquoted word: blank, newline, ; & | < > ( )
  kWordSpecial = 2, // needs attention inside an unquoted word: \ ' " $ ` NUL
  kDqSpecial = 4,   // needs attention inside "...": " \ $ ` NUL
  kDocSpecial = 8,  // needs attention in a here-document body: newline \ $ ` NUL
};

constexpr std::array<uint8_t, 256> make_char_classes() {
  std::array<uint8_t, 256> t{};
  for (unsigned char c : {' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')'}) t[c] |= kWordEnd;
  for (unsigned char c : {'\\', '\'', '"', '$', '`', '\0'}) t[c] |= kWordSpecial;
  for (unsigned char c : {'"', '\\', '$', '`', '\0'}) t[c] |= kDqSpecial;
  for (unsigned char c : {'\n', '\\', '$', '`', '\0'}) t[c] |= kDocSpecial;
  return t;
}

inline constexpr std::array<uint8_t, 256> kCharClasses = make_char_classes();

inline bool has_class(char c, uint8_t mask) {
  return (kCharClasses[static_cast<unsigned char>(c)] & mask) != 0;
}

}  // namespace lash::syntax::detail
