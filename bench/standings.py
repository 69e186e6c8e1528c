"""The season pages' speed (issue: seasons and standings), on SQLite.

Targets, on the season of `demo_season --evenings 40 --tables 12` (about 23,000 deals): the
season table page renders in < 300 ms p95 server time with <= 15 SQL queries of its own (the
shared cache's, when it is kept in the database, are printed beside them); the season table as
a PDF renders in < 2 s.

Every number on the page is derived from the raw deals by the engine. Each table's result is
cached under the table's version (scoring/reads/results.py), so the figures are given for the three
states a page meets:
- warm: no table changed since the last request (the normal case between evenings);
- one table changed: a deal was saved at one table since (the normal case during an
  evening), so that table's deals are read and scored again;
- cold: an empty cache (after a restart), so all 23,000 deals are read and scored.
Baselines in the same run: the engine alone scoring the same deals (the part no page can
avoid when nothing is cached), reading the deals from the database, and the plain login page
(the cost of any request on this machine).

Run: make bench  (or .venv/bin/python bench/standings.py [--iterations N])
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time

from _support import WORKDIR, report, split_queries, timed  # noqa: E402 (sets Django up)
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from scoring.demo.season import build_season  # noqa: E402
from scoring.engine import evaluate_table  # noqa: E402
from scoring.models import Deal, Season, Table  # noqa: E402
from scoring.pdf.standings import standings_pdf  # noqa: E402
from scoring.reads.sheet import table_document, tables_with_everything  # noqa: E402
from scoring.writes.services import Actor, deal_record  # noqa: E402

EVENINGS, TABLES = 40, 12
QUERY_TARGET = 15
P95_TARGET_MS = 300.0
PDF_TARGET_S = 2.0





def get_ok(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)


def one_more_deal(table: Table, actor: Actor) -> Deal:
    """A deal that is valid wherever the table stands: passed in (a penalty when the series
    is already complete, which may still be written under a finished list)."""
    table = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    return deal_record(table=table, record={"kind": "penalty", "penalty": {
        "seat": 0, "points": 10, "reason": "bench"}}, expected_version=table.version,
        actor=actor)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=60)
    args = parser.parse_args()

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    season = build_season(evenings=EVENINGS, tables=TABLES, series=1, seed=40)
    deals = Deal.objects.filter(table__evening__season=season).count()
    tables = Table.objects.filter(evening__season=season).count()
    print(f"set-up: demo_season --evenings {EVENINGS} --tables {TABLES}: {tables} tables, "
          f"{deals} deals in {time.perf_counter() - started:.1f} s (SQLite file in {WORKDIR})")
    gc.collect()  # the set-up's garbage is no server's: do not time its collection
    user = get_user_model().objects.get(username="demo")
    client = Client()
    client.force_login(user)
    url = reverse("scoring:season", args=[season.pk])
    results = caches["results"]
    ok = True

    results.clear()
    cold_first = timed(lambda: get_ok(client, url))
    with CaptureQueriesContext(connection) as queries:
        get_ok(client, url)
    count, cached = split_queries(queries.captured_queries)
    verdict = "ok" if count <= QUERY_TARGET else "OVER TARGET"
    ok &= count <= QUERY_TARGET
    print(f"queries: season table page {count} (target <= {QUERY_TARGET}) {verdict}, and "
          f"{cached} of the shared cache in the database; "
          f"the first request after a restart {cold_first:.0f} ms")

    for _ in range(3):  # warm the template and translation caches
        get_ok(client, url)
    warm = [timed(lambda: get_ok(client, url)) for _ in range(args.iterations)]

    actor = Actor(user, "bench")
    live = list(Table.objects.filter(evening__season=season).order_by("-evening__date", "pk")
                [:TABLES])
    changed: list[float] = []
    for i in range(args.iterations):
        one_more_deal(live[i % len(live)], actor)  # untimed: a tablet saves a deal
        changed.append(timed(lambda: get_ok(client, url)))
    one_more_deal(live[0], actor)
    with CaptureQueriesContext(connection) as queries:
        get_ok(client, url)
    changed_queries = len(queries)

    cold: list[float] = []
    for _ in range(max(5, args.iterations // 10)):
        results.clear()
        cold.append(timed(lambda: get_ok(client, url)))

    player = season.club.players.order_by("pk").first()
    assert player is not None
    player_url = reverse("scoring:season-player", args=[season.pk, player.pk])
    evening = season.evenings.order_by("-date").first()
    assert evening is not None
    ranking_url = reverse("scoring:evening-ranking", args=[evening.pk])
    get_ok(client, player_url)
    player_ms = [timed(lambda: get_ok(client, player_url)) for _ in range(args.iterations)]
    ranking_ms = [timed(lambda: get_ok(client, ranking_url)) for _ in range(args.iterations)]

    pdf_s = []
    for _ in range(5):
        start = time.perf_counter()
        pdf = standings_pdf(Season.objects.select_related("club").get(pk=season.pk), "de")
        pdf_s.append(time.perf_counter() - start)
    assert pdf.startswith(b"%PDF")

    # baselines: the same deals, read and scored without any page around them
    documents = []
    for table in tables_with_everything(Table.objects.filter(evening__season=season)):
        documents.append(table_document(table))
    engine_ms = [timed(lambda: [evaluate_table(d) for d in documents]) for _ in range(5)]
    read_ms = [timed(lambda: list(Deal.objects.filter(table__evening__season=season)
                                  .values_list("table_id", "record"))) for _ in range(5)]
    login_ms = [timed(lambda: Client().get(reverse("login"))) for _ in range(args.iterations)]

    print(f"server time over {args.iterations} requests (Django test client, SQLite):")
    p95_warm = report("season table, warm (no table changed)", warm)
    p95_changed = report("season table, one table changed since", changed)
    report(f"season table, cold (empty cache; {len(cold)} runs)", cold)
    report("player page (charts, one evening's sheets)", player_ms)
    report("evening ranking (one evening)", ranking_ms)
    print(f"  queries after a deal was saved: {changed_queries}")
    print("baselines in the same run:")
    report(f"engine alone: evaluate_table of all {deals} deals", engine_ms)
    report(f"database alone: reading the {deals} deal records", read_ms)
    report("plain request: the login page", login_ms)
    worst = max(p95_warm, p95_changed)
    verdict = "ok" if worst < P95_TARGET_MS else "OVER TARGET"
    ok &= worst < P95_TARGET_MS
    print(f"season table p95 (warm, and one table changed): {worst:.1f} ms "
          f"(target < {P95_TARGET_MS:.0f} ms) {verdict}")
    pdf_worst = max(pdf_s)
    verdict = "ok" if pdf_worst < PDF_TARGET_S else "OVER TARGET"
    ok &= pdf_worst < PDF_TARGET_S
    print(f"standings PDF: median {statistics.median(pdf_s):.2f} s, max {pdf_worst:.2f} s, "
          f"{len(pdf)} bytes (target < {PDF_TARGET_S:.0f} s) {verdict}")
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
