"""The kept child: one `ohm serve` process reused by every call.

The child answers requests framed on its standard input (the protocol is in
the repository's docs/python.md): a frame is the magic ``OHM1``, the length
of a JSON header (uint32, little-endian), the length of a blob (uint64),
the header and the blob. It is started on first use and:

* reused by every later call of this process (a lock makes the calls of
  several threads take turns);
* started anew when it has died (the call that finds it dead raises, the
  next one starts a new child);
* not shared with a forked process: a fork's child lets go of its parent's
  pipes (they are pointed at /dev/null in the child) and starts its own
  child on first use;
* closed at interpreter exit (its standard input closed: it exits at the
  end of its input), and killed with this process: it runs in its own
  session (a Ctrl-C in the terminal reaches Python only) with
  PR_SET_PDEATHSIG set to SIGKILL on Linux when started by the main thread
  (a signal tied to the thread that starts it), and it exits at the end of
  its input, which comes when every holder of the pipe is gone;
* killed when a call is interrupted (KeyboardInterrupt or any exception
  while a request is in flight): the exception propagates, and the next
  call starts a new child.
"""

import atexit
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import threading

import numpy as np

from ._binary import OhmError, binary

MAGIC = b"OHM1"
_HEAD = struct.Struct("<4sIQ")


class ChildDied(OhmError):
    """The kept `ohm serve` child ended while a request was in flight.

    Attributes:
        graph: the index of the graph in flight (the first of the request
            not answered), or None.
        returncode: the child's exit status (negative: killed by that signal).
    """

    def __init__(self, msg, graph=None, returncode=None):
        super().__init__(msg)
        self.graph, self.returncode = graph, returncode


