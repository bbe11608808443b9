# A bit of every rule: a short allowlist, a denylist, redirects only beneath the
# workdir, env changes only for a safelist.
[process]
spawn_allowlist = ls, cat, uname
spawn_denylist = rm
[filesystem]
include_workdir = true
[environment]
mutation = true
safelist = FOO, BAR_*
[capabilities]
file_redirect = true
[monitoring]
enabled = true
