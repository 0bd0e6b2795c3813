"""python/tools/build_wheel.py (make wheel) on stand-in binaries: the
wheel's name and tags, its files, the binary's executable bit, RECORD's
digests, the metadata taken from pyproject.toml, the platform check and
byte-for-byte reproducibility."""

import base64
import csv
import hashlib
import io
import re
import struct
import subprocess
import sys
import unittest
import zipfile
from pathlib import Path

from helpers import PYTHON_DIR, tmpdir

TOOL = PYTHON_DIR / "tools" / "build_wheel.py"


def elf(machine):
    """The head of a 64-bit little-endian ELF executable for machine."""
    h = bytearray(64)
    h[:7] = b"\x7fELF\x02\x01\x01"
    struct.pack_into("<HH", h, 16, 2, machine)
    return bytes(h) + b"stand-in binary"


def macho(cputype, major, minor):
    """The head of a 64-bit Mach-O executable with an LC_BUILD_VERSION."""
    head = struct.pack("<IiiIIIII", 0xFEEDFACF, cputype, 0, 2, 1, 24, 0, 0)
    lc = struct.pack("<IIIIII", 0x32, 24, 1, (major << 16) | (minor << 8), major << 16, 0)
    return head + lc + b"stand-in binary"


def version():
    """The repository's VERSION file, which the wheel's version must be."""
    return (PYTHON_DIR.parent / "VERSION").read_text(encoding="utf-8").strip()


class TestBuildWheel(unittest.TestCase):
    def build(self, goos, goarch, content, out=None):
        d = Path(tmpdir(self))
        b = d / "ohm"
        b.write_bytes(content)
        res = subprocess.run([sys.executable, str(TOOL), "--goos", goos, "--goarch", goarch, "--binary", str(b),
                              "--out", str(out or d / "dist")], capture_output=True, text=True)
        return res

    def test_linux_wheel(self):
        res = self.build("linux", "arm64", elf(183))
        self.assertEqual(res.returncode, 0, res.stderr)
        path = Path(res.stdout.strip())
        v = version()
        self.assertEqual(path.name, f"ohm_rewire-{v}-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64.whl")
        self.assertEqual((path.parent / ".gitignore").read_text().splitlines()[-1], "*")
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            di = f"ohm_rewire-{v}.dist-info"
            for want in ("ohm/__init__.py", "ohm/_binary.py", "ohm/core.py", "ohm/pyg.py", "ohm/bin/ohm",
                         f"{di}/METADATA", f"{di}/WHEEL", f"{di}/entry_points.txt", f"{di}/RECORD"):
                self.assertIn(want, names)
            self.assertFalse([n for n in names if "__pycache__" in n or n.endswith(".pyc")])
            self.assertEqual(names[-1], f"{di}/RECORD")
            self.assertEqual(z.getinfo("ohm/bin/ohm").external_attr >> 16, 0o100755)
            self.assertEqual(z.getinfo("ohm/core.py").external_attr >> 16, 0o100644)
            self.assertEqual(z.read("ohm/bin/ohm"), elf(183))
            wheel = z.read(f"{di}/WHEEL").decode()
            self.assertIn("Root-Is-Purelib: false", wheel)
            self.assertEqual(re.findall(r"(?m)^Tag: (.*)$", wheel),
                             ["py3-none-manylinux_2_17_aarch64", "py3-none-manylinux2014_aarch64"])
            self.assertEqual(z.read(f"{di}/entry_points.txt").decode(), "[console_scripts]\nohm = ohm._binary:main\n")
            meta = z.read(f"{di}/METADATA").decode()
            self.assertIn("Name: ohm-rewire\n", meta)
            self.assertIn(f"Version: {v}\n", meta)
            self.assertIn("Requires-Dist: numpy\n", meta)
            self.assertIn("# ohm for Python", meta)  # the README as the long description
            rows = list(csv.reader(io.StringIO(z.read(f"{di}/RECORD").decode())))
            self.assertEqual(sorted(r[0] for r in rows), sorted(names))
            for name, hash_, size in rows:
                if name.endswith("/RECORD"):
                    self.assertEqual((hash_, size), ("", ""))
                    continue
                data = z.read(name)
                want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual(hash_, "sha256=" + want, name)
                self.assertEqual(int(size), len(data), name)

    def test_macos_tag_from_the_binary(self):
        res = self.build("darwin", "arm64", macho(0x0100000C, 12, 0))
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertTrue(res.stdout.strip().endswith("-py3-none-macosx_12_0_arm64.whl"), res.stdout)
        res = self.build("darwin", "amd64", macho(0x01000007, 10, 15))
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertTrue(res.stdout.strip().endswith("-py3-none-macosx_10_15_x86_64.whl"), res.stdout)

    def test_wrong_binary_refused(self):
        for goos, goarch, content in [("linux", "amd64", elf(183)), ("darwin", "arm64", elf(183)),
                                      ("linux", "arm64", macho(0x0100000C, 12, 0)),
                                      ("darwin", "amd64", macho(0x0100000C, 12, 0)), ("windows", "amd64", elf(62))]:
            with self.subTest(goos=goos, goarch=goarch):
                res = self.build(goos, goarch, content)
                self.assertNotEqual(res.returncode, 0)
                self.assertIn("build_wheel.py:", res.stderr)

    def test_reproducible(self):
        a = Path(self.build("linux", "amd64", elf(62)).stdout.strip()).read_bytes()
        b = Path(self.build("linux", "amd64", elf(62)).stdout.strip()).read_bytes()
        self.assertEqual(a, b)


if __name__ == "__main__":
    unittest.main()
