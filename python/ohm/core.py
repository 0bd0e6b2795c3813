"""rewire, resistance and curvature over numpy arrays or torch tensors."""

import csv
import json
import operator
import os
import sys
import tempfile
from dataclasses import dataclass, field

import numpy as np

from ._binary import _UNSET, run

#: The methods of ohm.rewire (definitions §3 of the repository's docs).
METHODS = ("err", "err-hop", "res", "res-hop", "curvature", "gtr", "fosr")
#: The methods that rewire only the undirected graph.
UNDIRECTED_ONLY = ("gtr", "fosr")
#: The engines of ohm.rewire (None means "auto").
ENGINES = ("auto", "incremental", "exact", "sketch")


def _torch_tensor(x):
    """Whether x is a torch tensor (without importing torch)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


class _Like:
    """The array type of the input, for the outputs: numpy arrays, or torch
    tensors on the input's device."""

    def __init__(self, *inputs):
        self.device = None
        for x in inputs:
            if _torch_tensor(x):
                self.device = x.device
                break

    @property
    def torch(self):
        return self.device is not None

    def __call__(self, a):
        """a (a numpy array) as the input's type: torch.from_numpy keeps the
        dtype (int64 is torch.long)."""
        if self.device is None:
            return a
        import torch

        return torch.from_numpy(np.ascontiguousarray(a)).to(self.device)


