#!/usr/bin/env python3
"""Prints the peak RSS in KiB of a command: the median of N runs.

    maxrss.py N CMD [ARGS...]
The child is started by GNU time (/usr/bin/time -f %M), not by Python: a
process forked from Python keeps Python's own high-water mark across exec,
so measuring it directly would report ~14 MB for any command.
"""
import os
import statistics
import subprocess
import sys
import tempfile

TIME = "/usr/bin/time"

n = int(sys.argv[1])
cmd = sys.argv[2:]
if not os.access(TIME, os.X_OK):
    sys.exit("maxrss.py: %s missing (Debian package 'time')" % TIME)
values = []
with tempfile.NamedTemporaryFile("r") as out:
    for _ in range(n):
        r = subprocess.run([TIME, "-f", "%M", "-o", out.name] + cmd,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        if r.returncode != 0:
            sys.exit("maxrss.py: %s exited with status %d" % (" ".join(cmd), r.returncode))
        out.seek(0)
        values.append(int(out.read().split()[-1]))
print(int(statistics.median(values)))
