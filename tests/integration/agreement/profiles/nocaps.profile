# default without the admin capabilities, monitoring on.
[inherit]
from = default
[capabilities]
profile_switch = false
audit_access = false
[monitoring]
enabled = true
