# default with monitoring on, so allowed actions reach the audit log too.
[inherit]
from = default
[monitoring]
enabled = true
