"""Finding the ohm binary, running it, and the `ohm` console script.

The binary is looked for, in this order:

1. the one bundled with this package (``ohm/bin/ohm``: every platform wheel
   of ohm-rewire carries the binary built for its platform);
2. ``$OHM_BIN``;
3. ``ohm`` on the PATH (a binary, not this package's own console script);
4. when the package sits in a clone of the ohm repository (``python/ohm``),
   the repository's ``bin/ohm``, built with ``go build`` when missing or
   older than the Go sources.
"""

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path


class OhmError(RuntimeError):
    """The ohm command failed; the message is the command's own."""


_cached = None

_NOT_FOUND = (
    "ohm binary not found. This copy of the ohm-rewire package carries none (it was not "
    "installed from a platform wheel). Either install the wheel for your platform, "
    "`pip install ohm_rewire-<version>-py3-none-<platform>.whl` (built by `make wheel` in "
    "the ohm repository), or build the binary from a clone of the repository "
    "(`make build`, Go 1.26) and set OHM_BIN to its bin/ohm or put it on the PATH."
)


def bundled():
    """Path of the binary bundled with this package (``ohm/bin/ohm``), or
    None when this installation has none."""
    p = Path(__file__).resolve().parent / "bin" / ("ohm.exe" if os.name == "nt" else "ohm")
    if not p.is_file():
        return None
    if not os.access(p, os.X_OK):  # an unzip that dropped the mode bits
        try:
            p.chmod(p.stat().st_mode | 0o111)
        except OSError:
            return None
    return str(p)


def _repo_root():
    """The ohm repository holding this package, or None."""
    here = Path(__file__).resolve().parent.parent.parent
    if (here / "go.mod").is_file() and (here / "cli" / "ohm").is_dir():
        return here
    return None


