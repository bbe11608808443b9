// Word expansion in POSIX order: tilde, parameter, command substitution and
// arithmetic (left to right), then field splitting, pathname expansion and quote
// removal. Words arrive structured from the parser, so quote removal is implicit:
// every piece of text is appended together with whether it was quoted.
#include <pwd.h>
#include <sys/stat.h>

#include <cstring>
#include <ctime>
#include <unistd.h>

#include "exec/arith.h"
#include "exec/brace.h"
#include "exec/pattern.h"
#include "exec/session_view.h"
#include "exec/shell.h"
#include "exec/user_files.h"

namespace lash::exec {
namespace {

// Whether $PWD names the current directory, where the run a dry run plans starts.
bool pwd_is_cwd(Shell& sh) {
  const std::string* pwd = sh.vars.get("PWD");
  struct stat a, b;
  return pwd && !pwd->empty() && (*pwd)[0] == '/' && ::stat(pwd->c_str(), &a) == 0 && ::stat(".", &b) == 0 &&
         a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// With extglob, '(' may open a +(..) @(..) !(..) group: the word is then a pattern.
bool is_glob_char(char c) { return c == '*' || c == '?' || c == '[' || (c == '(' && pattern_extglob); }
bool needs_pattern_escape(char c) {
  return c == '\\' || c == '*' || c == '?' || c == '[' || c == ']' || c == '!' || c == '^' ||
         c == '-' || c == '(' || c == ')' || c == '|' || c == '+' || c == '@';
}

// Collects expanded text into fields (or into one string / one pattern).
class Builder {
 public:
  enum class Mode { fields, string, pattern, regex };
  Builder(Mode mode, const std::string* ifs, bool noglob) : mode_(mode), noglob_(noglob) {
    // Unset IFS behaves as " \t\n"; empty IFS splits nothing.
    if (!ifs) {
      ifs_ = " \t\n";
    } else {
      ifs_ = *ifs;
    }
  }

  // Text that is never field-split: literals and quoted expansions.
  void literal(std::string_view s, bool quoted) {
    if (s.empty()) {
      if (quoted) started_ = true;
      return;
    }
    started_ = true;
    state_ = State::normal;
    append(s, quoted);
  }

  // The result of an expansion: field-split when unquoted (in fields mode).
  void expansion(std::string_view s, bool quoted) {
    if (quoted || mode_ != Mode::fields || ifs_.empty()) {
      literal(s, quoted);
      return;
    }
    size_t run = 0;  // start of the pending run of non-IFS characters
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (ifs_.find(c) == std::string::npos) continue;
      if (i > run) {
        started_ = true;
        state_ = State::normal;
        append(s.substr(run, i - run), false);
      }
      run = i + 1;
      bool ws = c == ' ' || c == '\t' || c == '\n';
      if (ws) {
        if (started_) {
          finish_field();
          state_ = State::after_ws;
        }
      } else {
        if (state_ == State::after_ws) {
          state_ = State::after_nonws;  // part of the same delimiter
        } else {
          finish_field();  // may produce an empty field ("a::b")
          state_ = State::after_nonws;
        }
      }
    }
    if (run < s.size()) {
      started_ = true;
      state_ = State::normal;
      append(s.substr(run), false);
    }
  }

  // "$@": ends the current field and starts a new one that exists even if empty.
  void field_break() {
    finish_field(true);
    started_ = true;
  }
  void mark_started() { started_ = true; }
  Mode mode() const { return mode_; }

  // Ends the word: pushes the last field if anything started it.
  void end_word() {
    if (started_) finish_field();
    started_ = false;
    state_ = State::normal;
  }

  struct Field {
    std::string text;
    std::string pat;   // valid when glob is true
    bool glob = false; // contains an unquoted glob character
  };
  std::vector<Field>& fields() { return fields_; }
  std::string& text() { return cur_.text; }
  std::string take_string() { return std::move(cur_.text); }

 private:
  enum class State { normal, after_ws, after_nonws };

  void append(std::string_view s, bool quoted) {
    if (mode_ == Mode::regex) {
      if (!quoted) {
        cur_.text.append(s);
        return;
      }
      for (char c : s) {
        if (std::strchr("\\.*?+[]^$(){}|", c)) cur_.text.push_back('\\');
        cur_.text.push_back(c);
      }
      return;
    }
    if (mode_ == Mode::pattern) {
      if (!quoted) {
        cur_.text.append(s);
        return;
      }
      for (char c : s) {
        if (needs_pattern_escape(c)) cur_.text.push_back('\\');
        cur_.text.push_back(c);
      }
      return;
    }
    if (mode_ == Mode::fields && !noglob_) {
      if (!quoted && !cur_.glob) {
        for (char c : s)
          if (is_glob_char(c)) {
            start_pattern();
            break;
          }
      }
      if (cur_.glob) {
        if (quoted) {
          for (char c : s) {
            if (needs_pattern_escape(c)) cur_.pat.push_back('\\');
            cur_.pat.push_back(c);
          }
        } else {
          cur_.pat.append(s);
        }
      }
    }
    cur_.text.append(s);
  }

  void start_pattern() {
    cur_.glob = true;
    cur_.pat.clear();
    for (char c : cur_.text) {
      if (needs_pattern_escape(c)) cur_.pat.push_back('\\');
      cur_.pat.push_back(c);
    }
  }

  void finish_field(bool force = false) {
    if (mode_ != Mode::fields) return;
    (void)force;
    fields_.push_back(std::move(cur_));
    cur_ = Field{};
    started_ = false;
  }

  Mode mode_;
  bool noglob_;
  std::string ifs_;
  Field cur_;
  std::vector<Field> fields_;
  bool started_ = false;
  State state_ = State::normal;
};

std::string home_of(Shell& sh, const std::string& user) {
  if (user.empty()) {
    const std::string* h = sh.vars.get("HOME");
    if (h) return *h;
    struct passwd* pw = getpwuid(getuid());
    return pw && pw->pw_dir ? pw->pw_dir : "";
  }
  struct passwd* pw = getpwnam(user.c_str());
  if (!pw || !pw->pw_dir) return "~" + user;
  return pw->pw_dir;
}

