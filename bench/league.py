"""A team league's numbers and PDFs (issue 25), on SQLite: a group of 18 teams over 5 match
days, against the same work for a league of 4 teams and 1 match day in the same run.

The league (what the benchmark builds, and how):
- 18 teams of four players in one group ("Staffel"), three series a match day, 12 rounds a
  series (48 games at a 4-table), as in a DSkV Verbandsliga.
- 5 match days. On each, the 18 teams meet in four places (a MatchDay each, the same number):
  4 + 4 + 5 + 5 teams, the teams drawn into the places anew each match day. At a place of 4
  teams each table seats one player of each team; at a place of 5 teams (20 players) there
  are five tables of four, each team's players at four of them (teammates apart).
  20 MatchDays, 60 series, 270 tables, 1,080 players' series scores.
- The baseline league: 4 teams, 1 match day of 3 series, every deal played through the
  services (the line-ups checked in, each series seated by ``series_seat``, with a reason
  for the lists not signed at the tables, 576 deals recorded by ``deal_record``, which keeps
  the tables' Seeger-Fabian points).
- The big league, for speed: its days, line-ups and tables are made through the services
  (``match_day_create``, ``table_create``); its players' series scores (the TableScore rows
  the numbers are read from, which ``table_create`` makes at 0) are set directly, each a
  copy of a score of the baseline day's tables (points, won, lost), not played deal by deal.
  The numbers and the PDFs read only those rows, the teams and the days, so they do the same
  work as after 12,960 played deals.

Measured, for both leagues: ``group_numbers`` + ``player_ranking`` (the numbers every page
and PDF starts from), the league table, the players' ranking and the match-day report of one
place (a place of 5 teams in the big league) as PDFs (HTML and WeasyPrint, past the cache;
each rendered once untimed first), and the league table page. Targets: the big group's
numbers < 200 ms, each PDF < 2 s.

Run: make bench  (or .venv/bin/python bench/league.py [--runs N])
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from _support import WORKDIR, report, timed  # noqa: E402 (sets Django up)
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone, translation  # noqa: E402

from scoring.engine import generate_deals  # noqa: E402
from scoring.models import (  # noqa: E402
    Club,
    League,
    LeagueGroup,
    Lineup,
    MatchDay,
    Membership,
    RuleProfile,
    Table,
    TableScore,
    Team,
)
from scoring.pdf import documents  # noqa: E402
from scoring.pdf.league import players_document, report_document, table_document  # noqa: E402
from scoring.presets import PRESETS  # noqa: E402
from scoring.reads.league import group_numbers, player_ranking  # noqa: E402
from scoring.writes import league as lw  # noqa: E402
from scoring.writes.services import Actor, deal_record, table_create  # noqa: E402

TEAMS, DAYS, SERIES, ROUNDS = 18, 5, 3, 12
PLACES = (4, 4, 5, 5)  # teams per place on each match day
NUMBERS_TARGET_MS = 200.0
PDF_TARGET_S = 2.0


def make_club() -> Club:
    club = Club.objects.create(slug="liga", name="Skatverband Sachsen-Anhalt")
    for preset in PRESETS.values():
        RuleProfile.objects.create(club=club, name=preset["name"], rules=preset["rules"],
                                   options=preset["options"], scoring=preset["scoring"],
                                   stake="0")
    return club


def make_league(club: Club, name: str, teams: int) -> tuple[League, list[Team]]:
    profile = RuleProfile.objects.get(club=club, name=PRESETS["isko_tournament"]["name"])
    league = lw.league_create(club=club, name=name, season="2026/27", profile=profile,
                              series_per_day=SERIES, series_rounds=ROUNDS)
    group = lw.group_create(league=league, name="Staffel 1")
    made = []
    for t in range(1, teams + 1):
        team = lw.team_create(group=group, name=f"{name} Team {t:02d}", club_name=f"SC {t}")
        for position in range(1, 5):
            lw.team_player_add(team=team, name=f"{name} Spieler {t:02d}-{position}",
                               position=position, captain=position == 1)
        made.append(team)
    return league, made


def play_baseline(club: Club) -> tuple[League, MatchDay]:
    """4 teams, 1 match day, every deal through the services."""
    league, teams = make_league(club, "Kreisliga", 4)
    day = lw.match_day_create(group=league.groups.get(), date=timezone.localdate(),
                              host=teams[0], venue="Vereinsheim")
    actor = Actor(None, "bench")
    for series in range(1, SERIES + 1):
        if series == 1:
            for team in teams:
                lw.lineup_set(day=day, series=1, team=team, players=[
                    tp.player for tp in team.players.order_by("position")])
        lw.series_seat(day=day, seed=7, unsigned_reason="bench: the lists are not signed")
        for table in Table.objects.filter(evening=day.evening, series=series):
            length = day.evening.series_length(table.seats.count())
            assert length is not None
            for record in generate_deals(length, table.seats.count(),
                                         first_dealer=table.first_dealer,
                                         seed=100 * series + table.number):
                fresh = Table.objects.get(pk=table.pk)
                deal_record(table=fresh, record=record, expected_version=fresh.version,
                            actor=actor)
    return league, day


def place_tables(teams: list[Team]) -> list[list[int]]:
    """Each table's teams (indexes into ``teams``) and, for each, which of its players:
    4 teams: table t seats every team's player t; 5 teams: team i sits at every table but
    table i, so that each table has four players of four teams."""
    if len(teams) == 4:
        return [[t] * 4 for t in range(4)]  # marker: table t, player t of each team
    return [[i for i in range(5) if i != t] for t in range(5)]


def build_big(club: Club, scores: list[tuple[int, int, int]]) -> League:
    """18 teams × 5 match days in four places each; tables through the services, each
    player's series score a copy of one of the baseline day's (``scores``)."""
    league, teams = make_league(club, "Verbandsliga", TEAMS)
    group = league.groups.get()
    rng = random.Random(25)
    players = {t.pk: [tp.player for tp in t.players.order_by("position")] for t in teams}
    for number in range(1, DAYS + 1):
        order = teams[:]
        rng.shuffle(order)
        start = 0
        for size in PLACES:
            meeting = order[start:start + size]
            start += size
            day = lw.match_day_create(group=group, date=timezone.localdate(), teams=meeting,
                                      host=meeting[0], venue=f"Spiellokal {meeting[0].name}",
                                      number=number)
            Lineup.objects.bulk_create(
                Lineup(match_day=day, series=s, team=t, position=p + 1,
                       player=players[t.pk][p])
                for s in range(1, SERIES + 1) for t in meeting for p in range(4))
            for series in range(1, SERIES + 1):
                seating = []
                if size == 4:
                    for t in range(4):  # rotate the positions each series
                        seating.append([players[team.pk][(t + series - 1 + i) % 4]
                                        for i, team in enumerate(meeting)])
                else:
                    used = {i: 0 for i in range(5)}
                    for table_teams in place_tables(meeting):
                        seat = []
                        for i in table_teams:
                            seat.append(players[meeting[i].pk][(used[i] + series - 1) % 4])
                            used[i] += 1
                        seating.append(seat)
                for number_at, seated in enumerate(seating, start=1):
                    table_create(evening=day.evening, players=seated, number=number_at,
                                 series=series)
            # the tables' rows (table_create makes them, at 0): a baseline score each
            rows = list(TableScore.objects.filter(evening=day.evening).order_by("pk"))
            for row in rows:
                row.seeger_fabian, row.won, row.lost = rng.choice(scores)
                row.points = row.seeger_fabian
            TableScore.objects.bulk_update(rows, ["seeger_fabian", "points", "won", "lost"])
    return league


def ranking_of(group: LeagueGroup) -> list[Any]:
    return player_ranking(group_numbers(group))


def measure(fn: Callable[[], Any], runs: int) -> list[float]:
    fn()  # warm: templates, translations
    return [timed(fn) for _ in range(runs)]


def pdf_seconds(document: Callable[[], documents.Document], runs: int,
                ) -> tuple[list[float], int, bytes]:
    """Seconds to build and render past the cache, and the page count of the last."""
    documents.render(document())  # warm: fonts, templates, translations
    samples = []
    rendered = None
    for _ in range(runs):
        start = time.perf_counter()
        rendered = documents.render(document())
        samples.append(time.perf_counter() - start)
    assert rendered is not None
    return samples, rendered.pages, rendered.pdf


def queries(fn: Callable[[], Any]) -> int:
    connection.queries_log.clear()  # the set-up filled it: a full log counts nothing new
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    translation.activate("de")
    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["testserver"]

    started = time.perf_counter()
    club = make_club()
    with transaction.atomic():
        small, small_day = play_baseline(club)
    played = time.perf_counter() - started
    scores = list(TableScore.objects.filter(evening=small_day.evening)
                  .values_list("seeger_fabian", "won", "lost"))
    started = time.perf_counter()
    with transaction.atomic():
        big = build_big(club, scores)
    built = time.perf_counter() - started
    big_group = big.groups.get()
    print(f"set-up (SQLite file in {WORKDIR}):")
    print(f"  baseline: 4 teams, 1 match day, {SERIES} series, "
          f"{TableScore.objects.filter(evening=small_day.evening).count()} series scores "
          f"from 576 deals played through the services in {played:.1f} s")
    days = MatchDay.objects.filter(group=big_group)
    print(f"  big: {TEAMS} teams, {DAYS} match days in {len(PLACES)} places "
          f"({'+'.join(map(str, PLACES))} teams): {days.count()} MatchDays, "
          f"{Table.objects.filter(evening__match_day__group=big_group).count()} tables, "
          f"{TableScore.objects.filter(evening__match_day__group=big_group).count()} series "
          f"scores (copies of the baseline's, set directly) in {built:.1f} s")

    ok = True
    results: dict[str, dict[str, Any]] = {}
    for name, league in (("baseline 4×1", small), ("big 18×5", big)):
        group = LeagueGroup.objects.select_related("league__club").get(league=league)
        day = MatchDay.objects.filter(group=group).order_by("-pk").first()
        assert day is not None
        day = MatchDay.objects.select_related("group__league__club", "host", "evening").get(
            pk=day.pk)
        numbers = functools.partial(ranking_of, group)
        numbers_ms = measure(numbers, args.runs * 4)
        count = queries(numbers)
        table_s, table_pages, table_pdf = pdf_seconds(
            functools.partial(table_document, group), args.runs)
        players_s, players_pages, _pdf = pdf_seconds(
            functools.partial(players_document, group), args.runs)
        report_s, report_pages, _pdf = pdf_seconds(
            functools.partial(report_document, day), args.runs)
        results[name] = {"numbers": numbers_ms, "queries": count, "table": table_s,
                         "players": players_s, "report": report_s,
                         "pages": (table_pages, players_pages, report_pages),
                         "rows": len(player_ranking(group_numbers(group)))}
        assert table_pdf.startswith(b"%PDF")

    page: dict[str, list[float]] = {}
    urls = {name: reverse("scoring:league-group",
                          args=[LeagueGroup.objects.get(league=league).pk])
            for name, league in (("baseline 4×1", small), ("big 18×5", big))}
    user = get_user_model().objects.create_user(username="staffelleiter", password="x")
    Membership.objects.create(user=user, club=club, role=Membership.Role.ADMIN)
    client = Client()
    client.force_login(user)
    for name, url in urls.items():
        status = client.get(url).status_code
        assert status == 200, f"the league table page answered {status}"
        page[name] = measure(functools.partial(client.get, url), args.runs * 4)

    print(f"the numbers, group_numbers + player_ranking ({args.runs * 4} runs):")
    for name, r in results.items():
        report(f"{name}: {r['rows']} players, {r['queries']} queries", r["numbers"])
    print("the league table page (Django test client):")
    for name, samples in page.items():
        report(name, samples)
    print(f"PDFs, built and rendered past the cache ({args.runs} runs, seconds):")
    for name, r in results.items():
        for kind, index in (("league table", 0), ("players' ranking", 1),
                            ("match-day report (one place)", 2)):
            samples = r[("table", "players", "report")[index]]
            print(f"  {name:<13} {kind:<30} median {statistics.median(samples):6.3f} s   "
                  f"max {max(samples):6.3f} s   {r['pages'][index]} page(s)")
    big_numbers = statistics.median(results["big 18×5"]["numbers"])
    small_numbers = statistics.median(results["baseline 4×1"]["numbers"])
    worst_pdf = max(max(results["big 18×5"][k]) for k in ("table", "players", "report"))
    same_queries = results["big 18×5"]["queries"] == results["baseline 4×1"]["queries"]
    print(f"big over baseline: numbers {big_numbers / small_numbers:.1f}x, league table PDF "
          f"{statistics.median(results['big 18×5']['table']) / statistics.median(results['baseline 4×1']['table']):.1f}x, "  # noqa: E501
          f"players' PDF "
          f"{statistics.median(results['big 18×5']['players']) / statistics.median(results['baseline 4×1']['players']):.1f}x")  # noqa: E501
    verdict = "ok" if big_numbers < NUMBERS_TARGET_MS else "OVER TARGET"
    ok &= big_numbers < NUMBERS_TARGET_MS
    print(f"big group's numbers: median {big_numbers:.1f} ms (target < "
          f"{NUMBERS_TARGET_MS:.0f} ms) {verdict}; queries the same at both sizes: "
          f"{'yes' if same_queries else 'NO'}")
    ok &= same_queries
    verdict = "ok" if worst_pdf < PDF_TARGET_S else "OVER TARGET"
    ok &= worst_pdf < PDF_TARGET_S
    print(f"big group's slowest PDF: {worst_pdf:.2f} s (target < {PDF_TARGET_S:.0f} s) "
          f"{verdict}")
    load = os.getloadavg()[0]
    print(f"(load average {load:.1f} on {os.cpu_count()} cores while measuring: the machine "
          "is shared, so the times are as good as the load lets them be)")
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
