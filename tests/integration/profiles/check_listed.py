#!/usr/bin/env python3
"""Fails when a .lash file of this folder is not listed in its meson.build."""
import os
import re
import sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "meson.build")) as f:
    listed = set(re.findall(r"'([A-Za-z0-9_.-]+)'", f.read()))
missing = [n for n in sorted(os.listdir(here)) if n.endswith(".lash") and n[:-5] not in listed]
if missing:
    print("not registered in %s/meson.build: %s" % (here, " ".join(missing)))
    sys.exit(1)
print("all .lash files are registered")