  // bash's variables computed when read (unless the script set them): RANDOM,
  // SRANDOM, SECONDS, EPOCHSECONDS, EPOCHREALTIME, BASHPID.
bool dynamic_variable(const std::string& name, std::string& out) {
    if (name.empty() || (name[0] != 'R' && name[0] != 'S' && name[0] != 'E' && name[0] != 'B')) return false;
    struct timespec ts {};
    if (name == "RANDOM") {
      static uint32_t seed = uint32_t(::getpid()) * 2654435761u ^ uint32_t(::time(nullptr));
      seed = seed * 1103515245u + 12345u;
      out = std::to_string((seed >> 16) & 0x7fff);
    } else if (name == "SRANDOM") {
      uint32_t r = 0;
      if (::getentropy(&r, sizeof r) != 0) r = uint32_t(::time(nullptr));
      out = std::to_string(r);
    } else if (name == "SECONDS") {
      static const time_t start = ::time(nullptr);
      out = std::to_string(::time(nullptr) - start);
    } else if (name == "EPOCHSECONDS") {
      out = std::to_string(::time(nullptr));
    } else if (name == "EPOCHREALTIME") {
      ::clock_gettime(CLOCK_REALTIME, &ts);
      char buf[48];
      std::snprintf(buf, sizeof buf, "%lld.%06ld", static_cast<long long>(ts.tv_sec), ts.tv_nsec / 1000);
      out = buf;
    } else if (name == "BASHPID") {
      out = std::to_string(::getpid());
    } else {
      return false;
    }
    return true;
  }


struct ArithShellVars : ArithVars {
  Shell& sh;
  std::string lineno;
  explicit ArithShellVars(Shell& s) : sh(s) { extensions = !s.opt.posix; }
  const std::string* get(std::string_view name) override {
    if (name.back() == ']') {
      size_t lb = name.find('[');
      std::string sub(name.substr(lb + 1, name.size() - lb - 2));
      return sh.element(name.substr(0, lb), sub);
    }
    const std::string* v = sh.vars.get(name);  // as dash: set -u does not apply inside $(( ))
    if (!v && name == "LINENO") {
      lineno = std::to_string(sh.line);
      return &lineno;
    }
    if (!v && !sh.opt.posix && dynamic_variable(std::string(name), lineno)) return &lineno;
    return v;
  }
  bool set(std::string_view name, int64_t value, std::string* error) override {
    if (sh.dry) {  // the dry run changes nothing, but says what would change
      if (sh.dry_assign) sh.dry_assign(std::string(name));
      return true;
    }
    if (name.back() == ']') {
      size_t lb = name.find('[');
      std::string sub(name.substr(lb + 1, name.size() - lb - 2));
      if (sh.set_element(name.substr(0, lb), sub, std::to_string(value))) return true;
      if (sh.vars.last_refused) throw Refused{};
      *error = std::string(name.substr(0, lb)) + ": is read only";
      return false;
    }
    if (!sh.vars.set(name, std::to_string(value))) {
      if (sh.vars.last_refused) throw Refused{};
      *error = std::string(name) + ": is read only";
      return false;
    }
    return true;
  }
};

class Expander {
 public:
  Expander(Shell& sh, Builder& b) : sh_(sh), b_(b) {}

  void parts(const std::vector<ast::WordPart>& ps, bool quoted) {
    for (const auto& p : ps) part(p, quoted);
  }
  void segments(const BraceWord& w) {
    for (const auto& s : w) {
      if (s.part) part(*s.part, false);
      else b_.literal(s.text, false);
    }
  }

  // The word of ${x:-word} etc.: its unquoted text is part of the expansion's
  // result, so it is field-split like one ("${u:-p q}" is one field, ${u:-p q} two).
  void arg_parts(const std::vector<ast::WordPart>& ps, bool quoted) {
    for (const auto& p : ps) {
      const auto* l = std::get_if<ast::Literal>(&p.v);
      if (l && !quoted && !l->quoted)
        b_.expansion(l->text, false);
      else
        part(p, quoted);
    }
  }

