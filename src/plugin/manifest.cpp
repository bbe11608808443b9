#include "plugin/manifest.h"

#include <cctype>

#include "base/strutil.h"
#include "policy/ini_loader.h"
#include "policy/validate.h"

namespace lash::plugin {

const Method* Manifest::find(std::string_view method) const {
  for (const Method& m : methods)
    if (m.name == method) return &m;
  return nullptr;
}

namespace {

// Method and parameter names: what a JSON-RPC peer and a shell word can both carry.
bool is_identifier(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

// One-line texts shown by `plugin list` / `plugin info`: no control characters, so a
// manifest cannot write terminal escapes through lash.
bool is_printable_line(std::string_view s) {
  if (s.size() > 200) return false;
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  return true;
}

struct Reader {
  const std::string& file;
  policy::Diags& diags;
  void bad(int line, const std::string& key, const std::string& msg) { diags.push_back({file, line, key, msg}); }
};

}  // namespace

std::optional<Manifest> parse_manifest(std::string_view text, const std::string& file, const std::string& dir,
                                       policy::Diags& diags) {
  size_t before = diags.size();
  auto doc = policy::read_ini(text, file, diags);
  // A duplicate key is a soft error of read_ini (the document comes back so a profile
  // can report every error at once); here any error makes the file invalid.
  if (!doc || diags.size() != before) return std::nullopt;
  Reader r{file, diags};
  Manifest m;
  m.file = file;
  m.dir = dir;
  bool have_plugin = false;
  for (const policy::IniSection& sec : doc->sections) {
    for (const auto& e : sec.entries)
      if (!e.continuations.empty()) r.bad(e.line, e.key, "continuation lines are not allowed in a manifest");
    if (sec.name == "plugin") {
      have_plugin = true;
      for (const auto& e : sec.entries) {
        if (e.key == "name") {
          auto n = policy::validate::plugin_name(e.value);
          if (!n) r.bad(e.line, e.key, n.error().what);
          else m.name = *n;
        } else if (e.key == "version" || e.key == "description") {
          if (!is_printable_line(e.value)) r.bad(e.line, e.key, "must be one printable line");
          (e.key == "version" ? m.version : m.description) = e.value;
        } else if (e.key == "executable") {
          // Inside the plugin's own directory: a manifest cannot name a program
          // elsewhere (which its access would then have to cover).
          if (e.value.empty() || e.value[0] == '/' || e.value.find("..") != std::string::npos ||
              !is_printable_line(e.value))
            r.bad(e.line, e.key, "must be a file name relative to the manifest's directory");
          else
            m.executable = dir + "/" + e.value;
        } else if (e.key == "timeout") {
          auto v = str::parse_int(e.value);
          if (!v || *v < 1 || *v > 3600) r.bad(e.line, e.key, "expected seconds between 1 and 3600");
          else m.timeout_seconds = int(*v);
        } else {
          r.bad(e.line, e.key, "unknown key in [plugin]");
        }
      }
    } else if (str::starts_with(sec.name, "method ")) {
      Method meth;
      meth.name = std::string(str::trim(std::string_view(sec.name).substr(7)));
      if (!is_identifier(meth.name)) r.bad(sec.line, "", "invalid method name '" + meth.name + "'");
      if (m.find(meth.name)) r.bad(sec.line, "", "method '" + meth.name + "' declared twice");
      for (const auto& e : sec.entries) {
        if (e.key == "description") {
          if (!is_printable_line(e.value)) r.bad(e.line, e.key, "must be one printable line");
          meth.description = e.value;
        } else if (e.key == "params") {
          auto list = policy::validate::split_list(e.value);
          if (!list) {
            r.bad(e.line, e.key, list.error().what);
            continue;
          }
          for (auto& p : *list) {
            if (!is_identifier(p)) r.bad(e.line, e.key, "invalid parameter name '" + p + "'");
            meth.params.push_back(p);
          }
        } else {
          r.bad(e.line, e.key, "unknown key in a method section");
        }
      }
      if (m.methods.size() >= kMaxMethods) r.bad(sec.line, "", "too many methods");
      else m.methods.push_back(std::move(meth));
    } else if (sec.name == "access") {
      for (const auto& e : sec.entries) {
        std::vector<std::string>* out = e.key == "read_only"    ? &m.access.read_only
                                        : e.key == "read_write" ? &m.access.read_write
                                        : e.key == "allow_hosts" ? &m.access.allow_hosts
                                                                 : nullptr;
        if (!out) {
          r.bad(e.line, e.key, "unknown key in [access] (read_only, read_write, allow_hosts)");
          continue;
        }
        auto list = policy::validate::split_list(e.value);
        if (!list) {
          r.bad(e.line, e.key, list.error().what);
          continue;
        }
        for (auto& item : *list) {
          // $LASH_HOME/...: the user's lash state (the audit plugin reads audit.log).
          bool lash_home = e.key != "allow_hosts" && str::starts_with(item, "$LASH_HOME") &&
                           (item.size() == 10 || item[10] == '/') && item.find("..") == std::string::npos;
          auto v = lash_home                ? Result<std::string>(item)
                   : e.key == "allow_hosts" ? policy::validate::host_pattern(item)
                                            : policy::validate::path(item);
          if (!v) r.bad(e.line, e.key, v.error().what);
          else out->push_back(*v);
        }
      }
    } else {
      r.bad(sec.line, "", "unknown section [" + sec.name + "]");
    }
  }
  if (!have_plugin) r.bad(0, "", "no [plugin] section");
  if (have_plugin && m.name.empty()) r.bad(0, "name", "missing");
  if (have_plugin && m.executable.empty()) r.bad(0, "executable", "missing");
  if (diags.size() != before) return std::nullopt;
  return m;
}

}  // namespace lash::plugin
