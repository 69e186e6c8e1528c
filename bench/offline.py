"""The scoring engine in the browser (issue 13): what a tablet downloads for it, how soon it is
ready, and how fast it answers, in Debian's chromium against gunicorn (DEBUG=0, WhiteNoise,
hashed and compressed static files, as `make serve` runs it) on 127.0.0.1.

- Bytes the first time: everything the server sends while the engine page loads and the
  engine starts in a fresh browser profile (from gunicorn's access log: body bytes as sent,
  compressed where the browser asked for it). Target: <= 15 MB.
- Bytes on a later visit: the browser is closed and started again on the same profile (its
  HTTP cache on disk); only what it still fetches counts. The runtime and the engine bundle
  must come from the cache (immutable URLs): only the page itself and small data.
- Time to ready: from the page's navigation start to SkatEngine's "ready", first and later
  visit (the median of --visits later visits), before and after in the same run: "before"
  is the old start (window.SkatEngineBoot = "plain": Python started and the engine imported
  on every visit, the bundle fetched after the runtime, the package lock fetched), "after"
  the start as it is (skat-engine-worker.js: the bundle fetched beside the runtime, no lock,
  and from the second visit on Pyodide's memory snapshot of the first), each in a browser
  profile of its own. Target: a later visit ready in half the time of the old start.
- Evaluate latency once ready: a few hundred single deals (tests/web/engine_records.py's
  random mix of valid and refused records, all three rule systems), one at a time, each
  timed in the page from the call to the answer (postMessage, Python, JSON both ways).
  Target: p95 <= 300 ms. Also whole tables of 48 and 150 deals (Kontra, Bock, Ramsch).
  Baseline in the same run: the same calls to scoring.engine in this process (CPython).
- The table screen offline (static/js/offline-table.js): a scorer signs in, opens a table of
  a club evening, the service worker installs, the network goes (Playwright's offline mode):
  the preview after a tap (from the tap to the engine's breakdown or refusal in #preview,
  the whole table evaluated in the browser), median and p95, target p95 <= 300 ms; then 50
  deals wait in the queue and the network comes back: the time until the last is stored on
  the server (POST tables/<pk>/sync/, one after the other, in order).

The server only ever listens on 127.0.0.1 and is stopped at the end; every loop is bounded.
Django's ORM is never called while Playwright's sync API runs its event loop in this thread
(Django refuses that: SynchronousOnlyOperation): the table is made before the browser
starts, and what the bench reads from the database meanwhile it reads in a thread of its own.
Run: make bench  (or .venv/bin/python bench/offline.py [--deals N] [--visits N] [--quick])
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from _support import (  # noqa: E402 (sets Django up)
    HOST,
    WORKDIR,
    free_port,
    percentile,
    report,
    start_gunicorn,
    stop,
)

from scoring.engine import (  # noqa: E402
    evaluate,
    evaluate_table,
    generate_deals,  # noqa: E402
)
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.engine_records import records  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page, Playwright

DOWNLOAD_TARGET_MB = 15.0
P95_TARGET_MS = 300.0
OPTIONS = {"kontra": True, "ramsch": "when_all_pass",
           "bock": {"triggers": ["sixty_sixty", "kontra_lost", "re"], "ramsch_round_after": 1}}
READY = "() => ['ready', 'failed'].includes(window.SkatEngine && SkatEngine.status)"
PLAIN = "window.SkatEngineBoot = 'plain';"  # the old start, as the baseline
T = TypeVar("T")
_db_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-db")


def in_db_thread(work: Callable[[], T]) -> T:
    """``work`` (ORM calls) in a thread of its own, where no event loop runs: Playwright's
    sync API marks its loop as running in this thread, and Django refuses ORM calls there."""
    return _db_thread.submit(work).result()


def start_server(port: int, access_log: Path) -> subprocess.Popen[bytes]:
    """Two workers of four threads, with an access log of the bytes sent."""
    return start_gunicorn(  # type: ignore[no-any-return]
        port, workers=2, threads=4, ready="/engine/", args=(
            "--access-logfile", str(access_log),
            # WhiteNoise streams files, for which gunicorn's %(B)s stays 0: the bytes are
            # the Content-Length sent (of the compressed variant where one was chosen).
            "--access-logformat", "%(U)s %(s)s %(B)s %({content-length}o)s "
            "%({content-encoding}o)s"))


def log_lines(path: Path) -> list[tuple[str, int, int, str]]:
    """(path, status, body bytes, content encoding) per request."""
    lines = []
    for line in path.read_text().splitlines():
        url, status, body, length, encoding = line.rsplit(" ", 4)
        size = max(0 if body == "-" else int(body), 0 if length == "-" else int(length))
        lines.append((url, int(status), size, "" if encoding == "-" else encoding))
    return lines


def visit(playwright: Playwright, profile: Path, url: str, access_log: Path, label: str,
          deals: list[tuple[str, dict[str, Any]]] | None = None,
          plain: bool = False) -> dict[str, Any]:
    """One visit with the browser profile in ``profile`` (the old start if ``plain``);
    returns what was fetched, when the engine was ready and how it started, and times
    ``deals`` if given. After a first start the visit lasts until the snapshot is stored."""
    before = len(log_lines(access_log))
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, locale="de-DE")
    if plain:
        context.add_init_script(script=PLAIN)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(READY, timeout=120_000)
        status = page.evaluate("SkatEngine.status")
        if status != "ready":
            raise SystemExit(f"{label}: the engine failed: {page.evaluate('SkatEngine.error')}")
        ready_ms = page.evaluate("SkatEngine.timings.ready")
        result: dict[str, Any] = {"ready_ms": ready_ms, "boot": page.evaluate("SkatEngine.boot")}
        if result["boot"] == "fresh":
            page.wait_for_function("() => SkatEngine.snapshot !== null", timeout=120_000)
            result["snapshot"] = page.evaluate("SkatEngine.snapshot")
        result["worker"] = page.evaluate("SkatEngine.workerTimings")
        if deals is not None:
            result["timed"] = time_in_page(page, deals)
        page.close()
    finally:
        context.close()
    time.sleep(0.3)  # the access log is written after the answer
    fetched = log_lines(access_log)[before:]
    result["fetched"] = fetched
    result["bytes"] = sum(size for _, _, size, _ in fetched)
    return result


TIME_ONE = """async ([kind, text]) => {
    const record = JSON.parse(text);
    const start = performance.now();
    if (kind === "evaluate") {
        await SkatEngine.evaluate(record, "de");
    } else {
        await SkatEngine.evaluateTable(record, {lang: "de"});
    }
    return performance.now() - start;
}"""


def time_in_page(page: Page, jobs: list[tuple[str, dict[str, Any]]]) -> list[float]:
    return [page.evaluate(TIME_ONE, [kind, json.dumps(record)]) for kind, record in jobs]


def time_in_process(jobs: list[tuple[str, dict[str, Any]]]) -> list[float]:
    samples = []
    for kind, record in jobs:
        start = time.perf_counter()
        try:
            if kind == "evaluate":
                evaluate(record, "de")
            else:
                evaluate_table(record, "de")
        except ValueError:
            pass
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def table(n_deals: int, seed: int) -> dict[str, Any]:
    return {"rules": "isko", "options": OPTIONS, "players": ["Anna", "Bernd", "Clara", "Dieter"],
            "stake": "0.05", "deals": generate_deals(n_deals, 4, "isko", OPTIONS, 0, seed)}


def megabytes(n: int) -> str:
    return f"{n / 1e6:6.2f} MB"


PREVIEW_AFTER_TAP = """async (tap) => {
    const preview = document.getElementById("preview");
    const label = document.querySelector(`[data-tap="${tap}"]`);
    const changed = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
            if (preview.querySelector(".preview-body")) {
                observer.disconnect();
                resolve(performance.now());
            }
        });
        observer.observe(preview, {childList: true, subtree: true});
    });
    const start = performance.now();
    label.click();
    return (await changed) - start;
}"""

CACHED = "() => caches.open('skatclub-pages').then(c => c.match(location.pathname)).then(Boolean)"

QUEUE_50 = """async ([records, version]) => {
    const db = await new Promise((resolve, reject) => {
        const open = indexedDB.open("skatclub-offline", 1);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
    });
    const table = Number(document.querySelector("script[data-offline-table]").dataset.table);
    await new Promise((resolve, reject) => {
        const t = db.transaction("ops", "readwrite");
        records.forEach((record, i) => t.objectStore("ops").put({
            table: table, op: "save", request_id: crypto.randomUUID(), base_version: version,
            record: record, label: record.kind, status: "pending", created: Date.now() + i}));
        t.oncomplete = resolve;
        t.onerror = () => reject(t.error);
    });
}"""


def screen_table() -> dict[str, Any]:
    """A club evening's table of four and its scorer, made before the browser starts; the
    50 deals the screen will queue (valid ones, in order, as the engine generates them)."""
    import django.core.management

    from tests.web.factories import make_club, make_table, make_user

    django.core.management.call_command("migrate", verbosity=0)
    club = make_club("bench", "Bench Club")
    table_obj = make_table(club, players=4, preset="club_evening")
    user = make_user(club, "scorer")
    table_obj.refresh_from_db()
    return {"pk": table_obj.pk, "username": user.get_username(), "version": table_obj.version,
            "records": generate_deals(50, 4, "isko", OPTIONS, table_obj.first_dealer, 11)}


def stored_records(pk: int) -> list[dict[str, Any]]:
    from scoring.models import Deal

    return [d.record for d in Deal.objects.filter(table_id=pk).order_by("position")]


def offline_screen(playwright: Playwright, base: str, made: dict[str, Any],
                   taps: int) -> dict[str, Any]:
    """The table screen offline: preview latency after a tap, and 50 queued deals sent."""
    from scoring.models import Deal, Table

    pk = made["pk"]
    context = playwright.chromium.launch_persistent_context(
        tempfile.mkdtemp(prefix="profile-screen-", dir=WORKDIR), executable_path=CHROMIUM,
        args=CHROMIUM_ARGS, locale="de-DE", viewport={"width": 1024, "height": 768},
        has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("input[name=username]", made["username"])
        page.fill("input[name=password]", "pw-for-tests-only")
        page.locator("form button[type=submit], form input[type=submit]").last.click()
        page.wait_for_load_state()
        url = f"{base}/tables/{pk}/"
        page.goto(url)
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=120_000)
        page.wait_for_function(READY, timeout=120_000)
        deadline = time.monotonic() + 30
        while not page.evaluate(CACHED):  # the service worker has the page for a reload
            if time.monotonic() > deadline:
                raise SystemExit("the service worker did not cache the table screen")
            time.sleep(0.2)
        context.set_offline(True)
        page.reload()
        page.wait_for_function(READY, timeout=120_000)
        for tap in ("declarer-1", "game-clubs", "matadors-1", "result-points"):
            page.locator(f'[data-tap="{tap}"]').click()
        page.fill("#declarer-points", "70")
        bids = ["bid-18", "bid-20", "bid-22", "bid-23", "bid-24", "bid-27", "bid-30", "bid-33",
                "bid-35", "bid-36"]
        page.evaluate(PREVIEW_AFTER_TAP, "bid-18")  # the first answer warms the engine up
        samples = [page.evaluate(PREVIEW_AFTER_TAP, bids[i % len(bids)])
                   for i in range(1, taps + 1)]
        # 50 deals wait (valid ones, in order, as the engine generates them for this table).
        records = made["records"]
        page.evaluate(QUEUE_50, [records, made["version"]])
        page.reload()
        page.wait_for_function("() => window.SkatOffline && SkatOffline.loaded &&"
                               " SkatOffline.ops().length === 50", timeout=60_000)
        start = time.perf_counter()
        context.set_offline(False)
        deadline = time.monotonic() + 300
        while in_db_thread(lambda: Deal.objects.filter(table_id=pk).count()) < 50:
            if time.monotonic() > deadline:
                raise SystemExit("the queue of 50 deals was not sent within 300 s")
            time.sleep(0.05)
        sent_s = time.perf_counter() - start
        if in_db_thread(lambda: stored_records(pk)) != records:
            raise SystemExit("the 50 deals were not stored as queued, in order")
        return {"preview": samples, "sent_s": sent_s,
                "version": in_db_thread(lambda: Table.objects.get(pk=pk).version)}
    finally:
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300, help="single deals to time")
    parser.add_argument("--visits", type=int, default=3,
                        help="later visits per start, before and after (their median counts)")
    parser.add_argument("--quick", action="store_true",
                        help="a short run: 50 deals, 5 tables of each size, 20 taps, 2 visits")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"bench/offline.py: {CHROMIUM} is missing (make system-test-deps); skipped")
        return 0
    n_tables, taps = 30, 60
    if args.quick:
        args.deals, args.visits, n_tables, taps = min(args.deals, 50), 2, 5, 20

    from playwright.sync_api import sync_playwright

    deals = [("evaluate", record) for _, record in records(seed=7, deals=args.deals, tables=0)]
    tables = [("evaluate_table", table(48, seed)) for seed in range(n_tables)] + \
             [("evaluate_table", table(150, seed)) for seed in range(n_tables)]
    made = screen_table()  # before Playwright's loop runs in this thread
    access_log = Path(WORKDIR) / "access.log"
    access_log.touch()
    port = free_port()
    process = start_server(port, access_log)
    profile = Path(tempfile.mkdtemp(prefix="profile-", dir=WORKDIR))
    old_profile = Path(tempfile.mkdtemp(prefix="profile-plain-", dir=WORKDIR))
    url = f"http://{HOST}:{port}/engine/"
    failures = []
    try:
        with sync_playwright() as playwright:
            # Before: the old start, in a profile of its own.
            old_first = visit(playwright, old_profile, url, access_log, "first visit, before",
                              plain=True)
            old_later = [visit(playwright, old_profile, url, access_log, "later visit, before",
                               plain=True) for _ in range(args.visits)]
            # After: the start as it is.
            first = visit(playwright, profile, url, access_log, "first visit")
            later = visit(playwright, profile, url, access_log, "later visit",
                          deals=deals + tables)
            new_later = [later] + [visit(playwright, profile, url, access_log, "later visit")
                                   for _ in range(args.visits - 1)]
            screen = offline_screen(playwright, f"http://{HOST}:{port}", made, taps)
    finally:
        stop(process)
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(old_profile, ignore_errors=True)
        _db_thread.shutdown()

    print(f"gunicorn (DEBUG=0, WhiteNoise) on {HOST}:{port}, {CHROMIUM}")
    print("  first visit, fetched from the server:")
    for path, status, size, encoding in sorted(first["fetched"], key=lambda f: -f[2]):
        print(f"    {size:>10,} B  {status}  {encoding or '-':4}  {path}")
    print(f"  first visit: {megabytes(first['bytes'])} in {len(first['fetched'])} requests "
          f"(target <= {DOWNLOAD_TARGET_MB:.0f} MB)")
    print(f"  later visit: {later['bytes']:,} B in {len(later['fetched'])} requests: "
          + ", ".join(f"{p} ({s}, {n:,} B)" for p, s, n, _ in later["fetched"]))
    runtime = [p for p, _, _, _ in later["fetched"] if "/vendor/pyodide/" in p or "/engine/" in p
               and p.endswith(".zip")]
    def median_ready(visits: list[dict[str, Any]]) -> float:
        return float(statistics.median(v["ready_ms"] for v in visits))

    before_later, after_later = median_ready(old_later), median_ready(new_later)
    print(f"  engine ready after navigation start (later visit: median of {args.visits}):")
    print(f"    before (old start: {old_first['boot']}/{old_later[0]['boot']})    "
          f"first visit {old_first['ready_ms']:7.0f} ms   later visit {before_later:7.0f} ms")
    print(f"    after  (start: {first['boot']}, then {later['boot']})  "
          f"first visit {first['ready_ms']:7.0f} ms   later visit {after_later:7.0f} ms")
    snapshot = first.get("snapshot") or {}
    print(f"    the snapshot kept after the first visit: {snapshot.get('bytes', 0) / 1e6:.1f} MB"
          f" (Cache Storage), stored {'ok' if snapshot.get('ok') else 'NOT'}")
    for name, v in (("before, later", old_later[0]), ("after, first", first),
                    ("after, later", later)):
        marks = v.get("worker") or {}
        start = marks.get("boot", 0)
        print(f"    worker marks ({name}): " + ", ".join(
            f"{k} +{ms - start} ms" for k, ms in sorted(marks.items(), key=lambda kv: kv[1])))
    if any(v["boot"] != "snapshot" for v in new_later):
        failures.append("a later visit did not start from the snapshot: "
                        + ", ".join(str(v["boot"]) for v in new_later))
    if after_later > before_later / 2:
        failures.append(f"later visit ready in {after_later:.0f} ms, not half of the old "
                        f"start's {before_later:.0f} ms")
    timed = later["timed"]
    single, whole = timed[:len(deals)], timed[len(deals):]
    print(f"  in the browser (Pyodide), once ready, {len(deals)} single deals one at a time:")
    p95 = report("evaluate(deal)", single, 40)
    report("evaluateTable(48 deals)", whole[:n_tables], 40)
    report("evaluateTable(150 deals)", whole[n_tables:], 40)
    print("  baseline, scoring.engine in this process (CPython), same records:")
    report("evaluate(deal)", time_in_process(deals), 40)
    report("evaluate_table(48 deals)", time_in_process(tables[:n_tables]), 40)
    report("evaluate_table(150 deals)", time_in_process(tables[n_tables:]), 40)
    print(f"  browser / CPython, median single deal: "
          f"{statistics.median(single) / statistics.median(time_in_process(deals)):.0f}×")

    if first["bytes"] > DOWNLOAD_TARGET_MB * 1e6:
        failures.append(f"first visit downloads {megabytes(first['bytes'])}")
    if runtime:
        failures.append(f"later visit fetched the runtime again: {runtime}")
    if p95 > P95_TARGET_MS:
        failures.append(f"evaluate p95 {p95:.1f} ms > {P95_TARGET_MS:.0f} ms")
    print(f"  p95 single deal {percentile(single, 95):.1f} ms (target <= {P95_TARGET_MS:.0f} ms)")
    print("  the table screen offline (service worker, queue in IndexedDB):")
    preview_p95 = report(f"preview after a tap ({taps} taps)", screen["preview"], 40)
    print(f"  50 queued deals sent on reconnect: {screen['sent_s']:.1f} s "
          f"({screen['sent_s'] * 1000 / 50:.0f} ms per deal), stored once each, in order")
    if preview_p95 > P95_TARGET_MS:
        failures.append(f"offline preview p95 {preview_p95:.1f} ms > {P95_TARGET_MS:.0f} ms")
    for failure in failures:
        print(f"  FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