 private:
  void part(const ast::WordPart& p, bool quoted) {
    switch (p.v.index()) {
      case 0: {  // Literal
        auto& l = std::get<ast::Literal>(p.v);
        b_.literal(l.text, quoted || l.quoted);
        break;
      }
      case 1: {  // DoubleQuoted
        auto& dq = std::get<ast::DoubleQuoted>(p.v);
        bool only_at = !dq.parts.empty();
        for (auto& inner : dq.parts) {
          auto* prm = std::get_if<ast::Parameter>(&inner.v);
          if (!prm || !all_at(*prm)) only_at = false;
        }
        // "" is an empty field; "$@" with no parameters is no field at all.
        if (!only_at) b_.mark_started();
        parts(dq.parts, true);
        break;
      }
      case 2:
        parameter(std::get<ast::Parameter>(p.v), quoted);
        break;
      case 3: {
        auto& cs = std::get<ast::CommandSubst>(p.v);
        if (sh_.dry) {
          // The dry run runs nothing: the value is only known at run time, but the
          // commands inside are planned and reported too.
          if (cs.body && sh_.dry_visit) sh_.dry_visit(*cs.body);
          sh_.dry_dynamic = true;  // after the visit, which plans commands of its own
          break;
        }
        if (cs.process) {  // <(list) >(list): the name of a pipe to the list
          b_.expansion(sh_.process_substitution(cs.body.get(), cs.process == '>'), true);
          break;
        }
        std::string out = cs.body ? sh_.command_substitution(*cs.body) : std::string();
        b_.expansion(out, quoted);
        break;
      }
      case 4: {
        auto& ar = std::get<ast::Arithmetic>(p.v);
        std::string expr = ar.expr ? sh_.expand_string(*ar.expr) : std::string();
        ArithShellVars av(sh_);
        ArithResult r = arith_eval(expr, av);
        if (sh_.dry) {
          // Variables are not what they will be (see parameter()): nor is the value,
          // and an error now (1/x with x unset) need not be one then.
          sh_.dry_dynamic = true;
          if (r.error) r.value = 0;
        } else if (r.error) {
          throw FatalError{"arithmetic expression: " + *r.error + ": \"" + expr + "\"", 2};
        }
        b_.expansion(std::to_string(r.value), quoted);
        break;
      }
      case 5: {
        auto& t = std::get<ast::Tilde>(p.v);
        if (sh_.dry && t.user.empty() && sh_.dry_assigned.count("HOME")) sh_.dry_dynamic = true;
        b_.literal(home_of(sh_, t.user), true);
        break;
      }
    }
  }

  // "$@", "${a[@]}" and their operator forms: with no elements, no field at all.
  static bool all_at(const ast::Parameter& prm) {
    if (prm.op == ast::ParamOp::length || prm.indirect) return false;
    if (prm.index) {
      const auto& ps = prm.index->parts;
      auto* l = ps.size() == 1 ? std::get_if<ast::Literal>(&ps[0].v) : nullptr;
      return l && l->text == "@" && prm.op != ast::ParamOp::keys;
    }
    return prm.name == "@" && (prm.op == ast::ParamOp::plain || prm.op >= ast::ParamOp::substring);
  }

  // Value lookup for any parameter name. Returns false when unset.
  bool lookup(const std::string& name, std::string& out) {
    char c = name[0];
    if (name.size() == 1 || (c >= '0' && c <= '9')) {
      if (c >= '0' && c <= '9') {
        size_t n = 0;
        for (char d : name) {
          n = n * 10 + size_t(d - '0');
          if (n > 1000000000) return false;
        }
        if (n == 0) {
          out = sh_.arg0;
          return true;
        }
        if (n > sh_.params.size()) return false;
        out = sh_.params[n - 1];
        return true;
      }
      switch (c) {
        case '#': out = std::to_string(sh_.params.size()); return true;
        case '?': out = std::to_string(sh_.status); return true;
        case '-': out = sh_.dollar_dash(); return true;
        case '$': out = std::to_string(sh_.shell_pid); return true;
        case '!':
          if (sh_.last_bg == 0) return false;
          out = std::to_string(sh_.last_bg_shown);
          return true;
        case '@':
        case '*': {
          out = join_star();
          return !sh_.params.empty();
        }
        default: break;
      }
    }
    sh_.refresh_dynamic_array(name);
    const std::string* v = sh_.vars.get(name);
    if (!v) {
      if (name == "LINENO") {  // the line of the command being run
        out = std::to_string(sh_.line);
        return true;
      }
      if (!sh_.opt.posix && dynamic_variable(name, out)) return true;
      return false;
    }
    out = *v;
    return true;
  }

  std::string join_star() { return join_star(sh_.params); }
  std::string join_star(const std::vector<std::string>& ps) {
    const std::string* ifs = sh_.vars.get("IFS");
    std::string sep = !ifs ? " " : (ifs->empty() ? "" : std::string(1, (*ifs)[0]));
    std::string out;
    for (size_t i = 0; i < ps.size(); ++i) {
      if (i) out += sep;
      out += ps[i];
    }
    return out;
  }

