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
    """The repository's VERSION file above this package (a source tree),
    else the installed distribution's version (which the wheel took from
    it)."""
    from pathlib import Path
    import re

    src = Path(__file__).resolve().parent.parent.parent / "VERSION"
    if (src.parent / "python" / "pyproject.toml").is_file() and src.is_file():
        v = src.read_text(encoding="utf-8").strip()
        if re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", v):
            return v
    try:
        from importlib.metadata import version as dist_version

        return dist_version("ohm-rewire")
    except Exception:  # not installed (a copy of the sources)
        return "0+unknown"


def version():
    """The version of the ohm binary this package runs, as `ohm version
    --json` prints it: a dict with "version" (the release, equal to
    ohm.__version__ for the binary of the same build), "commit" (the full
    hash it was built from), "time", "modified", "go" and "backend"."""
    import json

    from ._binary import run

    return json.loads(run(["version", "--json"]))


__version__ = _version()

__all__ = ["METHODS", "ChildDied", "OhmError", "RewireResult", "binary", "carry_edge_attr", "close_child",
           "curvature", "pyg", "resistance", "rewire", "rewire_many", "serve_pid", "version", "__version__"]
