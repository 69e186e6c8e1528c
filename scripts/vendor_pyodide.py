#!/usr/bin/env python3
"""Vendor the pinned Pyodide runtime into static/vendor/pyodide/VERSION/ (make install).

The pin is scripts/pyodide.pin: a version of the npm package ``pyodide`` and npm's integrity
(sha512) of its tarball. Nothing is fetched when that version is already unpacked and was
verified against the same integrity (the stamp ``.pinned`` beside the files says so, with
each file's sha256, checked every time). Else ``npm pack`` fetches the tarball from the npm
registry into a temporary directory, its sha512 is compared with the pin (a mismatch ends
the build with status 1 and unpacks nothing), and only the files the browser needs are
unpacked: no type declarations, demo pages, the
ES-module loader or its source map. The runtime is MPL-2.0 (package.json says so, but the
package ships no licence text); Debian's copy of the MPL-2.0 is put beside it as LICENSE.

Only the standard library: it runs before the venv has its packages.

    python3 scripts/vendor_pyodide.py [--pin FILE] [--dest DIR] [--tarball FILE] [--check]

``--tarball`` verifies and unpacks a tarball that is already on disk instead of running npm
(the checksum is checked all the same). ``--check`` only says, by its exit status, whether
the pinned version is in place (0) or would be fetched (1).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = ROOT / "scripts" / "pyodide.pin"
DEST = ROOT / "static" / "vendor" / "pyodide"
# What loadPyodide() fetches in a classic Web Worker (pyodide.js, then the Emscripten module
# and its WebAssembly, the standard library and the package lock); the package's metadata,
# which names the licence; and pyodide.js's source map, which no tablet downloads (only
# developer tools do) but which collectstatic's manifest storage requires, since pyodide.js
# names it in a sourceMappingURL comment.
FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
         "pyodide-lock.json", "package.json", "pyodide.js.map")
LICENCE = Path("/usr/share/common-licenses/MPL-2.0")
STAMP = ".pinned"


class VendorError(Exception):
    pass


def read_pin(path: Path) -> tuple[str, str]:
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    version, integrity = values.get("version", ""), values.get("integrity", "")
    if not version or not integrity.startswith("sha512-"):
        raise VendorError(f"{path}: needs 'version = X' and 'integrity = sha512-…'")
    return version, integrity


def integrity_of(path: Path) -> str:
    digest = hashlib.sha512()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return "sha512-" + base64.b64encode(digest.digest()).decode("ascii")


def npm_pack(version: str, into: Path) -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise VendorError("npm is missing (make install installs Debian's npm)")
    done = subprocess.run(
        [npm, "pack", f"pyodide@{version}", "--pack-destination", str(into), "--json",
         "--ignore-scripts", "--silent"],
        capture_output=True, text=True, check=False, cwd=into)
    if done.returncode != 0:
        raise VendorError(f"npm pack pyodide@{version} failed:\n{done.stderr.strip()}")
    name = json.loads(done.stdout)[0]["filename"]
    return into / Path(name).name


def unpack(tarball: Path, target: Path) -> dict[str, str]:
    """Unpacks FILES from the tarball's package/ folder; returns their sha256s."""
    sums: dict[str, str] = {}
    with tarfile.open(tarball, "r:gz") as archive:
        for name in FILES:
            try:
                member = archive.getmember(f"package/{name}")
            except KeyError as exc:
                raise VendorError(f"{tarball.name} has no {name}") from exc
            source = archive.extractfile(member)
            if source is None or not member.isfile():
                raise VendorError(f"{tarball.name}: {name} is not a plain file")
            data = source.read()
            (target / name).write_bytes(data)
            sums[name] = hashlib.sha256(data).hexdigest()
    return sums


def is_vendored(target: Path, integrity: str) -> bool:
    """The stamp names this integrity, and every file is there with the sha256 it had when
    it was unpacked from the verified tarball (a changed or missing file unpacks again)."""
    stamp = target / STAMP
    if not stamp.is_file():
        return False
    first, *lines = stamp.read_text(encoding="utf-8").splitlines()
    sums: dict[str, str] = {}  # file name: sha256, from "<sha256>  <name>" lines
    for line in lines:
        if "  " in line:
            digest, name = line.split("  ", 1)
            sums[name] = digest
    if first != integrity or set(sums) != set(FILES):
        return False
    for name, digest in sums.items():
        path = target / name
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            return False
    return True


def vendor(pin: Path, dest: Path, tarball: Path | None = None) -> Path:
    version, integrity = read_pin(pin)
    target = dest / version
    if is_vendored(target, integrity):
        return target
    with tempfile.TemporaryDirectory(prefix="pyodide-") as tmp:
        if tarball is None:
            print(f"Fetching pyodide@{version} from the npm registry …", file=sys.stderr)
            tarball = npm_pack(version, Path(tmp))
        found = integrity_of(tarball)
        if found != integrity:
            raise VendorError(f"checksum mismatch for pyodide@{version}:\n  pinned  {integrity}"
                              f"\n  fetched {found}\n(scripts/pyodide.pin; nothing unpacked)")
        # Unpack next to the target, then swap it in: a failed run leaves no half directory.
        dest.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{version}-", dir=dest))
        staging.chmod(0o755)
        try:
            sums = unpack(tarball, staging)
            if LICENCE.is_file():
                shutil.copyfile(LICENCE, staging / "LICENSE")
            else:  # not Debian: say where the text is rather than ship none
                (staging / "LICENSE").write_text(
                    "Pyodide is licensed under the Mozilla Public License 2.0 (MPL-2.0):\n"
                    "https://www.mozilla.org/en-US/MPL/2.0/\n", encoding="utf-8")
            (staging / STAMP).write_text(
                integrity + "\n" + "".join(f"{sums[n]}  {n}\n" for n in FILES), encoding="utf-8")
            if target.exists():
                shutil.rmtree(target)
            staging.rename(target)
        finally:
            if staging.exists():
                shutil.rmtree(staging)
    # Older versions would be collected and served for nothing.
    for other in dest.iterdir():
        if other.is_dir() and other.name != version and not other.name.startswith("."):
            shutil.rmtree(other)
    size = sum(p.stat().st_size for p in target.iterdir()) / 1e6
    print(f"Vendored pyodide@{version} into {target} ({size:.1f} MB, checksum verified)",
          file=sys.stderr)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pin", type=Path, default=PIN)
    parser.add_argument("--dest", type=Path, default=DEST)
    parser.add_argument("--tarball", type=Path, default=None)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.check:
            version, integrity = read_pin(args.pin)
            return 0 if is_vendored(args.dest / version, integrity) else 1
        vendor(args.pin, args.dest, args.tarball)
    except (VendorError, OSError) as exc:
        print(f"vendor_pyodide: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
