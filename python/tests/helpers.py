"""Shared helpers of the Python tests: the binary, the datasets, graphs."""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ohm  # noqa: E402


def cli(*args):
    """Run the ohm binary directly; return its standard output."""
    return subprocess.run([ohm.binary(), "--quiet", *args], check=True, capture_output=True, text=True).stdout


def data_dir(case, needed):
    """The data root of $OHM_DATA holding needed, else skip (fail under CI=true)."""
    root = os.environ.get("OHM_DATA")
    if root and (Path(root) / needed).exists():
        return root
    msg = f"dataset file {needed} not found: set OHM_DATA to the data root to include this test"
    if os.environ.get("CI") == "true":
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
