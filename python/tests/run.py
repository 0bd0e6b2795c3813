"""Runs the Python tests (unittest discovery) and ends with the plain line
'python: N passed, N failed, N skipped' that make test and CI read; exits 1
on any failure or error.

    python3 python/tests/run.py              # the package in python/ (the source tree)
    python3 python/tests/run.py --installed  # the ohm installed in this Python (make test-python)

With --installed the source tree is kept off sys.path and the tests of the
installed wheel run (test_installed.py); `ohm` must then come from outside
the repository, or the run stops.
"""

import os
import sys
import unittest
from pathlib import Path

here = Path(__file__).resolve().parent
installed = "--installed" in sys.argv[1:]
os.environ["OHM_TEST_INSTALLED"] = "1" if installed else ""
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here.parent]
sys.path.insert(0, str(here))
import helpers  # noqa: E402  (puts python/ on sys.path unless --installed)

if installed:
    import ohm  # noqa: E402

    where = Path(ohm.__file__).resolve()
    if here.parent in where.parents:
        sys.exit(f"run.py --installed: ohm was imported from the source tree ({where}); "
                 "run from a folder outside the repository")
    print(f"testing the installed ohm {ohm.__version__}: {where.parent} (binary {ohm.binary()})", flush=True)

suite = unittest.defaultTestLoader.discover(str(here), top_level_dir=str(here))
result = unittest.TextTestRunner(verbosity=1).run(suite)
failed = len(result.failures) + len(result.errors)
skipped = len(result.skipped)
passed = result.testsRun - failed - skipped
for case, why in result.skipped:
    print(f"skipped {case.id()}: {why}")
print(f"python: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(0 if result.wasSuccessful() else 1)
