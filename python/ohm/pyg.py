"""PyTorch Geometric transforms over ohm.rewire.

Each transform rewires a graph once, meant for ``pre_transform`` (the
rewiring runs when the dataset is processed, not at every epoch)::

    from torch_geometric.datasets import Planetoid
    ds = Planetoid(root, "Cora", pre_transform=ohm.pyg.ERR(budget=0.1))

``Rewire(method=...)`` takes any method of ohm.rewire; ``ERR``, ``ERRHop``,
``Res``, ``ResHop``, ``Curvature``, ``GTR`` and ``FoSR`` fix it. A transform
replaces ``data.edge_index`` by the rewired graph (same type and device),
sets ``data.edge_type`` (1 for an edge the rewiring added, 0 for a kept
one), carries ``data.edge_attr`` and ``data.edge_weight`` (a kept edge keeps
its own, an added edge gets a fill) and keeps every node attribute. Every
call goes to the one kept ``ohm serve`` child (no process per graph).

``rewire_dataset(dataset, transform)`` rewires every graph of a dataset in
one call (the graphs in parallel) and returns the rewired dataset::

    ds = rewire_dataset(TUDataset(root, "PROTEINS"), ERR(budget=0.1))

The transforms need neither torch nor torch_geometric to be imported first:
they are made on first use (``ohm.pyg.ERR``), subclassing
``torch_geometric.transforms.BaseTransform`` when PyG can be imported then,
else a plain class with PyG's protocol (``__call__`` copies the data object
shallowly and calls ``forward``), so they work on any object with
``edge_index`` and ``num_nodes``.
"""

import copy

from ._serve import ChildDied
from .core import _budget_args, carry_edge_attr, rewire, rewire_many

_TRANSFORMS = ("Rewire", "ERR", "ERRHop", "Res", "ResHop", "Curvature", "GTR", "FoSR")

__all__ = ["apply", "rewire_dataset", *_TRANSFORMS]

# Edge-level attributes, one row per input edge, carried through the
# rewiring; the value an added edge gets by default.
_EDGE_ATTRS = {"edge_attr": 0.0, "edge_weight": 1.0}


def _num_nodes(data):
    """data's node count where it says it: num_nodes (a PyG Data infers it
    itself), else the rows of x; None when neither is known (ohm.rewire then
    takes the largest id + 1, with a warning)."""
    n = getattr(data, "num_nodes", None)
    if n is None and getattr(data, "x", None) is not None:
        n = data.x.shape[0]
    return n


def _carry(data, res, fills):
    """Set data's rewired edge_index, edge_type and edge-level attributes
    from res (fills: each attribute's value for an added edge)."""
    for key, default in _EDGE_ATTRS.items():
        a = getattr(data, key, None)
        if a is not None:
            setattr(data, key, carry_edge_attr(a, res.source, fills.get(key, default)))
    data.edge_index, data.edge_type = res.edge_index, res.edge_type
    return data


def apply(data, method="err", budget=None, directed=False, edge_attr_fill=0.0, edge_weight_fill=1.0,
          **kwargs):
    """Rewire data (anything with edge_index, e.g. a PyG Data) in place with
    ohm.rewire; edge_index and edge_type take the type of the input's
    edge_index (a torch tensor stays a tensor on its device), edge_attr and
    edge_weight follow the edges (an added edge gets edge_attr_fill,
    edge_weight_fill). Returns data and the RewireResult."""
    res = rewire(data.edge_index, _num_nodes(data), method=method, budget=budget, directed=directed, **kwargs)
    return _carry(data, res, {"edge_attr": edge_attr_fill, "edge_weight": edge_weight_fill}), res


def _graphs_of(dataset):
    """The data objects of dataset, without its transform: a PyG Dataset's
    get(i) over its indices(), else its items."""
    if hasattr(dataset, "get") and hasattr(dataset, "indices") and hasattr(dataset, "__len__"):
        return [dataset.get(i) for i in dataset.indices()]
    return list(dataset)


def _collated(dataset, items):
    """items as a dataset like dataset: an InMemoryDataset (collate and
    slices) gets a shallow copy holding items; anything else a list."""
    if not (hasattr(dataset, "collate") and hasattr(dataset, "slices")):
        return items
    out = copy.copy(dataset)
    data, slices = type(dataset).collate(items)
    if "_data" in vars(out):
        out._data = data
    else:
        out.data = data
    out.slices = slices
    for key in ("_data_list", "_indices"):
        if key in vars(out):
            setattr(out, key, None)
    return out