  void emit_all_params(bool quoted, bool star) { emit_list(sh_.params, quoted, star); }

  void emit_list(const std::vector<std::string>& ps, bool quoted, bool star) {
    auto join_star = [&] { return this->join_star(ps); };
    if (quoted && star) {
      b_.literal(join_star(), true);
      return;
    }
    if (b_.mode() != Builder::Mode::fields) {
      // x=$@ and case $@ in: the parameters joined (by spaces for $@).
      std::string joined;
      if (star) {
        joined = join_star();
      } else {
        for (size_t i = 0; i < ps.size(); ++i) {
          if (i) joined += ' ';
          joined += ps[i];
        }
      }
      b_.expansion(joined, quoted);
      return;
    }
    for (size_t i = 0; i < ps.size(); ++i) {
      if (i) {
        if (quoted)
          b_.field_break();
        else
          b_.end_word();  // unquoted $@/$*: each parameter is split on its own
      }
      b_.expansion(ps[i], quoted);
    }
  }

  void unset_error(const ast::Parameter& prm) {
    throw FatalError{prm.name + ": parameter not set", 2};
  }

  // A ${...} the parser kept for dash compatibility (${a.b}, ${x:1}): an error only
  // when it is expanded, as in dash.
  static bool valid_parameter_name(const std::string& n) {
    if (n.empty()) return false;
    if (n.size() == 1 && std::strchr("@*#?-$!0123456789", n[0])) return true;
    bool digits = true;
    for (char c : n) digits = digits && c >= '0' && c <= '9';
    return digits || is_assignable(n);
  }

  void parameter(const ast::Parameter& prm, bool quoted) {
    if (!valid_parameter_name(prm.name)) throw FatalError{"${" + prm.name + "}: bad substitution", 2};
    bool special_all = prm.name == "@" || prm.name == "*";
    using Op = ast::ParamOp;
    if (sh_.dry) {
      // The dry run assigns nothing and runs nothing, so a variable's value now is not
      // its value when the script runs (an assignment earlier in it, a loop, $1), except
      // the session's own identity, and $PWD while it names the directory the run
      // starts in (no cd walked). A word an operator may expand (${x:-$(cmd)}) runs
      // in some run: its substitutions are walked once, whatever the value now.
      bool stable = (prm.name == "HOME" || prm.name == "USER" || prm.name == "LOGNAME" ||
                     (prm.name == "PWD" && pwd_is_cwd(sh_))) &&
                    !sh_.dry_assigned.count(prm.name);
      if (!stable) sh_.dry_dynamic = true;
      bool word_op = prm.op == Op::use_default || prm.op == Op::use_alternate || prm.op == Op::assign_default ||
                     prm.op == Op::error_if_unset;
      if (!stable && word_op && prm.arg) {
        std::string value;
        bool set = lookup(prm.name, value);
        (void)sh_.expand_string(*prm.arg);
        if (prm.op == Op::assign_default && sh_.dry_assign) sh_.dry_assign(prm.name);
        b_.expansion(set ? value : std::string(), quoted);
        return;
      }
    }
    if (prm.index || prm.indirect || prm.op >= Op::substring) {
      extended(prm, quoted);
      return;
    }
    if (prm.op == ast::ParamOp::plain && special_all) {
      emit_all_params(quoted, prm.name == "*");
      return;
    }
    std::string value;
    bool set = lookup(prm.name, value);
    if (special_all) set = true;  // as dash: "${@-x}" with no parameters is empty
    switch (prm.op) {
      case Op::plain:
        if (!set && sh_.opt.nounset) unset_error(prm);
        b_.expansion(value, quoted);
        return;
      case Op::length:
        if (special_all) {
          b_.expansion(std::to_string(sh_.params.size()), quoted);
          return;
        }
        if (!set && sh_.opt.nounset) unset_error(prm);
        b_.expansion(std::to_string(sh_.chars_are_utf8() ? utf8_len(value) : value.size()), quoted);
        return;
      default: break;
    }
    bool present = set && !(prm.colon && value.empty());
    switch (prm.op) {
      case Op::use_default:
        if (present) {
          if (special_all)
            emit_all_params(quoted, prm.name == "*");
          else
            b_.expansion(value, quoted);
        } else if (prm.arg) {
          arg_parts(prm.arg->parts, quoted);
        }
        return;
      case Op::use_alternate:
        if (present && prm.arg) arg_parts(prm.arg->parts, quoted);
        return;
      case Op::assign_default:
        if (!present) {
          std::string nv = prm.arg ? sh_.expand_string(*prm.arg) : std::string();
          if (!is_assignable(prm.name)) throw FatalError{prm.name + ": bad variable name", 2};
          if (!sh_.dry && !sh_.vars.set(prm.name, nv)) {
            if (sh_.vars.last_refused) throw Refused{};
            throw FatalError{prm.name + ": is read only", 2};
          }
          value = nv;
        }
        b_.expansion(value, quoted);
        return;
      case Op::error_if_unset:
        if (!present) {
          std::string msg = prm.arg ? sh_.expand_string(*prm.arg) : std::string();
          if (msg.empty()) msg = set ? "parameter null" : "parameter not set";
          throw FatalError{prm.name + ": " + msg, 2};
        }
        b_.expansion(value, quoted);
        return;
      case Op::remove_small_suffix:
      case Op::remove_large_suffix:
      case Op::remove_small_prefix:
      case Op::remove_large_prefix: {
        if (!set && sh_.opt.nounset) unset_error(prm);
        std::string pat = prm.arg ? sh_.expand_pattern(*prm.arg) : std::string();
        TrimKind k = prm.op == Op::remove_small_suffix   ? TrimKind::small_suffix
                     : prm.op == Op::remove_large_suffix ? TrimKind::large_suffix
                     : prm.op == Op::remove_small_prefix ? TrimKind::small_prefix
                                                         : TrimKind::large_prefix;
        b_.expansion(pattern_trim(value, pat, k), quoted);
        return;
      }
      default: return;
    }
  }

