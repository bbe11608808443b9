# default - full access.
#
# Intent: an ordinary interactive shell. Any program may run, the filesystem and the
# network are not restricted, every capability is granted. Nothing here needs a kernel
# feature, so this profile works everywhere. The base of every key is deny-by-default,
# so everything is granted explicitly below.
#
# Usage:
#   lash                      (used when no other profile is selected)
#   lash -p default -c 'make install'
#   [profile] default = default   in $LASH_HOME/config

[profile]
description = Full access: any program, no filesystem or network restriction, every capability

[process]
spawn_any = true

[filesystem]
# "/" means unrestricted writes; protect is emptied because it only makes sense inside
# narrower writable grants.
read_write = /
protect =
system_paths = true

[network]
block_all_others = false

[environment]
mutation = true

[capabilities]
file_redirect = true
plugin_access = true
config_modify = true
session_manage = true
job_control_own = true
job_control_others = true
audit_access = true
profile_manage = true
profile_switch = true

[monitoring]
# Denials are always audited; logging every allowed command of a full-access shell
# would only fill the log.
enabled = false
