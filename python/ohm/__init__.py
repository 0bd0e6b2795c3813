"""ohm from Python: effective resistance rewiring (ERR) of graphs for GNNs.

Every function runs the ohm command on a graph written to a temporary .npz
(edge_index in PyTorch Geometric's convention, num_nodes) and reads back what
it wrote, so the results are exactly the command's: see docs/python.md.
"""

from ._binary import OhmError, binary
from .core import RewireResult, curvature, resistance, rewire
from . import pyg

__all__ = ["OhmError", "RewireResult", "binary", "curvature", "pyg", "resistance", "rewire"]
__version__ = "0.1.0"
