// POSIX shell arithmetic: a single-pass recursive-descent evaluator (no AST, no
// heap allocation on the success path). Short-circuit operators and the untaken
// branch of ?: are parsed with `noeval` set: no variable is read or assigned and no
// division by zero is reported there. All arithmetic is done in uint64_t so that
// overflow wraps instead of being undefined behaviour.
#include "exec/arith.h"

#include <cstring>

namespace lash::exec {
namespace {

// Recursion bound: every nested parenthesis, unary operator, assignment and ?:
// level counts one. Deep enough for any real script, shallow enough for a small
// thread stack.
constexpr int kMaxDepth = 256;

struct ArithError {
  std::string message;
};

enum class Tok : unsigned char {
  end, number, ident, lparen, rparen,
  // binary operators (in the order of kPrec below)
  pow, mul, div, mod, add, sub, shl, shr, lt, le, gt, ge, eq, ne, band, bxor, bor, land, lor,
  // others
  bnot, lnot, question, colon, comma,
  assign, mul_a, div_a, mod_a, add_a, sub_a, shl_a, shr_a, and_a, xor_a, or_a,
  bad,
};

// Binary precedence, higher binds tighter; 0 = not a binary operator.
constexpr int prec_of(Tok t) {
  switch (t) {
    case Tok::pow: return 11;  // bash: right-associative, tighter than * /
    case Tok::mul: case Tok::div: case Tok::mod: return 10;
    case Tok::add: case Tok::sub: return 9;
    case Tok::shl: case Tok::shr: return 8;
    case Tok::lt: case Tok::le: case Tok::gt: case Tok::ge: return 7;
    case Tok::eq: case Tok::ne: return 6;
    case Tok::band: return 5;
    case Tok::bxor: return 4;
    case Tok::bor: return 3;
    case Tok::land: return 2;
    case Tok::lor: return 1;
    default: return 0;
  }
}

constexpr bool is_assign_op(Tok t) { return t >= Tok::assign && t <= Tok::or_a; }

inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

inline int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

// Parses digits of `base` from [p, end) into *out with saturation. Returns the
// first unconsumed position; *overflow is set if the value exceeded INT64_MAX
// (or INT64_MAX+1 when `negative`).
const char* parse_digits(const char* p, const char* end, int base, bool negative,
                         uint64_t* out, bool* overflow) {
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t v = 0;
  for (; p < end; ++p) {
    const int d = digit_value(*p);
    if (d >= base) break;
    uint64_t t;
    // Overflow checks without a division per digit; once saturated, v stays so.
    if (__builtin_mul_overflow(v, static_cast<uint64_t>(base), &t) ||
        __builtin_add_overflow(t, static_cast<uint64_t>(d), &v))
      v = UINT64_MAX;
  }
  if (v > limit) {
    *overflow = true;
    v = limit;
  }
  *out = v;
  return p;
}

// The value of a variable, strtoimax(base 0) style as dash does: blanks around the
// number are allowed, an empty or blank value is 0, anything else is an error.
bool value_to_int(std::string_view s, int64_t* result) {
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end && is_space(*p)) ++p;
  if (p == end) {
    *result = 0;
    return true;
  }
  bool negative = false;
  if (*p == '+' || *p == '-') {
    negative = *p == '-';
    ++p;
  }
  if (p == end || !is_digit(*p)) return false;
  int base = 10;
  if (*p == '0') {
    if (p + 1 < end && (p[1] == 'x' || p[1] == 'X')) {
      // "0x" needs a hex digit; strtoimax would stop at the 'x' (trailing junk).
      if (p + 2 >= end || digit_value(p[2]) >= 16) return false;
      base = 16;
      p += 2;
    } else {
      base = 8;
    }
  }
  uint64_t v = 0;
  bool overflow = false;
  p = parse_digits(p, end, base, negative, &v, &overflow);
  if (overflow) return false;
  while (p < end && is_space(*p)) ++p;
  if (p != end) return false;
  *result = static_cast<int64_t>(negative ? 0 - v : v);
  return true;
}

class Evaluator {
 public:
  Evaluator(std::string_view expr, ArithVars& vars)
      : p_(expr.data()), end_(expr.data() + expr.size()), vars_(vars), ext_(vars.extensions) {}

