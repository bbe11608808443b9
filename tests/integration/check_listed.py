#!/usr/bin/env python3
"""Fails when a test file in posix/ or shell/ is not registered in meson.build.

meson does not glob, so a new file that nobody lists would silently never run.
    check_listed.py DIR_OF_THIS_FILE
"""
import os
import re
import sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "meson.build")) as f:
    listed = set(re.findall(r"'([A-Za-z0-9_.-]+)'", f.read()))
missing = []
for sub, ext in (("posix", ".sh"), ("shell", ".lash")):
    d = os.path.join(here, sub)
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if name.endswith(ext) and name[:-len(ext)] not in listed:
            missing.append(os.path.join(sub, name))
if missing:
    print("not registered in tests/integration/meson.build:")
    for m in missing:
        print("  " + m)
    sys.exit(1)
print("all integration test files are registered")
