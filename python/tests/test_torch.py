"""Torch tensors in, torch tensors out: ohm.rewire, resistance and
curvature on tensors give tensors on the input's device (int64 for
edge_index and the edits, as PyTorch Geometric holds them) equal to the
numpy results. Skipped without torch (failed under CI=true, where .ci/run
installs Debian's python3-torch)."""

import unittest

import numpy as np

from helpers import need_torch, ohm, sample_graph


class TestTorch(unittest.TestCase):
    def setUp(self):
        self.torch = need_torch(self)

    def test_rewire_tensors(self):
        torch = self.torch
        ei, n = sample_graph()
        want = ohm.rewire(ei, n, method="err", budget=0.3)
        for dtype in (torch.int64, torch.int32):
            with self.subTest(dtype=dtype):
                t = torch.as_tensor(ei, dtype=dtype)
                r = ohm.rewire(t, n, method="err", budget=0.3)
                for name in ("edge_index", "edge_type", "added", "removed"):
                    a = getattr(r, name)
                    self.assertIsInstance(a, torch.Tensor, name)
                    self.assertEqual(a.dtype, torch.int64, name)
                    self.assertEqual(a.device, t.device, name)
                    np.testing.assert_array_equal(a.numpy(), getattr(want, name), name)
                self.assertEqual(r.log, want.log)
                self.assertIn("torch.int64 tensor", repr(r))

    def test_num_nodes_and_x0_as_tensors(self):
        torch = self.torch
        ei, n = sample_graph()
        x0 = np.linspace(-1, 1, n)
        a = ohm.rewire(torch.as_tensor(ei), torch.tensor(n), method="fosr", budget=0.3, fosr_x0=torch.as_tensor(x0))
        b = ohm.rewire(ei, n, method="fosr", budget=0.3, fosr_x0=x0)
        np.testing.assert_array_equal(a.edge_index.numpy(), b.edge_index)

    def test_float_tensor_refused(self):
        torch = self.torch
        with self.assertRaisesRegex(ValueError, r"^edge_index: must hold integers"):
            ohm.rewire(torch.zeros(2, 3), 4)

    def test_resistance_and_curvature(self):
        torch = self.torch
        ei, n = sample_graph()
        t = torch.as_tensor(ei)
        r = ohm.resistance(t, n, pairs=torch.tensor([[0, 7], [13, 14]]), pairs_layout="rows")
        self.assertIsInstance(r, torch.Tensor)
        self.assertEqual(r.dtype, torch.float64)
        np.testing.assert_array_equal(r.numpy(), ohm.resistance(ei, n, pairs=[[0, 7], [13, 14]], pairs_layout="rows"))
        u, v, k = ohm.curvature(t, n)
        self.assertEqual((u.dtype, v.dtype, k.dtype), (torch.int64, torch.int64, torch.float64))
        np.testing.assert_array_equal(k.numpy(), ohm.curvature(ei, n)[2])


if __name__ == "__main__":
    unittest.main()
