""""Mein Platz" (issue 35, item 5) at a Preisskat of 41 and of 1,001 players, on SQLite:
the personal page every phone opens after a draw, and the poll of its fragment that keeps it
current (answered 304 Not Modified while nothing moved), against a plain Django page in the
same run (the sign-in page: a template, a form, no query).

Set-up: per size, the players registered and checked in through the services, series 1
drawn, every table's deals of series 1 recorded through ``deal_record`` (one round: 4 games at
a 4-table), series 2 drawn (with a reason for the lists not signed). Measured with Django's
test client, anonymous as a phone with its personal link is:
- the full page of a rotating sample of entrants, warm (the day's ranking summary kept);
- the same page after a deal was saved (the summary computed again: once for every phone);
- the 304 poll (If-None-Match of the page shown).
Queries are the page's own SQL (the shared cache's table reads apart, bench/_support.py's
split_queries). Targets, as ratios to the plain page's p95 in the same run (the machine is
shared: absolute times move with its load, ratios much less): the full page at 1,001 players
p95 < FULL_RATIO × plain, the 304 poll p95 < POLL_RATIO × plain; the page and the poll make
the same number of queries at 41 and at 1,001 players.

Run: make bench  (or .venv/bin/python bench/my_seat.py [--iterations N])
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from decimal import Decimal

from _support import WORKDIR, report, split_queries, timed  # noqa: E402 (sets Django up)
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone, translation  # noqa: E402

from scoring.engine import generate_deals  # noqa: E402
from scoring.models import Club, RuleProfile, Table, Tournament  # noqa: E402
from scoring.presets import PRESETS  # noqa: E402
from scoring.writes import tournament as tw  # noqa: E402
from scoring.writes.services import Actor, deal_record  # noqa: E402

FULL_RATIO = 6.0  # the full page at 1,001 players against the plain page (p95)
POLL_RATIO = 1.5  # the 304 poll against the plain page (p95)
SIZES = (41, 1001)


def build(club: Club, profile: RuleProfile, players: int) -> Tournament:
    tournament = tw.tournament_create(
        club=club, name=f"Preisskat {players}", date=timezone.localdate(), profile=profile,
        series_count=3, series_rounds=1, entry_fee=Decimal("10.00"),
        settlement=tw.fee_settlement(lost_fee=Decimal("0.50"), lost_fee_high=None,
                                     lost_fee_from=1, passed_fee=Decimal("0")),
        categories=[], team_fee=None, tandem_fee=None, reseat="draw", tie_rule="won",
        prizes=["50%", "30%"], public=True)
    for n in range(1, players + 1):
        tw.entrant_register(tournament=tournament, name=f"Spieler{players} {n:04d}",
                            paid=True, at_door=True)
    tw.series_draw(tournament=tournament, seed=1)
    actor = Actor(None, "bench")
    for table in Table.objects.filter(evening=tournament.evening, series=1):
        seats = table.seats.count()
        length = tournament.evening.series_length(seats)
        assert length is not None
        for record in generate_deals(length, seats, first_dealer=table.first_dealer,
                                     seed=table.number):
            fresh = Table.objects.get(pk=table.pk)
            deal_record(table=fresh, record=record, expected_version=fresh.version,
                        actor=actor)
    tw.series_draw(tournament=tournament, seed=2, unsigned_reason="bench: not signed")
    return tournament


def one_deal(tournament: Tournament, seed: int) -> None:
    """A deal of series 2 saved at a table: every phone's page changes (the ranking)."""
    table = Table.objects.filter(evening=tournament.evening, series=2).annotate(
        played=Count("deals")).order_by("played", "?").first()
    assert table is not None
    done = table.deals.filter(deleted=False).count()
    record = generate_deals(done + 1, table.seats.count(), first_dealer=table.first_dealer,
                            seed=seed)[done]
    deal_record(table=table, record=record, expected_version=table.version,
                actor=Actor(None, "bench"))


def get_ms(client: Client, url: str, etag: str = "") -> float:
    """Milliseconds of one GET (with If-None-Match when ``etag``)."""
    if etag:
        return timed(lambda: client.get(url, HTTP_IF_NONE_MATCH=etag))
    return timed(lambda: client.get(url))


