"""A club whose evenings show everything the interchange format carries: Kontra and Re, Bock
and Ramsch rounds, a deleted deal, umlauts, the 1898 and Hoyle rule systems, and a season
evening with two series."""

from __future__ import annotations

import datetime
from typing import Any

from scoring.models import Club, Evening, Player, RuleProfile, Season
from scoring.presets import PRESETS
from scoring.writes.services import Actor, deal_delete, deal_record, evening_create, table_create

from .factories import won

ME = Actor(None, "test")
DAY = datetime.date(2026, 10, 2)


RAMSCH = {"kind": "ramsch", "ramsch": {"points": {"0": 50, "1": 40, "2": 30},
                                       "tricks": {"0": 4, "1": 4, "2": 2}, "pushes": 0}}
PASSED = {"kind": "passed"}


def play(table: Any, *records: dict[str, Any]) -> list[Any]:
    return [deal_record(table=table, record=r, expected_version=table.version, actor=ME)
            for r in records]


def profile(club: Club, preset: str) -> RuleProfile:
    return RuleProfile.objects.get(club=club, name=PRESETS[preset]["name"])


def build_club(slug: str = "skatfreunde-altenburg") -> Club:
    club = Club.objects.create(slug=slug, name="Skatfreunde Altenburg")
    for preset in PRESETS.values():
        RuleProfile.objects.create(club=club, name=preset["name"], rules=preset["rules"],
                                   options=preset["options"], scoring=preset["scoring"],
                                   stake="0.05")
    people = [Player.objects.create(club=club, name=name) for name in
              ["Anna", "Bernd", "Clara", "Dieter", "Jürgen", "Öznur"]]
    Player.objects.create(club=club, name="Gast Zoë", guest=True)
    season = Season.objects.create(club=club, name="2026/27", start=DAY,
                                   end=DAY + datetime.timedelta(days=200), evaluation="classic",
                                   best_of=3, min_evenings=1, series_rounds=1)
    # 1: the club evening in the season: Bock (60:60, Kontra lost, Re), a Ramsch round, a
    # deleted deal, and a second series
    evening = evening_create(club=club, date=DAY, profile=profile(club, "club_evening"),
                             season=season, series_rounds=None)
    table = table_create(evening=evening, players=people[:3], first_dealer=1)
    deals = play(table, won(1, 60), won(2, 50, kontra="kontra", kontra_by=0), won(0),
                 won(1), RAMSCH, RAMSCH, RAMSCH, PASSED, won(2, 80, kontra="re", kontra_by=1),
                 won(0))
    deal_delete(deal=deals[7], reason="thrown in twice", expected_version=table.version,
                actor=ME)
    second = table_create(evening=evening, players=people[3:6], series=2)
    play(second, won(0), won(1, 40), won(2))
    # 2 and 3: the historical rule systems
    old = evening_create(club=club, date=DAY + datetime.timedelta(days=7),
                         profile=profile(club, "american1898"), name="Altes Skat")
    play(table_create(evening=old, players=people[:4]),
         {"kind": "game", "declarer": 1, "game": "solo_clubs", "matadors": 2, "bid": 20,
          "declarer_points": 70},
         {"kind": "game", "declarer": 2, "game": "tourne_hearts", "matadors": 1, "bid": 10,
          "declarer_points": 50, "kontra": "kontra", "kontra_by": 3})
    hoyle = evening_create(club=club, date=DAY + datetime.timedelta(days=7),
                           profile=profile(club, "hoyle"), name="Hoyle")
    play(table_create(evening=hoyle, players=people[2:5], first_dealer=2),
         {"kind": "game", "declarer": 0, "game": "tourne_spades", "matadors": 1, "bid": 10,
          "declarer_points": 61}, won(1) | {"game": "solo_diamonds", "bid": 10})
    return club


def evening_of(club: Club, name: str = "Clubabend") -> Evening:
    return Evening.objects.get(club=club, name=name)
