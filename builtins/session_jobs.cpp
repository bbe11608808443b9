#include "builtins/session_jobs.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/fileio.h"
#include "base/strutil.h"
#include "exec/shell.h"
#include "sandbox/session_registry.h"

namespace lash::builtins {

namespace {

struct ProcView {
  pid_t pid = 0, pgid = 0;
  char state = '?';
  std::string command;
};

// State and process group from /proc/PID/stat (after the last ')': the command name
// may hold anything), the command line with its NULs as spaces and every control
// character shown as '?' (it is another session's text, printed to this terminal).
bool view_of(pid_t pid, ProcView& v) {
  std::string stat;
  if (read_whole_file("/proc/" + std::to_string(pid) + "/stat", stat, 4096) != 0) return false;
  size_t close = stat.rfind(')');
  if (close == std::string::npos) return false;
  auto f = str::split(stat.substr(close + 1), ' ');
  // f[0] is "" (the space after ')'), then state, ppid, pgrp.
  if (f.size() < 4 || f[1].size() != 1) return false;
  auto pg = str::parse_int(f[3]);
  if (!pg) return false;
  v.pid = pid;
  v.state = f[1][0];
  v.pgid = pid_t(*pg);
  std::string cmd;
  (void)read_whole_file("/proc/" + std::to_string(pid) + "/cmdline", cmd, 4096);
  while (!cmd.empty() && cmd.back() == '\0') cmd.pop_back();
  if (cmd.empty()) cmd = "[" + std::string(str::trim(stat.substr(stat.find('(') + 1, close - stat.find('(') - 1))) + "]";
  for (char& c : cmd)
    if (c == '\0') c = ' ';
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  if (cmd.size() > 200) cmd = cmd.substr(0, 197) + "...";
  v.command = cmd;
  return true;
}

std::string state_text(const std::vector<ProcView>& group) {
  bool stopped = !group.empty();
  for (const auto& p : group) stopped = stopped && (p.state == 'T' || p.state == 't');
  return stopped ? "Stopped" : "Running";
}

}  // namespace

int session_jobs(exec::Shell& sh, const std::string& id, bool json_out) {
  namespace reg = sandbox::registry;
  auto live = reg::list_sessions(::geteuid() == 0);
  const reg::Live* s = nullptr;
  for (const auto& l : live)
    if (l.entry.id == id) s = &l;
  if (!s) {
    sh.error("jobs: --session " + id + ": no such live session of yours (see 'session list')");
    return 1;
  }
  // Every member but lash itself, by process group in order of the group id.
  // lash's own forks (subshells, the sandbox's helpers) carry lash's command line:
  // put after the programs, so that a group's first line names what it runs.
  ProcView self;
  (void)view_of(s->entry.pid, self);
  std::map<pid_t, std::vector<ProcView>> groups;
  for (pid_t p : s->members) {
    if (p == s->entry.pid) continue;
    ProcView v;
    if (view_of(p, v)) groups[v.pgid].push_back(std::move(v));
  }
  for (auto& [pgid, procs] : groups)
    std::stable_partition(procs.begin(), procs.end(), [&](const ProcView& v) { return v.command != self.command; });
  if (json_out) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& [pgid, procs] : groups) {
      nlohmann::json ps = nlohmann::json::array();
      for (const auto& p : procs) ps.push_back({{"pid", p.pid}, {"state", std::string(1, p.state)}, {"command", p.command}});
      arr.push_back({{"pgid", pgid}, {"state", state_text(procs)}, {"processes", std::move(ps)}});
    }
    sh.out() << nlohmann::json{{"session", id}, {"profile", s->entry.profile}, {"jobs", std::move(arr)}}.dump(
                    2, ' ', true, nlohmann::json::error_handler_t::replace)
             << '\n';
    return 0;
  }
  for (const auto& [pgid, procs] : groups) {
    std::string state = state_text(procs);
    state.append(10 - state.size(), ' ');
    sh.out() << '[' << std::to_string(pgid) << "]  " << state << procs.front().command << '\n';
    for (size_t i = 1; i < procs.size(); ++i) sh.out() << "        " << std::to_string(procs[i].pid) << "  " << procs[i].command << '\n';
  }
  return 0;
}

}  // namespace lash::builtins
