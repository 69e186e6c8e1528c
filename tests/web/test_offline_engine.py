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
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, override_settings
from django.test.testcases import LiveServerThread
from django.urls import reverse
from playwright.sync_api import Page, Route

from scoring import offline
from scoring.engine import SkatError, evaluate, evaluate_table
from scoring.engine.jsonapi import call
from skatclub.csp import DEFAULT_POLICY, WORKER_POLICY, static_file_headers

from .engine_records import records

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


# ---------------------------------------------------------------- in the browser

@pytest.fixture
def production_server() -> Iterator[str]:
    """A live server whose static files come through WhiteNoise, as in production (its MIME
    types and the headers skatclub/csp.py adds), read fresh from static/ by its finders.
    One per test: its settings (ALLOWED_HOSTS) must not outlive the test, for pytest runs
    the browser tests of several files together, and this file's other tests after them.
    The pages it is asked for touch no database. MEDIA_URL is set because Django's live
    server serves media before anything else, and with the default "" it would answer every
    URL with a file from the working directory."""
    if not offline.vendored_dir().joinpath(".pinned").is_file():
        pytest.fail(f"{offline.vendored_dir()} is missing: run make install")
    with override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True,
                           ALLOWED_HOSTS=["127.0.0.1"], MEDIA_URL="/media/"):
        # django-stubs asks for a handler class; Django only calls it with the app and serves
        # what it returns, so the app itself (WhiteNoise in its middleware) serves the files.
        thread = LiveServerThread(
            "127.0.0.1", static_handler=lambda app: app, port=0)  # type: ignore[arg-type]
        thread.daemon = True
        thread.start()
        thread.is_ready.wait()
        if thread.error:
            raise thread.error
        try:
            yield f"http://127.0.0.1:{thread.port}"
        finally:
            thread.terminate()


@pytest.fixture
def console(page: Page) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda message: messages.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: messages.append(f"pageerror: {error}"))
    return messages


READY = "() => ['ready', 'failed'].includes(window.SkatEngine && SkatEngine.status)"

BATCH = """async (payload) => {
    await SkatEngine.ready();
    const jobs = JSON.parse(payload).map(([fn, text, lang, explain, from]) => {
        const record = JSON.parse(text);
        const asked = fn === "evaluate" ? SkatEngine.evaluate(record, lang)
            : SkatEngine.evaluateTable(record, {lang: lang, explain: explain, explainFrom: from});
        return asked.then((answer) => [JSON.stringify(record), JSON.stringify(answer)]);
    });
    return JSON.stringify(await Promise.all(jobs));
}"""


def server_answer(fn: str, record: Any, lang: str, explain: bool, explain_from: int) -> Any:
    payload: Any  # the engine's answer or the error shape
    try:
        if fn == "evaluate":
            payload = evaluate(record, lang)
        else:
            payload = evaluate_table(record, lang, explain=explain, explain_from=explain_from)
    except SkatError as exc:
        payload = {"error": exc.as_dict(lang)}  # as `manage.py score --lang` prints it
    return json.loads(json.dumps(payload))


@pytest.mark.browser
def test_the_engine_page_runs_under_the_production_headers(
        page: Page, console: list[str], production_server: str, screenshot_dir: Path) -> None:
    response = page.goto(production_server + reverse("scoring:engine-check"))
    assert response is not None, "the engine page answered"
    assert response.headers["content-security-policy"] == DEFAULT_POLICY  # pages stay strict
    page.wait_for_function(READY, timeout=60_000)
    assert page.evaluate("SkatEngine.status") == "ready", page.evaluate("SkatEngine.error")
    assert page.inner_text("#engine-status") == "Das Rechenwerk ist auf diesem Gerät bereit."
    page.screenshot(path=str(screenshot_dir / "offline-engine-ready.png"))

    version = offline.pyodide_version()
    with urllib.request.urlopen(
            f"{production_server}/static/vendor/pyodide/{version}/pyodide.asm.wasm") as wasm:
        assert wasm.headers["Content-Type"] == "application/wasm"
        assert "immutable" in wasm.headers["Cache-Control"]
    with urllib.request.urlopen(f"{production_server}/static/js/skat-engine-worker.js") as js:
        assert js.headers["Content-Security-Policy"] == WORKER_POLICY
    assert not [m for m in console if "Content Security Policy" in m or "pageerror" in m
                or m.startswith("error")], console