def _pdeathsig():
    """A function for preexec_fn that sets PR_SET_PDEATHSIG to SIGKILL
    (Linux), resolved now so that the forked child only calls it; None
    elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.restype = ctypes.c_int
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    PR_SET_PDEATHSIG, SIGKILL = 1, int(signal.SIGKILL)

    def set_it():
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)

    return set_it


class Child:
    """One running `ohm serve`."""

    def __init__(self):
        self.stderr = tempfile.TemporaryFile(prefix="ohm-serve-")
        pre = _pdeathsig() if threading.current_thread() is threading.main_thread() else None
        self.proc = subprocess.Popen([binary(), "--quiet", "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, start_new_session=True,
                                     preexec_fn=pre, close_fds=True)
        self.owner = os.getpid()
        self.pid = self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def send(self, header, blob=()):
        h = json.dumps(header, separators=(",", ":")).encode()
        size = sum(len(b) for b in blob)
        w = self.proc.stdin
        w.write(_HEAD.pack(MAGIC, len(h), size) + h)
        for b in blob:
            w.write(b)
        w.flush()

    def receive(self):
        """The next frame: (header dict, blob bytes); EOFError when the
        child's output ends."""
        r = self.proc.stdout
        head = r.read(_HEAD.size)
        if len(head) < _HEAD.size:
            raise EOFError
        magic, hn, bn = _HEAD.unpack(head)
        if magic != MAGIC:
            raise OhmError(f"ohm serve answered a frame with a bad magic {magic!r}")
        h = r.read(hn)
        b = r.read(bn) if bn else b""
        if len(h) < hn or len(b) < bn:
            raise EOFError
        try:
            return json.loads(h), b
        except ValueError as e:
            raise OhmError(f"ohm serve answered a header that is not JSON: {e}") from None

    def stderr_tail(self, limit=2000):
        try:
            self.stderr.seek(0)
            text = self.stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""
        return text[-limit:]

    def kill(self):
        """Stop the child now and reap it."""
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait()
        except BaseException:  # noqa: B036 - an interrupt while reaping: the child is killed anyway
            pass
        self._close_pipes()

    def close(self, timeout=2.0):
        """End the child: close its input (it exits at the end of it), wait,
        kill it if it lingers."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._close_pipes()

    def _close_pipes(self):
        for f in (self.proc.stdin, self.proc.stdout, self.stderr):
            try:
                f.close()
            except (OSError, ValueError):
                pass

    def forget_after_fork(self):
        """In a forked child: let go of the parent's pipes without writing
        to them or signalling the parent's child (their descriptors now
        point at /dev/null, so no finalizer can touch the parent's
        stream)."""
        null = os.open(os.devnull, os.O_RDWR)
        try:
            for f in (self.proc.stdin, self.proc.stdout):
                try:
                    os.dup2(null, f.fileno())
                except (OSError, ValueError):
                    pass
        finally:
            os.close(null)
        self.proc.returncode = 0  # not ours: never waited for or killed from here


_lock = threading.Lock()
_child = None
_orphans = []  # children forgotten after a fork, kept so that no finalizer runs


def child():
    """The kept child of this process, started if there is none or it has
    died. Call with _lock held."""
    global _child
    c = _child
    if c is not None and (c.owner != os.getpid() or not c.alive()):
        if c.owner == os.getpid():
            c.kill()
        _child = c = None
    if c is None:
        c = _child = Child()
    return c


def pid():
    """The process id of the kept child (started if needed)."""
    with _lock:
        return child().pid


def request(header, blob=(), answers=1):
    """Send one request to the kept child and return its answers: a list
    of (header, blob) for the graphs, in order. An error frame raises
    ValueError (a bad argument) or OhmError, carrying .graph (the graph's
    index, or None) and the frames answered before it as .answered. A
    child that dies raises ChildDied naming the graph in flight (and is
    started anew by the next call); KeyboardInterrupt or any other
    exception while the request is in flight kills the child and
    propagates."""
    with _lock:
        c = child()
        out, err = [], None
        try:
            c.send(header, blob)
            while len(out) < answers:
                h, b = c.receive()
                if h.get("kind") == "error":
                    err = _error(h, out)
                    break
                out.append((h, b))
        except (EOFError, OSError):
            _drop(c)
            raise _died(c, len(out), answers) from None
        except BaseException:
            _drop(c)
            raise
    if err is not None:
        raise err
    return out


def _drop(c):
    global _child
    c.kill()
    if _child is c:
        _child = None


def _error(h, answered):
    cls = ValueError if h.get("usage") else OhmError
    e = cls(h.get("error", "ohm serve failed"))
    g = h.get("graph", -1)
    e.graph = None if g is None or g < 0 else g
    e.answered = answered
    return e


def _died(c, done, total):
    rc = c.proc.returncode
    how = f"was killed by signal {-rc}" if rc is not None and rc < 0 else f"exited with status {rc}"
    if total > 1:
        where = f" while rewiring graph {done} of {total} (" + (f"graphs 0–{done - 1} were done)" if done else "none was done)")
    else:
        where = " while rewiring the graph"
    tail = c.stderr_tail()
    msg = f"the ohm child process (pid {c.pid}) {how}{where}; nothing was returned"
    if tail:
        msg += f": {tail}"
    return ChildDied(msg, graph=done, returncode=rc)


def close(timeout=5.0):
    """Close the kept child of this process, if any (atexit does it). A
    call in flight in another thread (a daemon thread at exit) is waited
    for up to timeout seconds, then the child is killed under it."""
    global _child
    got = _lock.acquire(timeout=timeout)
    try:
        c, _child = _child, None
    finally:
        if got:
            _lock.release()
    if c is not None and c.owner == os.getpid():
        if got:
            c.close()
        else:
            c.kill()


def _after_fork_in_child():
    global _child, _lock
    _lock = threading.Lock()  # a parent's thread may have held it at the fork
    if _child is not None:
        _child.forget_after_fork()
        _orphans.append(_child)
        _child = None


atexit.register(close)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def int64_bytes(a):
    """a as little-endian int64 bytes."""
    return np.ascontiguousarray(a, dtype="<i8").tobytes()


def float64_bytes(a):
    return np.ascontiguousarray(a, dtype="<f8").tobytes()


def int64s(blob, offset, count):
    """count little-endian int64 entries of blob from byte offset, as a
    native int64 array (a copy)."""
    return np.frombuffer(blob, dtype="<i8", count=count, offset=offset).astype(np.int64)