def rewire_dataset(dataset, transform, threads=None):
    """Rewire every graph of dataset with transform (an ohm.pyg transform:
    its method and arguments) in one call: the graphs go to the kept `ohm
    serve` child in one request and are rewired in parallel, each exactly
    as the transform would rewire it alone.

    Args:
        dataset: a PyG InMemoryDataset (e.g. TUDataset; its transform is
            not applied), or a sequence of data objects (each with
            edge_index and num_nodes or x).
        transform: an instance of ohm.pyg.Rewire or one of its subclasses.
        threads: graphs rewired at once (None: one per core).

    Returns:
        An InMemoryDataset like dataset (a shallow copy holding the
        rewired graphs, collated) or, for a sequence, a list of new data
        objects (shallow copies; the input is not changed).

    Raises:
        ValueError or OhmError naming the graph that failed; ChildDied
        (an OhmError) when the child died, naming the graph in flight.
        Nothing is returned then, so no partial dataset exists.
    """
    if not isinstance(transform, __getattr__("Rewire")):
        raise TypeError(f"transform: must be an ohm.pyg transform (ohm.pyg.ERR(...), ...), not "
                        f"{type(transform).__name__}")
    items = _graphs_of(dataset)
    graphs = [(d.edge_index, _num_nodes(d)) for d in items]
    a = transform.args
    results = rewire_many(graphs, method=a["method"], budget=None if transform.edits else a["budget"],
                          edits=transform.edits, directed=a["directed"], engine=a["engine"],
                          alpha=a["alpha"], within_components=a["within_components"],
                          max_iterations=a["max_iterations"], seed=a["seed"], threads=threads)
    out = [_carry(copy.copy(d), r, transform.fills) for d, r in zip(items, results)]
    return _collated(dataset, out)


class PlainTransform:
    """The protocol of ``torch_geometric.transforms.BaseTransform``, for use
    without PyTorch Geometric: calling the transform calls ``forward`` on a
    shallow copy of the data object."""

    def __call__(self, data):
        return self.forward(copy.copy(data))

    def forward(self, data):  # pragma: no cover - every transform overrides it
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}()"


def base_transform():
    """torch_geometric.transforms.BaseTransform when PyG can be imported,
    else PlainTransform."""
    try:
        from torch_geometric.transforms import BaseTransform
    except (ImportError, OSError):
        return PlainTransform
    return BaseTransform


_ARGS_COMMON = """
        budget (float, optional): The budget r in (0, 1]: the rewiring makes
            floor(r·E0) iterations, E0 the number of edges (arcs when
            :obj:`directed`). :obj:`None` is :obj:`0.1` unless :obj:`edits`
            is given. (default: :obj:`None`)"""
_ARG_DIRECTED = """
        directed (bool, optional): If set to :obj:`True`, rewires the arcs
            of :obj:`edge_index` as given; else the undirected graph of its
            arcs. (default: :obj:`False`)"""
_ARG_ENGINE = """
        engine (str, optional): :obj:`"auto"` (:obj:`None`), :obj:`"incremental"`,
            :obj:`"exact"` or :obj:`"sketch"`; see :func:`ohm.rewire`.
            (default: :obj:`None`)"""
_ARG_WITHIN = """
        within_components (bool, optional): Undirected graphs: if set to
            :obj:`True`, adds edges only inside connected components.
            (default: :obj:`False`)"""
_ARG_MAXIT = """
        max_iterations (int, optional): Stops after this many iterations
            even if the budget allows more (:obj:`0`: no limit).
            (default: :obj:`0`)"""
_ARG_ALPHA = """
        alpha (float, optional): The laziness of the curvature's measures,
            in [0, 1] (:obj:`0` is BORF's). (default: :obj:`0.5`)"""
_ARG_SEED = """
        seed (int, optional): The seed of FoSR's random start vector.
            (default: :obj:`0`)"""

_ARG_EDITS = """
        edits (int, optional): If set to :obj:`N > 0`, makes :obj:`N`
            iterations on every graph, whatever its size, instead of a
            fraction of its edges; give it or :obj:`budget`, not both.
            (default: :obj:`0`)"""