def _is_console_script(path):
    """Whether path is a Python console script that runs this module (the
    `ohm` that pip installs beside the package), which must not be taken
    for the binary: it would run itself."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.startswith(b"#!") and b"ohm._binary" in head


def _on_path():
    """`ohm` on the PATH that is a binary (not a console script of this
    package), or None."""
    for d in os.environ.get("PATH", "").split(os.pathsep):
        found = shutil.which("ohm", path=d or ".")
        if found and not _is_console_script(found):
            return found
    return None


def binary():
    """Path of the ohm binary: the one bundled with this package, else
    $OHM_BIN, else `ohm` on the PATH, else (when this package sits in the ohm
    repository) bin/ohm, built with `go build` when missing or older than
    the Go sources. Raises OhmError saying how to get one when none is found."""
    global _cached
    if _cached:
        return _cached
    found = bundled()
    if found:
        _cached = found
        return found
    env = os.environ.get("OHM_BIN")
    if env:
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise OhmError(f"OHM_BIN={env} is not an executable file")
        _cached = env
        return env
    found = _on_path()
    if found:
        _cached = found
        return found
    root = _repo_root()
    if root is not None:
        out = root / "bin" / "ohm"
        if not out.exists() or _stale(root, out):
            go = shutil.which("go")
            if go is None:
                raise OhmError("the ohm binary is not built and Go is not on the PATH: "
                               "run `make build` in the repository with Go 1.26 installed, "
                               "or set OHM_BIN to an ohm binary")
            res = subprocess.run([go, "build", *_stamp(root), "-o", str(out), "./cli/ohm"], cwd=root,
                                 capture_output=True, text=True)
            if res.returncode != 0:
                raise OhmError("go build ./cli/ohm failed:\n" + res.stderr.strip())
        _cached = str(out)
        return _cached
    raise OhmError(_NOT_FOUND)


def _stamp(root):
    """go build's -ldflags stamping the clone's commit, its time and whether
    tracked files are modified, as `make build` does; none without git."""
    git = shutil.which("git")
    if git is None:
        return []
    def out(*args):
        r = subprocess.run([git, "-C", str(root), *args], capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else ""
    commit = out("rev-parse", "HEAD")
    if not commit:
        return []
    modified = "true" if out("status", "--porcelain", "--untracked-files=no") else ""
    x = "-X github.com/ohmgnn/ohm."
    return [f"-ldflags={x}commit={commit} {x}commitTime={out('show', '-s', '--format=%cI', 'HEAD')} {x}modified={modified}"]


def _stale(root, out):
    t = out.stat().st_mtime
    for p in root.rglob("*.go"):
        if "python" in p.parts:
            continue
        if p.stat().st_mtime > t:
            return True
    return (root / "go.mod").stat().st_mtime > t


# A usage error of the binary names a flag first: "--budget 2: must lie in
# (0, 1] ...", "--directed: gtr rewires undirected graphs only ...".
_FLAG_ERROR = re.compile(r"^(--[a-z0-9][a-z0-9-]*)(?: ([^:\n]*))?: (.*)$", re.S)

_UNSET = object()


def python_error(msg, names):
    """msg with its leading flag replaced by the Python argument that set
    it: names maps a flag ("--budget") to (argument, value) — the value the
    caller gave, shown with repr, or _UNSET to keep the command's own text.
    A message naming no flag of names is returned as it is."""
    m = _FLAG_ERROR.match(msg)
    if not m or m.group(1) not in names:
        return msg
    arg, value = names[m.group(1)]
    if value is _UNSET:
        head = arg if m.group(2) is None else f"{arg} {m.group(2)}"
    else:
        head = f"{arg}={value!r}"
    return f"{head}: {m.group(3)}"


def _die_with_parent():
    """In the child, before exec: ask the kernel to kill it (SIGKILL) when
    the thread that started it dies (Linux's PR_SET_PDEATHSIG), so that a
    script killed while ohm runs does not leave ohm running."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except Exception:
        pass


# The temporary folders and children of the calls in progress, removed and
# killed when SIGTERM ends the process (_on_sigterm).
_live = {"dirs": set(), "children": set()}
_live_lock = threading.Lock()


def _on_sigterm(signum, frame):
    """SIGTERM while ohm runs: kill the child, remove the temporary folders,
    then die of SIGTERM as the default action would."""
    with _live_lock:
        for p in list(_live["children"]):
            try:
                p.kill()
            except OSError:
                pass
        for d in list(_live["dirs"]):
            shutil.rmtree(d, ignore_errors=True)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


@contextlib.contextmanager
def _guard():
    """While the block runs, SIGTERM cleans up (_on_sigterm) — when it has
    its default action and this is the main thread (a handler of the
    program's own is left alone)."""
    install = (threading.current_thread() is threading.main_thread()
               and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)
    if install:
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        if install and signal.getsignal(signal.SIGTERM) is _on_sigterm:
            with _live_lock:
                last = not _live["dirs"] and not _live["children"]
            if last:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def tempdir():
    """A temporary folder (prefix ohm-) removed when the block ends, and
    also when SIGTERM ends the process meanwhile."""
    with _guard(), tempfile.TemporaryDirectory(prefix="ohm-") as d:
        with _live_lock:
            _live["dirs"].add(d)
        try:
            yield d
        finally:
            with _live_lock:
                _live["dirs"].discard(d)


def run(args, names=None):
    """Run ohm with args; return its standard output. Exit status 2 (a usage
    error: a bad budget, method, flag) raises ValueError, any other failure
    OhmError, each with the command's message; a usage error naming a flag
    of names (see python_error) names the Python argument instead. The
    child dies with this process (PR_SET_PDEATHSIG on Linux; SIGTERM kills
    it and removes the temporary folders of tempdir)."""
    pre = _die_with_parent if sys.platform.startswith("linux") else None
    with _guard():
        p = subprocess.Popen([binary(), "--quiet", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, preexec_fn=pre)
        with _live_lock:
            _live["children"].add(p)
        try:
            stdout, stderr = p.communicate()
        except BaseException:
            p.kill()
            p.wait()
            raise
        finally:
            with _live_lock:
                _live["children"].discard(p)
    res = subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr)
    if res.returncode == 0:
        return res.stdout
    msg = res.stderr.strip() or res.stdout.strip() or f"ohm exited with status {res.returncode}"
    if msg.startswith("ohm: "):
        msg = msg[len("ohm: "):]
    if res.returncode == 2:
        raise ValueError(python_error(msg, names or {}))
    raise OhmError(msg)


def main(argv=None):
    """The `ohm` console script: runs the binary with the arguments given
    (replacing this process where the platform allows)."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        exe = binary()
    except OhmError as e:
        print(f"ohm: {e}", file=sys.stderr)
        return 1
    if os.name == "nt":  # no exec that keeps the console's process
        return subprocess.call([exe, *args])
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(exe, ["ohm", *args])


if __name__ == "__main__":
    sys.exit(main())
