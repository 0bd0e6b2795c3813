"""A stand-in for the ohm binary in the kept child's tests: it runs the real
`ohm serve` ($OHM_PROXY_REAL) behind itself and misbehaves as
$OHM_PROXY_MODE says:

* ``die-after:K``: passes K answer frames through, then kills itself with
  SIGKILL when the next one comes (a child dying mid-dataset);
* ``hang``: reads the requests and never answers (a child that takes long,
  for interrupts).

Its own pid is the one Python sees; the real server ends at the end of its
input, when this process is gone.
"""

import os
import signal
import struct
import subprocess
import sys
import threading

real = os.environ["OHM_PROXY_REAL"]
mode = os.environ["OHM_PROXY_MODE"]
p = subprocess.Popen([real, *sys.argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def pump():
    while True:
        b = os.read(0, 1 << 16)
        if not b:
            p.stdin.close()
            return
        if mode != "hang":
            p.stdin.write(b)
            p.stdin.flush()


threading.Thread(target=pump, daemon=True).start()
if mode == "hang":
    threading.Event().wait()
limit, passed = int(mode.split(":")[1]), 0
out = sys.stdout.buffer
while True:
    head = p.stdout.read(16)
    if len(head) < 16:
        sys.exit(0)
    _, hn, bn = struct.unpack("<4sIQ", head)
    body = p.stdout.read(hn + bn)
    if passed >= limit:
        os.kill(os.getpid(), signal.SIGKILL)
    out.write(head + body)
    out.flush()
    passed += 1
