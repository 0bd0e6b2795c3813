#!/usr/bin/python3
"""One epoch of FoSR's graph-classification protocol in pure PyTorch, timed:
the PyTorch side of ohm's BenchmarkGraphEpoch (docs/benchmarks.md).

The layers of graph_reference.py (GCNConv, GINConv as PyG documents them),
4 hidden layers of 64, dropout 0.5, mean pooling, Adam at 1e-3; an epoch is
the 80 % training graphs in shuffled batches of 64 (each collated as PyG's
Batch, a forward, the cross-entropy, a backward and an Adam step), then the
evaluation of every graph in batches of 64, as ohm's GraphTrainer.Epoch.
One thread (torch.set_num_threads(1)). It prints the median epoch in ms,
wall and the thread's CPU time, over --epochs epochs after one warm-up
epoch.

    OHM_DATA=/path/to/data /usr/bin/python3 model/gnn/testdata/graph_bench.py --dataset PROTEINS --model gin
"""

import argparse
import os
import random
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graph_reference as ref  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default="PROTEINS")
    ap.add_argument("--model", default="gin", choices=["gcn", "gin"])
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--dtype", default="float64", choices=["float32", "float64"])
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.set_default_dtype(getattr(torch, a.dtype))
    torch.manual_seed(0)
    random.seed(0)
    graphs, F, C = ref.read_tu(os.environ.get("OHM_DATA", "data"), a.dataset)
    ref.HIDDEN, ref.LAYERS = 64, 4
    model = ref.GNN(a.model, F, C, "mean")
    drop = torch.nn.Dropout(0.5)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    order = list(range(len(graphs)))
    random.shuffle(order)
    train = order[: int(0.8 * len(graphs))]

    # Each graph as tensors once; a batch is their torch.cat, as PyG's
    # Batch.from_data_list collates them.
    tens = [(torch.tensor(g["x"]), torch.tensor(g["src"], dtype=torch.long), torch.tensor(g["dst"], dtype=torch.long),
             torch.tensor(g["type"], dtype=torch.long), g["n"], g["label"]) for g in graphs]

    def collate(b):
        n = torch.tensor([t[4] for t in b])
        off = torch.cumsum(n, 0) - n
        arcs = torch.tensor([len(t[1]) for t in b])
        shift = torch.repeat_interleave(off, arcs)
        return (torch.cat([t[0] for t in b]), torch.cat([t[1] for t in b]) + shift, torch.cat([t[2] for t in b]) + shift,
                torch.cat([t[3] for t in b]), torch.repeat_interleave(torch.arange(len(b)), n))

    def forward(b, training):
        x, src, dst, typ, batch = collate(b)
        for i, layer in enumerate(model.layers):
            x = layer(x, src, dst, typ)
            if i != len(model.layers) - 1:
                x = torch.relu(x)
                if training:
                    x = drop(x)
        s = ref.scatter_sum(x, batch, len(b))
        return s / torch.zeros(len(b)).index_add_(0, batch, torch.ones(len(batch)))[:, None]

    def epoch():
        model.train()
        random.shuffle(train)
        for k in range(0, len(train), 64):
            b = [tens[i] for i in train[k:k + 64]]
            y = torch.tensor([t[5] for t in b])
            loss = torch.nn.functional.cross_entropy(forward(b, True), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        right = 0
        with torch.no_grad():
            for k in range(0, len(order), 64):
                b = [tens[i] for i in order[k:k + 64]]
                right += int((forward(b, False).argmax(1) == torch.tensor([t[5] for t in b])).sum())
        return right

    epoch()  # warm-up
    ms, cpu = [], []
    for _ in range(a.epochs):
        t0, c0 = time.perf_counter(), time.thread_time()
        epoch()
        ms.append(1000 * (time.perf_counter() - t0))
        cpu.append(1000 * (time.thread_time() - c0))
    print("%s %s %s: median epoch %.1f ms wall (min %.1f, max %.1f), %.1f ms thread CPU (min %.1f), over %d epochs" % (
        a.dataset, a.model, a.dtype, statistics.median(ms), min(ms), max(ms), statistics.median(cpu), min(cpu), len(ms)))


if __name__ == "__main__":
    main()
