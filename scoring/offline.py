"""What the browser needs to run the scoring engine itself (issue 13: scoring offline).

The engine (scoring/engine/, pure Python) runs in the browser under Pyodide, the pinned
CPython-for-WebAssembly that make install vendors into static/vendor/pyodide/VERSION/
(scripts/vendor_pyodide.py, pin in scripts/pyodide.pin). The engine's own files reach the
browser from their one source: ``engine_bundle`` zips scoring/engine/*.py as they are on disk
when the process starts, and the zip is served under its content hash (views/engine.py), so a
browser never runs rules older or newer than the server's.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.templatetags.static import static

import scoring.engine

ENGINE_DIR = Path(scoring.engine.__file__).resolve().parent
PIN = Path(settings.BASE_DIR) / "scripts" / "pyodide.pin"
# Every zip entry gets this time, so that the same files always give the same zip and hash.
ZIP_TIME = (2000, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Bundle:
    digest: str
    data: bytes


@lru_cache(maxsize=1)
def engine_bundle() -> Bundle:
    """scoring/engine/**/*.py as a zip importable from sys.path (package scoring.engine and
    its subpackages, such as rulesets/)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        # scoring/__init__.py is empty on the server too; the zip needs the package to exist.
        archive.writestr(zipfile.ZipInfo("scoring/__init__.py", ZIP_TIME), b"")
        for path in sorted(ENGINE_DIR.rglob("*.py")):
            name = path.relative_to(ENGINE_DIR).as_posix()
            info = zipfile.ZipInfo(f"scoring/engine/{name}", ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = buffer.getvalue()
    return Bundle(hashlib.sha256(data).hexdigest()[:16], data)


@lru_cache(maxsize=1)
def pyodide_version() -> str:
    for line in PIN.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "version":
            return value.strip()
    raise ValueError(f"{PIN} names no version")


def pyodide_url() -> str:
    """The URL of the vendored runtime's folder (Pyodide's indexURL), ending in "/".

    Pyodide fetches its files by their plain names from that folder, so the folder carries
    the version and its files are served as immutable (skatclub/csp.py, static headers)."""
    loader = static(f"vendor/pyodide/{pyodide_version()}/pyodide.js")
    return loader.rsplit("/", 1)[0] + "/"


def vendored_dir() -> Path:
    return Path(settings.BASE_DIR) / "static" / "vendor" / "pyodide" / pyodide_version()


@lru_cache(maxsize=1)
def runtime_lock() -> str:
    """The vendored runtime's package lock without its packages, as JSON (or "" if the runtime
    is not vendored here). The engine loads no package beyond the standard library, so the
    worker hands this to loadPyodide (lockFileContents) instead of fetching the 120 kB lock;
    what loadPyodide checks of it is its "info" (the ABI version)."""
    try:
        info = json.loads((vendored_dir() / "pyodide-lock.json").read_text("utf-8"))["info"]
    except (OSError, ValueError, KeyError):
        return ""
    return json.dumps({"info": info, "packages": {}}, separators=(",", ":"))
