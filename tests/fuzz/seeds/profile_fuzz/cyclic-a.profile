[inherit]
from = cyclic-b
