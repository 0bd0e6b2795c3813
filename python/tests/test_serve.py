"""The kept `ohm serve` child: reused, restarted after a kill, stopped by an
interrupt, not shared across fork, shared by threads, gone with its parent;
rewire_many equal to rewire graph by graph; edge attributes carried."""

import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
import unittest
import warnings
from pathlib import Path
from unittest import mock

import numpy as np

from helpers import INSTALLED, PYTHON_DIR, need_torch, ohm, sample_graph, tmpdir

HERE = Path(__file__).resolve().parent
METHODS = ["err", "err-hop", "res", "res-hop", "curvature", "gtr", "fosr"]


def gone(pid, timeout=10.0):
    """Whether process pid ends (or is a zombie) within timeout seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            if Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z"):
                return True
        except (OSError, IndexError):
            pass
        time.sleep(0.02)
    return False


def random_graphs(count, seed=0):
    """count random undirected graphs of 8–30 nodes (both arcs of every
    edge), some disconnected, with isolated nodes."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(8, 31))
        m = int(rng.integers(n // 2, 2 * n))
        u, v = rng.integers(0, n, m), rng.integers(0, n, m)
        keep = u != v
        ei = np.stack([np.concatenate([u[keep], v[keep]]), np.concatenate([v[keep], u[keep]])])
        out.append((ei.astype(np.int64), n))
    return out


class ProxyCase(unittest.TestCase):
    """Runs the kept child behind serve_proxy.py in a mode."""

    def use_proxy(self, mode):
        real = ohm.binary()
        script = Path(tmpdir(self)) / "ohm"
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{HERE / "serve_proxy.py"}" "$@"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        ohm.close_child()
        env = mock.patch.dict(os.environ, {"OHM_PROXY_REAL": real, "OHM_PROXY_MODE": mode})
        binary = mock.patch("ohm._serve.binary", return_value=str(script))
        env.start()
        binary.start()

        def stop():
            ohm.close_child()
            binary.stop()
            env.stop()

        self.addCleanup(stop)


class TestKeptChild(ProxyCase):
    def test_reused(self):
        ei, n = sample_graph()
        first = ohm.serve_pid()
        for _ in range(5):
            ohm.rewire(ei, n, budget=0.2)
        ohm.rewire_many([(ei, n)] * 3, budget=0.2)
        self.assertEqual(ohm.serve_pid(), first)

    def test_restarted_after_kill(self):
        ei, n = sample_graph()
        want = ohm.rewire(ei, n, budget=0.2)
        old = ohm.serve_pid()
        os.kill(old, signal.SIGKILL)
        # Dead, not dying: the thread group leader of a Go process shows Z
        # in /proc while its other threads still exit, and only then can
        # it be reaped (gone() alone races with that).
        self.assertEqual(ohm._serve._child.proc.wait(10), -signal.SIGKILL)
        got = ohm.rewire(ei, n, budget=0.2)
        self.assertNotEqual(ohm.serve_pid(), old)
        np.testing.assert_array_equal(got.edge_index, want.edge_index)
        self.assertEqual(got.log, want.log)

    def test_death_mid_dataset_names_the_graph(self):
        graphs = random_graphs(10)
        self.use_proxy("die-after:4")
        with self.assertRaises(ohm.ChildDied) as cm:
            ohm.rewire_many(graphs, budget=0.2, threads=1)
        e = cm.exception
        self.assertEqual(e.graph, 4)
        self.assertEqual(e.returncode, -signal.SIGKILL)
        self.assertRegex(str(e), r"was killed by signal 9 while rewiring graph 4 of 10 \(graphs 0–3 were done\); "
                                 r"nothing was returned")
        self.assertIsInstance(e, ohm.OhmError)

    def test_death_in_rewire_dataset_returns_nothing(self):
        class D:
            pass

        data = []
        for ei, n in random_graphs(6, seed=8):
            d = D()
            d.edge_index, d.num_nodes = ei, n
            data.append(d)
        self.use_proxy("die-after:3")
        out = None
        with self.assertRaisesRegex(ohm.ChildDied, r"while rewiring graph 3 of 6") as cm:
            out = ohm.pyg.rewire_dataset(data, ohm.pyg.ERR(budget=0.2))
        self.assertEqual(cm.exception.graph, 3)
        self.assertIsNone(out)
        self.assertFalse(any(hasattr(d, "edge_type") for d in data), "the input was changed")

    def test_death_in_a_transform_names_the_graph(self):
        ei, n = sample_graph()
        self.use_proxy("die-after:2")

        class D:
            pass

        t = ohm.pyg.ERR(budget=0.2)
        for k in range(2):
            d = D()
            d.edge_index, d.num_nodes = ei, n
            t(d)
        with self.assertRaisesRegex(ohm.ChildDied, r"^ERR: graph 2 given to this transform \(counting from 0\): "
                                                   r"the ohm child process .* while rewiring the graph") as cm:
            t(d)
        self.assertEqual(cm.exception.graph, 2)

    def test_interrupt_stops_the_child(self):
        ei, n = sample_graph()
        self.use_proxy("hang")
        pid = ohm.serve_pid()
        # Python leaves SIGINT ignored when it starts with it ignored (a
        # background job of a shell without job control): the interrupt
        # below would then never come, and the call would wait forever.
        self.addCleanup(signal.signal, signal.SIGINT, signal.signal(signal.SIGINT, signal.default_int_handler))
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        self.addCleanup(timer.cancel)
        t0 = time.monotonic()
        with self.assertRaises(KeyboardInterrupt):
            ohm.rewire_many([(ei, n)] * 4, budget=0.2)
        self.assertLess(time.monotonic() - t0, 30)
        self.assertTrue(gone(pid, 0.1), "the child outlived the interrupt")
        self.assertIsNone(ohm._serve._child)

    def test_close_does_not_wait_for_a_hung_call(self):
        # At exit a daemon thread may be in a call: close kills the child under it.
        ei, n = sample_graph()
        self.use_proxy("hang")
        pid = ohm.serve_pid()
        raised = []

        def call():
            try:
                ohm.rewire(ei, n, budget=0.2)
            except ohm.ChildDied as e:
                raised.append(e)

        th = threading.Thread(target=call, daemon=True)
        th.start()
        time.sleep(0.2)
        t0 = time.monotonic()
        ohm.close_child(timeout=0.3)
        self.assertLess(time.monotonic() - t0, 10)
        th.join(10)
        self.assertTrue(gone(pid, 1))
        self.assertEqual(len(raised), 1, "the call in flight did not raise ChildDied")

    def test_next_call_after_interrupt_works(self):
        ei, n = sample_graph()
        want = ohm.rewire(ei, n, budget=0.2).edge_index
        with mock.patch.object(ohm._serve.Child, "receive", side_effect=KeyboardInterrupt):
            pid = ohm.serve_pid()
            with self.assertRaises(KeyboardInterrupt):
                ohm.rewire(ei, n, budget=0.2)
        self.assertTrue(gone(pid, 0.1))
        np.testing.assert_array_equal(ohm.rewire(ei, n, budget=0.2).edge_index, want)
        self.assertNotEqual(ohm.serve_pid(), pid)

    def test_threads_share_it(self):
        graphs = random_graphs(8, seed=3)
        want = [ohm.rewire(ei, n, method="res", budget=0.3).edge_index for ei, n in graphs]
        pid = ohm.serve_pid()
        errors = []

        def work(t):
            try:
                for r in range(6):
                    k = (t + r) % len(graphs)
                    got = ohm.rewire(*graphs[k], method="res", budget=0.3).edge_index
                    if not np.array_equal(got, want[k]):
                        errors.append(f"thread {t}, graph {k}: another result")
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(repr(e))

        threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        self.assertEqual(errors, [])
        self.assertEqual(ohm.serve_pid(), pid)

    @unittest.skipUnless(hasattr(os, "fork"), "no fork here")
    def test_fork_starts_its_own(self):
        ei, n = sample_graph()
        want = ohm.rewire(ei, n, budget=0.2).edge_index
        parent = ohm.serve_pid()
        r, w = os.pipe()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (torch's)
            pid = os.fork()
        if pid == 0:  # the forked child
            code = 1
            try:
                os.close(r)
                mine = ohm.serve_pid()
                ok = mine != parent and np.array_equal(ohm.rewire(ei, n, budget=0.2).edge_index, want)
                os.write(w, b"%d %d" % (int(ok), mine))
                ohm.close_child()
                code = 0
            finally:
                os._exit(code)
        os.close(w)
        with os.fdopen(r, "rb") as f:
            report = f.read().split()
        _, status = os.waitpid(pid, 0)
        self.assertEqual(status, 0)
        self.assertEqual(report[0], b"1", "the forked process did not get its own child, or another result")
        self.assertTrue(gone(int(report[1])))
        # The parent's child was neither disturbed nor replaced.
        self.assertEqual(ohm.serve_pid(), parent)
        np.testing.assert_array_equal(ohm.rewire(ei, n, budget=0.2).edge_index, want)


class TestChildEnds(unittest.TestCase):
    """The child ends with the Python process that started it."""

    def run_python(self, code):
        env = dict(os.environ)
        env["PYTHONPATH"] = "" if INSTALLED else str(PYTHON_DIR)
        res = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True,
                             text=True, cwd=tmpdir(self), timeout=120)
        return res

    def test_closed_at_exit(self):
        res = self.run_python("""\
            import numpy as np, ohm
            ohm.rewire(np.array([[0, 1], [1, 0]]), 3, budget=1.0)
            print(ohm.serve_pid(), flush=True)
            """)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertTrue(gone(int(res.stdout.split()[0])), "the child outlived the interpreter")

    def test_gone_with_a_killed_parent(self):
        res = self.run_python("""\
            import os, signal, numpy as np, ohm
            ohm.rewire(np.array([[0, 1], [1, 0]]), 3, budget=1.0)
            print(ohm.serve_pid(), flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
            """)
        self.assertEqual(res.returncode, -signal.SIGKILL, res.stderr)
        self.assertTrue(gone(int(res.stdout.split()[0])), "the child outlived its killed parent")

    @unittest.skipUnless(sys.platform.startswith("linux"), "PR_SET_PDEATHSIG is Linux's")
    def test_parent_death_signal(self):
        # A forked process holds the pipe, so the child's input does not
        # end when its parent dies: PR_SET_PDEATHSIG alone ends it.
        res = self.run_python("""\
            import os, signal, sys, time, numpy as np, ohm
            ohm.rewire(np.array([[0, 1], [1, 0]]), 3, budget=1.0)
            pid = ohm.serve_pid()
            keep = os.dup(ohm._serve._child.proc.stdin.fileno())  # the child's input, held by the fork
            holder = os.fork()
            if holder == 0:  # off the captured output, so that the test need not wait for it
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, 1)
                os.dup2(null, 2)
                time.sleep(30)
                os._exit(0)
            print(pid, holder, flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
            """)
        pid, holder = map(int, res.stdout.split())
        self.addCleanup(lambda: os.kill(holder, signal.SIGKILL))
        self.assertTrue(gone(pid), "the child outlived its parent")


class TestRewireMany(unittest.TestCase):
    def test_equals_one_by_one(self):
        graphs = random_graphs(12, seed=1) + [sample_graph(), (np.zeros((2, 0), dtype=np.int64), 3)]
        for m in METHODS:
            for kw in (dict(budget=0.2), dict(edits=3)):
                with self.subTest(method=m, **kw):
                    many = ohm.rewire_many(graphs, method=m, **kw)
                    self.assertEqual(len(many), len(graphs))
                    for k, ((ei, n), got) in enumerate(zip(graphs, many)):
                        want = ohm.rewire(ei, n, method=m, **kw)
                        np.testing.assert_array_equal(got.edge_index, want.edge_index, f"graph {k}")
                        np.testing.assert_array_equal(got.edge_type, want.edge_type, f"graph {k}")
                        self.assertEqual(got.log, want.log, f"graph {k}")
                        s, w = dict(got.summary), dict(want.summary)
                        s.pop("seconds"), w.pop("seconds")
                        s.pop("dataset"), w.pop("dataset")
                        self.assertEqual(s, w, f"graph {k}")
                    if "edits" in kw:
                        self.assertTrue(all(r.summary["iterations"] <= 3 for r in many))

    def test_threads_do_not_change_results(self):
        graphs = random_graphs(10, seed=2)
        one = ohm.rewire_many(graphs, method="err", budget=0.3, threads=1)
        two = ohm.rewire_many(graphs, method="err", budget=0.3, threads=2)
        for a, b in zip(one, two):
            np.testing.assert_array_equal(a.edge_index, b.edge_index)
            self.assertEqual(a.log, b.log)

    def test_equals_the_command(self):
        # rewire (through the child) against `ohm rewire` on a file.
        from test_rewire import cli_rewire

        for ei, n in random_graphs(3, seed=4):
            r = ohm.rewire_many([(ei, n)], method="err", budget=0.3)[0]
            want_ei, _, _, want_log = cli_rewire(self, ["--method", "err", "--budget", "0.3"], (ei, n))
            np.testing.assert_array_equal(r.edge_index, want_ei)
            self.assertEqual(r.log, want_log)

    def test_torch_in_torch_out(self):
        torch = need_torch(self)
        graphs = random_graphs(3, seed=5)
        many = ohm.rewire_many([(torch.as_tensor(ei), n) for ei, n in graphs], budget=0.2)
        for (ei, n), r in zip(graphs, many):
            self.assertIsInstance(r.edge_index, torch.Tensor)
            self.assertEqual(r.edge_type.dtype, torch.int64)
            np.testing.assert_array_equal(r.edge_index.numpy(), ohm.rewire(ei, n, budget=0.2).edge_index)

    def test_bad_input_names_the_graph(self):
        ei, n = sample_graph()
        with self.assertRaisesRegex(ValueError, r"^graphs\[1\]: edge_index: holds a node id outside \[0, num_nodes=4\)"):
            ohm.rewire_many([(ei, n), (np.array([[0], [7]]), 4)])
        with self.assertRaisesRegex(ValueError, r"^graphs\[0\]: must be an \(edge_index, num_nodes\)"):
            ohm.rewire_many([ei])
        with self.assertRaisesRegex(ValueError, r"^edits=3: give budget or edits, not both"):
            ohm.rewire_many([(ei, n)], budget=0.1, edits=3)
        with self.assertRaisesRegex(ValueError, r"^engine='exact': this method has no exact engine"):
            ohm.rewire_many([(ei, n)], method="gtr", engine="exact")
        self.assertEqual(ohm.rewire_many([]), [])

    def test_num_nodes_inferred_with_a_warning(self):
        ei, n = sample_graph()  # nodes 13 and 14 are isolated: inferring loses them
        with self.assertWarnsRegex(UserWarning, r"num_nodes not given for 1 of 2 graphs: taken as the largest node id \+ 1"):
            r = ohm.rewire_many([(ei, None), (ei, n)], method="res", budget=0.2)
        self.assertEqual(r[0].edge_index.max(), 12)
        with self.assertWarnsRegex(UserWarning, r"num_nodes not given for the graph"):
            ohm.rewire(ei, budget=0.2)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ohm.rewire(ei, n, budget=0.2)


class TestEdgeAttr(unittest.TestCase):
    def check(self, ei, attr, r, fill):
        """Every kept arc carries the row of its own input column (else of
        its reverse's); every added arc the fill."""
        cols = {}
        for c, (u, v) in enumerate(ei.T):
            cols.setdefault((int(u), int(v)), c)
        for i, (u, v) in enumerate(np.asarray(r.edge_index).T):
            c = cols.get((int(u), int(v)), cols.get((int(v), int(u))))
            if c is None:
                self.assertEqual(int(r.edge_type[i]), 1)
                np.testing.assert_array_equal(np.asarray(r.edge_attr[i]), np.broadcast_to(fill, attr.shape[1:]))
            else:
                self.assertEqual(int(r.edge_type[i]), 0)
                np.testing.assert_array_equal(np.asarray(r.edge_attr[i]), attr[c])

    def test_carried(self):
        ei, n = sample_graph()
        attr = np.arange(ei.shape[1] * 3, dtype=np.float32).reshape(-1, 3) + 1
        for m in ("err", "res", "fosr"):
            with self.subTest(method=m):
                r = ohm.rewire(ei, n, method=m, budget=0.3, edge_attr=attr)
                self.assertEqual(r.edge_attr.dtype, np.float32)
                self.assertEqual(r.edge_attr.shape, (r.edge_index.shape[1], 3))
                self.assertGreater(int(r.edge_type.sum()), 0)
                self.check(ei, attr, r, 0)
                fill = np.array([7, 8, 9], dtype=np.float32)
                self.check(ei, attr, ohm.rewire(ei, n, method=m, budget=0.3, edge_attr=attr, edge_attr_fill=fill),
                           fill)

    def test_one_arc_per_edge(self):
        # Only (u, v) given: both arcs of the result carry its row.
        ei = np.array([[0, 1, 2, 3], [1, 2, 3, 4]])
        attr = np.array([10, 20, 30, 40])
        r = ohm.rewire(ei, 5, method="res", budget=0.5, edge_attr=attr)
        self.check(ei, attr, r, 0)
        self.assertEqual(int((r.edge_type == 0).sum()), 8)

    def test_in_rewire_many(self):
        graphs = random_graphs(4, seed=6)
        attrs = [np.arange(ei.shape[1], dtype=np.int64) * 2 + 1 for ei, _ in graphs]
        many = ohm.rewire_many([(ei, n, a) for (ei, n), a in zip(graphs, attrs)], budget=0.3, edge_attr_fill=-1)
        for (ei, n), a, r in zip(graphs, attrs, many):
            self.check(ei, a, r, -1)

    def test_torch(self):
        torch = need_torch(self)
        ei, n = sample_graph()
        attr = torch.arange(ei.shape[1] * 2, dtype=torch.float64).reshape(-1, 2)
        r = ohm.rewire(torch.as_tensor(ei), n, budget=0.3, edge_attr=attr, edge_attr_fill=0.5)
        self.assertIsInstance(r.edge_attr, torch.Tensor)
        self.assertEqual(r.edge_attr.dtype, torch.float64)
        self.check(ei, attr.numpy(), type("R", (), dict(edge_index=r.edge_index.numpy(), edge_type=r.edge_type.numpy(),
                                                         edge_attr=r.edge_attr.numpy()))(), 0.5)

    def test_bad_edge_attr(self):
        ei, n = sample_graph()
        with self.assertRaisesRegex(ValueError, r"^edge_attr: must have one row per column of edge_index \(26\), not shape \(3, 2\)"):
            ohm.rewire(ei, n, edge_attr=np.zeros((3, 2)))
        with self.assertRaisesRegex(ValueError, r"^edge_attr_fill=\[1, 2, 3\]: does not fit a row of edge_attr"):
            ohm.rewire(ei, n, budget=0.3, edge_attr=np.zeros((ei.shape[1], 2)), edge_attr_fill=[1, 2, 3])


if __name__ == "__main__":
    unittest.main()