  // ---- bash's parameter forms ------------------------------------------------------

  // The value(s) PRM names: a list for name[@] / name[*] / @ / *, else one value.
  struct Target {
    std::string name;          // the variable (after ${!indirection})
    bool list = false;         // [@] [*] @ *
    bool star = false;
    std::vector<std::string> values;
    bool set = false;
  };

  Target resolve(const ast::Parameter& prm) {
    Target t;
    t.name = prm.name;
    sh_.refresh_dynamic_array(prm.name);
    std::string sub;
    bool has_sub = false;
    if (prm.index) {
      sub = sh_.expand_string(*prm.index);
      has_sub = true;
    }
    if (prm.indirect) {
      std::string target;
      bool ok;
      if (has_sub) {
        if (sub == "@" || sub == "*") {
          std::vector<std::string> vs = sh_.element_values(prm.name);
          ok = !vs.empty();
          target = join_star(vs);
        } else {
          const std::string* v = sh_.element(prm.name, sub);
          ok = v != nullptr;
          if (v) target = *v;
        }
        has_sub = false;
      } else {
        ok = lookup(prm.name, target);
      }
      if (!ok) {
        if (sh_.opt.nounset) throw FatalError{prm.name + ": parameter not set", 1};
        t.set = false;
        return t;
      }
      size_t lb = target.find('[');
      if (lb != std::string::npos && target.back() == ']') {
        sub = target.substr(lb + 1, target.size() - lb - 2);
        target.resize(lb);
        has_sub = true;
      }
      if (!valid_parameter_name(target)) throw FatalError{target + ": invalid indirect expansion", 1};
      t.name = target;
    }
    if (t.name == "@" || t.name == "*") {
      t.list = true;
      t.star = t.name == "*";
      t.values = sh_.params;
      t.set = !t.values.empty();
      return t;
    }
    if (has_sub) {
      if (sub == "@" || sub == "*") {
        t.list = true;
        t.star = sub == "*";
        t.values = sh_.element_values(t.name);
        t.set = !t.values.empty();
        return t;
      }
      if (const std::string* v = sh_.element(t.name, sub)) {
        t.values.push_back(*v);
        t.set = true;
      } else {
        t.values.emplace_back();
      }
      return t;
    }
    std::string v;
    t.set = lookup(t.name, v);
    t.values.push_back(std::move(v));
    return t;
  }

  void emit_target(const Target& t, bool quoted) {
    if (t.list) emit_list(t.values, quoted, t.star);
    else b_.expansion(t.values.empty() ? std::string() : t.values[0], quoted);
  }

  static size_t utf8_len(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  }

  std::string transform(const ast::Parameter& prm, std::string v) {
    using Op = ast::ParamOp;
    switch (prm.op) {
      case Op::remove_small_suffix:
      case Op::remove_large_suffix:
      case Op::remove_small_prefix:
      case Op::remove_large_prefix: {
        std::string pat = prm.arg ? sh_.expand_pattern(*prm.arg) : std::string();
        TrimKind k = prm.op == Op::remove_small_suffix   ? TrimKind::small_suffix
                     : prm.op == Op::remove_large_suffix ? TrimKind::large_suffix
                     : prm.op == Op::remove_small_prefix ? TrimKind::small_prefix
                                                         : TrimKind::large_prefix;
        return pattern_trim(v, pat, k);
      }
      case Op::replace_first:
      case Op::replace_all:
      case Op::replace_prefix:
      case Op::replace_suffix: {
        std::string pat = prm.arg ? sh_.expand_pattern(*prm.arg) : std::string();
        std::string rep = prm.arg2 ? sh_.expand_string(*prm.arg2) : std::string();
        return replace(v, pat, rep, prm.op);
      }
      case Op::upper_first:
      case Op::upper_all:
      case Op::lower_first:
      case Op::lower_all:
      case Op::toggle_first:
      case Op::toggle_all: {
        std::string pat = prm.arg ? sh_.expand_pattern(*prm.arg) : std::string();
        bool toggle = prm.op == Op::toggle_first || prm.op == Op::toggle_all;
        bool upper = prm.op == Op::upper_first || prm.op == Op::upper_all;
        bool all = prm.op == Op::upper_all || prm.op == Op::lower_all || prm.op == Op::toggle_all;
        for (size_t i = 0; i < v.size(); ++i) {
          char c = v[i];
          if (pat.empty() || pattern_match(pat, std::string_view(&v[i], 1))) {
            bool lower_c = c >= 'a' && c <= 'z', upper_c = c >= 'A' && c <= 'Z';
            if ((upper || toggle) && lower_c) v[i] = char(c - 32);
            if ((!upper || toggle) && upper_c) v[i] = char(c + 32);
          }
          if (!all) break;
        }
        return v;
      }
      default: return v;
    }
  }

