"""PyTorch Geometric transforms over ohm.rewire.

Each transform rewires a graph once, meant for ``pre_transform`` (the
rewiring runs when the dataset is processed, not at every epoch)::

    from torch_geometric.datasets import Planetoid
    ds = Planetoid(root, "Cora", pre_transform=ohm.pyg.ERR(budget=0.1))

``Rewire(method=...)`` takes any method of ohm.rewire; ``ERR``, ``ERRHop``,
``Res``, ``ResHop``, ``Curvature``, ``GTR`` and ``FoSR`` fix it. A transform
replaces ``data.edge_index`` by the rewired graph (same type and device),
sets ``data.edge_type`` (1 for an edge the rewiring added, 0 for a kept
one) and keeps every node attribute.

The transforms need neither torch nor torch_geometric to be imported first:
they are made on first use (``ohm.pyg.ERR``), subclassing
``torch_geometric.transforms.BaseTransform`` when PyG can be imported then,
else a plain class with PyG's protocol (``__call__`` copies the data object
shallowly and calls ``forward``), so they work on any object with
``edge_index`` and ``num_nodes``.
"""

import copy

from .core import check_rewire_args, rewire

_TRANSFORMS = ("Rewire", "ERR", "ERRHop", "Res", "ResHop", "Curvature", "GTR", "FoSR")

__all__ = ["apply", *_TRANSFORMS]

# Edge-level attributes that hold one entry per input edge: a rewired graph
# has other edges, so they cannot follow it.
_EDGE_ATTRS = ("edge_attr", "edge_weight")