@pytest.mark.browser
def test_without_wasm_unsafe_eval_the_engine_says_it_cannot_run(
        page: Page, production_server: str, screenshot_dir: Path) -> None:
    # The worker's own policy is what lets it compile WebAssembly: served with the pages'
    # policy instead, the engine fails, and says so rather than loading for ever.
    def strict(route: Route) -> None:
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers,
                                                  "content-security-policy": DEFAULT_POLICY})

    page.route("**/skat-engine-worker.js", strict)
    page.goto(production_server + reverse("scoring:engine-check"))
    page.wait_for_function(READY, timeout=60_000)
    assert page.evaluate("SkatEngine.status") == "failed"
    assert "WebAssembly is blocked" in page.evaluate("SkatEngine.error")
    assert page.inner_text("#engine-status") == (
        "Das Rechenwerk kann auf diesem Gerät nicht laufen.")
    assert page.evaluate("SkatEngine.evaluate({}).then(() => 'answered', () => 'rejected')") \
        == "rejected"
    page.screenshot(path=str(screenshot_dir / "offline-engine-failed.png"))


@pytest.mark.browser
@pytest.mark.slow
def test_the_browser_engine_answers_exactly_as_the_server(page: Page,
                                                          production_server: str) -> None:
    page.goto(production_server + reverse("scoring:engine-check"))
    page.wait_for_function(READY, timeout=60_000)
    assert page.evaluate("SkatEngine.status") == "ready", page.evaluate("SkatEngine.error")
    # The first start kept a snapshot of Pyodide's memory; the engine that answers below is
    # restored from it, as on every later visit of a tablet (skat-engine-worker.js).
    assert page.evaluate("SkatEngine.boot") == "fresh"
    page.wait_for_function("() => SkatEngine.snapshot !== null", timeout=60_000)
    assert page.evaluate("SkatEngine.snapshot.ok")
    page.reload()
    page.wait_for_function(READY, timeout=60_000)
    assert page.evaluate("SkatEngine.status") == "ready", page.evaluate("SkatEngine.error")
    assert page.evaluate("SkatEngine.boot") == "snapshot"
    asked = records(seed=20261124, deals=2500, tables=500)
    jobs = [(fn, json.dumps(record, ensure_ascii=False), "de" if i % 2 else "en",
             i % 3 == 0, 1 + i % 5) for i, (fn, record) in enumerate(asked)]
    started = time.perf_counter()
    compared = errors = 0
    seen_kinds: set[str] = set()
    for start in range(0, len(jobs), 250):
        batch = jobs[start:start + 250]
        answers = json.loads(page.evaluate(BATCH, json.dumps(batch)))
        for (fn, _, lang, explain, explain_from), (seen, answer) in zip(batch, answers,
                                                                         strict=True):
            # The record as the browser's engine got it (JSON through JavaScript), scored by
            # the server's engine in this process.
            expected = server_answer(fn, json.loads(seen), lang, explain, explain_from)
            assert json.loads(answer) == expected, (fn, lang, seen)
            compared += 1
            errors += "error" in expected
            for row in expected.get("deals", []) if fn == "evaluate_table" else []:
                seen_kinds.update({"rules " + expected["rules"], f"kind {row['kind']}"})
                seen_kinds.update({"bock"} if row.get("bock") else set())
                seen_kinds.update({"ramsch round"} if row.get("ramsch_round") else set())
    elapsed = time.perf_counter() - started
    assert compared == 3000
    # Both kinds of answer were compared in earnest, not only refusals.
    assert 0.25 * compared < errors < 0.75 * compared
    # Whole tables that scored covered every rule system, Bock and Ramsch rounds.
    assert {"rules isko", "rules american1898", "rules hoyle", "bock", "ramsch round",
            "kind ramsch", "kind passed", "kind game"} <= seen_kinds, seen_kinds
    assert elapsed < 60, f"{compared} records took {elapsed:.1f} s"
    # A kept snapshot that will not restore (another runtime build, a damaged entry) costs
    # one ordinary start: it is deleted, Python starts afresh and a new snapshot is kept.
    keys = page.evaluate("""async () => {
      const cache = await caches.open("skat-engine-snapshot");
      const keys = await cache.keys();
      const junk = new Uint8Array(1 << 16);
      junk.fill(7);
      await Promise.all(keys.map(k => cache.put(k, new Response(junk))));
      return keys.map(k => k.url);
    }""")
    assert len(keys) == 1
    page.reload()
    page.wait_for_function(READY, timeout=60_000)
    assert page.evaluate("SkatEngine.status") == "ready", page.evaluate("SkatEngine.error")
    assert page.evaluate("SkatEngine.boot") == "fresh"
    answer = page.evaluate("SkatEngine.evaluate({kind: 'passed'}, 'de')")
    assert answer == json.loads(json.dumps(evaluate({"kind": "passed"}, "de")))
    page.wait_for_function("() => SkatEngine.snapshot !== null", timeout=60_000)
    assert page.evaluate("SkatEngine.snapshot.ok")
    page.reload()
    page.wait_for_function(READY, timeout=60_000)
    assert page.evaluate("SkatEngine.boot") == "snapshot"
