#!/usr/bin/python3 -IS
"""audit: a lash plugin that queries and verifies $LASH_HOME/audit.log.

One JSON-RPC 2.0 request per line on stdin, one reply per line on stdout.
"""
import json
import os
import re
import sys

REQUIRED = ("time", "session", "user", "profile", "kind", "decision")
FILTERS = ("kind", "decision", "session", "profile", "target")
TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
MAX_LOG = 256 << 20  # what this plugin reads at most


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def log_path():
    home = os.environ.get("LASH_HOME") or os.path.join(os.environ.get("HOME", "/"), ".lash")
    return os.path.join(home, "audit.log")


def read_lines():
    try:
        with open(log_path(), "rb") as f:
            data = f.read(MAX_LOG + 1)
    except FileNotFoundError:
        return [], True
    except OSError as e:
        raise RpcError(2, "%s: %s" % (log_path(), e.strerror))
    if len(data) > MAX_LOG:
        raise RpcError(3, "audit log over 256 MiB")
    ends_with_newline = data.endswith(b"\n") or not data
    return data.decode("utf-8", "replace").split("\n")[:-1 if ends_with_newline else None], ends_with_newline


def parse_since(value):
    """RFC 3339 time (or its prefix, e.g. 2026-11-27) or an age: 30s, 10m, 2h, 7d."""
    if value in (None, ""):
        return None
    m = re.fullmatch(r"(\d+)([smhd])", str(value))
    if m:
        import datetime  # here only: start-up time is every session's first call
        secs = int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
        t = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=secs)
        return t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    if re.fullmatch(r"\d{4}-\d\d-\d\d(T[0-9:.]*Z?)?", str(value)):
        return str(value)
    raise RpcError(-32602, "since/until: expected a time (2026-11-27T10:00:00Z) or an age (10m, 2h, 7d)")


def records(params):
    since = parse_since(params.get("since"))
    until = parse_since(params.get("until"))
    lines, _ = read_lines()
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if not isinstance(rec, dict):
            continue
        t = str(rec.get("time", ""))
        if since and t < since:
            continue
        if until and t >= until:
            continue
        if any(params.get(k) not in (None, "") and str(rec.get(k)) != str(params[k]) for k in FILTERS):
            continue
        yield rec


def query(params):
    out = list(records(params))
    limit = params.get("limit")
    if limit not in (None, ""):
        try:
            limit = int(limit)
        except (TypeError, ValueError):
            raise RpcError(-32602, "limit: expected a number")
        out = out[-limit:] if limit > 0 else []
    return out


def counts(params):
    by = params.get("by") or "decision"
    result = {}
    for rec in records(params):
        key = str(rec.get(by, ""))
        result[key] = result.get(key, 0) + 1
    return result


def verify(params):
    lines, ends_with_newline = read_lines()
    problems = []
    last = {}
    for n, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except ValueError:
            problems.append({"line": n, "problem": "not JSON (truncated or damaged)"})
            continue
        if not isinstance(rec, dict):
            problems.append({"line": n, "problem": "not a record"})
            continue
        missing = [k for k in REQUIRED if not isinstance(rec.get(k), str)]
        if missing:
            problems.append({"line": n, "problem": "missing " + ", ".join(missing)})
            continue
        if not TIME_RE.match(rec["time"]):
            problems.append({"line": n, "problem": "time is not RFC 3339 UTC"})
            continue
        prev = last.get(rec["session"])
        if prev and rec["time"] < prev[1]:
            problems.append({"line": n, "problem": "time goes back from line %d in session %s" % (prev[0], rec["session"])})
        last[rec["session"]] = (n, rec["time"])
    if not ends_with_newline:
        problems.append({"line": len(lines), "problem": "last record is incomplete (no newline)"})
    return {"ok": not problems, "records": len(lines), "sessions": len(last), "problems": problems}


def switches(params):
    """The session profile changes (`profile switch` / `profile reload`), oldest first."""
    out = []
    for rec in records(dict(params, kind="profile")):
        if rec.get("decision") not in ("switch", "reload", "fallback"):
            continue
        out.append({"time": rec.get("time"), "session": rec.get("session"), "user": rec.get("user"),
                    "from": rec.get("from", ""), "to": rec.get("target", ""), "how": rec.get("decision")})
    return out


METHODS = {"query": query, "counts": counts, "verify": verify, "switches": switches}


def handle(line):
    try:
        req = json.loads(line)
    except ValueError:
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}
    rid = req.get("id") if isinstance(req, dict) else None
    method = METHODS.get(req.get("method")) if isinstance(req, dict) else None
    if method is None:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no such method"}}
    params = req.get("params") or {}
    if not isinstance(params, dict):
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "params must be an object"}}
    try:
        return {"jsonrpc": "2.0", "id": rid, "result": method(params)}
    except RpcError as e:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": e.code, "message": str(e)}}


def main():
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(handle(line)) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
