"""ohm from Python: effective resistance rewiring (ERR) of graphs for GNNs.

Every function runs the ohm command (the binary bundled with this package's
platform wheel, see ohm.binary), so the results are exactly the command's:
rewire and rewire_many send their graphs to one kept `ohm serve` child,
started on first use and reused (ohm.serve_pid names it); resistance and
curvature run the command on a graph written to a temporary .npz. numpy arrays in
give numpy arrays out; torch tensors in give torch tensors out (same
device). ohm.pyg holds the PyTorch Geometric transforms.
"""

from ._binary import OhmError, binary
from ._serve import ChildDied
from ._serve import close as close_child
from ._serve import pid as serve_pid
from .core import METHODS, RewireResult, carry_edge_attr, curvature, resistance, rewire, rewire_many
from . import pyg


def _version():
    """The version in pyproject.toml beside this package (a source tree),
    else the installed distribution's (which the wheel took from it)."""
    from pathlib import Path
    import re

    src = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if src.is_file():
        text = src.read_text(encoding="utf-8")
        m = re.search(r'(?m)^version\s*=\s*"([^"]+)"', text)
        if m and re.search(r'(?m)^name\s*=\s*"ohm-rewire"', text):
            return m.group(1)
    try:
        from importlib.metadata import version

        return version("ohm-rewire")
    except Exception:  # not installed (a copy of the sources)
        return "0+unknown"


__version__ = _version()

__all__ = ["METHODS", "ChildDied", "OhmError", "RewireResult", "binary", "carry_edge_attr", "close_child",
           "curvature", "pyg", "resistance", "rewire", "rewire_many", "serve_pid", "__version__"]
