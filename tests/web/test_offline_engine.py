"""The scoring engine in the browser (issue 13's foundation): the vendored Pyodide runs the
very package the server runs, and answers exactly what the server answers.

What make install vendors is checked against the pin; the engine bundle is scoring/engine as
it is on disk; the worker alone may compile WebAssembly. In a real browser, against a server
that serves static files as production does (WhiteNoise, with its headers), thousands of
random deals and tables in all three rule systems, with Kontra, Bock and Ramsch, go through
SkatEngine and through scoring.engine in this process, and the JSON must be identical,
errors included (same field, same message, in English and German). Nothing is fetched from a
registry here: the runtime comes from what make install put into static/vendor/pyodide/.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from scoring import offline
from scoring.engine import SkatError, evaluate
from scoring.engine.jsonapi import call
from skatclub.csp import DEFAULT_POLICY, WORKER_POLICY, static_file_headers

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "scripts" / "vendor_pyodide.py"


# ---------------------------------------------------------------- the engine bundle

def test_the_bundle_is_scoring_engine_as_it_is_on_disk() -> None:
    bundle = offline.engine_bundle()
    with zipfile.ZipFile(io.BytesIO(bundle.data)) as archive:
        names = set(archive.namelist())
        engine = ROOT / "scoring" / "engine"
        sources = {p.relative_to(engine).as_posix(): p for p in sorted(engine.rglob("*.py"))}
        assert names == {"scoring/__init__.py"} | {f"scoring/engine/{n}" for n in sources}
        for name, path in sources.items():
            assert archive.read(f"scoring/engine/{name}") == path.read_bytes(), name
    assert bundle.digest == hashlib.sha256(bundle.data).hexdigest()[:16]


def test_a_changed_engine_gets_a_new_bundle_and_hash(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    engine = ROOT / "scoring" / "engine"
    for path in engine.rglob("*.py"):
        (tmp_path / path.relative_to(engine)).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path.relative_to(engine)).write_bytes(path.read_bytes())
    before = offline.engine_bundle()
    monkeypatch.setattr(offline, "ENGINE_DIR", tmp_path)
    offline.engine_bundle.cache_clear()
    try:
        assert offline.engine_bundle() == before  # same files, same zip: deterministic
        offline.engine_bundle.cache_clear()
        (tmp_path / "games.py").write_text("# changed\n", encoding="utf-8")
        assert offline.engine_bundle().digest != before.digest
    finally:
        offline.engine_bundle.cache_clear()


def test_the_bundle_is_served_under_its_hash_for_good(client: Client) -> None:
    bundle = offline.engine_bundle()
    url = reverse("scoring:engine-bundle")
    response = client.get(f"{url}?v={bundle.digest}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert "immutable" in response["Cache-Control"]
    assert response.content == bundle.data
    assert "Content-Security-Policy" not in response
    assert client.get(f"{url}?v={'0' * 16}").status_code == 404
    assert client.get(url).status_code == 404


def test_the_json_interface_answers_as_the_score_command() -> None:
    deal = {"kind": "game", "declarer": 5, "game": "clubs"}
    for lang in ("en", "de"):
        try:
            evaluate(deal, lang)
        except SkatError as exc:
            expected = {"error": exc.as_dict(lang)}
        assert json.loads(call("evaluate", json.dumps(deal), lang)) == expected
    assert json.loads(call("evaluate", "{not json"))["error"]["message"].startswith(
        "internal error: the record is not JSON")
    good = {"kind": "game", "declarer": 0, "game": "grand", "matadors": 2, "bid": 48,
            "declarer_points": 90, "declarer_tricks": 8}
    assert json.loads(call("evaluate", json.dumps(good), "de")) == evaluate(good, "de")


# ---------------------------------------------------------------- headers

def test_only_the_worker_may_compile_webassembly() -> None:
    for url in ("/static/js/skat-engine-worker.js",
                "/static/js/skat-engine-worker.0123456789ab.js"):
        headers: dict[str, str] = {}
        static_file_headers(headers, "/x", url)
        assert headers["Content-Security-Policy"] == WORKER_POLICY
    assert "'wasm-unsafe-eval'" in WORKER_POLICY and "'unsafe-eval'" not in WORKER_POLICY
    assert "wasm" not in DEFAULT_POLICY and "unsafe" not in DEFAULT_POLICY
    for url in ("/static/js/skat-engine.js", "/static/js/entry.js"):
        headers = {}
        static_file_headers(headers, "/x", url)
        assert headers == {}


def test_the_versioned_runtime_is_cached_for_good() -> None:
    version = offline.pyodide_version()
    headers: dict[str, str] = {}
    static_file_headers(headers, "/x", f"/static/vendor/pyodide/{version}/pyodide.asm.wasm")
    assert "immutable" in headers["Cache-Control"]
    headers = {}
    static_file_headers(headers, "/x", "/static/vendor/htmx/htmx.min.js")
    assert headers == {}


# ---------------------------------------------------------------- vendoring

def test_what_make_install_vendored_is_the_pinned_runtime() -> None:
    target = offline.vendored_dir()
    stamp = target / ".pinned"
    assert stamp.is_file(), f"{target} is missing: run make install"
    pin = dict(line.split(" = ", 1) for line in
               (ROOT / "scripts" / "pyodide.pin").read_text().splitlines()
               if " = " in line and not line.startswith("#"))
    integrity, *sums = stamp.read_text().splitlines()
    assert integrity == pin["integrity"]
    names = []
    for line in sums:
        digest, name = line.split("  ")
        assert hashlib.sha256((target / name).read_bytes()).hexdigest() == digest, name
        names.append(name)
    assert {"pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
            "pyodide-lock.json"} <= set(names)
    assert (target / "LICENSE").read_text().count("Mozilla Public License") >= 1
    # Nothing but what the browser needs (and the source map that pyodide.js names, without
    # which collectstatic's manifest fails): no type declarations, no ES-module loader.
    assert not list(target.glob("*.d.ts")) and not list(target.glob("*.mjs*"))


def _fake_package(path: Path) -> str:
    files = {"pyodide.js": b"js", "pyodide.asm.js": b"asm", "pyodide.asm.wasm": b"\0asm",
             "python_stdlib.zip": b"zip", "pyodide-lock.json": b"{}", "package.json": b"{}",
             "pyodide.js.map": b"map", "console.html": b"<html>"}
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def _vendor(*args: str, path: str = "") -> subprocess.CompletedProcess[str]:
    env = {"PATH": path} if path else None
    return subprocess.run([sys.executable, str(VENDOR), *args], capture_output=True, text=True,
                          env=env, timeout=60)


def test_vendoring_checks_the_pin_and_unpacks_only_what_the_browser_needs(
        tmp_path: Path) -> None:
    tarball = tmp_path / "pyodide-9.9.9.tgz"
    integrity = _fake_package(tarball)
    dest = tmp_path / "vendor"
    bad = tmp_path / "bad.pin"
    bad.write_text("version = 9.9.9\nintegrity = sha512-" + "A" * 86 + "==\n")
    done = _vendor("--pin", str(bad), "--dest", str(dest), "--tarball", str(tarball))
    assert done.returncode == 1 and "checksum mismatch" in done.stderr
    assert not (dest / "9.9.9").exists()

    pin = tmp_path / "pyodide.pin"
    pin.write_text(f"# a comment\nversion = 9.9.9\nintegrity = {integrity}\n")
    done = _vendor("--pin", str(pin), "--dest", str(dest), "--tarball", str(tarball))
    assert done.returncode == 0, done.stderr
    unpacked = {p.name for p in (dest / "9.9.9").iterdir()}
    assert unpacked == {"pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                        "pyodide-lock.json", "package.json", "pyodide.js.map", "LICENSE",
                        ".pinned"}
    assert (dest / "9.9.9" / "pyodide.asm.wasm").read_bytes() == b"\0asm"
    # Already there: nothing is fetched, so it works without npm and without the tarball.
    assert _vendor("--pin", str(pin), "--dest", str(dest), "--check").returncode == 0
    tarball.unlink()
    done = _vendor("--pin", str(pin), "--dest", str(dest), path="/nonexistent")
    assert done.returncode == 0, done.stderr
    assert "Fetching" not in done.stderr
    # A file changed since it was unpacked: no longer in place, so make install fetches again.
    (dest / "9.9.9" / "pyodide.asm.wasm").write_bytes(b"\0asm-changed")
    assert _vendor("--pin", str(pin), "--dest", str(dest), "--check").returncode == 1
    done = _vendor("--pin", str(pin), "--dest", str(dest), path="/nonexistent")
    assert done.returncode == 1 and "npm is missing" in done.stderr
