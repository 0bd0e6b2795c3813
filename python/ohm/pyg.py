"""PyTorch Geometric transforms over ohm.rewire.

ERR(method="err", budget=0.1, ...) is a BaseTransform meant for pre_transform:

    Planetoid(root, "Cora", pre_transform=ohm.pyg.ERR(budget=0.1))

It rewires data.edge_index (undirected unless directed=True), sets
data.edge_type (0 kept, 1 added) and keeps every node attribute. ERR is
defined only when torch_geometric can be imported; apply() is the whole work
and takes any object with edge_index and num_nodes, so it is tested without
PyG.
"""

from .core import rewire


def apply(data, method="err", budget=0.1, directed=False, **kwargs):
    """Rewire data (anything with edge_index and num_nodes, e.g. a PyG Data)
    in place with ohm.rewire; edge_index and edge_type take the type of the
    input's edge_index (a torch tensor stays a tensor on its device). Returns
    data and the RewireResult."""
    ei = data.edge_index
    res = rewire(ei, data.num_nodes, method=method, budget=budget, directed=directed, **kwargs)
    if hasattr(ei, "new_tensor"):  # torch: same dtype family and device
        import torch

        data.edge_index = torch.as_tensor(res.edge_index, dtype=torch.long, device=ei.device)
        data.edge_type = torch.as_tensor(res.edge_type, dtype=torch.long, device=ei.device)
    else:
        data.edge_index, data.edge_type = res.edge_index, res.edge_type
    return data, res


try:  # pragma: no cover - exercised only where PyG is installed
    from torch_geometric.transforms import BaseTransform
except ImportError:  # PyG absent: ohm.pyg.ERR is not defined
    BaseTransform = None

if BaseTransform is not None:

    class ERR(BaseTransform):
        """Effective resistance rewiring as a PyG transform (pre_transform):
        the arguments of ohm.rewire (method, budget, directed, engine, alpha,
        ...)."""

        def __init__(self, method="err", budget=0.1, directed=False, **kwargs):
            self.method, self.budget, self.directed, self.kwargs = method, budget, directed, kwargs

        def forward(self, data):
            apply(data, self.method, self.budget, self.directed, **self.kwargs)
            return data

        def __repr__(self):
            return f"{type(self).__name__}(method={self.method!r}, budget={self.budget})"
