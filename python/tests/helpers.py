"""Shared helpers of the Python tests: the package under test, the binary,
the datasets, graphs, and skips that fail under CI=true."""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np

PYTHON_DIR = Path(__file__).resolve().parent.parent  # python/ of the repository
REPO = PYTHON_DIR.parent

# The tests run on the package in python/ unless run.py --installed asked
# for the installed one (make test-python: the wheel in a fresh venv).
INSTALLED = os.environ.get("OHM_TEST_INSTALLED") == "1"
if not INSTALLED and str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))
import ohm  # noqa: E402

CI = os.environ.get("CI") == "true"


def cli(*args):
    """Run the ohm binary directly; return its standard output."""
    return subprocess.run([ohm.binary(), "--quiet", *args], check=True, capture_output=True, text=True).stdout


def skip_or_fail(case, msg, ci_installs=None):
    """Skip the test with msg, or fail it under CI=true when CI is meant to
    provide what is missing (ci_installs says what .ci/run installs)."""
    if CI and ci_installs:
        case.fail(f"{msg} (CI=true: .ci/run installs {ci_installs})")
    raise unittest.SkipTest(msg)


def need_torch(case):
    """torch, else skip (fail under CI=true, where .ci/run installs python3-torch)."""
    try:
        import torch
    except ImportError:
        skip_or_fail(case, "torch is not importable: apt-get install python3-torch to include this test",
                     "python3-torch")
    return torch


def data_dir(case, needed):
    """The data root of $OHM_DATA holding needed, else skip (fail under CI=true)."""
    root = os.environ.get("OHM_DATA")
    if root and (Path(root) / needed).exists():
        return root
    msg = f"dataset file {needed} not found: set OHM_DATA to the data root to include this test"
    if CI:
        case.fail(msg + " (CI=true: missing data is a failure)")
    raise unittest.SkipTest(msg)


def sample_graph():
    """An undirected graph as PyG holds it: both arcs of every edge, two
    self-loops, a 5-cycle with a pendant path, a triangle, an isolated edge
    and two isolated nodes (ids 13 and 14)."""
    edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (4, 5), (5, 6), (6, 7),
             (8, 9), (9, 10), (10, 8), (11, 12)]
    arcs = [(u, v) for u, v in edges] + [(v, u) for u, v in edges] + [(2, 2), (9, 9)]
    return np.array(arcs, dtype=np.int64).T, 15


def tmpdir(case):
    d = tempfile.TemporaryDirectory(prefix="ohm-test-")
    case.addCleanup(d.cleanup)
    return d.name