  int64_t run() {
    next();
    if (tok_ == Tok::end) return 0;
    int64_t v = comma(false);
    if (tok_ != Tok::end) unexpected();
    return v;
  }

 private:
  // ---- lexer -------------------------------------------------------------
  void next() {
    while (p_ < end_ && is_space(*p_)) ++p_;
    tstart_ = p_;
    if (p_ >= end_) {
      tok_ = Tok::end;
      return;
    }
    char c = *p_;
    if (is_digit(c)) {
      lex_number();
      return;
    }
    if (is_name_start(c)) {
      const char* s = p_;
      while (p_ < end_ && is_name_char(*p_)) ++p_;
      if (ext_ && p_ < end_ && *p_ == '[') {
        // An array element: the subscript is part of the name (ArithVars
        // resolves it).
        int depth = 0;
        const char* q = p_;
        for (; q < end_; ++q) {
          if (*q == '[') ++depth;
          if (*q == ']' && --depth == 0) break;
        }
        if (q < end_) p_ = q + 1;
      }
      name_ = std::string_view(s, static_cast<size_t>(p_ - s));
      tok_ = Tok::ident;
      return;
    }
    char c1 = p_ + 1 < end_ ? p_[1] : '\0';
    char c2 = p_ + 2 < end_ ? p_[2] : '\0';
    int len = 1;
    switch (c) {
      case '(': tok_ = Tok::lparen; break;
      case ')': tok_ = Tok::rparen; break;
      case '~': tok_ = Tok::bnot; break;
      case '?': tok_ = Tok::question; break;
      case ':': tok_ = Tok::colon; break;
      case ',': tok_ = Tok::comma; break;
      case '*':
        if (c1 == '=') { tok_ = Tok::mul_a; len = 2; }
        else if (c1 == '*' && ext_) { tok_ = Tok::pow; len = 2; }
        else tok_ = Tok::mul;
        break;
      case '/': if (c1 == '=') { tok_ = Tok::div_a; len = 2; } else tok_ = Tok::div; break;
      case '%': if (c1 == '=') { tok_ = Tok::mod_a; len = 2; } else tok_ = Tok::mod; break;
      case '+': if (c1 == '=') { tok_ = Tok::add_a; len = 2; } else tok_ = Tok::add; break;
      case '-': if (c1 == '=') { tok_ = Tok::sub_a; len = 2; } else tok_ = Tok::sub; break;
      case '^': if (c1 == '=') { tok_ = Tok::xor_a; len = 2; } else tok_ = Tok::bxor; break;
      case '=': if (c1 == '=') { tok_ = Tok::eq; len = 2; } else tok_ = Tok::assign; break;
      case '!': if (c1 == '=') { tok_ = Tok::ne; len = 2; } else tok_ = Tok::lnot; break;
      case '&':
        if (c1 == '&') { tok_ = Tok::land; len = 2; }
        else if (c1 == '=') { tok_ = Tok::and_a; len = 2; }
        else tok_ = Tok::band;
        break;
      case '|':
        if (c1 == '|') { tok_ = Tok::lor; len = 2; }
        else if (c1 == '=') { tok_ = Tok::or_a; len = 2; }
        else tok_ = Tok::bor;
        break;
      case '<':
        if (c1 == '<') {
          if (c2 == '=') { tok_ = Tok::shl_a; len = 3; } else { tok_ = Tok::shl; len = 2; }
        } else if (c1 == '=') { tok_ = Tok::le; len = 2; }
        else tok_ = Tok::lt;
        break;
      case '>':
        if (c1 == '>') {
          if (c2 == '=') { tok_ = Tok::shr_a; len = 3; } else { tok_ = Tok::shr; len = 2; }
        } else if (c1 == '=') { tok_ = Tok::ge; len = 2; }
        else tok_ = Tok::gt;
        break;
      default: tok_ = Tok::bad; break;
    }
    p_ += len;
  }