_ARG_FILLS = """
        edge_attr_fill (float or array, optional): The :obj:`edge_attr` of
            an added edge. (default: :obj:`0.0`)
        edge_weight_fill (float, optional): The :obj:`edge_weight` of an
            added edge. (default: :obj:`1.0`)"""

_OUTPUT = """

    The rewired graph replaces :obj:`data.edge_index` (both arcs of every
    undirected edge, self-loops once, sorted; a tensor on the input's
    device); :obj:`data.edge_type` marks each of its edges :obj:`1` if the
    rewiring added it, else :obj:`0`. :obj:`data.edge_attr` and
    :obj:`data.edge_weight` follow the edges: a kept edge keeps its own, an
    added edge gets :obj:`edge_attr_fill` and :obj:`edge_weight_fill`. Node
    attributes are kept. :obj:`num_nodes` is :obj:`data.num_nodes`, else the
    rows of :obj:`data.x`, else the largest id + 1 (with a warning). Every
    call goes to one kept :obj:`ohm serve` process;
    :func:`ohm.pyg.rewire_dataset` rewires a whole dataset in one call."""

_ERR_PAPER = ('the paper *Effective Resistance Rewiring* (the method ohm '
              'reimplements; the repository\'s docs/definitions.md §3.3 says how)')


def _build():
    """The transform classes, made on first use (see the module's doc)."""
    Base = base_transform()
    tail = _ARG_EDITS + _ARG_FILLS + "\n    "

    class Rewire(Base):
        __doc__ = r"""Rewires the graph with any method of :func:`ohm.rewire`: the
    resistance methods of """ + _ERR_PAPER + r""" or a baseline.""" + _OUTPUT + r"""

    Args:
        method (str, optional): :obj:`"err"`, :obj:`"err-hop"`, :obj:`"res"`,
            :obj:`"res-hop"`, :obj:`"curvature"`, :obj:`"gtr"` or
            :obj:`"fosr"`. (default: :obj:`"err"`)""" + _ARGS_COMMON + _ARG_DIRECTED + _ARG_ENGINE \
            + _ARG_WITHIN + _ARG_MAXIT + """
        alpha (float, optional): :obj:`"curvature"` only: the laziness of
            its measures, in [0, 1]. (default: :obj:`0.5`)
        seed (int, optional): :obj:`"fosr"` only: the seed of its random
            start vector. (default: :obj:`0`)""" + tail

        def __init__(self, method="err", budget=None, directed=False, engine=None,
                     within_components=False, max_iterations=0, alpha=0.5, seed=0, edits=0,
                     edge_attr_fill=0.0, edge_weight_fill=1.0):
            # Checked now, so that a bad argument fails where it is written.
            self.args, self.edits = _budget_args(method, budget, edits, directed, engine, alpha,
                                                 within_components, max_iterations, seed)
            self.fills = {"edge_attr": edge_attr_fill, "edge_weight": edge_weight_fill}
            self.calls = 0

        def __call__(self, data):
            # PyG 2.4 and later call forward on a shallow copy themselves;
            # PyG 2.3's BaseTransform leaves __call__ abstract.
            return self.forward(copy.copy(data))

        def forward(self, data):
            k, self.calls = self.calls, self.calls + 1
            a = dict(self.args)
            if self.edits:
                a["budget"] = None
            try:
                res = rewire(data.edge_index, _num_nodes(data), edits=self.edits, **a)
            except ChildDied as e:
                raise ChildDied(f"{type(self).__name__}: graph {k} given to this transform (counting from 0): {e}",
                                graph=k, returncode=e.returncode) from None
            return _carry(data, res, self.fills)

        def __repr__(self):
            a = self.args
            shown = [f"edits={self.edits}" if self.edits else f"budget={a['budget']}"]
            if type(self) is Rewire:
                shown.insert(0, f"method={a['method']!r}")
            defaults = dict(directed=False, engine=None, within_components=False, max_iterations=0,
                            alpha=0.5, seed=0)
            shown += [f"{k}={a[k]!r}" for k, v in defaults.items() if a[k] != v]
            shown += [f"{k}_fill={v!r}" for k, v in self.fills.items() if v != _EDGE_ATTRS[k]]
            return f"{type(self).__name__}({', '.join(shown)})"

    def fixed(name, method, doc, keep):
        """A subclass of Rewire fixing the method, taking the arguments of keep."""
        def __init__(self, budget=None, *args, **kwargs):
            if len(args) > len(keep):
                raise TypeError(f"{name}() takes at most {len(keep) + 1} arguments ({len(args) + 1} given)")
            for k, v in zip(keep, args):
                if k in kwargs:
                    raise TypeError(f"{name}() got multiple values for argument {k!r}")
                kwargs[k] = v
            bad = set(kwargs) - set(keep)
            if bad:
                raise TypeError(f"{name}() got an unexpected keyword argument {sorted(bad)[0]!r}")
            Rewire.__init__(self, method, budget, **kwargs)

        import inspect
        params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
                  inspect.Parameter("budget", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)]
        defaults = dict(directed=False, engine=None, within_components=False, max_iterations=0, alpha=0.5,
                        seed=0, edits=0, edge_attr_fill=0.0, edge_weight_fill=1.0)
        params += [inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=defaults[k]) for k in keep]
        __init__.__signature__ = inspect.Signature(params)
        return type(name, (Rewire,), {"__init__": __init__, "__doc__": doc})

    fills = ("edits", "edge_attr_fill", "edge_weight_fill")
    resistance_args = ("directed", "engine", "within_components", "max_iterations", *fills)
    common = _ARGS_COMMON + _ARG_DIRECTED + _ARG_ENGINE + _ARG_WITHIN + _ARG_MAXIT + tail
    ERR = fixed("ERR", "err", r"""Effective Resistance Rewiring: each iteration adds an edge between
    the most resistant pair of nodes and removes the least resistant edge that
    keeps the graph connected, from """ + _ERR_PAPER + "." + _OUTPUT + r"""

    Args:""" + common, resistance_args)
    ERRHop = fixed("ERRHop", "err-hop", r"""Effective resistance rewiring scored per hop (resistance divided by
    the distance): adds an edge at the pair of highest score and removes the
    least resistant edge, from """ + _ERR_PAPER + "." + _OUTPUT + r"""

    Args:""" + common, resistance_args)
    Res = fixed("Res", "res", r"""Add-only effective resistance rewiring: each iteration adds an edge
    between the most resistant pair of nodes, from """ + _ERR_PAPER + "." + _OUTPUT + r"""

    Args:""" + common, resistance_args)
    ResHop = fixed("ResHop", "res-hop", r"""Add-only effective resistance rewiring scored per hop (resistance
    divided by the distance), from """ + _ERR_PAPER + "." + _OUTPUT + r"""

    Args:""" + common, resistance_args)
    Curvature = fixed("Curvature", "curvature", r"""Curvature-based rewiring, from the `"Understanding over-squashing
    and bottlenecks on graphs via curvature"
    <https://arxiv.org/abs/2111.14522>`_ paper (Topping et al., ICLR 2022),
    with exact Ollivier–Ricci curvature: each iteration adds an edge across
    the least curved edge and removes the most curved edge that keeps the
    graph connected.""" + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_DIRECTED + _ARG_ENGINE + _ARG_MAXIT + _ARG_ALPHA + tail,
        ("directed", "engine", "max_iterations", "alpha", *fills))
    GTR = fixed("GTR", "gtr", r"""Greedy total resistance rewiring, from the `"Understanding
    Oversquashing in GNNs through the Lens of Effective Resistance"
    <https://arxiv.org/abs/2302.06835>`_ paper (Black et al., ICML 2023): each
    iteration adds the edge that lowers the graph's total effective
    resistance most (undirected graphs).""" + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_ENGINE + _ARG_MAXIT + tail, ("engine", "max_iterations", *fills))
    FoSR = fixed("FoSR", "fosr", r"""First-order spectral rewiring, from the `"FoSR: First-order
    spectral rewiring for addressing oversquashing in GNNs"
    <https://arxiv.org/abs/2210.11790>`_ paper (Karhadkar et al., ICLR 2023):
    each iteration adds the edge that raises the spectral gap most to first
    order (undirected graphs).""" + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_MAXIT + _ARG_SEED + tail, ("max_iterations", "seed", *fills))

    made = dict(Rewire=Rewire, ERR=ERR, ERRHop=ERRHop, Res=Res, ResHop=ResHop,
                Curvature=Curvature, GTR=GTR, FoSR=FoSR)
    for name, cls in made.items():  # so that pickle and repr find them here
        cls.__module__, cls.__qualname__ = __name__, name
    return made


_made = None


def __getattr__(name):
    global _made
    if name in _TRANSFORMS:
        if _made is None:
            _made = _build()
        return _made[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_TRANSFORMS))