def apply(data, method="err", budget=0.1, directed=False, **kwargs):
    """Rewire data (anything with edge_index and num_nodes, e.g. a PyG
    Data) in place with ohm.rewire; edge_index and edge_type take the type
    of the input's edge_index (a torch tensor stays a tensor on its device).
    Returns data and the RewireResult."""
    res = rewire(data.edge_index, data.num_nodes, method=method, budget=budget,
                 directed=directed, **kwargs)
    data.edge_index, data.edge_type = res.edge_index, res.edge_type
    return data, res


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
            :obj:`directed`). (default: :obj:`0.1`)"""
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

_OUTPUT = """

    The rewired graph replaces :obj:`data.edge_index` (both arcs of every
    undirected edge, self-loops once, sorted; a tensor on the input's
    device); :obj:`data.edge_type` marks each of its edges :obj:`1` if the
    rewiring added it, else :obj:`0`. Node attributes are kept; a data
    object with :obj:`edge_attr` or :obj:`edge_weight` is refused (those
    belong to the input's edges)."""

_ERR_PAPER = ('the paper *Effective Resistance Rewiring* (the method ohm '
              'reimplements; the repository\'s docs/definitions.md §3.3 says how)')


def _build():
    """The transform classes, made on first use (see the module's doc)."""
    Base = base_transform()

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
            start vector. (default: :obj:`0`)
    """

        def __init__(self, method="err", budget=0.1, directed=False, engine=None,
                     within_components=False, max_iterations=0, alpha=0.5, seed=0):
            # Checked now, so that a bad argument fails where it is written.
            self.args = check_rewire_args(method, budget, directed, engine, alpha,
                                          within_components, max_iterations, seed)

        def forward(self, data):
            for key in _EDGE_ATTRS:
                if getattr(data, key, None) is not None:
                    raise ValueError(f"{type(self).__name__}: data.{key} has one entry per input edge "
                                     f"and cannot follow the rewiring; delete it before the transform")
            n = data.num_nodes
            if n is None:
                raise ValueError(f"{type(self).__name__}: data.num_nodes is not known")
            res = rewire(data.edge_index, n, **self.args)
            data.edge_index, data.edge_type = res.edge_index, res.edge_type
            return data

        def __repr__(self):
            a = self.args
            shown = [f"budget={a['budget']}"]
            if type(self) is Rewire:
                shown.insert(0, f"method={a['method']!r}")
            defaults = dict(directed=False, engine=None, within_components=False, max_iterations=0,
                            alpha=0.5, seed=0)
            shown += [f"{k}={a[k]!r}" for k, v in defaults.items() if a[k] != v]
            return f"{type(self).__name__}({', '.join(shown)})"

    class ERR(Rewire):
        __doc__ = r"""Effective Resistance Rewiring: each iteration adds an edge between
    the most resistant pair of nodes and removes the least resistant edge that
    keeps the graph connected, from """ + _ERR_PAPER + "." + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_DIRECTED + _ARG_ENGINE + _ARG_WITHIN + _ARG_MAXIT + "\n    "

        def __init__(self, budget=0.1, directed=False, engine=None, within_components=False,
                     max_iterations=0):
            super().__init__("err", budget, directed, engine, within_components, max_iterations)

    class ERRHop(Rewire):
        __doc__ = r"""Effective resistance rewiring scored per hop (resistance divided by
    the distance): adds an edge at the pair of highest score and removes the
    least resistant edge, from """ + _ERR_PAPER + "." + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_DIRECTED + _ARG_ENGINE + _ARG_WITHIN + _ARG_MAXIT + "\n    "

        def __init__(self, budget=0.1, directed=False, engine=None, within_components=False,
                     max_iterations=0):
            super().__init__("err-hop", budget, directed, engine, within_components, max_iterations)

    class Res(Rewire):
        __doc__ = r"""Add-only effective resistance rewiring: each iteration adds an edge
    between the most resistant pair of nodes, from """ + _ERR_PAPER + "." + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_DIRECTED + _ARG_ENGINE + _ARG_WITHIN + _ARG_MAXIT + "\n    "

        def __init__(self, budget=0.1, directed=False, engine=None, within_components=False,
                     max_iterations=0):
            super().__init__("res", budget, directed, engine, within_components, max_iterations)

    class ResHop(Rewire):
        __doc__ = r"""Add-only effective resistance rewiring scored per hop (resistance
    divided by the distance), from """ + _ERR_PAPER + "." + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_DIRECTED + _ARG_ENGINE + _ARG_WITHIN + _ARG_MAXIT + "\n    "

        def __init__(self, budget=0.1, directed=False, engine=None, within_components=False,
                     max_iterations=0):
            super().__init__("res-hop", budget, directed, engine, within_components, max_iterations)

    class Curvature(Rewire):
        __doc__ = r"""Curvature-based rewiring, from the `"Understanding over-squashing
    and bottlenecks on graphs via curvature"
    <https://arxiv.org/abs/2111.14522>`_ paper (Topping et al., ICLR 2022),
    with exact Ollivier–Ricci curvature: each iteration adds an edge across
    the least curved edge and removes the most curved edge that keeps the
    graph connected.""" + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_DIRECTED + _ARG_ENGINE + _ARG_MAXIT + _ARG_ALPHA + "\n    "

        def __init__(self, budget=0.1, directed=False, engine=None, max_iterations=0, alpha=0.5):
            super().__init__("curvature", budget, directed, engine, False, max_iterations, alpha)

    class GTR(Rewire):
        __doc__ = r"""Greedy total resistance rewiring, from the `"Understanding
    Oversquashing in GNNs through the Lens of Effective Resistance"
    <https://arxiv.org/abs/2302.06835>`_ paper (Black et al., ICML 2023): each
    iteration adds the edge that lowers the graph's total effective
    resistance most (undirected graphs).""" + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_ENGINE + _ARG_MAXIT + "\n    "

        def __init__(self, budget=0.1, engine=None, max_iterations=0):
            super().__init__("gtr", budget, False, engine, False, max_iterations)

    class FoSR(Rewire):
        __doc__ = r"""First-order spectral rewiring, from the `"FoSR: First-order
    spectral rewiring for addressing oversquashing in GNNs"
    <https://arxiv.org/abs/2210.11790>`_ paper (Karhadkar et al., ICLR 2023):
    each iteration adds the edge that raises the spectral gap most to first
    order (undirected graphs).""" + _OUTPUT + r"""

    Args:""" + _ARGS_COMMON + _ARG_MAXIT + _ARG_SEED + "\n    "

        def __init__(self, budget=0.1, max_iterations=0, seed=0):
            super().__init__("fosr", budget, False, None, False, max_iterations, 0.5, seed)

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
