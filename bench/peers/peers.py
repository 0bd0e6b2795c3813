"""Times the peers' own rewiring code on every graph of a TU dataset.

Runs FoSR's code (kedar2/FoSR, preprocessing/fosr.py: edge_rewire) or GTR's
code (blackmit/gtr_rewiring, src/gtr.py: GTREdgeBuilder.compute_edges) on
every graph of MUTAG, ENZYMES or PROTEINS, adding floor(budget * E0) edges
to each graph (E0 its undirected edges), as `ohm rewire --dataset NAME
--method fosr|gtr --budget 0.1` does. The peers' files are imported from a
checkout given on the command line, unmodified; this repository holds none
of their code. PyTorch Geometric, which they import, is not installable
here: the few names they import are stood in for below (Data, to_networkx as
PyG builds it, BaseTransform, functional_transform), none of them on the
timed path except to_networkx, which GTR calls once per graph as it would
PyG's.

    python3 bench/peers/peers.py --method fosr --repo FOSR_CHECKOUT \\
        --data "$OHM_DATA" --dataset PROTEINS [--budget 0.1] [--threads 1]

prints one JSON object: method, dataset, graphs, added edges, the wall and
CPU seconds of the loop over the graphs (imports, reading and numba's
compilation aside), for FoSR the compilation's seconds, and the CPU
seconds of the whole process so far (process_cpu_seconds). Needs numpy, torch, networkx and
(FoSR) numba: Debian's python3-numpy, python3-torch, python3-networkx,
python3-numba.
"""

import argparse
import importlib.util
import json
import math
import os
import resource
import sys
import time
import types

import numpy as np


def stand_in_pyg():
    """Registers a minimal torch_geometric: the names the peers import."""
    import networkx as nx
    import torch

    class Data:
        def __init__(self, edge_index=None, num_nodes=None, **kw):
            self.edge_index, self.num_nodes = edge_index, num_nodes
            self.__dict__.update(kw)

    def to_networkx(data, to_undirected=False):
        # As PyG's to_networkx: every node, then every arc of edge_index.
        g = nx.Graph() if to_undirected else nx.DiGraph()
        g.add_nodes_from(range(data.num_nodes))
        for u, v in data.edge_index.t().tolist():
            g.add_edge(u, v)
        return g

    class BaseTransform:
        def __call__(self, data):
            return self.forward(data)

    def functional_transform(name):
        return lambda cls: cls

    mods = {}
    for name in ["torch_geometric", "torch_geometric.data", "torch_geometric.data.datapipes",
                 "torch_geometric.transforms", "torch_geometric.utils", "torch_geometric.utils.convert"]:
        mods[name] = sys.modules[name] = types.ModuleType(name)
    mods["torch_geometric"].data = mods["torch_geometric.data"]
    mods["torch_geometric"].utils = mods["torch_geometric.utils"]
    mods["torch_geometric"].transforms = mods["torch_geometric.transforms"]
    mods["torch_geometric.data"].Data = Data
    mods["torch_geometric.data"].datapipes = mods["torch_geometric.data.datapipes"]
    mods["torch_geometric.data.datapipes"].functional_transform = functional_transform
    mods["torch_geometric.transforms"].BaseTransform = BaseTransform
    mods["torch_geometric.utils"].to_networkx = to_networkx
    mods["torch_geometric.utils"].convert = mods["torch_geometric.utils.convert"]
    mods["torch_geometric.utils.convert"].to_networkx = to_networkx
    return Data


def read_tu(root, name):
    """The graphs of a TU dataset as PyG builds them: per-graph edge_index
    (self-loops removed, duplicates merged, sorted) and node counts."""
    raw = os.path.join(root, name, "raw", name + "_")
    arcs = np.loadtxt(raw + "A.txt", delimiter=",", dtype=np.int64).reshape(-1, 2) - 1
    batch = np.loadtxt(raw + "graph_indicator.txt", dtype=np.int64) - 1
    arcs = arcs[arcs[:, 0] != arcs[:, 1]]
    n = len(batch)
    arcs = np.unique(arcs[:, 0] * n + arcs[:, 1])
    arcs = np.stack([arcs // n, arcs % n])
    ptr = np.concatenate([[0], np.cumsum(np.bincount(batch))])
    g_of = batch[arcs[0]]
    graphs = []
    for i in range(len(ptr) - 1):
        ei = arcs[:, g_of == i] - ptr[i]
        graphs.append((np.ascontiguousarray(ei), int(ptr[i + 1] - ptr[i])))
    return graphs


def load(path, module):
    spec = importlib.util.spec_from_file_location(module, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--method", choices=["fosr", "gtr"], required=True)
    p.add_argument("--repo", required=True, help="checkout of kedar2/FoSR or blackmit/gtr_rewiring")
    p.add_argument("--data", required=True)
    p.add_argument("--dataset", required=True)
    p.add_argument("--budget", type=float, default=0.1)
    p.add_argument("--threads", type=int, default=1)
    a = p.parse_args()
    import torch
    torch.set_num_threads(a.threads)
    Data = stand_in_pyg()
    graphs = read_tu(a.data, a.dataset)
    budgets = [int(math.floor(a.budget * (ei.shape[1] // 2) + 1e-9)) for ei, _ in graphs]
    out = {"method": a.method, "dataset": a.dataset, "graphs": len(graphs), "threads": a.threads}
    if a.method == "fosr":
        fosr = load(os.path.join(a.repo, "preprocessing", "fosr.py"), "fosr")
        np.random.seed(0)
        t0 = time.perf_counter()
        fosr.edge_rewire(graphs[0][0], num_iterations=1)  # numba compiles here
        out["compile_seconds"] = time.perf_counter() - t0
        added = 0
        t0, c0 = time.perf_counter(), time.process_time()
        for (ei, n), k in zip(graphs, budgets):
            new, _, _ = fosr.edge_rewire(ei, num_iterations=k)
            added += (new.shape[1] - ei.shape[1]) // 2
        out["seconds"], out["cpu_seconds"] = time.perf_counter() - t0, time.process_time() - c0
    else:
        gtr = load(os.path.join(a.repo, "src", "gtr.py"), "gtr")
        added = 0
        t0, c0 = time.perf_counter(), time.process_time()
        for (ei, n), k in zip(graphs, budgets):
            b = gtr.GTREdgeBuilder(Data(edge_index=torch.from_numpy(ei), num_nodes=n), try_gpu=False)
            added += b.compute_edges(k).shape[1] // 2
        out["seconds"], out["cpu_seconds"] = time.perf_counter() - t0, time.process_time() - c0
    out["added"] = added
    ru = resource.getrusage(resource.RUSAGE_SELF)
    out["process_cpu_seconds"] = ru.ru_utime + ru.ru_stime  # imports, reading, compiling, the loop
    print(json.dumps(out))


if __name__ == "__main__":
    main()
