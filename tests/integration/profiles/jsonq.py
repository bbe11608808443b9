#!/usr/bin/env python3
"""Prints parts of JSON for CHECK lines: jsonq.py [--lines] EXPR...

Reads one JSON document from stdin (with --lines: one JSON object per line, as in
audit.log, bound to `j` as a list). Each EXPR is a Python expression over `j`; a list
result prints one item per line, anything else prints as one line. A document that does
not parse prints `invalid JSON: ...` and exits 1.
"""
import json
import re
import sys

args = sys.argv[1:]
lines = bool(args) and args[0] == "--lines"
if lines:
    args = args[1:]
text = sys.stdin.read()
try:
    j = [json.loads(l) for l in text.splitlines() if l.strip()] if lines else json.loads(text)
except ValueError as e:
    print("invalid JSON: %s" % e)
    sys.exit(1)
for expr in args:
    v = eval(expr, {"j": j, "sorted": sorted, "len": len, "re": re, "all": all, "any": any})
    for item in (v if isinstance(v, list) else [v]):
        print(item)
