// getopts as dash does it (see getopts_core.h): a group like -abc is walked with
// an offset into the current word; an option argument is the rest of the word or
// the next word; "--" ends the options and is consumed; at the end OPTARG is left
// alone; a leading ':' in optstring selects silent error reporting.
#include "builtins/getopts_core.h"

namespace lash::builtins {

GetoptsResult getopts_step(std::string_view optstring, const std::vector<std::string>& args,
                           GetoptsState& st) {
  GetoptsResult r;
  const size_t nargs = args.size();
  int ind = st.optind;
  int off = st.optoff;
  if (ind < 1 || static_cast<size_t>(ind) > nargs + 1) {
    ind = 1;
    off = -1;
  }
  auto opt_at = [&](size_t q) { return q < optstring.size() ? optstring[q] : '\0'; };
  const bool silent = opt_at(0) == ':';

  size_t next = static_cast<size_t>(ind - 1);  // index of the next unread word
  const std::string* word = nullptr;            // the word being walked
  size_t pos = 0;                               // position in *word
  bool in_word = false;
  if (ind > 1 && off >= 0 && args[next - 1].size() >= static_cast<size_t>(off)) {
    word = &args[next - 1];
    pos = static_cast<size_t>(off);
    in_word = true;
  }
  if (!in_word || pos == word->size()) {
    // The current word is done: advance.
    if (next >= nargs || args[next].size() < 2 || args[next][0] != '-') {
      in_word = false;
      r.status = 1;
      goto out;
    }
    word = &args[next++];
    if (*word == "--") {
      in_word = false;
      r.status = 1;
      goto out;
    }
    pos = 1;
    in_word = true;
  }
  {
    const char c = (*word)[pos++];
    size_t q = 0;
    while (opt_at(q) != c) {
      if (opt_at(q) == '\0') {
        if (silent) {
          r.optarg = GetoptsResult::OptArg::set;
          r.optarg_value = std::string(1, c);
        } else {
          r.diagnostic = std::string("Illegal option -") + c;
          r.optarg = GetoptsResult::OptArg::unset;
        }
        r.name = '?';
        goto out;
      }
      if (opt_at(++q) == ':') ++q;
    }
    if (opt_at(++q) == ':') {
      if (pos == word->size() && next >= nargs) {
        if (silent) {
          r.optarg = GetoptsResult::OptArg::set;
          r.optarg_value = std::string(1, c);
          r.name = ':';
        } else {
          r.diagnostic = std::string("No arg for -") + c + " option";
          r.optarg = GetoptsResult::OptArg::unset;
          r.name = '?';
        }
        in_word = false;
        goto out;
      }
      r.optarg = GetoptsResult::OptArg::set;
      if (pos == word->size())
        r.optarg_value = args[next++];
      else
        r.optarg_value = word->substr(pos);
      in_word = false;
    } else {
      r.optarg = GetoptsResult::OptArg::set;
      r.optarg_value.clear();
    }
    r.name = c;
  }
out:
  r.optind = static_cast<int>(next) + 1;
  st.optind = r.optind;
  st.optoff = in_word ? static_cast<int>(pos) : -1;
  return r;
}

}  // namespace lash::builtins
