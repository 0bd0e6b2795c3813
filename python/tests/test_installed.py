"""The installed wheel (make test-python: a fresh venv, pip install
--no-index --no-deps of the wheel just built, a PATH with neither Go nor
OHM_BIN, a working folder outside the repository): the package finds the
binary it carries, and the `ohm` console script runs it. Elsewhere these
tests skip, except TestNotFound, which runs on a copy of the package."""

import json
import os
import shlex
import shutil
import subprocess
import sys
import unittest
from pathlib import Path

from helpers import INSTALLED, REPO, ohm, skip_or_fail, tmpdir


def repo_version():
    """The repository's VERSION file, the one place the version is written."""
    return (REPO / "VERSION").read_text(encoding="utf-8").strip()


def repo_commit(case):
    """The repository's HEAD and whether tracked files are modified, by git
    (found outside the test's PATH, which holds only the venv); skips
    without git or outside a clone (fails under CI=true)."""
    git = shutil.which("git") or shutil.which("git", path=os.pathsep.join(["/usr/bin", "/bin", "/usr/local/bin"]))
    if git is None:
        skip_or_fail(case, "no git: the commit the wheel was built from cannot be checked", "git")
    head = subprocess.run([git, "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        skip_or_fail(case, f"{REPO} is not a git clone: {head.stderr.strip()}", "git")
    status = subprocess.run([git, "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                            capture_output=True, text=True, check=True).stdout
    return head.stdout.strip(), status.strip() != ""


@unittest.skipUnless(INSTALLED, "tests of the installed wheel: make test-python runs them "
                                "(run.py --installed in a venv holding the wheel)")
class TestInstalledWheel(unittest.TestCase):
    def test_package_comes_from_the_venv(self):
        pkg = Path(ohm.__file__).resolve().parent
        self.assertNotIn(REPO.resolve(), pkg.parents, "ohm was imported from the repository")
        self.assertIn(Path(sys.prefix).resolve(), pkg.parents, "ohm is not installed in this environment")
        self.assertNotEqual(Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), "not a virtual environment")

    def test_environment_has_no_go_and_no_ohm_bin(self):
        self.assertIsNone(shutil.which("go"), "Go is on the PATH")
        self.assertNotIn("OHM_BIN", os.environ)
        self.assertFalse(Path.cwd().resolve().is_relative_to(REPO.resolve()), "working folder in the repository")

    def test_finds_its_own_binary(self):
        pkg = Path(ohm.__file__).resolve().parent
        b = ohm.binary()
        self.assertEqual(Path(b), pkg / "bin" / "ohm")
        self.assertTrue(os.access(b, os.X_OK), "the bundled binary lost its executable bit")
        out = subprocess.run([b, "--version"], capture_output=True, text=True, check=True).stdout
        self.assertRegex(out, r"^ohm ")

    def test_bundled_binary_comes_before_ohm_bin(self):
        env = dict(os.environ, OHM_BIN="/nonexistent/ohm")
        res = subprocess.run([sys.executable, "-c", "import ohm; print(ohm.binary())"], env=env,
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(res.stdout.strip(), ohm.binary())

    def test_console_script(self):
        script = shutil.which("ohm")
        self.assertIsNotNone(script, "no ohm console script on the PATH")
        self.assertEqual(Path(script).parent.resolve(), (Path(sys.prefix) / "bin").resolve())
        got = subprocess.run([script, "--version"], capture_output=True, text=True)
        self.assertEqual(got.returncode, 0, got.stderr)
        want = subprocess.run([ohm.binary(), "--version"], capture_output=True, text=True).stdout
        self.assertEqual(got.stdout, want)
        self.assertRegex(got.stdout, r"^ohm ")
        # Arguments and exit status pass through: a usage error is status 2.
        bad = subprocess.run([script, "rewire", "--budget", "2"], capture_output=True, text=True)
        self.assertEqual(bad.returncode, 2, bad.stderr)

    def test_version_is_the_repositorys(self):
        # One version everywhere (issue 53): `ohm version` of the installed
        # console script, ohm.version() and ohm.__version__ all say the
        # repository's VERSION, and the binary the commit it was built from.
        commit, modified = repo_commit(self)
        want = repo_version()
        script = shutil.which("ohm")
        line = subprocess.run([script, "version"], capture_output=True, text=True, check=True).stdout
        mod = ", modified" if modified else ""
        self.assertTrue(line.startswith(f"ohm {want} (commit {commit[:12]}{mod}), "), line)
        got = json.loads(subprocess.run([script, "version", "--json"], capture_output=True, text=True,
                                        check=True).stdout)
        self.assertEqual((got["version"], got["commit"], got["modified"]), (want, commit, modified))
        self.assertEqual(ohm.version(), got)
        self.assertEqual(ohm.__version__, want)

    def test_readme_install_lines(self):
        # The README's wheel install lines, as written, offline (issue 53):
        # a venv that sees the system's numpy and torch, pip with neither
        # index nor dependencies, the console script's version.
        wheel = os.environ.get("OHM_TEST_WHEEL")
        if not wheel:
            self.skipTest("OHM_TEST_WHEEL is not set (make test-python sets it to the wheel it installs)")
        text = (REPO / "README.md").read_text(encoding="utf-8")
        install = text[text.index("\n## Install\n"):text.index("\n## Quick start\n")]
        lines = [ln.split("  #")[0].strip() for ln in install.splitlines()
                 if ln.startswith(("python3 -m venv", ".venv/bin/"))]
        self.assertEqual([ln.split()[0] for ln in lines], ["python3", ".venv/bin/pip", ".venv/bin/ohm"], lines)
        work = Path(tmpdir(self))
        (work / "dist").mkdir()
        shutil.copy(wheel, work / "dist")
        out = ""
        for ln in lines:
            argv = shlex.split(ln)
            if argv[0] == "python3":  # the Python this venv was made from (Debian's)
                argv[0] = getattr(sys, "_base_executable", None) or sys.executable
            words = []
            for a in argv:  # the shell's globbing of dist/ohm_rewire-*.whl
                matches = sorted(work.glob(a)) if "*" in a else []
                words += [str(m.relative_to(work)) for m in matches] or [a]
            res = subprocess.run(words, cwd=work, capture_output=True, text=True, env={"PATH": os.environ["PATH"], "HOME": str(work)})
            self.assertEqual(res.returncode, 0, f"{ln}: {res.stderr}")
            out = res.stdout
        want = subprocess.run([ohm.binary(), "version"], capture_output=True, text=True, check=True).stdout
        self.assertEqual(out, want)

    def test_metadata(self):
        from importlib import metadata

        dist = metadata.distribution("ohm-rewire")
        self.assertEqual(dist.version, repo_version())
        self.assertEqual(ohm.__version__, dist.version)
        files = {str(f) for f in dist.files}
        self.assertIn("ohm/bin/ohm", files)
        eps = [e for e in dist.entry_points if e.group == "console_scripts"]
        self.assertEqual([(e.name, e.value) for e in eps], [("ohm", "ohm._binary:main")])
        self.assertEqual(dist.requires, ["numpy", 'torch ; extra == "pyg"', 'torch_geometric ; extra == "pyg"'])


class TestNotFound(unittest.TestCase):
    """A copy of the package without a binary, outside any repository, with
    no OHM_BIN and no ohm on the PATH: the error says how to get one."""

    def run_copy(self, code, path_dirs=()):
        d = Path(tmpdir(self))
        shutil.copytree(Path(ohm.__file__).resolve().parent, d / "ohm",
                        ignore=shutil.ignore_patterns("bin", "__pycache__"))
        empty = d / "empty-bin"
        empty.mkdir()
        env = {"PATH": os.pathsep.join([*map(str, path_dirs), str(empty)]), "PYTHONPATH": str(d),
               "HOME": str(d)}
        return subprocess.run([sys.executable, "-c", code], env=env, cwd=d, capture_output=True, text=True)

    def test_message(self):
        res = self.run_copy("import ohm\ntry:\n    ohm.binary()\nexcept ohm.OhmError as e:\n    print(e)")
        self.assertEqual(res.returncode, 0, res.stderr)
        msg = res.stdout
        self.assertIn("pip install ohm_rewire-", msg)
        self.assertIn("make build", msg)
        self.assertIn("OHM_BIN", msg)
        self.assertNotIn("go install", msg)

    def test_console_script_on_path_is_not_the_binary(self):
        # pip's `ohm` script beside the package must not be taken for the
        # binary: it would run itself.
        scripts = Path(tmpdir(self))
        (scripts / "ohm").write_text("#!/usr/bin/env python3\nimport sys\nfrom ohm._binary import main\n"
                                     "sys.exit(main())\n")
        (scripts / "ohm").chmod(0o755)
        res = self.run_copy("import ohm._binary as b, sys\nsys.exit(b.main(['--version']))", [scripts])
        self.assertEqual(res.returncode, 1)
        self.assertIn("ohm binary not found", res.stderr)


if __name__ == "__main__":
    unittest.main()
