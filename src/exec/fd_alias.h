// Names that lead, through symlinks, to one of the shell's own descriptors: a link
// to /dev/stderr, `ln -s /dev/fd fds; echo >fds/2`, /proc/self/fd/N. In a sandboxed
// session the fd broker opens the shell's files, and the broker is another process:
// such a name would reach the broker's own descriptors (/dev/null), so the broker
// refuses every /proc magic link (ELOOP) and the shell then asks this resolver.
#pragma once
#include <string>

namespace lash::exec {

// The descriptor of this process that PATH names, following its symlinks as the
// kernel would (lstat and readlink only, nothing is opened), or -1. Relative paths
// are taken from the current directory. A path whose walk fails, loops or ends
// anywhere but at a descriptor of this process gives -1.
int fd_alias_target(const std::string& path);

// PATH with a leading /proc/self/root or /proc/self/cwd (or /proc/thread-self/...,
// /proc/PID/... of this process) replaced by the directory it names for this process:
// "/" and the current directory. "" when PATH does not start so. The broker refuses
// these magic links, which would name its own root and directory; what the rest
// names is opened through the broker as any path.
std::string without_proc_self_links(const std::string& path);

}  // namespace lash::exec
