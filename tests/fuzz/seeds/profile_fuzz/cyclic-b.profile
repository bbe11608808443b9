[profile]
description = second half of a cycle

[inherit]
from = cyclic-a
