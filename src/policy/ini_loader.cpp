#include "policy/ini_loader.h"

#include <ini.h>

#include <cstring>

#include "base/strutil.h"

namespace lash::policy {
namespace {

// Shared by the inih reader (as `stream`) and the handler (as `user`), so the handler
// knows the number and the raw text of the line inih is looking at.
struct ParseState {
  std::string_view text;
  size_t pos = 0;
  int line = 0;
  std::string_view raw;     // current line without its newline
  std::string raw_section;  // from the last "[...]" line, untruncated
  bool truncated = false;
  IniDoc doc;
  Diags* diags = nullptr;
  int errors_at_start = 0;
  // Errors after which the document still means something (a duplicate key keeps its
  // first value): the caller goes on checking it, so every error is reported at once.
  size_t soft_errors = 0;

  void error(int at, std::string key, std::string msg) {
    diags->push_back(Diag{doc.file, at, std::move(key), std::move(msg)});
  }
  IniSection& section(const std::string& name, int at) {
    for (auto& s : doc.sections)
      if (s.name == name) return s;
    doc.sections.push_back(IniSection{name, at, {}});
    return doc.sections.back();
  }
};

std::string_view lskip(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' ||
                          s[i] == '\f'))
    ++i;
  return s.substr(i);
}

// Notes section headers as inih would see them, but without its 49-byte limit.
void track_section(ParseState& st) {
  std::string_view s = lskip(st.raw);
  if (s.empty() || s[0] != '[') return;
  auto close = s.find(']');
  if (close == std::string_view::npos) return;  // inih reports this line as an error
  st.raw_section.assign(s.substr(1, close - 1));
  st.section(st.raw_section, st.line);
  // inih ignores whatever follows ']': "[users] alice = ci" would assign nothing,
  // silently. Only blanks and a comment may follow.
  std::string_view after = lskip(s.substr(close + 1));
  if (!after.empty() && after[0] != ';' && after[0] != '#')
    st.error(st.line, "", "text after ']' would be ignored; put 'key = value' on a line of its own");
  if (st.raw_section.empty()) st.error(st.line, "", "empty section name []");
}

char* reader(char* buf, int num, void* stream) {
  auto& st = *static_cast<ParseState*>(stream);
  if (st.pos >= st.text.size()) return nullptr;
  size_t end = st.text.find('\n', st.pos);
  size_t len = end == std::string_view::npos ? st.text.size() - st.pos : end - st.pos + 1;
  if (num <= 1 || len > size_t(num - 1)) {  // cannot happen after the pre-scan
    st.truncated = true;
    return nullptr;
  }
  std::memcpy(buf, st.text.data() + st.pos, len);
  buf[len] = '\0';
  st.raw = st.text.substr(st.pos, end == std::string_view::npos ? len : len - 1);
  st.pos += len;
  ++st.line;
  track_section(st);
  return buf;
}

int handler(void* user, const char* section, const char* name, const char* value) {
  auto& st = *static_cast<ParseState*>(user);
  if (st.raw_section.compare(0, std::string::npos, section) != 0) {
    st.error(st.line, "", "section name [" + st.raw_section + "] is too long");
    return 0;
  }
  // inih remembers a key for its continuation lines in a 50-byte buffer: the
  // continuation of a longer key would come back under a cut name, a different key.
  // No key of a profile, lash.conf or the config is anywhere near that long.
  if (name[0] == '\0') {
    st.error(st.line, "", "a line '= value' has no key name");
    return 0;
  }
  if (std::strlen(name) > kMaxKeyName) {
    st.error(st.line, "", "key name is longer than " + std::to_string(kMaxKeyName) + " bytes");
    return 0;
  }
  IniSection& sec = st.section(st.raw_section, 0);
  bool indented = !st.raw.empty() && st.raw.size() != lskip(st.raw).size();
  if (indented && !sec.entries.empty() && sec.entries.back().key == name) {
    sec.entries.back().continuations.push_back(IniLine{st.line, value});
    return 1;
  }
  for (const auto& e : sec.entries) {
    if (e.key == name) {
      st.error(st.line, name, "duplicate key (first set on line " + std::to_string(e.line) + ")");
      ++st.soft_errors;
      return 1;
    }
  }
  sec.entries.push_back(IniEntry{name, value, st.line, {}});
  return 1;
}

// Refuses what inih would silently mangle: NUL bytes and over-long lines.
void prescan(std::string_view text, const std::string& file, Diags& diags) {
  if (text.size() > kMaxPolicyFile) {
    diags.push_back(Diag{file, 0, "", "file is larger than 64 KiB"});
    return;
  }
  int line = 1;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] == '\0') {
      diags.push_back(Diag{file, line, "", "NUL byte in file"});
      return;
    }
    if (i == text.size() || text[i] == '\n') {
      size_t len = i - start + (i < text.size() ? 1 : 0);
      if (len >= kMaxLine)
        diags.push_back(Diag{file, line, "",
                             "line is " + std::to_string(len) + " bytes long; lines must be " +
                                 "shorter than " + std::to_string(kMaxLine) +
                                 " bytes (wrap long lists onto indented lines)"});
      ++line;
      start = i + 1;
    }
  }
}

}  // namespace

const IniSection* IniDoc::find(std::string_view name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

std::optional<IniDoc> read_ini(std::string_view text, const std::string& file, Diags& diags) {
  size_t before = diags.size();
  prescan(text, file, diags);
  if (diags.size() != before) return std::nullopt;

  ParseState st;
  st.text = text;
  st.diags = &diags;
  st.doc.file = file;
  int rc = ini_parse_stream(reader, &st, handler, &st);
  if (st.truncated) st.error(st.line + 1, "", "line too long");
  if (rc != 0) {
    bool located = false;
    for (size_t i = before; i < diags.size(); ++i) located = located || diags[i].line == rc;
    if (rc < 0)
      st.error(0, "", "cannot be parsed");
    else if (!located)
      st.error(rc, "", "syntax error: expected '[section]' or 'key = value'");
  }
  if (diags.size() - st.soft_errors != before) return std::nullopt;
  return std::move(st.doc);
}

std::string nearest(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(2, word.size() / 3) + 1;
  for (auto c : candidates) {
    size_t d = str::edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = std::string(c);
    }
  }
  return best;
}

}  // namespace lash::policy
