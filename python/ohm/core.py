"""rewire, rewire_many, resistance and curvature over numpy arrays or torch
tensors: rewire and rewire_many through the kept `ohm serve` child
(_serve), resistance and curvature through one `ohm` run each."""

import csv
import json
import operator
import os
import sys
import warnings
from dataclasses import dataclass, field

import numpy as np

from . import _serve
from ._binary import _UNSET, OhmError, python_error, run, tempdir

#: The methods of ohm.rewire (definitions §3 of the repository's docs).
METHODS = ("err", "err-hop", "res", "res-hop", "curvature", "gtr", "fosr")
#: The methods that rewire only the undirected graph.
UNDIRECTED_ONLY = ("gtr", "fosr")
#: The largest num_nodes ohm takes: node ids are int32.
MAX_NODES = 2**31 - 1
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


def _bool(name, value):
    """value as a bool: True or False (also numpy's), else ValueError naming
    the argument — a string such as "no" is not taken for True."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ValueError(f"{name}={value!r}: must be True or False")


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
    n = _integer("num_nodes", num_nodes, 0, MAX_NODES + 1,
                 f"in [0, {MAX_NODES}] (ohm's node ids are int32)")
    if a.size and (a.min() < 0 or a.max() >= n):
        raise ValueError(f"edge_index: holds a node id outside [0, num_nodes={n})")
    return a, n


def _write_graph(path, edge_index, num_nodes):
    np.savez(path, edge_index=edge_index, num_nodes=np.int64(num_nodes))


def _name(name):
    """A graph's name for a summary: a non-empty string."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"name={name!r}: must be a non-empty string (the graph's name in the summary)")
    return name


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
    directed, within_components = _bool("directed", directed), _bool("within_components", within_components)
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
            engine, rounds and solves (the sketch engine's), handed_off_at
            and handed_off_kept (the iteration from which the sketch engine
            handed the run to the exact engine, 0 if it did not), fallbacks
            (the fast directed engine's exact solves), seconds.
        edge_attr: the attributes of the rewired edges when the input's
            were given (a row per column of edge_index: a kept edge's own,
            an added edge's the fill), else None.
        source: per column of edge_index, the column of the input's
            edge_index holding the same edge (the arc itself, else its
            reverse when undirected), or −1 for an added edge: how
            edge-level arrays follow the rewiring (carry_edge_attr).
    """

    edge_index: np.ndarray
    edge_type: np.ndarray
    added: np.ndarray
    removed: np.ndarray
    log: list = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    edge_attr: object = None
    source: np.ndarray = None

    def __repr__(self):
        s = self.summary
        return (f"RewireResult(method={s.get('method')!r}, form={s.get('form')!r}, "
                f"edge_index=<{_describe(self.edge_index)}>, added={s.get('added')}, "
                f"removed={s.get('removed')}, added_net={s.get('added_net')}, "
                f"removed_net={s.get('removed_net')}, iterations={s.get('iterations')}, "
                f"engine={s.get('engine')!r})")


def rewire(edge_index, num_nodes=None, method="err", budget=None, directed=False, engine=None,
           alpha=0.5, within_components=False, max_iterations=0, seed=0, fosr_x0=None, edge_attr=None,
           edge_attr_fill=0.0, edits=0, name="edge_index"):
    """Rewire a graph by effective resistance (ERR and its variants) or a baseline.

    Runs the graph through the kept `ohm serve` child (ohm's rewiring, the
    same as `ohm rewire` on the graph: same engines, same edit log); the
    child is started on the first call and reused by every later one. Torch tensors in give torch tensors out,
    on edge_index's device; numpy arrays in give numpy arrays out.

    Args:
        edge_index: the graph's arcs, a 2×E integer array or tensor in
            PyTorch Geometric's convention (an undirected graph lists both
            arcs of an edge; duplicates are merged, self-loops kept but never
            rewired). Node ids lie in [0, num_nodes).
        num_nodes: the number of nodes (isolated nodes included); None
            takes the largest id in edge_index + 1, with a warning: isolated
            nodes above it would be lost.
        method: "err" (resistance, add & remove: Effective Resistance
            Rewiring), "err-hop" (resistance per hop, add & remove), "res"
            (resistance, add only), "res-hop" (resistance per hop, add only),
            "curvature" (Ollivier–Ricci curvature baseline, add & remove),
            "gtr" (greedy total resistance, Black et al. 2023, add only,
            undirected) or "fosr" (first-order spectral rewiring, Karhadkar et
            al. 2023, add only, undirected). Case does not matter.
        budget: r in (0, 1]: the run makes B = floor(r·E0) iterations, E0
            being the number of edges (undirected) or arcs (directed).
            None: 0.1, unless edits is given.
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
        edge_attr: attributes of the input's edges, one row per column of
            edge_index (E×… array or tensor), carried to the rewired graph:
            a kept edge keeps the row of its arc (of the reverse arc when
            only that one was given), an added edge gets edge_attr_fill.
        edge_attr_fill: the attributes of an added edge: a number, or an
            array broadcast to one row of edge_attr. (default 0)
        edits: N > 0 makes N iterations instead of floor(r·E0), whatever
            E0 (FoSR's and BORF's way of counting); give it or budget, not
            both; 0: the budget decides.
        name: the graph's name in the summary (summary["dataset"]); by
            default "edge_index", the input as given (never the temporary
            file the command reads).

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
            binary was found; ChildDied (an OhmError) when the child died
            meanwhile (the next call starts a new one).
    """
    a, edits = _budget_args(method, budget, edits, directed, engine, alpha, within_components, max_iterations,
                            seed)
    name = _name(name)
    g = _graph(edge_index, num_nodes, edge_attr, fosr_x0)
    if g.n_inferred:
        _warn_inferred(1, [g])
    r = _rewire_request([g], a, edits, None, edge_attr_fill, _names(method, budget, directed, engine, alpha,
                        within_components, max_iterations, seed, edits))[0]
    r.summary["dataset"] = name
    return r


class _Graph:
    """One input graph, checked: edge_index (2×E int64), n, the type of the
    outputs, edge_attr (as given) and fosr's start vector."""

    __slots__ = ("ei", "n", "like", "attr", "x0", "n_inferred")


def _graph(edge_index, num_nodes, edge_attr=None, fosr_x0=None):
    """The input graph checked: edge_index's shape and ids, num_nodes
    (None: the largest id + 1), edge_attr's rows, fosr_x0's length."""
    g = _Graph()
    g.like = _Like(edge_index)
    g.n_inferred = num_nodes is None
    if g.n_inferred:
        a = _array(edge_index)
        num_nodes = int(a.max()) + 1 if a.ndim == 2 and a.size and np.issubdtype(a.dtype, np.integer) else 0
    g.ei, g.n = _edge_index(edge_index, num_nodes)
    g.attr = edge_attr
    if edge_attr is not None:
        rows = edge_attr.shape[0] if hasattr(edge_attr, "shape") and len(edge_attr.shape) else None
        if rows != g.ei.shape[1]:
            raise ValueError(f"edge_attr: must have one row per column of edge_index ({g.ei.shape[1]}), "
                             f"not shape {tuple(getattr(edge_attr, 'shape', ()))}")
    g.x0 = None
    if fosr_x0 is not None:
        g.x0 = _array(fosr_x0).astype(np.float64)
        if g.x0.shape != (g.n,):
            raise ValueError(f"fosr_x0: must have shape (num_nodes,) = ({g.n},), not {tuple(g.x0.shape)}")
        bad = np.flatnonzero(~np.isfinite(g.x0))
        if bad.size:
            raise ValueError(f"fosr_x0: entry {bad[0]} is {g.x0[bad[0]]} (NaN or infinite; "
                             f"{bad.size} such entries): the start vector must be finite")
    return g


def _warn_inferred(count, graphs):
    """The warning for graphs whose num_nodes was taken from edge_index."""
    which = "the graph" if len(graphs) == 1 else f"{count} of {len(graphs)} graphs"
    warnings.warn(f"num_nodes not given for {which}: taken as the largest node id + 1; isolated nodes with "
                  "larger ids, if any, are lost (pass num_nodes to keep them)", stacklevel=3)


def _names(method, budget, directed, engine, alpha, within_components, max_iterations, seed, edits):
    """The flags of `ohm rewire` and the Python arguments that set them (python_error)."""
    return {"--method": ("method", method), "--budget": ("budget", budget),
            "--directed": ("directed", directed), "--engine": ("engine", engine),
            "--alpha": ("alpha", alpha), "--within-components": ("within_components", within_components),
            "--max-iterations": ("max_iterations", max_iterations), "--seed": ("seed", seed),
            "--edits": ("edits", edits), "--fosr-x0": ("fosr_x0", _UNSET), "--graph": ("edge_index", _UNSET)}


def _budget_args(method, budget, edits, *rest):
    """check_rewire_args with the budget or the edits: budget None is 0.1
    unless edits > 0 (the budget is then not sent); both given is an
    error. Returns the checked arguments and edits."""
    edits = _integer("edits", edits, 0, None, "≥ 0 (0: the budget decides)")
    if edits and budget is not None:
        raise ValueError(f"edits={edits!r}: give budget or edits, not both (budget={budget!r})")
    return check_rewire_args(method, 1.0 if edits else (0.1 if budget is None else budget), *rest), edits


def _rewire_request(graphs, a, edits, threads, fill, names, many=False):
    """Rewire graphs (a list of _Graph) with the checked arguments a in one
    request to the kept child; a RewireResult per graph."""
    header = dict(op="rewire", method=a["method"], budget=0 if edits else a["budget"], edits=edits, directed=a["directed"],
                  engine=a["engine"] or "", alpha=a["alpha"], within_components=a["within_components"],
                  max_iterations=a["max_iterations"], seed=a["seed"], threads=threads or 0,
                  graphs=[dict(num_nodes=g.n, arcs=int(g.ei.shape[1]), x0=g.x0 is not None) for g in graphs])
    blob = []
    for g in graphs:
        blob.append(_serve.int64_bytes(g.ei))
        if g.x0 is not None:
            blob.append(_serve.float64_bytes(g.x0))
    try:
        answers = _serve.request(header, blob, answers=len(graphs))
    except (ValueError, OhmError) as e:
        if isinstance(e, _serve.ChildDied):
            raise
        k = getattr(e, "graph", None)
        msg = python_error(str(e), names) if isinstance(e, ValueError) else str(e)
        if many and k is not None:
            msg = f"graphs[{k}]: {msg}"
        err = type(e)(msg)
        err.graph = k
        raise err from None
    return [_result(g, h, b, fill) for g, (h, b) in zip(graphs, answers)]


def _result(g, h, b, fill):
    """graph g's RewireResult from its answer (header h, blob b)."""
    e = h["arcs"]
    ei = _serve.int64s(b, 0, 2 * e).reshape(2, e)
    src = _serve.int64s(b, 16 * e, e)
    log = h["log"]
    added = np.array([(x["u"], x["v"]) for x in log if x["op"] == "add"], dtype=np.int64).reshape(-1, 2).T
    removed = np.array([(x["u"], x["v"]) for x in log if x["op"] != "add"], dtype=np.int64).reshape(-1, 2).T
    attr = None if g.attr is None else carry_edge_attr(g.attr, src, fill)
    return RewireResult(g.like(ei), g.like((src < 0).astype(np.int64)), g.like(np.ascontiguousarray(added)),
                        g.like(np.ascontiguousarray(removed)), log, h["summary"], attr, g.like(src))


def carry_edge_attr(attr, source, fill=0.0):
    """The rows of attr for the rewired edges (definitions §3.9 in the
    repository's docs): source holds, per rewired arc, the column of the
    input it comes from, or −1 for an added edge, which gets fill (a
    number, or an array broadcast to one row). numpy in,
    numpy out; a torch tensor gives a tensor on its device, of its dtype."""
    source = np.asarray(source, dtype=np.int64)
    added = source < 0
    idx = np.maximum(source, 0)
    if _torch_tensor(attr):
        import torch

        shape = (len(source), *attr.shape[1:])
        if attr.shape[0]:
            out = attr.index_select(0, torch.from_numpy(idx).to(attr.device))
        else:
            out = attr.new_zeros(shape)
        if added.any():
            try:
                out[torch.from_numpy(added).to(attr.device)] = torch.as_tensor(fill, dtype=attr.dtype,
                                                                               device=attr.device)
            except (RuntimeError, TypeError, ValueError) as e:
                raise ValueError(f"edge_attr_fill={fill!r}: does not fit a row of edge_attr "
                                 f"{tuple(attr.shape[1:])}: {e}") from None
        return out
    a = np.asarray(attr)
    out = a[idx] if a.shape[0] else np.zeros((len(source), *a.shape[1:]), dtype=a.dtype)
    if added.any():
        try:
            out[added] = fill
        except (TypeError, ValueError) as e:
            raise ValueError(f"edge_attr_fill={fill!r}: does not fit a row of edge_attr {a.shape[1:]}: {e}") from None
    return out


def rewire_many(graphs, method="err", budget=None, edits=0, directed=False, engine=None, alpha=0.5,
                within_components=False, max_iterations=0, seed=0, threads=None, edge_attr_fill=0.0):
    """Rewire many graphs in one call: the kept `ohm serve` child rewires
    them in parallel, each on one thread, each exactly as ohm.rewire would
    rewire it alone.

    Args:
        graphs: a sequence of (edge_index, num_nodes) — or (edge_index,
            num_nodes, edge_attr) — tuples, numpy arrays or torch tensors as
            ohm.rewire takes them; num_nodes may be None (the largest id +
            1, with one warning for the call).
        method: any of ohm.METHODS, as in ohm.rewire.
        budget: r in (0, 1], per graph: graph i makes floor(r·E0_i)
            iterations. None: 0.1, unless edits is given.
        edits: N > 0 makes N iterations on every graph instead, whatever
            its size (the way FoSR and BORF tune their rewiring); give it
            or budget, not both; 0: the budget decides.
        directed, engine, alpha, within_components, max_iterations, seed:
            as in ohm.rewire, the same for every graph.
        threads: graphs rewired at once (None: one per core).
        edge_attr_fill: the attributes of an added edge (graphs given with
            edge_attr), as in ohm.rewire.

    Returns:
        A list of RewireResult, one per graph, in order; each graph's arrays
        of its edge_index's type (numpy, or torch on its device).

    Raises:
        ValueError: a bad argument, or a bad graph: the message starts with
            graphs[i] and the exception's .graph is i.
        OhmError: a graph failed (.graph its index); ChildDied when the
            child died meanwhile (its .graph the graph in flight: the first
            not answered). Nothing is returned then.
    """
    a, edits = _budget_args(method, budget, edits, directed, engine, alpha, within_components, max_iterations,
                            seed)
    if threads is not None:
        threads = _integer("threads", threads, 1, None, "≥ 1 (None: one per core)")
    items = []
    for i, item in enumerate(graphs):
        if not isinstance(item, (tuple, list)) or len(item) not in (2, 3):
            raise ValueError(f"graphs[{i}]: must be an (edge_index, num_nodes) or (edge_index, num_nodes, "
                             f"edge_attr) tuple, not {type(item).__name__}")
        try:
            items.append(_graph(*item))
        except ValueError as e:
            raise ValueError(f"graphs[{i}]: {e}") from None
    inferred = sum(g.n_inferred for g in items)
    if inferred:
        _warn_inferred(inferred, items)
    if not items:
        return []
    names = _names(method, budget, directed, engine, alpha, within_components, max_iterations, seed, edits)
    return _rewire_request(items, a, edits, threads, edge_attr_fill, names, many=True)


def _pairs(pairs, layout, n):
    """pairs as a k×2 int64 array: layout "rows" (k×2, each row a pair),
    "columns" (2×k, each column a pair, as edge_index) or None (the shape
    says which; a 2×2 array is ambiguous and refused)."""
    p = _array(pairs)
    if layout not in (None, "rows", "columns"):
        raise ValueError(f"pairs_layout={layout!r}: must be 'rows' (k×2), 'columns' (2×k) or None")
    if p.ndim != 2 or 2 not in p.shape or (p.size and not np.issubdtype(p.dtype, np.integer)):
        raise ValueError(f"pairs: must be k×2 (or 2×k) integers, not {tuple(p.shape)} {p.dtype}")
    if layout is None:
        if p.shape == (2, 2):
            raise ValueError("pairs: a 2×2 array is ambiguous: say pairs_layout='rows' (each row a pair, "
                             "k×2) or pairs_layout='columns' (each column a pair, 2×k as edge_index)")
        layout = "rows" if p.shape[1] == 2 else "columns"
    if (layout == "rows" and p.shape[1] != 2) or (layout == "columns" and p.shape[0] != 2):
        raise ValueError(f"pairs: shape {tuple(p.shape)} is not {'k×2' if layout == 'rows' else '2×k'} "
                         f"(pairs_layout={layout!r})")
    p = p.astype(np.int64)
    if layout == "columns":
        p = p.T
    if p.size and (p.min() < 0 or p.max() >= n):
        raise ValueError(f"pairs: holds a node id outside [0, num_nodes={n})")
    return p


def resistance(edge_index, num_nodes, pairs=None, directed=False, within_components=False, pairs_layout=None,
               name="edge_index"):
    """Effective resistances of a graph (`ohm resistance`).

    Args:
        edge_index: the graph's arcs, 2×E integers (array or tensor), as in
            rewire.
        num_nodes: the number of nodes.
        pairs: node pairs to measure, an integer array or tensor: k×2 (each
            row a pair) or 2×k (each column a pair, as edge_index); None
            for the graph's summary instead. A 2×2 array needs
            pairs_layout.
        pairs_layout: "rows" (pairs is k×2), "columns" (2×k) or None (the
            shape says which; refused for a 2×2 array, which could be
            either).
        directed: resistances of the directed form (arcs as given).
        within_components: undirected: the summary's most resistant pair
            only inside one connected component.
        name: the graph's name in the summary (its "dataset"); by default
            "edge_index", the input as given.

    Returns:
        With pairs, their resistances: k float64 (NaN where none exists:
        directed pairs in different strongly connected components), a
        tensor on edge_index's device when edge_index or pairs was a tensor.
        Without, the command's summary, a dict: {"max_pair": {"u", "v",
        "r"}, "min_edge": ..., "components": ...}.
    """
    name = _name(name)
    like = _Like(edge_index, pairs)
    ei, n = _edge_index(edge_index, num_nodes)
    directed, within_components = _bool("directed", directed), _bool("within_components", within_components)
    if directed and within_components:
        raise ValueError("within_components=True: applies to undirected graphs only (directed "
                         "pairs are always taken inside one strongly connected component)")
    if pairs is not None:
        pairs_kx2 = _pairs(pairs, pairs_layout, n)
    names = {"--directed": ("directed", directed), "--within-components": ("within_components", within_components),
             "--pairs": ("pairs", _UNSET), "--graph": ("edge_index", _UNSET)}
    with tempdir() as tmp:
        gin = os.path.join(tmp, "in.npz")
        _write_graph(gin, ei, n)
        args = ["resistance", "--graph", gin, "--json"]
        if directed:
            args.append("--directed")
        if within_components:
            args.append("--within-components")
        if pairs is not None:
            p = pairs_kx2
            pf = os.path.join(tmp, "pairs.txt")
            with open(pf, "w") as f:
                f.write(f"# num_nodes {n}\n")
                for u, v in p:
                    f.write(f"{u} {v}\n")
            args += ["--pairs", pf]
        out = json.loads(run(args, names))
    if pairs is None:
        out["dataset"] = name
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
    directed = _bool("directed", directed)
    alpha_f = _alpha(alpha)
    ei, n = _edge_index(edge_index, num_nodes)
    names = {"--directed": ("directed", directed), "--alpha": ("alpha", alpha), "--graph": ("edge_index", _UNSET)}
    with tempdir() as tmp:
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
