# restricted - look, don't touch.
#
# Intent: the minimal profile. A short list of read-only tools (no editor, no
# interpreter, nothing that runs other programs), no redirections to files, no changes to
# the exported environment, no network, the working directory readable but not
# writable, no capabilities. It is also what an assigned profile falls back to when it
# cannot be loaded, so it must stay the strictest shipped profile.
#
# Usage:
#   lash -p restricted            (inspect an untrusted checkout)
#   [users] guest = restricted    in /etc/lash/lash.conf

[profile]
description = Minimal: a few read-only tools, no redirects, no env changes, no network

[process]
spawn_any = false
spawn_allowlist = ls, cat, head, tail, wc, grep, sort, uniq, cut, tr, diff, cmp,
    stat, file, du, df, date, basename, dirname, realpath, id, whoami, uname, true, false

[filesystem]
read_only = .
include_workdir = false
tmpdir = none
system_paths = true

[network]
block_all_others = true

[environment]
deny = LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT
mutation = false

[capabilities]
file_redirect = false
plugin_access = false
config_modify = false
session_manage = false
job_control_own = false
job_control_others = false
audit_access = false
profile_manage = false
profile_switch = false

[monitoring]
enabled = true
