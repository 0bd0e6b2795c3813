"""ohm.rewire against the command it runs, round trips and errors."""

import json
import os
import unittest

import numpy as np

from helpers import cli, data_dir, ohm, sample_graph, tmpdir

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

    def test_numpy_in_numpy_out(self):
        ei, n = sample_graph()
        r = ohm.rewire(ei.astype(np.int32), n, method="err", budget=0.2)
        for name in ("edge_index", "edge_type", "added", "removed"):
            a = getattr(r, name)
            self.assertIsInstance(a, np.ndarray, name)
            self.assertEqual(a.dtype, np.int64, name)
        self.assertEqual(r.edge_index.shape[0], 2)
        self.assertIn("edge_index=<2×", repr(r))
        u, v, k = ohm.curvature(ei, n)
        self.assertIsInstance(k, np.ndarray)
        self.assertIsInstance(ohm.resistance(ei, n, pairs=[[0, 7]]), np.ndarray)

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
    """A bad argument is a ValueError naming the Python argument (never a
    flag of the command), raised before the command runs where Python can
    tell; what only the command can tell keeps its reason under the
    argument's name."""

    def assertArgError(self, pattern, **kwargs):
        ei, n = sample_graph()
        with self.assertRaises(ValueError) as cm:
            ohm.rewire(ei, n, **kwargs)
        msg = str(cm.exception)
        self.assertRegex(msg, pattern)
        self.assertNotIn("--", msg, "a flag of the command leaked into the message")
        return msg

    def test_checked_before_the_command(self):
        # Python's checks come first: the command never runs on them.
        from unittest import mock

        ei, n = sample_graph()
        with mock.patch("ohm.core.run", side_effect=AssertionError("the command ran")), \
                mock.patch("ohm._serve.request", side_effect=AssertionError("the child was asked")):
            for kw in (dict(budget=2.0), dict(method="erx"), dict(engine="fast"), dict(alpha=-1),
                       dict(max_iterations=-1), dict(method="fosr", directed=True)):
                with self.subTest(**kw), self.assertRaises(ValueError):
                    ohm.rewire(ei, n, **kw)

    def test_bad_budget(self):
        self.assertArgError(r"^budget=2\.0: must lie in \(0, 1\]", budget=2.0)
        self.assertArgError(r"^budget=2: must lie in \(0, 1\]", budget=2)
        self.assertArgError(r"^budget=0: must lie in \(0, 1\]", budget=0)
        self.assertArgError(r"^budget=nan: must lie in \(0, 1\]", budget=float("nan"))
        self.assertArgError(r"^budget='0\.1': must be a number", budget="0.1")

    def test_bad_method(self):
        self.assertArgError(r"^method='erx': unknown \(known: err, err-hop, res, res-hop, curvature, gtr, fosr\)",
                            method="erx")

    def test_method_case_does_not_matter(self):
        ei, n = sample_graph()
        self.assertEqual(ohm.rewire(ei, n, method="ERR", budget=0.1).summary["method"], "err")

    def test_summary_names_the_input(self):
        # summary["dataset"] names the input as given, never the temporary
        # file the command read (issue 53).
        ei, n = sample_graph()
        self.assertEqual(ohm.rewire(ei, n, budget=0.1).summary["dataset"], "edge_index")
        self.assertEqual(ohm.rewire(ei, n, budget=0.1, name="cornell").summary["dataset"], "cornell")
        self.assertEqual(ohm.resistance(ei, n)["dataset"], "edge_index")
        self.assertEqual(ohm.resistance(ei, n, name="g")["dataset"], "g")
        self.assertArgError(r"^name='': must be a non-empty string", name="")

    def test_bad_engine(self):
        self.assertArgError(r"^engine='fast': unknown \(known: auto, incremental, exact, sketch", engine="fast")

    def test_bad_numbers(self):
        self.assertArgError(r"^alpha=2: must lie in \[0, 1\]", alpha=2)
        self.assertArgError(r"^max_iterations=-1: must be ≥ 0", max_iterations=-1)
        self.assertArgError(r"^max_iterations=1\.5: must be an integer", max_iterations=1.5)
        self.assertArgError(r"^seed=-1: must be in \[0, 2\*\*64\)", seed=-1)
        with self.assertRaisesRegex(ValueError, r"^num_nodes=-1: must be in \[0, 2147483647\]"):
            ohm.rewire(np.zeros((2, 0), dtype=np.int64), -1)

    def test_directed_gtr_refused(self):
        self.assertArgError(r"^directed=True: method='gtr' rewires undirected graphs only", method="gtr", directed=True)
        self.assertArgError(r"^within_components=True: applies to undirected graphs", directed=True,
                            within_components=True)

    def test_command_errors_name_the_argument(self):
        # Only the command knows which engines a method has: its usage
        # error comes back with the argument's name in place of the flag.
        msg = self.assertArgError(r"^engine='exact': this method has no exact engine", method="gtr", engine="exact")
        self.assertNotIn("--engine", msg)
        self.assertArgError(r"^engine='sketch': runs err and res on undirected graphs only", method="err-hop",
                            engine="sketch")

    def test_flag_to_argument_mapping(self):
        # The mapping itself, on the command's own wordings (exit status 2).
        from ohm._binary import _UNSET, python_error

        names = {"--budget": ("budget", 2.0), "--method": ("method", "erx"), "--engine": ("engine", "fast"),
                 "--alpha": ("alpha", 2), "--directed": ("directed", True), "--fosr-x0": ("fosr_x0", _UNSET)}
        cases = [
            ("--budget 2: must lie in (0, 1] (a fraction of E0, e.g. 0.05)",
             "budget=2.0: must lie in (0, 1] (a fraction of E0, e.g. 0.05)"),
            ("--method erx: unknown (known: res, err)", "method='erx': unknown (known: res, err)"),
            ("--engine fast: unknown (known: auto, incremental, exact, sketch)",
             "engine='fast': unknown (known: auto, incremental, exact, sketch)"),
            ("--alpha 2: must lie in [0, 1]", "alpha=2: must lie in [0, 1]"),
            ("--directed: gtr rewires undirected graphs only", "directed=True: gtr rewires undirected graphs only"),
            ("--fosr-x0 of 5 entries: the graph has 15 nodes", "fosr_x0 of 5 entries: the graph has 15 nodes"),
            ("--top 3: not a flag of this call", "--top 3: not a flag of this call"),
            ("reading the graph: bad file", "reading the graph: bad file"),
        ]
        for got, want in cases:
            with self.subTest(got=got):
                self.assertEqual(python_error(got, names), want)

    def test_bad_edge_index(self):
        with self.assertRaisesRegex(ValueError, r"^edge_index: must have shape \(2, E\)"):
            ohm.rewire(np.zeros((3, 2), dtype=np.int64), 4)
        with self.assertRaisesRegex(ValueError, r"^edge_index: holds a node id outside \[0, num_nodes=4\)"):
            ohm.rewire(np.array([[0], [7]]), 4)
        with self.assertRaisesRegex(ValueError, r"^edge_index: must hold integers"):
            ohm.rewire(np.array([[0.0], [1.0]]), 4)

    def test_fosr_x0_shape(self):
        ei, n = sample_graph()
        with self.assertRaisesRegex(ValueError, r"^fosr_x0: must have shape \(num_nodes,\) = \(15,\)"):
            ohm.rewire(ei, n, method="fosr", fosr_x0=np.zeros(3))

    def test_failure_is_ohm_error(self):
        ei, n = sample_graph()
        with self.assertRaises(ohm.OhmError):
            ohm.rewire(ei, n, method="fosr", fosr_x0=np.zeros(n))  # x = 0: no direction

    def test_help_documents_every_argument(self):
        import inspect

        doc = inspect.getdoc(ohm.rewire)
        for name in inspect.signature(ohm.rewire).parameters:
            self.assertRegex(doc, rf"(?m)^    {name}: ", f"help(ohm.rewire) does not document {name}")
        for fld in ("edge_index", "edge_type", "added", "removed", "log", "summary"):
            self.assertIn(fld, doc.split("Returns:")[1])


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
