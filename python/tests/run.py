"""Runs the Python tests (unittest discovery) and ends with the plain line
'python: N passed, N failed, N skipped' that make test and CI read; exits 1
on any failure or error."""

import sys
import unittest
from pathlib import Path

here = Path(__file__).resolve().parent
suite = unittest.defaultTestLoader.discover(str(here), top_level_dir=str(here.parent))
result = unittest.TextTestRunner(verbosity=1).run(suite)
failed = len(result.failures) + len(result.errors)
skipped = len(result.skipped)
passed = result.testsRun - failed - skipped
print(f"python: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(0 if result.wasSuccessful() else 1)
