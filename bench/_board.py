"""The tournament live board under many viewers while tablets save (bench/tournament.py
--board). Imported only for that part: it sets Django up (through _support)."""

from __future__ import annotations

import random
import time
from decimal import Decimal

from _support import WORKDIR, percentile  # noqa: F401 (sets Django up)
from django.core.cache import cache, caches  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.models import Club, Player, RuleProfile, Table  # noqa: E402
from scoring.presets import PRESETS  # noqa: E402
from scoring.writes import tournament as tw  # noqa: E402
from scoring.writes.demo import generate_deals  # noqa: E402
from scoring.writes.services import Actor, deal_record  # noqa: E402

P99_TARGET_MS = 100.0


def _setup(players: int) -> tuple[object, list[Table]]:
    call_command("migrate", verbosity=0)
    club = Club.objects.create(slug="preisskat", name="Preisskat-Verein")
    preset = PRESETS["isko_tournament"]
    profile = RuleProfile.objects.create(club=club, name=preset["name"], rules=preset["rules"],
                                         options=preset["options"], scoring=preset["scoring"])
    tournament = tw.tournament_create(
        club=club, name="Großer Preisskat", date=timezone.localdate(), profile=profile,
        series_count=3, series_rounds=12, entry_fee=Decimal("15.00"),
        settlement=tw.fee_settlement(lost_fee=Decimal("0.50"), lost_fee_high=Decimal("1.00"),
                                     lost_fee_from=4, passed_fee=Decimal("0")),
        categories=[], team_fee=None, tandem_fee=None, reseat="draw", tie_rule="won",
        prizes=["20%", "10%", "5%"], public=True)
    Player.objects.bulk_create(Player(club=club, name=f"Spieler {n:04d}", guest=True)
                               for n in range(1, players + 1))
    for player in Player.objects.filter(club=club).order_by("name"):
        tw.entrant_register(tournament=tournament, member=None, name=player.name, paid=True,
                            at_door=True)
    tw.series_draw(tournament=tournament, seed=1)
    tables = list(Table.objects.filter(evening=tournament.evening, series=1))
    return tournament, tables


def bench_board(players: int = 1000, viewers: int = 2000, saves: int = 25) -> bool:
    """Each round, one of the tablets saves a deal, then viewers poll the version endpoint
    (with their last ETag, as board.js does) and, where the version moved for them, fetch
    the board: 2,000 viewers polling every 2.5 s are 800 polls a second, 250 tablets saving
    a deal a minute each some 4 saves a second, so 200 polls per save. Sequential, in one
    process (the test client, no network): the figures are the server's time per request."""
    started = time.perf_counter()
    tournament, tables = _setup(players)
    print(f"Live board: {players} players at {len(tables)} tables (set-up "
          f"{time.perf_counter() - started:.1f} s, SQLite in {WORKDIR})")
    key = tournament.board_key  # type: ignore[attr-defined]
    version_url = reverse("scoring:board-version", args=[key])
    fragment_url = reverse("scoring:board-fragment", args=[key])
    client = Client()
    rng = random.Random(5)
    records = {t.pk: generate_deals(48 if t.seats.count() == 4 else 36, t.seats.count(),
                                    seed=t.pk) for t in tables}
    done = {t.pk: 0 for t in tables}
    actor = Actor(None, "bench")
    etags: dict[int, str] = {}
    polls, fragments, save_ms = [], [], []
    per_save = max(1, viewers // 10)
    cache.clear()
    caches["results"].clear()
    client.get(reverse("scoring:board", args=[key]))  # the first render after a restart
    for _ in range(saves):
        table = rng.choice(tables)
        fresh = Table.objects.get(pk=table.pk)
        start = time.perf_counter()
        deal_record(table=fresh, record=records[table.pk][done[table.pk]],
                    expected_version=fresh.version, actor=actor)
        save_ms.append((time.perf_counter() - start) * 1000)
        done[table.pk] += 1
        for viewer in rng.sample(range(viewers), per_save):
            headers = {"If-None-Match": etags[viewer]} if viewer in etags else None
            start = time.perf_counter()
            response = client.get(version_url, headers=headers)
            polls.append((time.perf_counter() - start) * 1000)
            if response.status_code == 200:
                etags[viewer] = response["ETag"]
                start = time.perf_counter()
                client.get(fragment_url)
                fragments.append((time.perf_counter() - start) * 1000)
    every = polls + fragments
    print(f"  {saves} saves, {len(polls)} polls, {len(fragments)} board fetches")
    for name, samples in (("version poll", polls), ("board fetch after a change", fragments),
                          ("all viewer requests", every), ("tablet save (service)", save_ms)):
        print(f"  {name:<30} p50 {percentile(samples, 50):7.2f} ms   p99 "
              f"{percentile(samples, 99):7.2f} ms   max {max(samples):7.2f} ms")
    start = time.perf_counter()
    for _ in range(200):
        client.get("/static/css/base.css")
    print(f"  baseline: a 404/static request through Django "
          f"{(time.perf_counter() - start) * 1000 / 200:7.2f} ms")
    p99 = percentile(every, 99)
    ok = p99 < P99_TARGET_MS
    print(f"  target: viewers' p99 < {P99_TARGET_MS:.0f} ms: {'met' if ok else 'MISSED'}")
    return ok
