[process]
spawn_any = perhaps
spawn_allowlist = ls, ../bin/evil

[network]
allow_hosts = example.com, not a host
allow_ports = 70000

[resources]
max_memory = lots
