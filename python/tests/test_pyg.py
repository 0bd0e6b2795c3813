"""The PyG transform: its work (ohm.pyg.apply) on a Data-like object, and
the transform itself where PyTorch Geometric is installed."""

import unittest

import numpy as np

from .helpers import ohm, sample_graph


class FakeData:
    """What a PyG Data offers the transform: edge_index, num_nodes, and node
    attributes that must survive."""

    def __init__(self, edge_index, num_nodes):
        self.edge_index, self.num_nodes = edge_index, num_nodes
        self.x = np.arange(num_nodes * 3, dtype=np.float32).reshape(num_nodes, 3)
        self.y = np.arange(num_nodes) % 2


class TestApply(unittest.TestCase):
    def test_apply_rewires_and_labels(self):
        ei, n = sample_graph()
        data = FakeData(ei, n)
        x, y = data.x.copy(), data.y.copy()
        out, res = ohm.pyg.apply(data, method="err", budget=0.1)
        self.assertIs(out, data)
        want = ohm.rewire(ei, n, method="err", budget=0.1)
        np.testing.assert_array_equal(data.edge_index, want.edge_index)
        np.testing.assert_array_equal(data.edge_type, want.edge_type)
        np.testing.assert_array_equal(data.x, x)
        np.testing.assert_array_equal(data.y, y)
        self.assertEqual(int(data.edge_type.sum()), 2 * res.summary["added_net"])


class TestTransform(unittest.TestCase):
    def test_readme_example(self):
        try:
            import torch
            from torch_geometric.data import Data
        except ImportError:
            raise unittest.SkipTest("PyTorch Geometric is not installed: ohm.pyg.ERR is not defined")
        ei, n = sample_graph()
        data = Data(x=torch.zeros(n, 2), edge_index=torch.as_tensor(ei), num_nodes=n)
        t = ohm.pyg.ERR(budget=0.1)  # as in Planetoid(root, "Cora", pre_transform=ohm.pyg.ERR(budget=0.1))
        out = t(data)
        want = ohm.rewire(ei, n, method="err", budget=0.1)
        self.assertTrue(torch.equal(out.edge_index, torch.as_tensor(want.edge_index)))
        self.assertEqual(out.edge_type.shape[0], out.edge_index.shape[1])


if __name__ == "__main__":
    unittest.main()