  static std::string replace(const std::string& v, const std::string& pat, const std::string& rep, ast::ParamOp op) {
    using Op = ast::ParamOp;
    if (op == Op::replace_prefix) {
      for (size_t j = v.size() + 1; j-- > 0;)
        if (pattern_match(pat, std::string_view(v).substr(0, j))) return rep + v.substr(j);
      return v;
    }
    if (op == Op::replace_suffix) {
      for (size_t i = 0; i <= v.size(); ++i)
        if (pattern_match(pat, std::string_view(v).substr(i))) return v.substr(0, i) + rep;
      return v;
    }
    if (pat.empty()) return v;
    if (v.empty()) return pattern_match(pat, "") ? rep : v;
    std::string out;
    size_t i = 0;
    bool done = false;
    while (i < v.size()) {
      size_t found = std::string::npos;
      if (!done)
        for (size_t j = v.size(); j > i; --j)
          if (pattern_match(pat, std::string_view(v).substr(i, j - i))) {
            found = j;
            break;
          }
      if (found == std::string::npos) {
        out.push_back(v[i++]);
        continue;
      }
      out += rep;
      i = found;
      if (op == Op::replace_first) done = true;
    }
    return out;
  }

  void extended(const ast::Parameter& prm, bool quoted) {
    using Op = ast::ParamOp;
    if (prm.op == Op::names_prefix) {
      std::vector<std::string> names;
      for (auto& n : sh_.vars.names())
        if (n.compare(0, prm.name.size(), prm.name) == 0) {
          const Var* v = sh_.vars.find(n);
          if (v && (v->is_set() || v->arr)) names.push_back(n);
        }
      emit_list(names, quoted, prm.star);
      return;
    }
    if (prm.op == Op::keys) {
      sh_.refresh_dynamic_array(prm.name);
      std::string sub = sh_.expand_string(*prm.index);
      emit_list(sh_.element_keys(prm.name), quoted, sub == "*");
      return;
    }
    Target t = resolve(prm);
    switch (prm.op) {
      case Op::plain:
        if (!t.set && sh_.opt.nounset && !t.list) unset_error(prm);
        emit_target(t, quoted);
        return;
      case Op::length:
        if (t.list) {
          b_.expansion(std::to_string(t.values.size()), quoted);
        } else {
          if (!t.set && sh_.opt.nounset) unset_error(prm);
          b_.expansion(std::to_string(sh_.chars_are_utf8() ? utf8_len(t.values[0]) : t.values[0].size()), quoted);
        }
        return;
      case Op::use_default:
      case Op::use_alternate:
      case Op::assign_default:
      case Op::error_if_unset: {
        bool present = t.set && !(prm.colon && (t.list ? join_star(t.values).empty() : t.values[0].empty()));
        if (prm.op == Op::use_default) {
          if (present) emit_target(t, quoted);
          else if (prm.arg) arg_parts(prm.arg->parts, quoted);
        } else if (prm.op == Op::use_alternate) {
          if (present && prm.arg) arg_parts(prm.arg->parts, quoted);
        } else if (prm.op == Op::error_if_unset) {
          if (!present) {
            std::string msg = prm.arg ? sh_.expand_string(*prm.arg) : std::string();
            if (msg.empty()) msg = t.set ? "parameter null" : "parameter not set";
            throw FatalError{t.name + ": " + msg, 1};
          }
          emit_target(t, quoted);
        } else {
          if (!present) {
            std::string nv = prm.arg ? sh_.expand_string(*prm.arg) : std::string();
            std::string sub = prm.index ? sh_.expand_string(*prm.index) : std::string();
            bool ok = prm.index && !t.list ? sh_.set_element(t.name, sub, nv) : sh_.vars.set(t.name, nv);
            if (!ok) {
              if (sh_.vars.last_refused) throw Refused{};
              throw FatalError{t.name + ": is read only", 2};
            }
            b_.expansion(nv, quoted);
          } else {
            emit_target(t, quoted);
          }
        }
        return;
      }
      case Op::substring: {
        std::string off_text = prm.arg ? sh_.expand_string(*prm.arg) : std::string();
        int64_t off = sh_.arith_value(off_text);
        bool has_len = prm.arg2 != nullptr;
        int64_t len = has_len ? sh_.arith_value(sh_.expand_string(*prm.arg2)) : 0;
        const ArrayValue* arr = t.list ? sh_.vars.array(t.name) : nullptr;
        if (arr && !arr->assoc && t.name != "@" && t.name != "*") {
          // Indexed arrays slice by index: the elements from index OFF on.
          int64_t top = arr->idx.empty() ? 0 : arr->idx.rbegin()->first + 1;
          if (off < 0) off += top;
          if (has_len && len < 0) throw FatalError{off_text + ": substring expression < 0", 1};
          std::vector<std::string> out;
          if (off >= 0)
            for (auto it = arr->idx.lower_bound(off); it != arr->idx.end(); ++it) {
              if (has_len && int64_t(out.size()) >= len) break;
              out.push_back(it->second);
            }
          emit_list(out, quoted, t.star);
          return;
        }
        if (t.list) {
          std::vector<std::string> vs = t.values;
          if (t.name == "@" || t.name == "*") vs.insert(vs.begin(), sh_.arg0);  // ${@:0} is $0
          int64_t n = int64_t(vs.size());
          if (off < 0) off += n;
          if (off < 0 || off > n) off = n;
          if (has_len && len < 0) throw FatalError{off_text + ": substring expression < 0", 1};
          int64_t end = has_len ? std::min(n, off + len) : n;
          std::vector<std::string> out(vs.begin() + off, vs.begin() + std::max(off, end));
          emit_list(out, quoted, t.star);
          return;
        }
        if (!t.set && sh_.opt.nounset) unset_error(prm);
        const std::string& v = t.values[0];
        // Under a UTF-8 locale offsets count characters: starts[k] is the byte where
        // character k begins (and starts[n] the end).
        std::vector<size_t> starts;
        bool chars = sh_.chars_are_utf8() && utf8_len(v) != v.size();
        if (chars) {
          for (size_t k = 0; k < v.size(); ++k)
            if ((static_cast<unsigned char>(v[k]) & 0xC0) != 0x80) starts.push_back(k);
          starts.push_back(v.size());
        }
        int64_t n = chars ? int64_t(starts.size() - 1) : int64_t(v.size());
        if (off < 0) off += n;
        if (off < 0 || off > n) {
          b_.expansion(std::string(), quoted);
          return;
        }
        int64_t end = n;
        if (has_len) {
          end = len < 0 ? n + len : off + len;
          if (end < off) {
            if (len < 0) throw FatalError{std::to_string(len) + ": substring expression < 0", 1};
            end = off;
          }
          end = std::min(end, n);
        }
        if (chars) b_.expansion(v.substr(starts[size_t(off)], starts[size_t(end)] - starts[size_t(off)]), quoted);
        else b_.expansion(v.substr(size_t(off), size_t(end - off)), quoted);
        return;
      }
      default: {
        if (!t.set && sh_.opt.nounset && !t.list) unset_error(prm);
        if (t.list) {
          std::vector<std::string> out;
          out.reserve(t.values.size());
          for (auto& v : t.values) out.push_back(transform(prm, v));
          emit_list(out, quoted, t.star);
        } else {
          b_.expansion(transform(prm, t.values[0]), quoted);
        }
        return;
      }
    }
  }

