#!/usr/bin/python3
"""Reference outputs for ohm's graph-classification models (definitions §4.4).

Pure PyTorch (no PyG): GCNConv, GINConv, RGCNConv, FoSR's RGINConv,
global_mean_pool / global_add_pool and the cross-entropy, written as PyG's
documentation states them, in float64, on a fixed mini-batch of MUTAG graphs.
It writes graph_reference.json beside itself: the graphs, every parameter
(weights stored in×out, the transpose of torch's Linear.weight), and, per
model, the pooled scores and the loss in training mode, every parameter's
gradient, the BatchNorm running statistics after that forward pass and the
scores in evaluation mode afterwards. TestGraphReference compares ohm with
these numbers; it needs no Python.

Regenerate with `make graph-reference` or (Debian python3-torch; MUTAG's raw TU
files in PyG's layout):

    OHM_DATA=/path/to/data /usr/bin/python3 model/gnn/testdata/graph_reference.py
"""

import json
import os

import torch

torch.set_default_dtype(torch.float64)
HERE = os.path.dirname(os.path.abspath(__file__))
GRAPHS = [0, 1, 2, 3, 4, 5, 6, 7]  # MUTAG graphs in the batch (0-based)
HIDDEN, LAYERS = 16, 2  # 2 hidden layers: 3 convolutions


def read_tu(root, name, graphs=None):
    """A TU dataset as PyG's TUDataset reads it: 1-based arcs made 0-based,
    self-loops removed, arcs coalesced (sorted by source then target,
    duplicates merged), node labels one-hot, graph labels renumbered 0..;
    the graphs of the list graphs (default all)."""
    raw = os.path.join(root, name, "raw")

    def ints(part):
        with open(os.path.join(raw, "%s_%s.txt" % (name, part))) as f:
            return [[int(v) for v in line.replace(",", " ").split()] for line in f if line.strip()]

    gid = [r[0] - 1 for r in ints("graph_indicator")]
    nl = [r[0] for r in ints("node_labels")]
    gl = [r[0] for r in ints("graph_labels")]
    classes = sorted(set(gl))
    lo, F = min(nl), max(nl) - min(nl) + 1
    start, count = {}, {}
    for i, g in enumerate(gid):
        start.setdefault(g, i)
        count[g] = count.get(g, 0) + 1
    arcs = {}
    for u, v in ints("A"):
        u, v = u - 1, v - 1
        if u != v:
            arcs.setdefault(gid[u], set()).add((u - start[gid[u]], v - start[gid[u]]))
    out = []
    for g in range(len(gl)) if graphs is None else graphs:
        es = sorted(arcs.get(g, ()))
        x = [[1.0 if nl[i] - lo == k else 0.0 for k in range(F)] for i in range(start[g], start[g] + count[g])]
        # Relation 1 ("added") on the arcs of some edges, both directions,
        # so that the relational layers see two non-empty relations.
        typ = [1 if (min(u, v) + max(u, v)) % 3 == 0 else 0 for u, v in es]
        out.append({"n": count[g], "x": x, "src": [u for u, _ in es], "dst": [v for _, v in es],
                    "type": typ, "label": classes.index(gl[g])})
    return out, F, len(classes)


def glorot_(w):
    a = (6.0 / (w.shape[0] + w.shape[1])) ** 0.5
    with torch.no_grad():
        w.uniform_(-a, a)


def scatter_sum(msg, index, n):
    return torch.zeros(n, msg.shape[1]).index_add_(0, index, msg)


class GCNConv(torch.nn.Module):
    """PyG GCNConv: X' = D^-1/2 (A + I) D^-1/2 X W + b, one self-loop of
    weight 1 per node (add_remaining_self_loops), d_i = sum over the arcs
    into i; W Glorot (stored in x out), b zero."""

    def __init__(self, fin, fout):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.empty(fin, fout))
        self.bias = torch.nn.Parameter(torch.zeros(fout))
        glorot_(self.weight)

    def forward(self, x, src, dst, typ):
        n = x.shape[0]
        loop = torch.arange(n)
        s, d = torch.cat([src, loop]), torch.cat([dst, loop])
        deg = torch.zeros(n).index_add_(0, d, torch.ones(len(d)))
        norm = deg[s] ** -0.5 * deg[d] ** -0.5
        h = x @ self.weight
        return scatter_sum(norm[:, None] * h[s], d, n) + self.bias


