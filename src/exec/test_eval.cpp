// test / [ evaluation with dash's grammar and quirks:
//
//   oexpr   ::= aexpr | aexpr "-o" oexpr
//   aexpr   ::= nexpr | nexpr "-a" aexpr
//   nexpr   ::= primary | "!" nexpr
//   primary ::= unary-op operand | operand binary-op operand | operand
//             | "(" oexpr ")"
//
// preceded by the POSIX rules for 3 and 4 arguments (a binary operator in the
// middle of 3 arguments wins; "( x )" and "! ..." are peeled off). A unary
// operator followed by nothing, or by a binary operator, is an operand, and a
// missing expression is false rather than an error, as in dash. String and
// integer tests make no system call; file tests use stat/lstat/faccessat.
#include "exec/test_eval.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace lash::builtins {
namespace {

enum Tok : uint8_t {
  kEoi,
  // unary file and string operators
  kFilRd, kFilWr, kFilEx, kFilExist, kFilReg, kFilDir, kFilCdev, kFilBdev, kFilFifo,
  kFilSock, kFilSym, kFilGz, kFilTt, kFilSuid, kFilSgid, kFilStck, kFilUid, kFilGid,
  kStrEz, kStrNz,
  // binary operators
  kStrEq, kStrNe, kStrLt, kStrGt, kIntEq, kIntNe, kIntGe, kIntGt, kIntLe, kIntLt,
  kFilNt, kFilOt, kFilEq,
  // the rest
  kNot, kAnd, kOr, kLParen, kRParen, kOperand,
};

enum OpType : uint8_t { kNone, kUnop, kBinop, kBunop, kBbinop, kParen };

struct Op {
  Tok tok = kOperand;
  OpType type = kNone;
};

// The operator table as a switch: no string comparisons in the common case.
Op getop(const std::string& s) {
  const size_t n = s.size();
  const char* p = s.data();
  if (n == 1) {
    switch (p[0]) {
      case '=': return {kStrEq, kBinop};
      case '<': return {kStrLt, kBinop};
      case '>': return {kStrGt, kBinop};
      case '!': return {kNot, kBunop};
      case '(': return {kLParen, kParen};
      case ')': return {kRParen, kParen};
      default: return {};
    }
  }
  if (n == 2) {
    if (p[0] == '!' && p[1] == '=') return {kStrNe, kBinop};
    if (p[0] != '-') return {};
    switch (p[1]) {
      case 'r': return {kFilRd, kUnop};
      case 'w': return {kFilWr, kUnop};
      case 'x': return {kFilEx, kUnop};
      case 'e': return {kFilExist, kUnop};
      case 'f': return {kFilReg, kUnop};
      case 'd': return {kFilDir, kUnop};
      case 'c': return {kFilCdev, kUnop};
      case 'b': return {kFilBdev, kUnop};
      case 'p': return {kFilFifo, kUnop};
      case 'u': return {kFilSuid, kUnop};
      case 'g': return {kFilSgid, kUnop};
      case 'k': return {kFilStck, kUnop};
      case 's': return {kFilGz, kUnop};
      case 't': return {kFilTt, kUnop};
      case 'z': return {kStrEz, kUnop};
      case 'n': return {kStrNz, kUnop};
      case 'h': return {kFilSym, kUnop};
      case 'O': return {kFilUid, kUnop};
      case 'G': return {kFilGid, kUnop};
      case 'L': return {kFilSym, kUnop};
      case 'S': return {kFilSock, kUnop};
      case 'a': return {kAnd, kBbinop};
      case 'o': return {kOr, kBbinop};
      default: return {};
    }
  }
  if (n == 3 && p[0] == '-') {
    const char a = p[1], b = p[2];
    if (a == 'e' && b == 'q') return {kIntEq, kBinop};
    if (a == 'n' && b == 'e') return {kIntNe, kBinop};
    if (a == 'g' && b == 'e') return {kIntGe, kBinop};
    if (a == 'g' && b == 't') return {kIntGt, kBinop};
    if (a == 'l' && b == 'e') return {kIntLe, kBinop};
    if (a == 'l' && b == 't') return {kIntLt, kBinop};
    if (a == 'n' && b == 't') return {kFilNt, kBinop};
    if (a == 'o' && b == 't') return {kFilOt, kBinop};
    if (a == 'e' && b == 'f') return {kFilEq, kBinop};
  }
  return {};
}

struct TestError {
  std::string message;
};

[[noreturn]] void syntax(const std::string* op, const char* msg) {
  if (op != nullptr && !op->empty()) throw TestError{*op + ": " + msg};
  throw TestError{msg};
}

inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// dash's getn: a decimal integer with optional blanks around it and a sign.
int64_t getn(const std::string& s) {
  const char* p = s.c_str();
  const char* end = p + s.size();
  while (p < end && is_space(*p)) ++p;
  bool neg = false;
  if (p < end && (*p == '+' || *p == '-')) neg = *p++ == '-';
  if (p == end || *p < '0' || *p > '9') throw TestError{"Illegal number: " + s};
  const uint64_t limit = neg ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t v = 0;
  for (; p < end && *p >= '0' && *p <= '9'; ++p) {
    uint64_t t;
    if (__builtin_mul_overflow(v, uint64_t{10}, &t) ||
        __builtin_add_overflow(t, static_cast<uint64_t>(*p - '0'), &v) || v > limit)
      throw TestError{"Illegal number: " + s};
  }
  while (p < end && is_space(*p)) ++p;
  if (p != end) throw TestError{"Illegal number: " + s};
  return neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
}

// The HIDDEN filter of the evaluation under way (test_eval with a filter), or null.
// One evaluation at a time per thread, and it does not nest.
thread_local const std::function<bool(const std::string&)>* t_hidden = nullptr;
bool hidden_file(const std::string& name) { return t_hidden && (*t_hidden)(name); }

bool filstat(const std::string& name, Tok mode) {
  struct stat st;
  if (hidden_file(name)) return false;
  if ((mode == kFilSym ? lstat(name.c_str(), &st) : stat(name.c_str(), &st)) != 0) return false;
  switch (mode) {
    case kFilRd: return faccessat(AT_FDCWD, name.c_str(), R_OK, AT_EACCESS) == 0;
    case kFilWr: return faccessat(AT_FDCWD, name.c_str(), W_OK, AT_EACCESS) == 0;
    case kFilEx: return faccessat(AT_FDCWD, name.c_str(), X_OK, AT_EACCESS) == 0;
    case kFilExist: return true;
    case kFilReg: return S_ISREG(st.st_mode);
    case kFilDir: return S_ISDIR(st.st_mode);
    case kFilCdev: return S_ISCHR(st.st_mode);
    case kFilBdev: return S_ISBLK(st.st_mode);
    case kFilFifo: return S_ISFIFO(st.st_mode);
    case kFilSock: return S_ISSOCK(st.st_mode);
    case kFilSym: return S_ISLNK(st.st_mode);
    case kFilSuid: return (st.st_mode & S_ISUID) != 0;
    case kFilSgid: return (st.st_mode & S_ISGID) != 0;
    case kFilStck: return (st.st_mode & S_ISVTX) != 0;
    case kFilGz: return st.st_size > 0;
    case kFilUid: return st.st_uid == geteuid();
    case kFilGid: return st.st_gid == getegid();
    default: return true;
  }
}

// -nt / -ot: both files must exist; modification times compared to the nanosecond.
int mtime_cmp(const std::string& a, const std::string& b, bool* ok) {
  struct stat sa, sb;
  *ok = !hidden_file(a) && !hidden_file(b) && stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0;
  if (!*ok) return 0;
  if (sa.st_mtim.tv_sec != sb.st_mtim.tv_sec) return sa.st_mtim.tv_sec < sb.st_mtim.tv_sec ? -1 : 1;
  if (sa.st_mtim.tv_nsec != sb.st_mtim.tv_nsec)
    return sa.st_mtim.tv_nsec < sb.st_mtim.tv_nsec ? -1 : 1;
  return 0;
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (hidden_file(a) || hidden_file(b)) return false;
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

bool eval_binop(const std::string& lhs, Tok op, const std::string& rhs) {
  switch (op) {
    case kStrEq: return lhs == rhs;
    case kStrNe: return lhs != rhs;
    case kStrLt: return lhs.compare(rhs) < 0;  // bytes, as strcmp
    case kStrGt: return lhs.compare(rhs) > 0;
    default: break;
  }
  if (op >= kIntEq && op <= kIntLt) {
    // The left operand is checked first, as in dash.
    const int64_t l = getn(lhs);
    const int64_t r = getn(rhs);
    switch (op) {
      case kIntEq: return l == r;
      case kIntNe: return l != r;
      case kIntGe: return l >= r;
      case kIntGt: return l > r;
      case kIntLe: return l <= r;
      default: return l < r;
    }
  }
  bool ok = false;
  switch (op) {
    case kFilNt: return mtime_cmp(lhs, rhs, &ok) > 0 && ok;
    case kFilOt: return mtime_cmp(lhs, rhs, &ok) < 0 && ok;
    case kFilEq: return same_file(lhs, rhs);
    default: return false;
  }
}

class Parser {
 public:
  // The words are args[first, last).
  Parser(std::span<const std::string> args, size_t first, size_t last)
      : a_(args), first_(first), last_(last) {}

  // Evaluates from word `start` with its already known token; returns the truth
  // and, in *stop, the word where parsing stopped.
  bool run(size_t start, Tok n, size_t* stop) {
    wp_ = start;
    bool r = oexpr(n);
    *stop = wp_;
    return r;
  }

  // Lexes word i (beyond the end: end of input), remembering its operator.
  Tok lex(size_t i) {
    if (i >= last_) {
      op_ = {};
      op_.type = kNone;
      op_valid_ = false;
      return kEoi;
    }
    Op op = getop(a_[i]);
    if (op.type != kNone && !(op.type == kUnop && is_operand(i)) &&
        !(op.tok == kLParen && i + 1 >= last_)) {
      op_ = op;
      op_valid_ = true;
      return op.tok;
    }
    op_valid_ = false;
    return kOperand;
  }

 private:
  const std::string* word(size_t i) const { return i < last_ ? &a_[i] : nullptr; }

  // A unary operator is an operand when it is last, or when a binary operator
  // follows it and something follows that.
  bool is_operand(size_t i) const {
    if (i + 1 >= last_) return true;
    if (i + 2 >= last_) return false;
    return getop(a_[i + 1]).type == kBinop;
  }

  bool oexpr(Tok n) {
    bool res = false;
    for (;;) {
      res |= aexpr(n);
      n = lex(wp_ + 1);
      if (n != kOr) break;
      wp_ += 2;
      n = lex(wp_);
    }
    return res;
  }

  bool aexpr(Tok n) {
    bool res = true;
    for (;;) {
      if (!nexpr(n)) res = false;
      n = lex(wp_ + 1);
      if (n != kAnd) break;
      wp_ += 2;
      n = lex(wp_);
    }
    return res;
  }

  bool nexpr(Tok n) {
    if (n == kNot) {
      if (++depth_ > kMaxDepth) throw TestError{"expression too complex"};
      ++wp_;
      bool r = !nexpr(lex(wp_));
      --depth_;
      return r;
    }
    return primary(n);
  }

  bool primary(Tok n) {
    if (n == kEoi) return false;  // missing expression
    if (n == kLParen) {
      if (++depth_ > kMaxDepth) throw TestError{"expression too complex"};
      ++wp_;
      Tok nn = lex(wp_);
      if (nn == kRParen) {
        --depth_;
        return false;  // missing expression
      }
      bool res = oexpr(nn);
      ++wp_;
      if (lex(wp_) != kRParen) syntax(nullptr, "closing paren expected");
      --depth_;
      return res;
    }
    if (op_valid_ && op_.type == kUnop) {
      const Tok op = n;
      const std::string* opword = word(wp_);
      ++wp_;
      const std::string* arg = word(wp_);
      if (arg == nullptr) syntax(opword, "argument expected");
      switch (op) {
        case kStrEz: return arg->empty();
        case kStrNz: return !arg->empty();
        case kFilTt: return isatty(static_cast<int>(getn(*arg))) == 1;
        default: return filstat(*arg, op);
      }
    }
    lex(wp_ + 1);
    if (op_valid_ && op_.type == kBinop) return binop();
    return !a_[wp_].empty();
  }

  bool binop() {
    const std::string& lhs = a_[wp_];
    ++wp_;
    lex(wp_);
    const Op op = op_;
    const std::string* opword = word(wp_);
    ++wp_;
    const std::string* rhs = word(wp_);
    if (rhs == nullptr) syntax(opword, "argument expected");
    return eval_binop(lhs, op.tok, *rhs);
  }

  static constexpr int kMaxDepth = 500;

  std::span<const std::string> a_;
  size_t first_;
  size_t last_;
  size_t wp_ = 0;
  Op op_;
  bool op_valid_ = false;
  int depth_ = 0;
};

}  // namespace

TestResult test_eval(std::span<const std::string> args) {
  TestResult r;
  size_t first = 0;
  size_t last = args.size();
  int res = 1;  // the status if the expression is true is res ^ 1
  try {
    for (;;) {
      const size_t argc = last - first;
      if (argc < 1) {
        r.status = res;
        return r;
      }
      if (argc == 3 && getop(args[first + 1]).type == kBinop) {
        // POSIX: with three arguments a binary operator in the middle wins.
        res ^= eval_binop(args[first], getop(args[first + 1]).tok, args[first + 2]) ? 1 : 0;
        r.status = res;
        return r;
      }
      if (argc == 3 || argc == 4) {
        if (args[first] == "(" && args[last - 1] == ")") {
          ++first;
          --last;
        } else if (args[first] == "!") {
          res = 0;
          ++first;
          continue;
        }
      }
      break;
    }
    Parser p(args, first, last);
    const Tok n = p.lex(first);
    size_t stop;
    res ^= p.run(first, n, &stop) ? 1 : 0;
    if (stop < last && stop + 1 < last) syntax(&args[stop], "unexpected operator");
    r.status = res;
  } catch (TestError& e) {
    r.status = 2;
    r.error = std::move(e.message);
  }
  return r;
}

TestResult test_eval(std::span<const std::string> args, const std::function<bool(const std::string&)>& hidden) {
  struct Scope {
    explicit Scope(const std::function<bool(const std::string&)>* h) { t_hidden = h; }
    ~Scope() { t_hidden = nullptr; }
  } scope(hidden ? &hidden : nullptr);
  return test_eval(args);
}

TestResult test_eval(const std::vector<std::string>& args) {
  return test_eval(std::span<const std::string>(args));
}

}  // namespace lash::builtins
