"""A small reader of TU Dortmund datasets for the Python tests and benchmarks.

    graphs = read_tu(root, "MUTAG")   # root/MUTAG/raw/MUTAG_A.txt, ...

reads the raw files as PyTorch Geometric's TUDataset(root, NAME) builds
its graphs: node ids 1-based over the whole dataset, x the one-hot node
labels, edge_attr the one-hot edge labels, self-loops removed and the arcs
coalesced (sorted by source then target; duplicates kept once, their
attributes summed, as PyG's coalesce does), y the graph labels made
0-based. Each graph is a dict of numpy arrays: edge_index (2×E int64, ids
local to the graph), num_nodes, x, edge_attr (None without edge labels), y.
Not part of the ohm package: ohm's own TU reader is `ohm data` (Go).
"""

from pathlib import Path

import numpy as np


def _ints(path):
    text = Path(path).read_text()
    return np.array(text.replace(",", " ").split(), dtype=np.int64)


def _one_hot(labels):
    labels = labels - labels.min()
    out = np.zeros((len(labels), int(labels.max()) + 1), dtype=np.float32)
    out[np.arange(len(labels)), labels] = 1
    return out


def read_tu(root, name):
    """The graphs of TU dataset name under root (see the module's doc)."""
    raw = Path(root) / name / "raw"
    arcs = _ints(raw / f"{name}_A.txt").reshape(-1, 2) - 1
    gi = _ints(raw / f"{name}_graph_indicator.txt") - 1
    y = np.unique(_ints(raw / f"{name}_graph_labels.txt"), return_inverse=True)[1].astype(np.int64)
    x = _one_hot(_ints(raw / f"{name}_node_labels.txt")) if (raw / f"{name}_node_labels.txt").exists() else None
    el = raw / f"{name}_edge_labels.txt"
    ea = _one_hot(_ints(el)) if el.exists() else None
    keep = arcs[:, 0] != arcs[:, 1]
    arcs = arcs[keep]
    ea = None if ea is None else ea[keep]
    counts = np.bincount(gi, minlength=len(y))
    start = np.concatenate([[0], np.cumsum(counts)])
    g_of_arc = gi[arcs[:, 0]]
    order = np.lexsort((arcs[:, 1], arcs[:, 0]))
    arcs, g_of_arc = arcs[order], g_of_arc[order]
    ea = None if ea is None else ea[order]
    first = np.ones(len(arcs), dtype=bool)
    first[1:] = np.any(arcs[1:] != arcs[:-1], axis=1)
    if ea is not None:
        ea = np.add.reduceat(ea, np.flatnonzero(first), axis=0) if len(ea) else ea
    arcs, g_of_arc = arcs[first], g_of_arc[first]
    bounds = np.searchsorted(g_of_arc, np.arange(len(y) + 1))
    graphs = []
    for k in range(len(y)):
        lo, hi = bounds[k], bounds[k + 1]
        graphs.append(dict(
            edge_index=np.ascontiguousarray((arcs[lo:hi] - start[k]).T),
            num_nodes=int(counts[k]),
            x=None if x is None else x[start[k]:start[k + 1]],
            edge_attr=None if ea is None else ea[lo:hi],
            y=y[k:k + 1],
        ))
    return graphs
