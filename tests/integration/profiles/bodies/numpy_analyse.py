# A numpy analysis for the data-science profile test (data_science.lash): reads
# ~/data/m.txt, writes ~/out/result.txt, then tries what the profile should refuse.
import os
import socket
import sys

import numpy as np

home = os.environ["HOME"]
m = np.loadtxt(os.path.join(home, "data", "m.txt"))
with open(os.path.join(home, "out", "result.txt"), "w") as f:
    f.write("sum %d\n" % m.sum())
print("mean", m.mean(), "det", round(float(np.linalg.det(m[:, :2][:2])), 3))
try:
    open(os.path.join(home, "data", "new.txt"), "w").close()
    print("data writable")
except OSError:
    print("data read-only")
if "--net" in sys.argv:
    try:
        socket.create_connection(("127.0.0.1", 9), timeout=3).close()
        print("network reached")
    except PermissionError:
        print("network refused")
    except OSError as e:
        print("network error", e.errno)