def counted(client: Client, url: str, **headers: str) -> tuple[int, int]:
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)  # type: ignore[arg-type]
    return response.status_code, split_queries(captured.captured_queries)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    translation.activate("de")
    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["testserver"]
    club = Club.objects.create(slug="preisskat", name="Preisskat-Verein")
    preset = PRESETS["isko_tournament"]
    profile = RuleProfile.objects.create(club=club, name=preset["name"], rules=preset["rules"],
                                         options=preset["options"], scoring=preset["scoring"])
    started = time.perf_counter()
    tournaments = {n: build(club, profile, n) for n in SIZES}
    print(f"set-up (SQLite file in {WORKDIR}): {' and '.join(map(str, SIZES))} players, "
          f"series 1 played through the services, series 2 drawn, in "
          f"{time.perf_counter() - started:.1f} s")

    rng = random.Random(35)
    client = Client()  # a phone: no account, its personal link
    found: dict[int, dict[str, object]] = {}
    for size, tournament in tournaments.items():
        keys = list(tournament.entrants.values_list("seat_key", flat=True))
        sample = [reverse("scoring:seat-key", args=[k]) for k in rng.sample(
            keys, min(len(keys), 200))]
        for url in sample:  # every sampled page once: the templates, the summary kept
            assert client.get(url).status_code == 200
        full = [get_ms(client, sample[i % len(sample)]) for i in range(args.iterations)]
        status, full_queries = counted(client, sample[0])
        assert status == 200
        changed = []
        for i in range(max(10, args.iterations // 20)):
            one_deal(tournament, 35)  # drops the kept states (live.forget_states)
            changed.append(get_ms(client, sample[i % len(sample)]))
        polls = [(url + "live/", client.get(url)["ETag"]) for url in sample]
        poll_ms = [get_ms(client, *polls[i % len(polls)]) for i in range(args.iterations)]
        status, poll_queries = counted(client, polls[0][0], HTTP_IF_NONE_MATCH=polls[0][1])
        assert status == 304, status
        found[size] = {"full": full, "changed": changed, "poll": poll_ms,
                       "full_queries": full_queries, "poll_queries": poll_queries}
    plain = [timed(lambda: Client().get(reverse("login"))) for _ in range(args.iterations)]

    print(f"server time over {args.iterations} requests (Django test client, SQLite; "
          "queries: the page's own SQL, the shared cache's apart):")
    p95: dict[str, float] = {}
    for size, numbers in found.items():
        p95[f"full {size}"] = report(
            f"{size:>5} players: full page, warm ({numbers['full_queries']} queries)",
            numbers["full"])  # type: ignore[arg-type]
        report(f"{size:>5} players: full page after a deal was saved",
               numbers["changed"])  # type: ignore[arg-type]
        p95[f"poll {size}"] = report(
            f"{size:>5} players: 304 poll ({numbers['poll_queries']} queries)",
            numbers["poll"])  # type: ignore[arg-type]
    print("baseline in the same run:")
    base = report("plain request: the sign-in page", plain)
    ok = True
    full_ratio = p95[f"full {SIZES[-1]}"] / base
    poll_ratio = max(p95[f"poll {n}"] for n in SIZES) / base
    verdict = "ok" if full_ratio < FULL_RATIO else "OVER TARGET"
    ok &= full_ratio < FULL_RATIO
    print(f"full page at {SIZES[-1]} players: p95 {full_ratio:.2f}x the plain page "
          f"(target < {FULL_RATIO:.1f}x) {verdict}")
    verdict = "ok" if poll_ratio < POLL_RATIO else "OVER TARGET"
    ok &= poll_ratio < POLL_RATIO
    print(f"304 poll: p95 {poll_ratio:.2f}x the plain page (target < {POLL_RATIO:.1f}x) "
          f"{verdict}")
    same = all(found[SIZES[0]][k] == found[SIZES[-1]][k]
               for k in ("full_queries", "poll_queries"))
    ok &= same
    print(f"queries the same at {SIZES[0]} and {SIZES[-1]} players (page "
          f"{found[SIZES[0]]['full_queries']}/{found[SIZES[-1]]['full_queries']}, poll "
          f"{found[SIZES[0]]['poll_queries']}/{found[SIZES[-1]]['poll_queries']}): "
          f"{'yes' if same else 'NO'}")
    load = os.getloadavg()[0]
    print(f"(load average {load:.1f} on {os.cpu_count()} cores while measuring: the machine "
          "is shared, so the times are as good as the load lets them be)")
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
