"""Finding (or building) the ohm binary and running it."""

import os
import shutil
import subprocess
from pathlib import Path


class OhmError(RuntimeError):
    """The ohm command failed; the message is the command's own."""


_cached = None


def _repo_root():
    """The ohm repository holding this package, or None."""
    here = Path(__file__).resolve().parent.parent.parent
    if (here / "go.mod").is_file() and (here / "cli" / "ohm").is_dir():
        return here
    return None


def binary():
    """Path of the ohm binary: $OHM_BIN, else `ohm` on the PATH, else (when
    this package sits in the ohm repository) bin/ohm, built with `go build`
    when missing or older than the Go sources."""
    global _cached
    if _cached:
        return _cached
    env = os.environ.get("OHM_BIN")
    if env:
        if not os.access(env, os.X_OK):
            raise OhmError(f"OHM_BIN={env} is not an executable file")
        _cached = env
        return env
    found = shutil.which("ohm")
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
                               "set OHM_BIN, or install Go and retry")
            res = subprocess.run([go, "build", "-o", str(out), "./cli/ohm"], cwd=root,
                                 capture_output=True, text=True)
            if res.returncode != 0:
                raise OhmError("go build ./cli/ohm failed:\n" + res.stderr.strip())
        _cached = str(out)
        return _cached
    raise OhmError("ohm binary not found: set OHM_BIN or put ohm on the PATH "
                   "(go install github.com/ohmgnn/ohm/cli/ohm@latest)")


def _stale(root, out):
    t = out.stat().st_mtime
    for p in root.rglob("*.go"):
        if "python" in p.parts:
            continue
        if p.stat().st_mtime > t:
            return True
    return (root / "go.mod").stat().st_mtime > t


def run(args):
    """Run ohm with args; return its standard output. Exit status 2 (a usage
    error: a bad budget, method, flag) raises ValueError, any other failure
    OhmError, each with the command's message."""
    res = subprocess.run([binary(), "--quiet", *args], capture_output=True, text=True)
    if res.returncode == 0:
        return res.stdout
    msg = res.stderr.strip() or res.stdout.strip() or f"ohm exited with status {res.returncode}"
    if msg.startswith("ohm: "):
        msg = msg[len("ohm: "):]
    if res.returncode == 2:
        raise ValueError(msg)
    raise OhmError(msg)
