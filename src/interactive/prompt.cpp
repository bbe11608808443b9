#include "interactive/prompt.h"

#include <pwd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>

#include "lash_config.h"
#include "syntax/parser.h"

namespace lash::interactive {

namespace {

std::string user_name(exec::Shell& sh) {
  if (struct passwd* pw = ::getpwuid(::geteuid())) return pw->pw_name;
  const std::string* u = sh.vars.get("USER");
  return u ? *u : std::to_string(::geteuid());
}

std::string host_name(bool full) {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  std::string h = buf;
  if (!full) h = h.substr(0, h.find('.'));
  return h;
}

std::string working_dir(exec::Shell& sh, bool last_only) {
  const std::string* pwd = sh.vars.get("PWD");
  std::string d = pwd ? *pwd : std::string();
  if (d.empty()) {
    char buf[4096];
    if (::getcwd(buf, sizeof buf)) d = buf;
  }
  const std::string* home = sh.vars.get("HOME");
  if (last_only) {
    if (home && d == *home) return "~";
    if (d == "/") return d;
    size_t slash = d.rfind('/');
    return slash == std::string::npos ? d : d.substr(slash + 1);
  }
  if (home && !home->empty() && *home != "/" &&
      (d == *home || (d.rfind(*home, 0) == 0 && d.size() > home->size() && d[home->size()] == '/')))
    return "~" + d.substr(home->size());
  return d;
}

std::string time_text(const char* fmt) {
  time_t now = ::time(nullptr);
  struct tm tm;
  ::localtime_r(&now, &tm);
  char buf[256];
  size_t n = ::strftime(buf, sizeof buf, fmt, &tm);
  return std::string(buf, n);
}

// Parameter expansion, command substitution and arithmetic, as a here-document body
// would have them (backslashes other than \$ \` \\ stay, for the escapes).
std::string expand_parameters(exec::Shell& sh, const std::string& text) {
  if (text.find_first_of("$`") == std::string::npos) return text;
  std::string delim = "__LASH_PROMPT_END__";
  if (text.find(delim) != std::string::npos) return text;
  std::string program = ":<<" + delim + "\n" + text + "\n" + delim + "\n";
  syntax::ParseOptions po;
  po.text_is_complete = true;
  auto r = syntax::parse(program, po);
  if (r.error || !r.program || r.program->items.empty()) return text;
  const ast::Command& c = r.program->items[0].and_or.first.commands[0];
  const auto* sc = std::get_if<ast::SimpleCommand>(&c.v);
  if (!sc || sc->redirects.empty()) return text;
  int saved = sh.status;
  try {
    std::string out = sh.expand_heredoc(sc->redirects[0]);
    sh.status = saved;
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  } catch (const exec::FatalError& e) {
    if (!e.message.empty()) sh.error(e.message);
  } catch (const exec::Refused&) {
  }
  sh.status = saved;
  return text;
}

}  // namespace

namespace {

// Escapes first; what each inserts is held aside (SAVED, with a marker in the text)
// while the parameters are expanded, so a directory named `$(cmd)` is shown, never run.
constexpr char kMark = '\x1f';

std::string escapes(exec::Shell& sh, const std::string& text, const std::string& profile,
                    std::vector<std::string>* saved) {
  std::string result;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c != '\\' || i + 1 >= text.size()) {
      result += c;
      continue;
    }
    std::string out;
    char e = text[++i];
    switch (e) {
      case 'u': out += user_name(sh); break;
      case 'h': out += host_name(false); break;
      case 'H': out += host_name(true); break;
      case 'w': out += working_dir(sh, false); break;
      case 'W': out += working_dir(sh, true); break;
      case '$': out += ::geteuid() == 0 ? '#' : '$'; break;
      case 't': out += time_text("%H:%M:%S"); break;
      case 'T': out += time_text("%I:%M:%S"); break;
      case 'A': out += time_text("%H:%M"); break;
      case '@': out += time_text("%I:%M %p"); break;
      case 'd': out += time_text("%a %b %d"); break;
      case 'D': {
        size_t close = text.find('}', i);
        if (i + 1 < text.size() && text[i + 1] == '{' && close != std::string::npos) {
          std::string fmt = text.substr(i + 2, close - i - 2);
          out += time_text(fmt.empty() ? "%X" : fmt.c_str());
          i = close;
        } else {
          out += "\\D";
        }
        break;
      }
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case '?': out += std::to_string(sh.status); break;
      case 'j': {
        int n = 0;
        for (const auto& j : sh.jobs)
          if (j.listed && !j.done) ++n;
        out += std::to_string(n);
        break;
      }
      case 'p': out += profile; break;
      case 's': out += "lash"; break;
      case 'v':
      case 'V': out += LASH_VERSION; break;
      case 'e': out += '\033'; break;
      case 'a': out += '\a'; break;
      case '[': out += '\001'; break;  // readline: invisible from here
      case ']': out += '\002'; break;
      case '\\': out += '\\'; break;
      default:
        if (e >= '0' && e <= '7') {
          int v = 0, k = 0;
          while (k < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7') v = v * 8 + (text[i++] - '0'), ++k;
          --i;
          if (v != 0) out += char(v);
        } else {
          out += '\\';
          out += e;
        }
    }
    if (saved) {
      saved->push_back(std::move(out));
      result += kMark;
      result += std::to_string(saved->size() - 1);
      result += kMark;
    } else {
      result += out;
    }
  }
  return result;
}

}  // namespace

std::string prompt_escapes(exec::Shell& sh, const std::string& text, const std::string& profile) {
  return escapes(sh, text, profile, nullptr);
}

std::string expand_prompt(exec::Shell& sh, const std::string& text, const std::string& profile) {
  std::vector<std::string> saved;
  std::string marked = escapes(sh, text, profile, &saved);
  std::string expanded = expand_parameters(sh, marked);
  std::string out;
  for (size_t i = 0; i < expanded.size(); ++i) {
    size_t end;
    if (expanded[i] == kMark && (end = expanded.find(kMark, i + 1)) != std::string::npos &&
        end > i + 1 && end - i < 12) {
      std::string num = expanded.substr(i + 1, end - i - 1);
      if (num.find_first_not_of("0123456789") == std::string::npos) {
        size_t k = std::stoul(num);
        if (k < saved.size()) {
          out += saved[k];
          i = end;
          continue;
        }
      }
    }
    out += expanded[i];
  }
  return out;
}

}  // namespace lash::interactive