  void lex_number() {
    const char* s = p_;
    while (p_ < end_ && is_name_char(*p_)) ++p_;
    const char* e = p_;
    int base = 10;
    const char* d = s;
    if (*s == '0' && e - s > 1) {
      if (s[1] == 'x' || s[1] == 'X') {
        base = 16;
        d = s + 2;
        if (d == e) bad_number(s, e);
      } else {
        base = 8;
        d = s + 1;
      }
    }
    if (ext_ && p_ < end_ && *p_ == '#' && *s != '0') {
      // base#digits (bash): base 2 to 64; digits 0-9 a-z A-Z @ _ (letters of
      // either case for bases up to 36).
      uint64_t b = 0;
      for (const char* q = s; q < e; ++q) {
        if (!is_digit(*q)) bad_number(s, e);
        b = b * 10 + uint64_t(*q - '0');
        if (b > 64) fail("invalid arithmetic base");
      }
      if (b < 2) fail("invalid arithmetic base");
      ++p_;
      const char* ds = p_;
      uint64_t v = 0;
      while (p_ < end_ && (is_name_char(*p_) || *p_ == '@')) {
        char c = *p_;
        uint64_t dv = is_digit(c) ? uint64_t(c - '0') : (c >= 'a' && c <= 'z') ? uint64_t(c - 'a' + 10)
                    : (c >= 'A' && c <= 'Z') ? uint64_t(b <= 36 ? c - 'A' + 10 : c - 'A' + 36)
                    : c == '@' ? 62 : 63;
        if (dv >= b) fail("value too great for base");
        v = v * b + dv;
        ++p_;
      }
      if (p_ == ds) fail("invalid number");
      num_ = static_cast<int64_t>(v);
      tok_ = Tok::number;
      return;
    }
    uint64_t v = 0;
    bool overflow = false;
    if (parse_digits(d, e, base, false, &v, &overflow) != e) bad_number(s, e);
    // Like dash (strtoimax), an out-of-range literal saturates.
    num_ = static_cast<int64_t>(v);
    tok_ = Tok::number;
  }

  // Is the text right after the current token `c` (no blank in between)?
  bool glued(char c) const { return p_ < end_ && *p_ == c; }

  // After `++`/`--` glued at the current position (p_ points at the second
  // character), is the next thing an identifier (prefix increment)?
  bool ident_follows_after(const char* q) const {
    while (q < end_ && is_space(*q)) ++q;
    return q < end_ && is_name_start(*q);
  }

  // ---- errors ------------------------------------------------------------
  [[noreturn]] void fail(std::string msg) { throw ArithError{std::move(msg)}; }

  [[noreturn]] void unexpected() {
    if (tok_ == Tok::end) fail("syntax error: unexpected end of expression");
    std::string t(tstart_, static_cast<size_t>(p_ - tstart_));
    if (tok_ == Tok::bad) t = std::string(1, *tstart_);
    fail("syntax error: unexpected '" + t + "'");
  }

  [[noreturn]] void bad_number(const char* s, const char* e) {
    fail("invalid number '" + std::string(s, static_cast<size_t>(e - s)) + "'");
  }

  void enter() {
    if (++depth_ > kMaxDepth) fail("expression nested too deeply");
  }
  void leave() { --depth_; }

