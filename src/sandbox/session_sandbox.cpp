#include "sandbox/session_sandbox.h"

#include <unistd.h>

#include "sandbox/prepare.h"

namespace lash::sandbox {

SessionSandbox::SessionSandbox() : owner_(getpid()) {}

SessionSandbox::~SessionSandbox() = default;

const Capabilities& SessionSandbox::capabilities() {
  if (!caps_) caps_ = probe_capabilities();
  return *caps_;
}

void SessionSandbox::set_capabilities(Capabilities caps) { caps_ = std::move(caps); }

Result<void> SessionSandbox::prepare(const SandboxPlan& plan) {
  auto p = sandbox::prepare(plan, capabilities());
  if (!p) return p.error();
  for (auto& n : p->notes) notes_.push_back(n);
  retired_.push_back(std::move(current_));
  current_ = std::move(p.value());
  return {};
}

Result<LaunchResult> SessionSandbox::launch(const SpawnSpec& spec) const {
  return sandbox::launch(current_, spec);
}

Result<pid_t> SessionSandbox::fork_shell(pid_t pgid) const {
  return sandbox::fork_shell(current_, pgid);
}

std::vector<std::string> SessionSandbox::take_notes() {
  std::vector<std::string> out;
  out.swap(notes_);
  return out;
}

void SessionSandbox::kill_all() {
  if (getpid() != owner_) return;
  sandbox::kill_all(current_);
  for (Prepared& p : retired_) sandbox::kill_all(p);
  retired_.clear();
}

}  // namespace lash::sandbox