  static bool is_assignable(const std::string& name) {
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (char c : name)
      if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
        return false;
    return true;
  }

  Shell& sh_;
  Builder& b_;
};

// A word that is one unquoted literal needs no expansion machinery at all.
const ast::Literal* plain_literal(const ast::Word& w) {
  if (w.parts.size() != 1) return nullptr;
  return std::get_if<ast::Literal>(&w.parts[0].v);
}

}  // namespace

namespace {
// `export x=$v`, `readonly`, `local`: operands that look like assignments are
// expanded like assignments (no field splitting or globbing), as dash does.
bool is_declaration_utility(const ast::Word& w) {
  const ast::Literal* l = plain_literal(w);
  return l && !l->quoted && (l->text == "export" || l->text == "readonly" || l->text == "local");
}
bool looks_like_assignment(const ast::Word& w) {
  if (w.parts.empty()) return false;
  const auto* l = std::get_if<ast::Literal>(&w.parts[0].v);
  if (!l || l->quoted) return false;
  auto eq = l->text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (size_t i = 0; i < eq; ++i) {
    char c = l->text[i];
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}
}  // namespace

void Shell::expand_words(const std::vector<ast::Word>& words, std::vector<std::string>& out) {
  const std::string* ifs = nullptr;
  bool have_ifs = false;
  bool declaration = !words.empty() && is_declaration_utility(words[0]);
  for (const auto& w : words) {
    if (w.compound) {
      out.push_back(compound_arg(*w.compound));
      continue;
    }
    if (declaration && &w != &words[0] && looks_like_assignment(w)) {
      out.push_back(expand_string(w));
      continue;
    }
    if (const ast::Literal* l = plain_literal(w)) {
      bool glob = false;
      if (!l->quoted && !opt.noglob)
        for (char c : l->text)
          if (is_glob_char(c)) glob = true;
      if (!l->quoted && !opt.posix && l->text.find('{') != std::string::npos) glob = true;  // braces
      if (!glob) {
        out.push_back(l->text);
        continue;
      }
    }
    if (!have_ifs) {
      ifs = vars.get("IFS");
      have_ifs = true;
    }
    if (!opt.posix && may_brace_expand(w)) {
      for (const BraceWord& bw : brace_expand(w)) {
        Builder b(Builder::Mode::fields, ifs, opt.noglob);
        Expander e(*this, b);
        e.segments(bw);
        b.end_word();
        glob_fields(&b, out);
        ifs = vars.get("IFS");
      }
      continue;
    }
    Builder b(Builder::Mode::fields, ifs, opt.noglob);
    Expander e(*this, b);
    e.parts(w.parts, false);
    b.end_word();
    glob_fields(&b, out);
    ifs = vars.get("IFS");  // an expansion may have assigned IFS
  }
}

bool Shell::chars_are_utf8() const {
  const std::string* v = vars.get("LC_ALL");
  if (!v || v->empty()) v = vars.get("LC_CTYPE");
  if (!v || v->empty()) v = vars.get("LANG");
  if (!v) return false;
  std::string low;
  for (char c : *v) low.push_back(char(std::tolower(static_cast<unsigned char>(c))));
  return low.find("utf-8") != std::string::npos || low.find("utf8") != std::string::npos;
}

void Shell::glob_fields(void* builder, std::vector<std::string>& out) {
  Builder& b = *static_cast<Builder*>(builder);
  {
    GlobOptions gopts{opt.dotglob, opt.nocaseglob, opt.globstar};
    for (auto& f : b.fields()) {
      if (f.glob) {
        // Names not read from a listing are checked as the session sees them too.
        auto matches = glob_expand(
            f.pat, [this](const std::string& dir, std::vector<std::string>& names) { return list_user_dir(*this, dir, names); },
            view_is_confined(*this) ? PathExists([this](const std::string& p) { return view_path_exists(*this, p); })
                                    : PathExists(path_exists_direct),
            gopts);
        if (!matches.empty()) {
          for (auto& m : matches) out.push_back(std::move(m));
          continue;
        }
        if (opt.nullglob && !opt.posix) continue;  // shopt nullglob: no word at all
        if (opt.failglob && !opt.posix) throw FatalError{"no match: " + f.text, 1};
      }
      out.push_back(std::move(f.text));
    }
  }
}

void Shell::expand_word(const ast::Word& w, std::vector<std::string>& out) {
  // One word alone (an array element): field-split and globbed.
  if (w.compound) {
    out.push_back(compound_arg(*w.compound));
    return;
  }
  if (!opt.posix && may_brace_expand(w)) {
    for (const BraceWord& bw : brace_expand(w)) {
      Builder b(Builder::Mode::fields, vars.get("IFS"), opt.noglob);
      Expander e(*this, b);
      e.segments(bw);
      b.end_word();
      glob_fields(&b, out);
    }
    return;
  }
  Builder b(Builder::Mode::fields, vars.get("IFS"), opt.noglob);
  Expander e(*this, b);
  e.parts(w.parts, false);
  b.end_word();
  glob_fields(&b, out);
}

std::string Shell::expand_string(const ast::Word& w) {
  if (const ast::Literal* l = plain_literal(w)) return l->text;
  Builder b(Builder::Mode::string, nullptr, true);
  Expander e(*this, b);
  e.parts(w.parts, false);
  return b.take_string();
}

std::string Shell::expand_pattern(const ast::Word& w) {
  Builder b(Builder::Mode::pattern, nullptr, true);
  Expander e(*this, b);
  e.parts(w.parts, false);
  return b.take_string();
}

std::string Shell::expand_regex(const ast::Word& w) {
  Builder b(Builder::Mode::regex, nullptr, true);
  Expander e(*this, b);
  e.parts(w.parts, false);
  return b.take_string();
}

int64_t Shell::arith_value(std::string_view expr) {
  ArithShellVars av(*this);
  ArithResult r = arith_eval(expr, av);
  if (dry) {
    dry_dynamic = true;
    return r.error ? 0 : r.value;
  }
  if (r.error) throw FatalError{"arithmetic expression: " + *r.error + ": \"" + std::string(expr) + "\"", 2};
  return r.value;
}

std::string Shell::expand_heredoc(const ast::Redirect& r) {
  if (r.heredoc_quoted) {
    std::string out;
    for (auto& p : r.heredoc_body.parts)
      if (auto* l = std::get_if<ast::Literal>(&p.v)) out += l->text;
    return out;
  }
  Builder b(Builder::Mode::string, nullptr, true);
  Expander e(*this, b);
  // Inside a here-document the text behaves as if double-quoted.
  e.parts(r.heredoc_body.parts, true);
  return b.take_string();
}

}  // namespace lash::exec
