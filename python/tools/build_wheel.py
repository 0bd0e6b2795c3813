#!/usr/bin/env python3
"""Write a platform wheel of ohm-rewire carrying an ohm binary.

    build_wheel.py --goos linux --goarch amd64 --binary out/wheel/linux-amd64/ohm [--out dist]

A wheel is a zip of the package's files and a *.dist-info folder (METADATA,
WHEEL, entry_points.txt, RECORD); this tool writes one with the standard
library alone (no network, no setuptools), taking the name, summary,
dependencies and scripts from python/pyproject.toml, the version from the
repository's VERSION file (the one place it is written) and the long
description from python/README.md.
The binary goes in as ohm/bin/ohm with its executable bit (the zip entry's
external_attr). The platform tag follows GOOS/GOARCH: manylinux2014 for
Linux (a CGO_ENABLED=0 Go binary is static: it needs no glibc at all, so
the oldest manylinux tag pip knows well is honest), and for macOS the minimum OS version the
binary itself declares (its LC_BUILD_VERSION load command: 12.0 for Go
1.26). The binary's architecture is checked against the platform asked
for. Timestamps are fixed (SOURCE_DATE_EPOCH, else 1980-01-01), so the same
inputs give the same wheel byte for byte.

Prints the path of the wheel written (or, with --filename, only its name).
"""

import argparse
import base64
import csv
import hashlib
import io
import os
import re
import struct
import sys
import time
import zipfile
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11
    try:
        import tomli as tomllib
    except ImportError:
        sys.exit("build_wheel.py: needs Python 3.11 or later (tomllib) or the tomli package")

PYTHON_DIR = Path(__file__).resolve().parent.parent  # python/

# GOARCH → (ELF e_machine, Mach-O cputype, wheel architecture name).
ARCHES = {
    "amd64": (62, 0x01000007, {"linux": "x86_64", "darwin": "x86_64"}),
    "arm64": (183, 0x0100000C, {"linux": "aarch64", "darwin": "arm64"}),
}


def fail(msg):
    sys.exit(f"build_wheel.py: {msg}")


def macho_min_os(data):
    """(major, minor) of the minimum macOS a 64-bit Mach-O declares
    (LC_BUILD_VERSION, or the older LC_VERSION_MIN_MACOSX), or None."""
    ncmds = struct.unpack_from("<I", data, 16)[0]
    off = 32
    for _ in range(ncmds):
        if off + 8 > len(data):
            return None
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd in (0x32, 0x24):  # LC_BUILD_VERSION (platform, minos, ...), LC_VERSION_MIN_MACOSX (version, sdk)
            minos = struct.unpack_from("<I", data, off + (12 if cmd == 0x32 else 8))[0]
            return minos >> 16, (minos >> 8) & 0xFF
        if size == 0:
            return None
        off += size
    return None


def platform_tags(goos, goarch, binary):
    """The wheel's platform tags for a binary of goos/goarch, after checking
    that the binary is one."""
    if goarch not in ARCHES or goos not in ("linux", "darwin"):
        fail(f"{goos}/{goarch}: no wheel platform for it (known: linux and darwin, amd64 and arm64)")
    elf_machine, macho_cpu, names = ARCHES[goarch]
    arch = names[goos]
    with open(binary, "rb") as f:
        head = f.read(1 << 16)
    if goos == "linux":
        if head[:4] != b"\x7fELF" or head[4] != 2:
            fail(f"{binary}: not a 64-bit ELF executable, so not a linux/{goarch} binary")
        machine = struct.unpack_from("<H", head, 18)[0]
        if machine != elf_machine:
            fail(f"{binary}: an ELF binary for machine {machine}, not linux/{goarch} ({elf_machine})")
        return [f"manylinux_2_17_{arch}", f"manylinux2014_{arch}"]
    if head[:4] != b"\xcf\xfa\xed\xfe":
        fail(f"{binary}: not a 64-bit Mach-O executable, so not a darwin/{goarch} binary")
    cpu = struct.unpack_from("<i", head, 4)[0] & 0xFFFFFFFF
    if cpu != macho_cpu:
        fail(f"{binary}: a Mach-O binary for CPU type {cpu:#x}, not darwin/{goarch} ({macho_cpu:#x})")
    minos = macho_min_os(head)
    if minos is None:
        fail(f"{binary}: declares no minimum macOS version")
    major, minor = minos
    if major >= 11:  # pip's tags for macOS 11 and later have minor 0
        minor = 0
    return [f"macosx_{major}_{minor}_{arch}"]


def release_version():
    """The repository's VERSION file: one line MAJOR.MINOR.PATCH."""
    path = PYTHON_DIR.parent / "VERSION"
    try:
        v = path.read_text(encoding="utf-8").strip()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if not re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", v):
        fail(f"{path}: {v!r} is not a version MAJOR.MINOR.PATCH")
    return v


def project():
    """[project] of python/pyproject.toml, with its version from VERSION,
    and the packages to ship."""
    with open(PYTHON_DIR / "pyproject.toml", "rb") as f:
        py = tomllib.load(f)
    proj = dict(py["project"])
    if "version" in proj or proj.get("dynamic") != ["version"]:
        fail("pyproject.toml: want dynamic = [\"version\"] (the version is the VERSION file's)")
    proj["version"] = release_version()
    packages = py.get("tool", {}).get("setuptools", {}).get("packages", [])
    if not packages:
        fail("pyproject.toml: [tool.setuptools] packages is empty")
    return proj, packages


