"""Timings of the Python paths of docs/benchmarks.md ("Many graphs from
Python"): the kept child's per-call overhead and a whole TU dataset through
rewire_many, rewire_dataset and the per-graph transform.

    python3 python/tools/bench_serve.py call    [--calls 2000] [--process]
    python3 python/tools/bench_serve.py many      DATA_ROOT PROTEINS [--budget 0.1] [--method err]
    python3 python/tools/bench_serve.py dataset   DATA_ROOT PROTEINS ...
    python3 python/tools/bench_serve.py transform DATA_ROOT PROTEINS ...
    python3 python/tools/bench_serve.py load      DATA_ROOT PROTEINS     (reading only: the floor)

Each prints one line with its own timing of the part it measures (the
child already started, the data already read); time the whole process from
outside for the rest. `call --process` times the old way instead: one
`ohm rewire` process and temporary files per call. Runs on the package in
python/ (the repository's bin/ohm, built when stale) unless `ohm` is
installed.
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here))
sys.path.insert(0, str(here.parent))

import numpy as np  # noqa: E402

import ohm  # noqa: E402
from tu import read_tu  # noqa: E402


class Data:
    """A stand-in for PyG's Data (what the transforms read and write)."""

    def __init__(self, g):
        self.edge_index, self.num_nodes, self.x, self.y = g["edge_index"], g["num_nodes"], g["x"], g["y"]
        if g["edge_attr"] is not None:
            self.edge_attr = g["edge_attr"]


def ring(n):
    u = np.arange(n)
    v = (u + 1) % n
    return np.stack([np.concatenate([u, v]), np.concatenate([v, u])]).astype(np.int64)


def process_call(ei, n, budget):
    """The way ohm.rewire ran before the kept child: a temporary .npz, one
    `ohm rewire` process, its outputs read back."""
    import json

    from ohm._binary import run

    with tempfile.TemporaryDirectory(prefix="ohm-") as tmp:
        gin, gout, glog = (os.path.join(tmp, f) for f in ("in.npz", "out.npz", "log.jsonl"))
        np.savez(gin, edge_index=ei, num_nodes=np.int64(n))
        summary = json.loads(run(["rewire", "--graph", gin, "--method", "err", "--budget", repr(budget),
                                  "--out", gout, "--log", glog, "--json"]))
        with np.load(gout) as z:
            out = z["edge_index"]
        with open(glog) as f:
            [json.loads(line) for line in f]
    return out, summary


def main():
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=["call", "many", "dataset", "transform", "load"])
    p.add_argument("root", nargs="?")
    p.add_argument("name", nargs="?")
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--process", action="store_true")
    p.add_argument("--budget", type=float, default=0.1)
    p.add_argument("--method", default="err")
    p.add_argument("--threads", type=int, default=None)
    a = p.parse_args()

    if a.what == "call":
        ei, n = ring(20), 20
        budget = 0.1  # floor(0.1·20) = 2 iterations
        if a.process:
            process_call(ei, n, budget)
            t0 = time.perf_counter()
            for _ in range(a.calls):
                process_call(ei, n, budget)
        else:
            ohm.rewire(ei, n, method=a.method, budget=budget)  # starts the child
            t0 = time.perf_counter()
            for _ in range(a.calls):
                ohm.rewire(ei, n, method=a.method, budget=budget)
        dt = time.perf_counter() - t0
        how = "one process per call" if a.process else "kept child"
        print(f"call ({how}): {a.calls} calls on a 20-node ring, {a.method} r={budget}: "
              f"{dt:.3f} s, {1e3 * dt / max(a.calls, 1):.3f} ms per call")
        return

    t0 = time.perf_counter()
    graphs = read_tu(a.root, a.name)
    t_load = time.perf_counter() - t0
    if a.what == "load":
        print(f"load: {a.name}: {len(graphs)} graphs read in {t_load:.3f} s")
        return
    ohm.serve_pid()  # the child started: not part of the figure
    t0 = time.perf_counter()
    if a.what == "many":
        res = ohm.rewire_many([(g["edge_index"], g["num_nodes"], g["edge_attr"]) for g in graphs], method=a.method,
                              budget=a.budget, threads=a.threads)
        added = sum(int(r.summary["added"]) for r in res)
    elif a.what == "dataset":
        res = ohm.pyg.rewire_dataset([Data(g) for g in graphs], ohm.pyg.Rewire(method=a.method, budget=a.budget),
                                     threads=a.threads)
        added = sum(int((d.edge_type == 1).sum()) // 2 for d in res)
    else:
        t = ohm.pyg.Rewire(method=a.method, budget=a.budget)
        res = [t(Data(g)) for g in graphs]
        added = sum(int((d.edge_type == 1).sum()) // 2 for d in res)
    dt = time.perf_counter() - t0
    print(f"{a.what}: {a.name}: {len(graphs)} graphs, {a.method} r={a.budget}: {dt:.3f} s "
          f"({added} additions; reading the data {t_load:.3f} s, not counted)")


if __name__ == "__main__":
    main()
