"""Refused network actions one after another (denial_limit_relay.lash).

    refusal_probe.py N

Each attempt prints "attempt K" first, then makes one HTTP connection to an IP
literal of TEST-NET-2 (198.51.100.K, port 80, never in an allow_hosts): the session
relay refuses it, one refused action each. A short pause between attempts is the pace
of a probing program; it gives lash time to end the session at its limit.
"""

import socket
import sys
import time

n = int(sys.argv[1])
for k in range(1, n + 1):
    print("attempt", k, flush=True)
    try:
        s = socket.create_connection(("198.51.100.%d" % k, 80), timeout=3)
        s.sendall(b"GET / HTTP/1.0\r\nHost: 198.51.100.%d\r\n\r\n" % k)
        s.recv(100)
        s.close()
    except OSError:
        pass
    time.sleep(0.3)
print("all attempts made", flush=True)