  // ---- variables -----------------------------------------------------------
  int64_t get_var(std::string_view name) {
    const std::string* v = vars_.get(name);
    if (v == nullptr) return 0;
    int64_t r;
    if (value_to_int(*v, &r)) return r;
    if (!ext_) fail("Illegal number: " + *v);
    // bash: a value that is not a number is itself an expression (x=y+1).
    if (vars_.depth >= 64) fail("expression recursion level exceeded");
    ++vars_.depth;
    std::string text = *v;  // the evaluation may change the variable
    ArithResult sub = lash::exec::arith_eval(text, vars_);
    --vars_.depth;
    if (sub.error) fail(*sub.error);
    return sub.value;
  }

  void set_var(std::string_view name, int64_t value) {
    std::string err;
    if (!vars_.set(name, value, &err)) {
      if (err.empty()) err = std::string(name) + ": cannot assign";
      fail(std::move(err));
    }
  }

  // ---- arithmetic ----------------------------------------------------------
  static uint64_t u(int64_t v) { return static_cast<uint64_t>(v); }
  static int64_t s(uint64_t v) { return static_cast<int64_t>(v); }

  int64_t apply(Tok op, int64_t a, int64_t b, bool noeval) {
    switch (op) {
      case Tok::pow: {
        if (b < 0) {
          if (noeval) return 0;
          fail("exponent less than 0");
        }
        uint64_t r = 1, base = u(a);
        for (uint64_t e = u(b); e; e >>= 1, base *= base)
          if (e & 1) r *= base;
        return s(r);
      }
      case Tok::mul: case Tok::mul_a: return s(u(a) * u(b));
      case Tok::add: case Tok::add_a: return s(u(a) + u(b));
      case Tok::sub: case Tok::sub_a: return s(u(a) - u(b));
      case Tok::div: case Tok::div_a:
      case Tok::mod: case Tok::mod_a: {
        if (b == 0) {
          if (noeval) return 0;
          fail("division by zero");
        }
        bool is_div = op == Tok::div || op == Tok::div_a;
        if (b == -1) return is_div ? s(0 - u(a)) : 0;  // INT64_MIN / -1 wraps
        return is_div ? a / b : a % b;
      }
      case Tok::shl: case Tok::shl_a: return s(u(a) << (u(b) & 63));
      case Tok::shr: case Tok::shr_a: return a >> (u(b) & 63);  // arithmetic shift
      case Tok::lt: return a < b;
      case Tok::le: return a <= b;
      case Tok::gt: return a > b;
      case Tok::ge: return a >= b;
      case Tok::eq: return a == b;
      case Tok::ne: return a != b;
      case Tok::band: case Tok::and_a: return a & b;
      case Tok::bxor: case Tok::xor_a: return a ^ b;
      case Tok::bor: case Tok::or_a: return a | b;
      default: return b;  // Tok::assign
    }
  }

  // ---- grammar -------------------------------------------------------------
  // comma := assign (',' assign)*
  int64_t comma(bool noeval) {
    int64_t v = assign(noeval);
    while (tok_ == Tok::comma) {
      next();
      v = assign(noeval);
    }
    return v;
  }

  // assign := IDENT assign-op assign | cond
  int64_t assign(bool noeval) {
    if (tok_ == Tok::ident) {
      // Look one token ahead without committing.
      const char* save_p = p_;
      const char* save_start = tstart_;
      std::string_view name = name_;
      next();
      if (is_assign_op(tok_)) {
        Tok op = tok_;
        next();
        enter();
        int64_t rhs = assign(noeval);
        leave();
        if (noeval) return 0;
        int64_t v = op == Tok::assign ? rhs : apply(op, get_var(name), rhs, false);
        set_var(name, v);
        return v;
      }
      p_ = save_p;
      tstart_ = save_start;
      name_ = name;
      tok_ = Tok::ident;
    }
    return cond(noeval);
  }

  // cond := binary(1) ['?' comma ':' cond]
  int64_t cond(bool noeval) {
    int64_t c = binary(1, noeval);
    if (tok_ != Tok::question) return c;
    next();
    enter();
    int64_t a = comma(noeval || c == 0);
    if (tok_ != Tok::colon) {
      if (tok_ == Tok::end) fail("missing ':'");
      unexpected();
    }
    next();
    int64_t b = cond(noeval || c != 0);
    leave();
    return c != 0 ? a : b;
  }

