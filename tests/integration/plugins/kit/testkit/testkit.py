#!/usr/bin/python3 -I
import json, os, sys, time

def reply(rid, result=None, error=None):
    msg = {"jsonrpc": "2.0", "id": rid}
    if error is not None:
        msg["error"] = error
    else:
        msg["result"] = result
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()

for line in sys.stdin:
    req = json.loads(line)
    rid, m, p = req["id"], req["method"], req.get("params", {})
    if m == "echo":
        reply(rid, p)
    elif m == "text":
        reply(rid, p.get("s", ""))
    elif m == "hang":
        time.sleep(3600)
    elif m == "crash":
        os._exit(3)
    elif m == "flood":
        sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":"%s"}\n' % (rid, "x" * (2 << 20)))
        sys.stdout.flush()
    elif m == "badjson":
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
    elif m == "wrongid":
        reply(rid + 7, "late")
    elif m == "read":
        try:
            with open(p["path"]) as f:
                reply(rid, f.readline().strip())
        except OSError as e:
            reply(rid, error={"code": 13, "message": "%s: %s" % (p["path"], e.strerror)})
    elif m == "fail":
        reply(rid, error={"code": 42, "message": "asked to fail"})
    elif m == "notify":
        # 100000 notifications (no id) before the reply: out of order.
        sys.stdout.write('{"jsonrpc":"2.0","method":"progress"}\n' * 100000)
        reply(rid, "after")
    elif m == "blanks":
        # 8 MiB of blank lines, then the reply: tolerated, each line is short.
        sys.stdout.write("\n" * (8 << 20))
        reply(rid, "after blanks")
    elif m == "nonl":
        # A reply never ended by a newline, growing past 1 MiB.
        sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":"' % rid + "y" * (3 << 20))
        sys.stdout.flush()
        time.sleep(3600)
    elif m == "deep":
        # Nested 100000 deep: valid JSON no parser should recurse through.
        sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":%s%s}\n' % (rid, "[" * 100000, "]" * 100000))
        sys.stdout.flush()
    elif m == "pid":
        reply(rid, os.getpid())