def mlp(fin, fout):
    bn = torch.nn.BatchNorm1d(fout)
    with torch.no_grad():  # non-trivial scale and shift
        bn.weight.add_(0.2 * torch.randn(fout))
        bn.bias.add_(0.2 * torch.randn(fout))
    return torch.nn.Sequential(torch.nn.Linear(fin, fout), bn, torch.nn.ReLU(), torch.nn.Linear(fout, fout))


class GINConv(torch.nn.Module):
    """PyG GINConv, eps 0: X'_i = MLP((1 + eps) x_i + sum_{j -> i} x_j)."""

    def __init__(self, fin, fout, rel=None):
        super().__init__()
        self.mlp = mlp(fin, fout)
        self.rel = rel

    def forward(self, x, src, dst, typ):
        if self.rel is not None:
            keep = typ == self.rel
            src, dst = src[keep], dst[keep]
        return self.mlp(x + scatter_sum(x[src], dst, x.shape[0]))


class RGCNConv(torch.nn.Module):
    """PyG RGCNConv, two relations, aggr mean: X'_i = x_i Root + b +
    sum_r mean_{j -> i of relation r} x_j W_r; Root and W_r Glorot, b zero."""

    def __init__(self, fin, fout):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.empty(2, fin, fout))
        self.root = torch.nn.Parameter(torch.empty(fin, fout))
        self.bias = torch.nn.Parameter(torch.zeros(fout))
        for r in range(2):
            glorot_(self.weight.data[r])
        glorot_(self.root)

    def forward(self, x, src, dst, typ):
        n = x.shape[0]
        out = x @ self.root + self.bias
        for r in range(2):
            keep = typ == r
            s, d = src[keep], dst[keep]
            cnt = torch.zeros(n).index_add_(0, d, torch.ones(len(d))).clamp(min=1)
            out = out + (scatter_sum(x[s], d, n) / cnt[:, None]) @ self.weight[r]
        return out


class RGINConv(torch.nn.Module):
    """FoSR's RGINConv: self_loop_conv(x) + sum_r GINConv_r(x, arcs of r)."""

    def __init__(self, fin, fout):
        super().__init__()
        self.self_loop_conv = torch.nn.Linear(fin, fout)
        self.convs = torch.nn.ModuleList([GINConv(fin, fout, r) for r in range(2)])

    def forward(self, x, src, dst, typ):
        out = self.self_loop_conv(x)
        for c in self.convs:
            out = out + c(x, src, dst, typ)
        return out


CONV = {"gcn": GCNConv, "gin": GINConv, "rgcn": RGCNConv, "rgin": RGINConv}


class GNN(torch.nn.Module):
    """FoSR's GNN: conv -> ReLU -> (dropout) -> ... -> conv -> mean pool."""

    def __init__(self, kind, fin, classes, pool):
        super().__init__()
        dims = [fin] + [HIDDEN] * LAYERS + [classes]
        self.layers = torch.nn.ModuleList([CONV[kind](a, b) for a, b in zip(dims[:-1], dims[1:])])
        self.pool = pool

    def forward(self, x, src, dst, typ, batch, graphs):
        for i, layer in enumerate(self.layers):
            x = layer(x, src, dst, typ)
            if i != len(self.layers) - 1:
                x = torch.relu(x)
        s = scatter_sum(x, batch, graphs)
        if self.pool == "mean":
            s = s / torch.zeros(graphs).index_add_(0, batch, torch.ones(len(batch)))[:, None]
        return s


def ohm_params(model, kind):
    """Parameters (and running statistics) under ohm's names, weights in x out
    (torch.nn.Linear stores out x in: transposed)."""
    linear = {n + ".weight" for n, m in model.named_modules() if isinstance(m, torch.nn.Linear)}

    def rename(name):
        for a, b in [("layers.", "layer"), ("self_loop_conv", "self"), ("convs.", "conv"), ("mlp.", "mlp")]:
            name = name.replace(a, b)
        return name

    out, stats = {}, {}
    for name, p in model.named_parameters():
        key, v, g = rename(name), p.detach(), p.grad
        if p.dim() == 3:  # RGCNConv.weight: one in x out block per relation
            for r in range(p.shape[0]):
                out[key[: -len("weight")] + "weight%d.weight" % r] = (v[r], g[r])
        elif name in linear:
            out[key] = (v.t(), g.t())
        elif p.dim() == 2:  # GCNConv.weight, RGCNConv.root: in x out
            out[key + ".weight" if key.endswith(".root") else key] = (v, g)
        else:  # biases and BatchNorm's scale and shift: 1 x out
            if kind == "rgcn":
                key = key.replace(".bias", ".root.bias")
            out[key] = (v[None, :], g[None, :])
    for name, m in model.named_modules():
        if isinstance(m, torch.nn.BatchNorm1d):
            stats[rename(name)] = {"mean": m.running_mean.tolist(), "var": m.running_var.tolist()}
    return {k: {"value": v.tolist(), "grad": g.tolist()} for k, (v, g) in out.items()}, stats


