"""The scoring engine in a real browser (tests/web/test_offline_engine.py checks its files):
against a server that serves static files as production does (WhiteNoise, with its
headers), the engine page runs under the production headers, says so when it cannot run, and
thousands of random deals and tables in all three rule systems, with Kontra, Bock and Ramsch,
go through SkatEngine and through scoring.engine in this process: the JSON must be identical,
errors included. Nothing is fetched from a registry: the runtime comes from what make install
put into static/vendor/pyodide/.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from django.test.testcases import LiveServerThread
from django.urls import reverse
from playwright.sync_api import Page, Route

from scoring import offline
from scoring.engine import SkatError, evaluate, evaluate_table
from skatclub.csp import DEFAULT_POLICY, WORKER_POLICY
from tests.web.engine_records import records

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "scripts" / "vendor_pyodide.py"
pytestmark = pytest.mark.engine  # the engine in the browser is what these test


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
