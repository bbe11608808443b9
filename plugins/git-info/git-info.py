#!/usr/bin/python3 -IS
"""git-info: an example lash plugin (see README.md in this directory).

A plugin reads JSON-RPC 2.0 requests from stdin, one per line, and writes exactly one
reply line per request to stdout, with the request's id. It runs under the session's
sandbox narrowed to the [access] of plugin.ini.
"""
import json
import os
import subprocess
import sys
from urllib.parse import urlparse


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def git(path, *args):
    proc = subprocess.run(["git", "--no-optional-locks", "-C", path, *args],
                          capture_output=True, text=True, timeout=8)
    if proc.returncode != 0:
        raise RpcError(1, proc.stderr.strip() or "git " + args[0] + " failed")
    return proc.stdout


def status(params):
    path = params.get("path") or os.getcwd()
    root = git(path, "rev-parse", "--show-toplevel").strip()
    branch = git(path, "branch", "--show-current").strip()
    commit = git(path, "rev-parse", "--short", "HEAD").strip() if git(path, "rev-list", "-n1", "--all").strip() else ""
    changed = [line[3:] for line in git(path, "status", "--porcelain").splitlines()]
    try:
        upstream = git(path, "rev-parse", "--abbrev-ref", "@{upstream}").strip()
    except RpcError:
        upstream = ""
    return {"root": root, "branch": branch, "commit": commit,
            "dirty": bool(changed), "changed": changed, "upstream": upstream}


def remote(params):
    path = params.get("path") or os.getcwd()
    name = params.get("name") or "origin"
    url = git(path, "remote", "get-url", name).strip()
    if "://" in url:
        host = urlparse(url).hostname or ""
    else:  # scp-like: user@host:path
        host = url.split(":", 1)[0].split("@")[-1] if ":" in url else ""
    return {"name": name, "url": url, "host": host}


METHODS = {"status": status, "remote": remote}


def handle(line):
    try:
        req = json.loads(line)
    except ValueError:
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}
    rid = req.get("id")
    method = METHODS.get(req.get("method"))
    if method is None:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no such method"}}
    params = req.get("params") or {}
    try:
        return {"jsonrpc": "2.0", "id": rid, "result": method(params)}
    except RpcError as e:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": e.code, "message": str(e)}}
    except (OSError, subprocess.SubprocessError) as e:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": 2, "message": str(e)}}


def main():
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(handle(line)) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