def collate(graphs):
    """PyG's Batch of the graphs: stacked x, arcs offset, the batch vector."""
    xs, src, dst, typ, batch, off = [], [], [], [], [], 0
    for b, g in enumerate(graphs):
        xs += g["x"]
        src += [u + off for u in g["src"]]
        dst += [v + off for v in g["dst"]]
        typ += g["type"]
        batch += [b] * g["n"]
        off += g["n"]
    return (torch.tensor(xs), torch.tensor(src, dtype=torch.long), torch.tensor(dst, dtype=torch.long),
            torch.tensor(typ, dtype=torch.long), torch.tensor(batch, dtype=torch.long))


def trajectory(graphs, F, C):
    """Three epochs of GIN (sum pooling) on the eight graphs in two fixed
    batches of four, Adam at 1e-2, no dropout: the parameters before, the
    losses of the six steps, and the parameters, running statistics and
    evaluation scores after."""
    torch.manual_seed(7)
    model = GNN("gin", F, C, "sum")
    before, _ = ohm_params_values(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    batches = [[0, 1, 2, 3], [4, 5, 6, 7]]
    losses = []
    model.train()
    for _ in range(3):
        for ids in batches:
            b = [graphs[i] for i in ids]
            x, src, dst, typ, batch = collate(b)
            loss = torch.nn.functional.cross_entropy(model(x, src, dst, typ, batch, len(b)),
                                                     torch.tensor([g["label"] for g in b]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    after, stats = ohm_params_values(model)
    model.eval()
    x, src, dst, typ, batch = collate(graphs)
    with torch.no_grad():
        ev = model(x, src, dst, typ, batch, len(graphs))
    return {"batches": batches, "before": before, "losses": losses, "after": after, "running": stats,
            "eval_scores": ev.tolist()}


def ohm_params_values(model):
    """ohm_params's names and values without gradients."""
    for p in model.parameters():
        p.grad = torch.zeros_like(p)
    params, stats = ohm_params(model, "gin")
    for p in model.parameters():
        p.grad = None
    return {k: v["value"] for k, v in params.items()}, stats


def plateau():
    """torch's ReduceLROnPlateau with its defaults on Adam at 1e-3, stepped on
    a fixed sequence of summed losses (improving, flat, within the 1e-4
    relative threshold, and long plateaus): the learning rate after each
    step."""
    metrics = [5.0, 4.0, 3.5, 3.5, 3.4999, 3.49999] + [3.4996] * 12 + [3.0] + [3.0 * (1 - 0.5e-4)] * 25
    metrics += [2.0 + 0.001 * k for k in range(40)]
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.Adam([p], lr=1e-3)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
    lrs = []
    for m in metrics:
        sched.step(m)
        lrs.append(opt.param_groups[0]["lr"])
    return {"metrics": metrics, "lr": lrs}


def main():
    graphs, F, C = read_tu(os.environ.get("OHM_DATA", "data"), "MUTAG", GRAPHS)
    x, src, dst, typ, batch = collate(graphs)
    y = torch.tensor([g["label"] for g in graphs])
    doc = {"features": F, "classes": C, "hidden": HIDDEN, "layers": LAYERS, "graphs": graphs, "models": []}
    torch.manual_seed(49)
    for kind in ["gcn", "gin", "rgcn", "rgin"]:
        for pool in ["mean", "sum"]:
            model = GNN(kind, F, C, pool)
            model.train()
            scores = model(x, src, dst, typ, batch, len(graphs))
            loss = torch.nn.functional.cross_entropy(scores, y)
            loss.backward()
            params, stats = ohm_params(model, kind)
            model.eval()
            with torch.no_grad():
                ev = model(x, src, dst, typ, batch, len(graphs))
            doc["models"].append({"kind": kind, "pool": pool, "params": params, "running": stats,
                                  "scores": scores.tolist(), "loss": loss.item(), "eval_scores": ev.tolist()})
    doc["plateau"] = plateau()
    doc["trajectory"] = trajectory(graphs, F, C)
    with open(os.path.join(HERE, "graph_reference.json"), "w") as f:
        json.dump(doc, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
