# script - non-interactive scripts with full program and file access.
#
# Intent: run shell scripts (cron jobs, build scripts, git hooks) with the same program,
# file and network access as `default`, but without anything a script has no business
# doing: no plugins, no job control, no administrative capabilities (configuration,
# sessions, audit log, profile management or switching).
#
# Usage:
#   lash -p script ./deploy.sh
#   #!/usr/bin/lash -p script      (first line of a script)

[inherit]
from = default

[profile]
description = Scripts: like default, but no plugins, no job control, no admin capabilities

[capabilities]
plugin_access = false
job_control_own = false
job_control_others = false
config_modify = false
session_manage = false
audit_access = false
profile_manage = false
profile_switch = false