def _array(x):
    """x as a numpy array (a torch tensor is detached and moved to the CPU)."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):
        return x.detach().cpu().numpy()
    return np.asarray(x)


def _integer(name, value, low=None, high=None, what=None):
    """value as an int (anything with __index__: int, numpy or 0-d torch
    integers), else ValueError naming the argument."""
    try:
        if isinstance(value, bool):
            raise TypeError
        v = operator.index(value)
    except TypeError:
        raise ValueError(f"{name}={value!r}: must be an integer") from None
    if (low is not None and v < low) or (high is not None and v >= high):
        raise ValueError(f"{name}={value!r}: must be {what}")
    return v


def _real(name, value):
    """value as a float (int, float, numpy or 0-d torch numbers; not a bool
    or a string), else ValueError naming the argument."""
    if isinstance(value, (bool, str, bytes)):
        raise ValueError(f"{name}={value!r}: must be a number")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r}: must be a number") from None


def _edge_index(edge_index, num_nodes):
    """edge_index as a 2×E int64 array, checked against num_nodes."""
    a = _array(edge_index)
    if a.ndim != 2 or a.shape[0] != 2:
        raise ValueError(f"edge_index: must have shape (2, E), not {tuple(a.shape)}")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"edge_index: must hold integers, not {a.dtype}")
    a = a.astype(np.int64, copy=False)
    n = _integer("num_nodes", num_nodes, 0, None, "≥ 0")
    if a.size and (a.min() < 0 or a.max() >= n):
        raise ValueError(f"edge_index: holds a node id outside [0, num_nodes={n})")
    return a, n


def _write_graph(path, edge_index, num_nodes):
    np.savez(path, edge_index=edge_index, num_nodes=np.int64(num_nodes))


def _method(method):
    if not isinstance(method, str) or method.lower() not in METHODS:
        raise ValueError(f"method={method!r}: unknown (known: {', '.join(METHODS)})")
    return method.lower()


def _engine(engine):
    if engine is None:
        return None
    if not isinstance(engine, str) or engine.lower() not in ENGINES:
        raise ValueError(f"engine={engine!r}: unknown (known: {', '.join(ENGINES)}, or None for auto)")
    return engine.lower()


def _alpha(alpha):
    a = _real("alpha", alpha)
    if not (0 <= a <= 1):
        raise ValueError(f"alpha={alpha!r}: must lie in [0, 1]")
    return a


def check_rewire_args(method="err", budget=0.1, directed=False, engine=None, alpha=0.5,
                      within_components=False, max_iterations=0, seed=0):
    """Check the arguments of rewire (all but the graph and fosr_x0) as the
    command would, before it runs: ValueError naming the argument
    ("budget=2.0: must lie in (0, 1]"). Returns them normalised (method and
    engine lower case, numbers as float and int)."""
    method = _method(method)
    b = _real("budget", budget)
    if not (0 < b <= 1):
        raise ValueError(f"budget={budget!r}: must lie in (0, 1] (the fraction r of the graph's "
                         "edges E0: the run makes floor(r·E0) iterations, e.g. 0.05)")
    max_iterations = _integer("max_iterations", max_iterations, 0, None, "≥ 0 (0: no limit)")
    directed, within_components = bool(directed), bool(within_components)
    if directed and method in UNDIRECTED_ONLY:
        raise ValueError(f"directed=True: method={method!r} rewires undirected graphs only")
    if directed and within_components:
        raise ValueError("within_components=True: applies to undirected graphs only (directed "
                         "pairs are always taken inside one strongly connected component)")
    engine = _engine(engine)
    alpha = _alpha(alpha)
    seed = _integer("seed", seed, 0, 1 << 64, "in [0, 2**64)")
    return dict(method=method, budget=b, directed=directed, engine=engine, alpha=alpha,
                within_components=within_components, max_iterations=max_iterations, seed=seed)


def _describe(a):
    """'2×8 int64 ndarray' or '2×8 torch.int64 tensor (cuda:0)': an array in one phrase."""
    shape = "×".join(str(d) for d in a.shape)
    if _torch_tensor(a):
        where = "" if a.device.type == "cpu" else f" ({a.device})"
        return f"{shape} {a.dtype} tensor{where}"
    return f"{shape} {a.dtype} ndarray"


@dataclass(repr=False)
class RewireResult:
    """What ohm.rewire made of a graph.

    The arrays are numpy arrays when edge_index was given as a numpy array
    (or anything numpy can read), torch tensors on edge_index's device when it
    was a torch tensor.

    Attributes:
        edge_index: the rewired graph, 2×E int64 in PyTorch Geometric's
            convention: both arcs of every undirected edge, self-loops once,
            sorted by source then target.
        edge_type: one int64 per column of edge_index: 1 for an edge the
            rewiring added (not in the input), 0 for an edge of the input.
        added, removed: the log's additions and removals, 2×k int64 (rows u
            and v; u < v when undirected), in log order.
        log: the edit log, one dict {iteration, op, u, v, score} per edit.
        summary: the run's summary (`ohm rewire --json`): method, form, e0,
            iterations, added/removed (operations), added_net/removed_net
            (the net change of the edge set) and their percentages of e0,
            passed_over, version (the rewiring code version), stopped_early,
            engine, rounds and solves (the sketch engine's), fallbacks (the
            fast directed engine's exact solves), seconds.
    """

    edge_index: np.ndarray
    edge_type: np.ndarray
    added: np.ndarray
    removed: np.ndarray
    log: list = field(default_factory=list)
    summary: dict = field(default_factory=dict)

    def __repr__(self):
        s = self.summary
        return (f"RewireResult(method={s.get('method')!r}, form={s.get('form')!r}, "
                f"edge_index=<{_describe(self.edge_index)}>, added={s.get('added')}, "
                f"removed={s.get('removed')}, added_net={s.get('added_net')}, "
                f"removed_net={s.get('removed_net')}, iterations={s.get('iterations')}, "
                f"engine={s.get('engine')!r})")


def rewire(edge_index, num_nodes, method="err", budget=0.1, directed=False, engine=None,
           alpha=0.5, within_components=False, max_iterations=0, seed=0, fosr_x0=None):
    """Rewire a graph by effective resistance (ERR and its variants) or a baseline.

    Runs `ohm rewire` on the graph, so the result is exactly the command's
    (same engines, same edit log). Torch tensors in give torch tensors out,
    on edge_index's device; numpy arrays in give numpy arrays out.

    Args:
        edge_index: the graph's arcs, a 2×E integer array or tensor in
            PyTorch Geometric's convention (an undirected graph lists both
            arcs of an edge; duplicates are merged, self-loops kept but never
            rewired). Node ids lie in [0, num_nodes).
        num_nodes: the number of nodes (isolated nodes included).
        method: "err" (resistance, add & remove: Effective Resistance
            Rewiring), "err-hop" (resistance per hop, add & remove), "res"
            (resistance, add only), "res-hop" (resistance per hop, add only),
            "curvature" (Ollivier–Ricci curvature baseline, add & remove),
            "gtr" (greedy total resistance, Black et al. 2023, add only,
            undirected) or "fosr" (first-order spectral rewiring, Karhadkar et
            al. 2023, add only, undirected). Case does not matter.
        budget: r in (0, 1]: the run makes B = floor(r·E0) iterations, E0
            being the number of edges (undirected) or arcs (directed).
        directed: rewire the arcs as given (the directed form); by default
            the undirected graph of the arcs is rewired.
        engine: None or "auto" (the incremental engine when its n² state fits
            in memory, else the sketch), "incremental" (rank-one updates of
            L⁺), "exact" (recompute every iteration; same decisions, slower)
            or "sketch" (undirected err and res on graphs beyond memory).
        alpha: curvature only: the laziness α of the measures, in [0, 1]
            (0 is BORF's); ignored by the other methods.
        within_components: undirected only: take the pairs to add inside one
            connected component only (by default all pairs, as the paper).
        max_iterations: stop after this many iterations even if the budget
            allows more (0: no limit).
        seed: fosr only: the seed of its random start vector, an integer in
            [0, 2**64); ignored by the other methods.
        fosr_x0: fosr only: its start vector instead of a random one, num_nodes
            floats (array or tensor).

    Returns:
        RewireResult: edge_index (the rewired graph, 2×E int64, both arcs of
        every undirected edge, self-loops once, sorted), edge_type (per
        column, 1 added by the rewiring, 0 kept), added and removed (2×k
        int64, the log's edits in order), log (the edit log, a list of
        {iteration, op, u, v, score}) and summary (the command's JSON
        summary: counts as operations and as net change, version, engine,
        seconds...).

    Raises:
        ValueError: an argument the method cannot take; the message names
            the argument, e.g. "budget=2.0: must lie in (0, 1] ...".
        OhmError: the command failed otherwise (its message), or no ohm
            binary was found.
    """
    a = check_rewire_args(method, budget, directed, engine, alpha, within_components,
                          max_iterations, seed)
    like = _Like(edge_index)
    ei, n = _edge_index(edge_index, num_nodes)
    names = {"--method": ("method", method), "--budget": ("budget", budget),
             "--directed": ("directed", directed), "--engine": ("engine", engine),
             "--alpha": ("alpha", alpha), "--within-components": ("within_components", within_components),
             "--max-iterations": ("max_iterations", max_iterations), "--seed": ("seed", seed),
             "--fosr-x0": ("fosr_x0", _UNSET), "--graph": ("edge_index", _UNSET)}
    with tempfile.TemporaryDirectory(prefix="ohm-") as tmp:
        gin = os.path.join(tmp, "in.npz")
        gout = os.path.join(tmp, "out.npz")
        glog = os.path.join(tmp, "log.jsonl")
        _write_graph(gin, ei, n)
        args = ["rewire", "--graph", gin, "--method", a["method"], "--budget", repr(a["budget"]),
                "--out", gout, "--log", glog, "--json", "--alpha", repr(a["alpha"]),
                "--seed", str(a["seed"]), "--max-iterations", str(a["max_iterations"])]
        if a["directed"]:
            args.append("--directed")
        if a["within_components"]:
            args.append("--within-components")
        if a["engine"]:
            args += ["--engine", a["engine"]]
        if fosr_x0 is not None:
            x0 = _array(fosr_x0).astype(np.float64)
            if x0.shape != (n,):
                raise ValueError(f"fosr_x0: must have shape (num_nodes,) = ({n},), not {tuple(x0.shape)}")
            p = os.path.join(tmp, "x0.npy")
            np.save(p, x0)
            args += ["--fosr-x0", p]
        summary = json.loads(run(args, names))
        with np.load(gout) as z:
            out = z["edge_index"].astype(np.int64)
            added = z["added"].astype(np.int64).reshape(2, -1)
            removed = z["removed"].astype(np.int64).reshape(2, -1)
        with open(glog) as f:
            log = [json.loads(line) for line in f if line.strip()]
    etype = _edge_type(ei, out, a["directed"])
    return RewireResult(like(out), like(etype), like(added), like(removed), log, summary)


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
    """Effective resistances of a graph (`ohm resistance`).

    Args:
        edge_index: the graph's arcs, 2×E integers (array or tensor), as in
            rewire.
        num_nodes: the number of nodes.
        pairs: node pairs to measure, a k×2 (or 2×k) integer array or
            tensor; None for the graph's summary instead.
        directed: resistances of the directed form (arcs as given).
        within_components: undirected: the summary's most resistant pair
            only inside one connected component.

    Returns:
        With pairs, their resistances: k float64 (NaN where none exists:
        directed pairs in different strongly connected components), a
        tensor on edge_index's device when edge_index or pairs was a tensor.
        Without, the command's summary, a dict: {"max_pair": {"u", "v",
        "r"}, "min_edge": ..., "components": ...}.
    """
    like = _Like(edge_index, pairs)
    ei, n = _edge_index(edge_index, num_nodes)
    directed, within_components = bool(directed), bool(within_components)
    if directed and within_components:
        raise ValueError("within_components=True: applies to undirected graphs only (directed "
                         "pairs are always taken inside one strongly connected component)")
    names = {"--directed": ("directed", directed), "--within-components": ("within_components", within_components),
             "--pairs": ("pairs", _UNSET), "--graph": ("edge_index", _UNSET)}
    with tempfile.TemporaryDirectory(prefix="ohm-") as tmp:
        gin = os.path.join(tmp, "in.npz")
        _write_graph(gin, ei, n)
        args = ["resistance", "--graph", gin, "--json"]
        if directed:
            args.append("--directed")
        if within_components:
            args.append("--within-components")
        if pairs is not None:
            p = _array(pairs)
            if p.ndim != 2 or 2 not in p.shape or (p.size and not np.issubdtype(p.dtype, np.integer)):
                raise ValueError(f"pairs: must be k×2 (or 2×k) integers, not {tuple(p.shape)} {p.dtype}")
            p = p.astype(np.int64)
            if p.shape[1] != 2:
                p = p.T
            if p.size and (p.min() < 0 or p.max() >= n):
                raise ValueError(f"pairs: holds a node id outside [0, num_nodes={n})")
            pf = os.path.join(tmp, "pairs.txt")
            with open(pf, "w") as f:
                f.write(f"# num_nodes {n}\n")
                for u, v in p:
                    f.write(f"{u} {v}\n")
            args += ["--pairs", pf]
        out = json.loads(run(args, names))
    if pairs is None:
        return out
    return like(np.array([np.nan if q.get("r") is None else q["r"] for q in out["pairs"]], dtype=np.float64))


def curvature(edge_index, num_nodes, directed=False, alpha=0.5):
    """Ollivier–Ricci curvature of every edge (`ohm curvature`).

    Args:
        edge_index: the graph's arcs, 2×E integers (array or tensor), as in
            rewire.
        num_nodes: the number of nodes.
        directed: curvature of the directed form's arcs.
        alpha: the laziness α of the measures, in [0, 1] (0 is BORF's).

    Returns:
        (u, v, kappa): the edges (u < v when undirected, row-major order)
        as int64 and their curvature as float64; tensors on edge_index's
        device when edge_index was a tensor.
    """
    like = _Like(edge_index)
    alpha_f = _alpha(alpha)
    ei, n = _edge_index(edge_index, num_nodes)
    names = {"--directed": ("directed", directed), "--alpha": ("alpha", alpha), "--graph": ("edge_index", _UNSET)}
    with tempfile.TemporaryDirectory(prefix="ohm-") as tmp:
        gin = os.path.join(tmp, "in.npz")
        kout = os.path.join(tmp, "kappa.csv")
        _write_graph(gin, ei, n)
        args = ["curvature", "--graph", gin, "--alpha", repr(alpha_f), "--out", kout]
        if directed:
            args.append("--directed")
        run(args, names)
        with open(kout) as f:
            rows = list(csv.DictReader(f))
    u = np.array([int(r["u"]) for r in rows], dtype=np.int64)
    v = np.array([int(r["v"]) for r in rows], dtype=np.int64)
    k = np.array([float(r["kappa"]) for r in rows], dtype=np.float64)
    return like(u), like(v), like(k)