def normalize(name):
    """A distribution name as wheel file names spell it (PEP 427, 503)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def wheel_name(proj, tags):
    return f"{normalize(proj['name'])}-{proj['version']}-py3-none-{'.'.join(tags)}.whl"


def metadata(proj):
    """The METADATA file (core metadata 2.1) of [project]."""
    lines = ["Metadata-Version: 2.1", f"Name: {proj['name']}", f"Version: {proj['version']}"]
    if "description" in proj:
        lines.append(f"Summary: {proj['description']}")
    lic = proj.get("license")
    if isinstance(lic, dict) and "text" in lic:
        lines.append(f"License: {lic['text']}")
    for c in proj.get("classifiers", []):
        lines.append(f"Classifier: {c}")
    for label, url in proj.get("urls", {}).items():
        lines.append(f"Project-URL: {label}, {url}")
    if "requires-python" in proj:
        lines.append(f"Requires-Python: {proj['requires-python']}")
    for dep in proj.get("dependencies", []):
        lines.append(f"Requires-Dist: {dep}")
    for extra, deps in proj.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        for dep in deps:
            lines.append(f'Requires-Dist: {dep} ; extra == "{extra}"')
    body = ""
    readme = proj.get("readme")
    if isinstance(readme, str):
        lines.append("Description-Content-Type: text/markdown" if readme.endswith(".md")
                     else "Description-Content-Type: text/plain")
        body = (PYTHON_DIR / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + body


def entry_points(proj):
    """entry_points.txt of [project] scripts, gui-scripts and entry-points, or None."""
    groups = {}
    if proj.get("scripts"):
        groups["console_scripts"] = proj["scripts"]
    if proj.get("gui-scripts"):
        groups["gui_scripts"] = proj["gui-scripts"]
    groups.update(proj.get("entry-points", {}))
    if not groups:
        return None
    out = []
    for group, items in groups.items():
        out.append(f"[{group}]")
        out += [f"{k} = {v}" for k, v in items.items()]
        out.append("")
    return "\n".join(out)


def package_files(packages):
    """(archive name, path) of every file of the packages, sorted, without
    caches or a binary left in the source tree."""
    files = []
    for pkg in packages:
        root = PYTHON_DIR / pkg.replace(".", "/")
        for p in sorted(root.rglob("*")):
            rel = p.relative_to(PYTHON_DIR)
            if p.is_dir() or "__pycache__" in rel.parts or p.suffix in (".pyc", ".pyo"):
                continue
            if rel.parts[:2] == (pkg, "bin"):
                continue  # the wheel's binary is the one given
            files.append((rel.as_posix(), p))
    return files


def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def write_wheel(path, entries, dist_info, date_time):
    """Write the zip: entries (name, bytes, mode), then RECORD."""
    record = io.StringIO()
    w = csv.writer(record, lineterminator="\n")
    tmp = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, date_time)
            info.external_attr = (0o100000 | mode) << 16  # a regular file and its permissions
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            w.writerow([name, digest(data), len(data)])
        rec = f"{dist_info}/RECORD"
        w.writerow([rec, "", ""])
        info = zipfile.ZipInfo(rec, date_time)
        info.external_attr = 0o100644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, record.getvalue())
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--goos", required=True, help="linux or darwin")
    ap.add_argument("--goarch", required=True, help="amd64 or arm64")
    ap.add_argument("--binary", required=True, help="the ohm binary built for GOOS/GOARCH")
    ap.add_argument("--out", default="dist", help="folder of the wheel (default: dist)")
    ap.add_argument("--filename", action="store_true", help="print the wheel's file name only; write nothing")
    a = ap.parse_args(argv)

    proj, packages = project()
    tags = platform_tags(a.goos, a.goarch, a.binary)
    name = wheel_name(proj, tags)
    if a.filename:
        print(name)
        return
    dist_info = f"{normalize(proj['name'])}-{proj['version']}.dist-info"
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))  # 1980-01-01, the zip format's first day
    date_time = time.gmtime(max(epoch, 315532800))[:6]

    entries = [(arc, p.read_bytes(), 0o644) for arc, p in package_files(packages)]
    entries.append((f"{packages[0]}/bin/ohm", Path(a.binary).read_bytes(), 0o755))
    entries.append((f"{dist_info}/METADATA", metadata(proj).encode(), 0o644))
    wheel = ["Wheel-Version: 1.0", "Generator: ohm python/tools/build_wheel.py", "Root-Is-Purelib: false"]
    wheel += [f"Tag: py3-none-{t}" for t in tags]
    entries.append((f"{dist_info}/WHEEL", ("\n".join(wheel) + "\n").encode(), 0o644))
    eps = entry_points(proj)
    if eps:
        entries.append((f"{dist_info}/entry_points.txt", eps.encode(), 0o644))

    out = Path(a.out)
    if not out.exists():
        out.mkdir(parents=True)
        (out / ".gitignore").write_text("# made by python/tools/build_wheel.py: wheels are not committed\n*\n")
    path = out / name
    write_wheel(path, entries, dist_info, date_time)
    print(path)


if __name__ == "__main__":
    main()