  // Precedence climbing over the left-associative binary operators.
  int64_t binary(int min_prec, bool noeval) {
    int64_t lhs = unary(noeval);
    for (;;) {
      Tok op = tok_;
      int prec = prec_of(op);
      if (prec < min_prec || prec == 0) return lhs;
      next();
      if (op == Tok::land) {
        int64_t rhs = binary(prec + 1, noeval || lhs == 0);
        lhs = (lhs != 0 && rhs != 0) ? 1 : 0;
      } else if (op == Tok::lor) {
        int64_t rhs = binary(prec + 1, noeval || lhs != 0);
        lhs = (lhs != 0 || rhs != 0) ? 1 : 0;
      } else {
        int64_t rhs = binary(op == Tok::pow ? prec : prec + 1, noeval);
        lhs = apply(op, lhs, rhs, noeval);
      }
    }
  }

  int64_t unary(bool noeval) {
    switch (tok_) {
      case Tok::add:
      case Tok::sub: {
        Tok op = tok_;
        char c = op == Tok::add ? '+' : '-';
        // `++name` / `--name`: prefix increment; otherwise two unary operators.
        if (glued(c) && ident_follows_after(p_ + 1)) {
          ++p_;
          next();
          std::string_view name = name_;
          next();
          if (noeval) return 0;
          int64_t v = get_var(name);
          v = s(op == Tok::add ? u(v) + 1 : u(v) - 1);
          set_var(name, v);
          return v;
        }
        next();
        enter();
        int64_t v = unary(noeval);
        leave();
        return op == Tok::add ? v : s(0 - u(v));
      }
      case Tok::lnot: {
        next();
        enter();
        int64_t v = unary(noeval);
        leave();
        return v == 0;
      }
      case Tok::bnot: {
        next();
        enter();
        int64_t v = unary(noeval);
        leave();
        return ~v;
      }
      default:
        return primary(noeval);
    }
  }

  int64_t primary(bool noeval) {
    switch (tok_) {
      case Tok::number: {
        int64_t v = num_;
        next();
        return v;
      }
      case Tok::ident: {
        std::string_view name = name_;
        next();
        // Postfix x++ / x--, unless an operand follows (then `x--2` is x - -2).
        if ((tok_ == Tok::add && glued('+')) || (tok_ == Tok::sub && glued('-'))) {
          const char* q = p_ + 1;
          while (q < end_ && is_space(*q)) ++q;
          bool operand = q < end_ && (is_name_char(*q) || *q == '(');
          if (!operand) {
            Tok op = tok_;
            ++p_;
            next();
            if (noeval) return 0;
            int64_t v = get_var(name);
            set_var(name, s(op == Tok::add ? u(v) + 1 : u(v) - 1));
            return v;
          }
        }
        return noeval ? 0 : get_var(name);
      }
      case Tok::lparen: {
        next();
        enter();
        int64_t v = comma(noeval);
        leave();
        if (tok_ != Tok::rparen) {
          if (tok_ == Tok::end) fail("missing ')'");
          unexpected();
        }
        next();
        return v;
      }
      default:
        unexpected();
    }
  }

  const char* p_;
  const char* end_;
  ArithVars& vars_;
  bool ext_;
  Tok tok_ = Tok::end;
  const char* tstart_ = nullptr;
  std::string_view name_;
  int64_t num_ = 0;
  int depth_ = 0;
};

}  // namespace

ArithResult arith_eval(std::string_view expr, ArithVars& vars) {
  ArithResult r;
  try {
    Evaluator ev(expr, vars);
    r.value = ev.run();
  } catch (ArithError& e) {
    r.value = 0;
    r.error = std::move(e.message);
  }
  return r;
}

}  // namespace lash::exec
