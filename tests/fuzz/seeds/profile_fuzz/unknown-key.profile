[process]
spawn_any = false
spawn_alowlist = ls, cat
