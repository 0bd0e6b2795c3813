"""ohm.rewire against the command it runs, round trips and errors."""

import json
import os
import unittest

import numpy as np

from .helpers import cli, data_dir, ohm, sample_graph, tmpdir

METHODS = ["err", "err-hop", "res", "res-hop", "curvature", "gtr", "fosr"]


def cli_rewire(case, args, graph=None):
    """ohm rewire with args on a graph file (or a dataset in args): the
    rewired edge_index, added, removed and the log, read back from files."""
    d = tmpdir(case)
    out, log = os.path.join(d, "out.npz"), os.path.join(d, "log.jsonl")
    extra = []
    if graph is not None:
        gin = os.path.join(d, "in.npz")
        np.savez(gin, edge_index=graph[0], num_nodes=np.int64(graph[1]))
        extra = ["--graph", gin]
    cli("rewire", *extra, *args, "--out", out, "--log", log)
    with np.load(out) as z:
        ei, added, removed = z["edge_index"], z["added"], z["removed"]
    with open(log) as f:
        lines = [json.loads(x) for x in f if x.strip()]
    return ei, added, removed, lines


class TestRewireEqualsCLI(unittest.TestCase):
    def test_every_method(self):
        ei, n = sample_graph()
        for m in METHODS:
            for directed in ([False, True] if m in ("err", "res", "err-hop", "curvature") else [False]):
                with self.subTest(method=m, directed=directed):
                    r = ohm.rewire(ei, n, method=m, budget=0.3, directed=directed)
                    args = ["--method", m, "--budget", "0.3"] + (["--directed"] if directed else [])
                    want_ei, want_add, want_rem, want_log = cli_rewire(self, args, (ei, n))
                    np.testing.assert_array_equal(r.edge_index, want_ei)
                    np.testing.assert_array_equal(r.added, want_add.reshape(2, -1))
                    np.testing.assert_array_equal(r.removed, want_rem.reshape(2, -1))
                    self.assertEqual(r.log, want_log)
                    self.assertEqual(r.summary["method"], m)
                    self.assertEqual(r.summary["added"], len(want_add.reshape(2, -1)[0]))
                    self.assertEqual(r.edge_index.dtype, np.int64)
                    self.assertEqual(r.edge_type.shape, (r.edge_index.shape[1],))
                    # edge_type marks exactly the net additions.
                    arcs_per_edge = 1 if directed else 2
                    self.assertEqual(int(r.edge_type.sum()), arcs_per_edge * r.summary["added_net"])

    def test_fosr_start_vector(self):
        ei, n = sample_graph()
        x0 = np.linspace(-1, 1, n)
        a = ohm.rewire(ei, n, method="fosr", budget=0.3, fosr_x0=x0)
        b = ohm.rewire(ei, n, method="fosr", budget=0.3, fosr_x0=x0)
        np.testing.assert_array_equal(a.edge_index, b.edge_index)
        self.assertEqual(len(a.log), a.summary["iterations"])


class TestRoundTrip(unittest.TestCase):
    def test_unchanged_graph(self):
        # A budget below one iteration changes nothing: the graph comes back
        # as PyG's coalesced edge_index (both arcs, self-loops once, sorted).
        ei, n = sample_graph()
        shuffled = ei[:, np.random.default_rng(0).permutation(ei.shape[1])]
        dup = np.concatenate([shuffled, shuffled[:, :3]], axis=1)  # duplicates coalesce
        r = ohm.rewire(dup, n, method="res", budget=1e-6)
        want = np.unique(ei.T, axis=0).T
        np.testing.assert_array_equal(r.edge_index, want)
        self.assertEqual(int(r.edge_type.sum()), 0)
        self.assertEqual(r.summary["iterations"], 0)
        self.assertEqual(r.added.shape, (2, 0))

    def test_isolated_nodes_and_loops_kept(self):
        ei, n = sample_graph()
        r = ohm.rewire(ei, n, method="res", budget=0.2)
        loops = r.edge_index[:, r.edge_index[0] == r.edge_index[1]]
        np.testing.assert_array_equal(loops, [[2, 9], [2, 9]])
        # An undirected result holds both arcs of every edge.
        fwd = {(u, v) for u, v in r.edge_index.T}
        self.assertTrue(all((v, u) in fwd for u, v in fwd))
        # Isolated nodes stay addressable: resistances are still defined there.
        rr = ohm.resistance(r.edge_index, n, pairs=[[13, 14]])
        self.assertEqual(rr.shape, (1,))

    def test_torch_like_input(self):
        class Tensor:  # what a torch tensor offers ohm: detach().cpu().numpy()
            def __init__(self, a):
                self.a = a

            def detach(self):
                return self

            def cpu(self):
                return self

            def numpy(self):
                return self.a

        ei, n = sample_graph()
        a = ohm.rewire(Tensor(ei), n, method="err", budget=0.2)
        b = ohm.rewire(ei, n, method="err", budget=0.2)
        np.testing.assert_array_equal(a.edge_index, b.edge_index)


class TestErrors(unittest.TestCase):
    def test_bad_budget_is_value_error(self):
        ei, n = sample_graph()
        with self.assertRaisesRegex(ValueError, r"--budget 2: must lie in \(0, 1\]"):
            ohm.rewire(ei, n, budget=2)

    def test_bad_method_is_value_error(self):
        ei, n = sample_graph()
        with self.assertRaisesRegex(ValueError, 'unknown method "nope"'):
            ohm.rewire(ei, n, method="nope")

    def test_directed_gtr_refused(self):
        ei, n = sample_graph()
        with self.assertRaisesRegex(ValueError, "gtr rewires undirected graphs"):
            ohm.rewire(ei, n, method="gtr", directed=True)

    def test_bad_edge_index(self):
        with self.assertRaisesRegex(ValueError, "shape"):
            ohm.rewire(np.zeros((3, 2), dtype=np.int64), 4)
        with self.assertRaisesRegex(ValueError, "outside"):
            ohm.rewire(np.array([[0], [7]]), 4)

    def test_failure_is_ohm_error(self):
        ei, n = sample_graph()
        with self.assertRaises(ohm.OhmError):
            ohm.rewire(ei, n, method="fosr", fosr_x0=np.zeros(n))  # x = 0: no direction


class TestCornell(unittest.TestCase):
    """The five-line use of the README: Cornell's edge_index in, the CLI's graph out."""

    def test_cornell_as_cli(self):
        root = data_dir(self, "cornell/raw/out1_graph_edges.txt")
        d = tmpdir(self)
        exp = os.path.join(d, "cornell.npz")
        cli("--data-dir", root, "data", "export", "--dataset", "cornell", "--out", exp)
        z = np.load(exp)
        r = ohm.rewire(z["edge_index"], int(z["num_nodes"]), method="err", budget=0.1)
        want_ei, _, _, want_log = cli_rewire(self, ["--data-dir", root, "--dataset", "cornell", "--method", "err", "--budget", "0.1"])
        np.testing.assert_array_equal(r.edge_index, want_ei)
        self.assertEqual(r.log, want_log)


if __name__ == "__main__":
    unittest.main()
