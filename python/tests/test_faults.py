"""Faults of the Python side (issue 50): the child dies with its parent and
the temporary folders go on SIGTERM; arguments that would be read wrongly
are refused naming the argument."""

import os
import signal
import subprocess
import sys
import textwrap
import time
import unittest
from pathlib import Path

import numpy as np

from helpers import INSTALLED, PYTHON_DIR, ohm, sample_graph, tmpdir


def _ohm_children(marker):
    """PIDs of live ohm processes started by the script whose TMPDIR is
    marker: one-off runs (`ohm rewire` on a file under marker) and the kept
    child (`ohm serve`, whose environment holds TMPDIR=marker)."""
    pids = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            cmd = (d / "cmdline").read_bytes().decode(errors="replace")
            env = (d / "environ").read_bytes().decode(errors="replace")
            state = next((l for l in (d / "status").read_text().splitlines() if l.startswith("State:")), "")
        except OSError:
            continue
        ours = (marker in cmd and "rewire" in cmd) or ("serve" in cmd.split("\0") and f"TMPDIR={marker}" in env)
        if ours and "Z" not in state.split()[1:2]:
            pids.append(int(d.name))
    return pids


@unittest.skipUnless(sys.platform.startswith("linux"), "PR_SET_PDEATHSIG and /proc are Linux's")
class TestChildDiesWithParent(unittest.TestCase):
    def _script(self, tmp):
        """A script that rewires a graph for minutes (the exact engine on 400
        nodes), its temporary folders under tmp."""
        path = "" if INSTALLED else f"sys.path.insert(0, {str(PYTHON_DIR)!r})"
        return textwrap.dedent(f"""
            import sys
            {path}
            import numpy as np, ohm
            n = 400
            ei = np.array([[i for i in range(n - 1)], [i + 1 for i in range(n - 1)]])
            ohm.rewire(ei, n, method="err", budget=1.0, engine="exact")
        """)

    def _start(self):
        tmp = tmpdir(self)
        env = dict(os.environ, TMPDIR=tmp)
        p = subprocess.Popen([sys.executable, "-c", self._script(tmp)], env=env)
        for _ in range(300):
            kids = _ohm_children(tmp)
            if kids:
                return p, tmp, kids
            time.sleep(0.1)
        p.kill()
        self.fail("no ohm child after 30 s")

    def _gone(self, marker):
        for _ in range(50):
            if not _ohm_children(marker):
                return True
            time.sleep(0.1)
        return False

    def test_sigterm(self):
        p, tmp, kids = self._start()
        p.send_signal(signal.SIGTERM)
        self.assertEqual(p.wait(30), -signal.SIGTERM)
        self.assertTrue(self._gone(tmp), f"ohm child {kids} outlives its parent")
        self.assertEqual([d for d in os.listdir(tmp) if d.startswith("ohm-")], [], "temporary folder left")

    def test_sigkill(self):
        p, tmp, kids = self._start()
        p.kill()
        p.wait(30)
        self.assertTrue(self._gone(tmp), f"ohm child {kids} outlives its parent killed by SIGKILL")


class TestArgumentsRefused(unittest.TestCase):
    def test_directed_only_bool(self):
        ei, n = sample_graph()
        for f in (lambda: ohm.rewire(ei, n, directed="no"), lambda: ohm.resistance(ei, n, directed="no"),
                  lambda: ohm.curvature(ei, n, directed=1)):
            with self.assertRaisesRegex(ValueError, r"^directed=.*: must be True or False"):
                f()
        ohm.rewire(ei, n, directed=np.bool_(False), budget=0.1)

    def test_num_nodes_too_large(self):
        ei, _ = sample_graph()
        with self.assertRaisesRegex(ValueError, r"^num_nodes=1099511627776: must be in \[0, 2147483647\]"):
            ohm.rewire(ei, 2**40)
        with self.assertRaisesRegex(ValueError, r"^num_nodes="):
            ohm.resistance(ei, 2**31)

    def test_fosr_x0_nan(self):
        ei, n = sample_graph()
        x0 = np.ones(n)
        x0[3] = np.nan
        with self.assertRaisesRegex(ValueError, r"^fosr_x0: entry 3 is nan \(NaN or infinite"):
            ohm.rewire(ei, n, method="fosr", fosr_x0=x0)

    def test_pairs_layout(self):
        ei, n = sample_graph()
        with self.assertRaisesRegex(ValueError, r"2×2 array is ambiguous: say pairs_layout="):
            ohm.resistance(ei, n, pairs=np.array([[0, 5], [1, 6]]))
        rows = ohm.resistance(ei, n, pairs=np.array([[0, 5], [1, 6]]), pairs_layout="rows")
        cols = ohm.resistance(ei, n, pairs=np.array([[0, 5], [1, 6]]), pairs_layout="columns")
        want_rows = ohm.resistance(ei, n, pairs=np.array([[0, 5], [1, 6], [2, 3]]))[:2]
        want_cols = ohm.resistance(ei, n, pairs=np.array([[0, 5, 2], [1, 6, 3]]))[:2]
        np.testing.assert_array_equal(rows, want_rows)  # (0,5), (1,6)
        np.testing.assert_array_equal(cols, want_cols)  # (0,1), (5,6)
        self.assertFalse(np.array_equal(rows, cols))
        with self.assertRaisesRegex(ValueError, r"is not k×2 \(pairs_layout='rows'\)"):
            ohm.resistance(ei, n, pairs=np.array([[0, 1, 2], [5, 6, 3]]), pairs_layout="rows")
        with self.assertRaisesRegex(ValueError, r"^pairs_layout='k2'"):
            ohm.resistance(ei, n, pairs=np.array([[0, 5]]), pairs_layout="k2")


if __name__ == "__main__":
    unittest.main()
