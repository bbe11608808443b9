# A valid profile using every section.
[profile]
description = Test profile: everything valid

[inherit]
from = default

[process]
spawn_any = false
spawn_allowlist = ls, cat, /usr/bin/env,
    grep
spawn_denylist = curl

[filesystem]
sandbox = ./sandbox
read_only = /usr, ~/docs
read_write = /tmp/work
include_workdir = yes
tmpdir = session
protect = .git/hooks
system_paths = on
enforcement = warn

[network]
allow_hosts = example.com, *.example.org, 192.0.2.0/24
allow_ports = 443, 8000-8010
block_all_others = true
enforcement = enforce

[resources]
max_memory = 512M
max_cpu_seconds = 60
max_file_size = 1G
max_processes = 32
max_open_files = 256

[environment]
deny = LD_PRELOAD, AWS_*
force = CI=true
pass = PATH, HOME, LC_*
mutation = true
safelist = CFLAGS

[capabilities]
file_redirect = true
plugin_access = true
plugin_allowlist = git
job_control_own = 1

[monitoring]
enabled = true
