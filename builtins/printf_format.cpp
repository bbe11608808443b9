// printf formatting core, following dash byte for byte: integer arguments are read
// with strtoimax/strtoumax (base 0, 'c and "c give the byte value), floating ones
// with strtod, and the numeric conversions are produced by snprintf from a
// directive rebuilt out of validated pieces only (flags, '*', ".*", the length
// modifier j and the conversion character), so no user text reaches a format.
// Strings (%s %b %c) are padded here because they may contain NUL bytes.
#include "builtins/printf_format.h"

#include <langinfo.h>
#include <locale.h>
#include <time.h>

#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace lash::builtins {
namespace {

// Widths and precisions beyond this are refused (dash fails in vsnprintf).
constexpr long long kMaxField = 1LL << 30;

inline bool is_odigit(char c) { return c >= '0' && c <= '7'; }

// One escape of the format string (dash's conv_escape). `s` points after the
// backslash; returns the position after the escape and the byte in *out. An
// unknown escape yields the backslash itself and consumes nothing.
size_t conv_escape(std::string_view s, size_t i, char* out) {
  if (i >= s.size()) {
    *out = '\\';
    return i;
  }
  char c = s[i];
  switch (c) {
    case '\\': *out = '\\'; return i + 1;
    case 'a': *out = '\a'; return i + 1;
    case 'b': *out = '\b'; return i + 1;
    case 'e': *out = '\033'; return i + 1;
    case 'f': *out = '\f'; return i + 1;
    case 'n': *out = '\n'; return i + 1;
    case 'r': *out = '\r'; return i + 1;
    case 't': *out = '\t'; return i + 1;
    case 'v': *out = '\v'; return i + 1;
    default: break;
  }
  if (!is_odigit(c)) {
    *out = '\\';
    return i;
  }
  unsigned value = 0;
  for (int n = 0; n < 3 && i < s.size() && is_odigit(s[i]); ++n, ++i)
    value = value * 8 + static_cast<unsigned>(s[i] - '0');
  *out = static_cast<char>(value & 0xff);
  return i;
}

void append_vformat(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void append_vformat(std::string& out, const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof buf) {
    out.append(buf, static_cast<size_t>(n));
    return;
  }
  const size_t old = out.size();
  out.resize(old + static_cast<size_t>(n) + 1);
  va_start(ap, fmt);
  vsnprintf(out.data() + old, static_cast<size_t>(n) + 1, fmt, ap);
  va_end(ap);
  out.resize(old + static_cast<size_t>(n));
}

// The C locale for the floating conversions, whatever LC_NUMERIC the process has.
// Appends code point CP as UTF-8 when the locale's characters are UTF-8, else as
// one byte when it is ASCII, else as bash's own text for it (\uXXXX).
bool g_escape_utf8 = false;  // set_escape_utf8

void append_code_point(std::string& out, uint32_t cp, char kind) {
  const bool utf8 = g_escape_utf8;
  if (cp < 0x80) {
    out.push_back(char(cp));
  } else if (!utf8 || cp > 0x10ffff) {
    char buf[16];
    std::snprintf(buf, sizeof buf, kind == 'u' ? "\\u%04X" : "\\U%08X", unsigned(cp));
    out += buf;
  } else if (cp < 0x800) {
    out.push_back(char(0xc0 | (cp >> 6)));
    out.push_back(char(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(char(0xe0 | (cp >> 12)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(char(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(char(0xf0 | (cp >> 18)));
    out.push_back(char(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(char(0x80 | (cp & 0x3f)));
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// bash's escapes beyond dash's (\xHH, \uHHHH, \UHHHHHHHH, \E, \", \', \?), for
// printf's format, %b and echo -e. `i` is after the backslash. Returns the position
// after the escape, or npos when it is none of these.
size_t bash_escape(std::string_view s, size_t i, std::string& out) {
  if (i >= s.size()) return std::string_view::npos;
  char c = s[i];
  if (c == 'E') {
    out.push_back('\033');
    return i + 1;
  }
  if (c == '"' || c == '\'' || c == '?') {
    out.push_back(c);
    return i + 1;
  }
  int max = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
  if (max == 0) return std::string_view::npos;
  size_t j = i + 1;
  uint32_t v = 0;
  int n = 0;
  for (; n < max && j < s.size() && hex_value(s[j]) >= 0; ++n, ++j) v = v * 16 + uint32_t(hex_value(s[j]));
  if (n == 0) return std::string_view::npos;  // "\x" alone stays as it is
  if (c == 'x') out.push_back(char(v & 0xff));
  else append_code_point(out, v, c);
  return j;
}

// bash's printf %q: the word quoted so the shell reads it back as it is.
std::string bash_quote(std::string_view s) {
  if (s.empty()) return "''";
  bool control = false;
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f || c >= 0x80) control = true;
  std::string out;
  if (control) {  // $'...' with C escapes
    out = "$'";
    for (unsigned char c : s) {
      switch (c) {
        case '\a': out += "\\a"; break;
        case '\b': out += "\\b"; break;
        case '\033': out += "\\E"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\v': out += "\\v"; break;
        case '\\': out += "\\\\"; break;
        case '\'': out += "\\'"; break;
        default:
          if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%03o", unsigned(c));
            out += buf;
          } else {
            out.push_back(char(c));
          }
      }
    }
    out += "'";
    return out;
  }
  for (size_t k = 0; k < s.size(); ++k) {
    char c = s[k];
    if (std::strchr(" \t\n'\"\\|&;()<>!{}*[?]^$`,", c) != nullptr ||
        (k == 0 && (c == '#' || c == '~')))
      out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

locale_t c_locale() {
  static locale_t loc = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
  return loc;
}

class Formatter {
 public:
  Formatter(std::string_view format, const std::vector<std::string>& args, bool bash)
      : fmt_(format), args_(args), bash_(bash) {}

  PrintfResult run() {
    do {
      const size_t before = next_arg_;
      if (!one_pass()) break;
      if (next_arg_ == before) break;  // the format consumes no argument
    } while (next_arg_ < args_.size());
    return std::move(r_);
  }

 private:
  // ---- arguments ----------------------------------------------------------------
  const std::string* next() {
    if (next_arg_ >= args_.size()) return nullptr;
    return &args_[next_arg_++];
  }

  void conversion_error(const std::string& arg, const char* end, bool erange) {
    if (*end != '\0') {
      if (end == arg.c_str())
        error(arg + ": expected numeric value", 1);
      else
        error(arg + ": not completely converted", 1);
    } else if (erange) {
      error(arg + ": " + std::strerror(ERANGE), 1);
    }
  }

  intmax_t get_int() {
    const std::string* a = next();
    if (a == nullptr) return 0;
    if (!a->empty() && ((*a)[0] == '\'' || (*a)[0] == '"'))
      return static_cast<unsigned char>(a->c_str()[1]);
    char* end = nullptr;
    errno = 0;
    intmax_t v = strtoimax(a->c_str(), &end, 0);
    conversion_error(*a, end, errno == ERANGE);
    return v;
  }

  uintmax_t get_uint() {
    const std::string* a = next();
    if (a == nullptr) return 0;
    if (!a->empty() && ((*a)[0] == '\'' || (*a)[0] == '"'))
      return static_cast<unsigned char>(a->c_str()[1]);
    char* end = nullptr;
    errno = 0;
    uintmax_t v = strtoumax(a->c_str(), &end, 0);
    conversion_error(*a, end, errno == ERANGE);
    return v;
  }

  double get_double() {
    const std::string* a = next();
    if (a == nullptr) return 0;
    if (!a->empty() && ((*a)[0] == '\'' || (*a)[0] == '"'))
      return static_cast<unsigned char>(a->c_str()[1]);
    char* end = nullptr;
    errno = 0;
    double v = strtod_l(a->c_str(), &end, c_locale());
    conversion_error(*a, end, errno == ERANGE);
    return v;
  }

  void error(std::string msg, int status) {
    r_.errors.push_back(std::move(msg));
    if (status > r_.status) r_.status = status;
  }

  // ---- output ---------------------------------------------------------------------
  // Pads `s` to the field width; `precision` (if >= 0) truncates first.
  void put_field(std::string_view s, bool left, long long width, long long precision) {
    if (precision >= 0 && static_cast<unsigned long long>(precision) < s.size())
      s = s.substr(0, static_cast<size_t>(precision));
    const size_t pad =
        width > static_cast<long long>(s.size()) ? static_cast<size_t>(width) - s.size() : 0;
    if (!left) r_.out.append(pad, ' ');
    r_.out.append(s);
    if (left) r_.out.append(pad, ' ');
  }

  // ---- the format -----------------------------------------------------------------
  // One pass over the format. Returns false when output must stop (\c in %b, or a
  // fatal error in the format).
  bool one_pass() {
    const std::string_view f = fmt_;
    size_t i = 0;
    while (i < f.size()) {
      const char c = f[i];
      if (c == '\\') {
        if (bash_) {
          size_t after = bash_escape(f, i + 1, r_.out);
          if (after != std::string_view::npos) {
            i = after;
            continue;
          }
        }
        char out;
        i = conv_escape(f, i + 1, &out);
        r_.out.push_back(out);
        continue;
      }
      if (c != '%') {
        // Copy the run of ordinary bytes at once.
        size_t j = i;
        while (j < f.size() && f[j] != '\\' && f[j] != '%') ++j;
        r_.out.append(f.substr(i, j - i));
        i = j;
        continue;
      }
      if (i + 1 < f.size() && f[i + 1] == '%') {
        r_.out.push_back('%');
        i += 2;
        continue;
      }
      if (!directive(i)) return false;
    }
    return true;
  }

  // Parses and performs the directive starting at fmt_[i] == '%'; advances i.
  bool directive(size_t& i) {
    const std::string_view f = fmt_;
    const size_t start = i;
    ++i;
    std::string flags;
    while (i < f.size() && std::strchr("#-+ 0", f[i]) != nullptr && f[i] != '\0') flags += f[i++];
    bool have_prec = false;
    long long width = 0, prec = -1;
    bool too_large = false;
    auto digits = [&](long long* v) {
      *v = 0;
      while (i < f.size() && f[i] >= '0' && f[i] <= '9') {
        if (*v <= kMaxField) *v = *v * 10 + (f[i] - '0');
        if (*v > kMaxField) too_large = true;
        ++i;
      }
    };
    if (i < f.size() && f[i] == '*') {
      ++i;
      // dash converts the argument to int.
      width = static_cast<int>(static_cast<uint32_t>(static_cast<uintmax_t>(get_int())));
    } else if (i < f.size() && f[i] >= '0' && f[i] <= '9') {
      digits(&width);
    }
    if (i < f.size() && f[i] == '.') {
      ++i;
      have_prec = true;
      if (i < f.size() && f[i] == '*') {
        ++i;
        prec = static_cast<int>(static_cast<uint32_t>(static_cast<uintmax_t>(get_int())));
      } else {
        digits(&prec);
      }
    }
    if (i >= f.size()) {
      error("missing format character", 2);
      return false;
    }
    if (bash_ && f[i] == '(') {  // %(strftime)T: a time in seconds since the epoch
      size_t close = f.find(')', i);
      if (close == std::string_view::npos || close + 1 >= f.size() || f[close + 1] != 'T') {
        error("`(': invalid time format specification", 1);
        return false;
      }
      std::string tf(f.substr(i + 1, close - i - 1));
      i = close + 2;
      const std::string* a = next();
      time_t t = ::time(nullptr);
      if (a && !a->empty()) {
        char* end = nullptr;
        long long v = std::strtoll(a->c_str(), &end, 10);
        if (*end) error(*a + ": invalid number", 1);
        else if (v >= 0) t = time_t(v);
        else if (v == -2) t = start_time();
      }
      struct tm tmv {};
      ::localtime_r(&t, &tmv);
      char buf[1024];
      size_t n = tf.empty() ? 0 : ::strftime(buf, sizeof buf, tf.c_str(), &tmv);
      put_field(std::string_view(buf, n), flags.find('-') != std::string::npos, width, have_prec ? prec : -1);
      return true;
    }
    const char conv = f[i++];
    if (bash_ && conv == 'q') {
      const std::string* a = next();
      put_field(bash_quote(a ? std::string_view(*a) : std::string_view()), flags.find('-') != std::string::npos,
                width, have_prec ? prec : -1);
      return true;
    }
    if (std::strchr("diouxXeEfFgGaAcsb", conv) == nullptr || conv == '\0') {
      error(std::string(f.substr(start, i - start)) + ": invalid directive", 2);
      return false;
    }
    bool left = flags.find('-') != std::string::npos;
    if (width < 0) {
      left = true;
      width = -width;
    }
    if (too_large || width > kMaxField || prec > kMaxField) {
      error("field width or precision too large", 2);
      return false;
    }
    const int w = static_cast<int>(width);
    const int p = have_prec ? static_cast<int>(prec) : -1;
    switch (conv) {
      case 's': {
        const std::string* a = next();
        put_field(a ? std::string_view(*a) : std::string_view(), left, width, p);
        return true;
      }
      case 'b': {
        const std::string* a = next();
        bool stop = false;
        std::string s = process_escapes_b(a ? std::string_view(*a) : std::string_view(), &stop, bash_);
        put_field(s, left, width, p);
        return !stop;
      }
      case 'c': {
        const std::string* a = next();
        const char ch = a && !a->empty() ? (*a)[0] : '\0';
        put_field(std::string_view(&ch, 1), left, width, -1);
        return true;
      }
      default: break;
    }
    // Numeric: rebuild "%<flags>*.*j<conv>" (or the float form without j).
    if (left && flags.find('-') == std::string::npos) flags += '-';
    std::string spec = "%" + flags + "*.*";
    const bool is_float = std::strchr("eEfFgGaA", conv) != nullptr;
    if (!is_float) spec += 'j';
    spec += conv;
    if (conv == 'd' || conv == 'i') {
      const intmax_t v = get_int();
      append_vformat(r_.out, spec.c_str(), w, p, v);
    } else if (!is_float) {
      const uintmax_t v = get_uint();
      append_vformat(r_.out, spec.c_str(), w, p, v);
    } else {
      const double v = get_double();
      locale_t old = uselocale(c_locale());
      append_vformat(r_.out, spec.c_str(), w, p, v);
      uselocale(old);
    }
    return true;
  }

  static time_t start_time() {
    static const time_t t = ::time(nullptr);
    return t;
  }

  std::string_view fmt_;
  const std::vector<std::string>& args_;
  bool bash_ = false;
  size_t next_arg_ = 0;
  PrintfResult r_;
};

}  // namespace

std::string process_escapes_b(std::string_view s, bool* stop, bool bash) {
  std::string out;
  out.reserve(s.size());
  if (stop) *stop = false;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c != '\\') {
      out.push_back(c);
      ++i;
      continue;
    }
    ++i;
    if (i < s.size() && s[i] == 'c') {
      if (stop) *stop = true;
      return out;
    }
    if (bash) {
      size_t after = bash_escape(s, i, out);
      if (after != std::string_view::npos) {
        i = after;
        continue;
      }
    }
    // In %b an octal escape is \0 followed by up to three digits (or \NNN).
    if (i + 1 < s.size() && s[i] == '0' && is_odigit(s[i + 1])) ++i;
    char ch;
    i = conv_escape(s, i, &ch);
    out.push_back(ch);
  }
  return out;
}

void set_escape_utf8(bool on) { g_escape_utf8 = on; }

PrintfResult printf_format(std::string_view format, const std::vector<std::string>& args, bool bash) {
  return Formatter(format, args, bash).run();
}

}  // namespace lash::builtins
