"""rewire, resistance and curvature over numpy arrays."""

import csv
import json
import os
import tempfile
from dataclasses import dataclass, field

import numpy as np

from ._binary import run


def _edge_index(edge_index, num_nodes):
    """edge_index as a 2×E int64 array, checked against num_nodes."""
    a = np.asarray(edge_index)
    if hasattr(edge_index, "detach"):  # a torch tensor
        a = edge_index.detach().cpu().numpy()
    if a.ndim != 2 or a.shape[0] != 2:
        raise ValueError(f"edge_index must have shape (2, E), not {a.shape}")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"edge_index must hold integers, not {a.dtype}")
    a = a.astype(np.int64, copy=False)
    n = int(num_nodes)
    if n < 0:
        raise ValueError(f"num_nodes {n} is negative")
    if a.size and (a.min() < 0 or a.max() >= n):
        raise ValueError(f"edge_index has a node id outside [0, {n})")
    return a, n


def _write_graph(path, edge_index, num_nodes):
    np.savez(path, edge_index=edge_index, num_nodes=np.int64(num_nodes))


@dataclass
class RewireResult:
    """What `ohm rewire` made of a graph.

    edge_index: the rewired graph, 2×E int64 in PyG's convention (both arcs of
        every undirected edge, self-loops once, sorted by source then target).
    edge_type: one int64 per column of edge_index: 1 for an edge the rewiring
        added (not in the input), 0 for an edge of the input.
    added, removed: the log's additions and removals, 2×k int64 (u, v rows;
        undirected u < v), in log order.
    log: the edit log, one dict {iteration, op, u, v, score} per edit.
    summary: the run's summary (ohm rewire --json: counts as operations and
        as the net change of the edge set, the code version, seconds...).
    """

    edge_index: np.ndarray
    edge_type: np.ndarray
    added: np.ndarray
    removed: np.ndarray
    log: list = field(default_factory=list)
    summary: dict = field(default_factory=dict)


def rewire(edge_index, num_nodes, method="err", budget=0.1, directed=False, engine=None,
           alpha=0.5, within_components=False, max_iterations=0, seed=0, fosr_x0=None):
    """Rewire the graph (edge_index, num_nodes) as `ohm rewire` does.

    method: err, err-hop, res, res-hop, curvature, gtr or fosr; budget: r in
    (0, 1], the run makes floor(r·E0) iterations; directed: rewire the arcs
    as given (else the undirected graph of the arcs); engine: "auto"
    (default: "incremental" when L⁺ fits in memory, else "sketch"),
    "incremental", "exact" or "sketch" (undirected err and res on graphs
    beyond memory; docs/sketch.md); alpha: curvature's laziness; seed, fosr_x0: FoSR's
    start vector (a seed, or an array of num_nodes floats). A bad argument
    raises ValueError with the command's message; a failed run OhmError.
    """
    ei, n = _edge_index(edge_index, num_nodes)
    with tempfile.TemporaryDirectory(prefix="ohm-") as tmp:
        gin = os.path.join(tmp, "in.npz")
        gout = os.path.join(tmp, "out.npz")
        glog = os.path.join(tmp, "log.jsonl")
        _write_graph(gin, ei, n)
        args = ["rewire", "--graph", gin, "--method", str(method), "--budget", repr(float(budget)),
                "--out", gout, "--log", glog, "--json", "--alpha", repr(float(alpha)),
                "--seed", str(int(seed)), "--max-iterations", str(int(max_iterations))]
        if directed:
            args.append("--directed")
        if within_components:
            args.append("--within-components")
        if engine:
            args += ["--engine", str(engine)]
        if fosr_x0 is not None:
            x0 = np.asarray(fosr_x0, dtype=np.float64)
            if x0.shape != (n,):
                raise ValueError(f"fosr_x0 must have shape ({n},), not {x0.shape}")
            p = os.path.join(tmp, "x0.npy")
            np.save(p, x0)
            args += ["--fosr-x0", p]
        summary = json.loads(run(args))
        with np.load(gout) as z:
            out = z["edge_index"].astype(np.int64)
            added = z["added"].astype(np.int64).reshape(2, -1)
            removed = z["removed"].astype(np.int64).reshape(2, -1)
        with open(glog) as f:
            log = [json.loads(line) for line in f if line.strip()]
    return RewireResult(out, _edge_type(ei, out, directed), added, removed, log, summary)


def _edge_type(before, after, directed):
    """1 for the columns of after whose edge is not in before (unordered
    pairs unless directed), else 0."""
    n = int(max(before.max(initial=-1), after.max(initial=-1))) + 1
    def code(a):
        u, v = a[0], a[1]
        if not directed:
            u, v = np.minimum(u, v), np.maximum(u, v)
        return u * max(n, 1) + v
    return (~np.isin(code(after), code(before))).astype(np.int64)


def resistance(edge_index, num_nodes, pairs=None, directed=False, within_components=False):
    """Effective resistances of the graph (`ohm resistance`).

    With pairs (a k×2 or 2×k array of node ids) it returns a float array of
    their resistances (NaN where none exists: directed pairs in different
    strongly connected components). Without, it returns the command's
    summary: {"max_pair": {"u", "v", "r"}, "min_edge": ..., "components": ...}.
    """
    ei, n = _edge_index(edge_index, num_nodes)
    with tempfile.TemporaryDirectory(prefix="ohm-") as tmp:
        gin = os.path.join(tmp, "in.npz")
        _write_graph(gin, ei, n)
        args = ["resistance", "--graph", gin, "--json"]
        if directed:
            args.append("--directed")
        if within_components:
            args.append("--within-components")
        if pairs is not None:
            p = np.asarray(pairs, dtype=np.int64)
            if p.ndim != 2 or 2 not in p.shape:
                raise ValueError(f"pairs must have shape (k, 2) or (2, k), not {p.shape}")
            if p.shape[1] != 2:
                p = p.T
            pf = os.path.join(tmp, "pairs.txt")
            with open(pf, "w") as f:
                f.write(f"# num_nodes {n}\n")
                for u, v in p:
                    f.write(f"{u} {v}\n")
            args += ["--pairs", pf]
        out = json.loads(run(args))
    if pairs is None:
        return out
    return np.array([np.nan if q.get("r") is None else q["r"] for q in out["pairs"]], dtype=np.float64)


def curvature(edge_index, num_nodes, directed=False, alpha=0.5):
    """Ollivier–Ricci curvature of every edge (`ohm curvature`): arrays u, v
    (u < v, row-major) and kappa."""
    ei, n = _edge_index(edge_index, num_nodes)
    with tempfile.TemporaryDirectory(prefix="ohm-") as tmp:
        gin = os.path.join(tmp, "in.npz")
        kout = os.path.join(tmp, "kappa.csv")
        _write_graph(gin, ei, n)
        args = ["curvature", "--graph", gin, "--alpha", repr(float(alpha)), "--out", kout]
        if directed:
            args.append("--directed")
        run(args)
        with open(kout) as f:
            rows = list(csv.DictReader(f))
    u = np.array([int(r["u"]) for r in rows], dtype=np.int64)
    v = np.array([int(r["v"]) for r in rows], dtype=np.int64)
    k = np.array([float(r["kappa"]) for r in rows], dtype=np.float64)
    return u, v, k
