"""Tables whose short series is played out, for the signing tests (issue 23)."""

from __future__ import annotations

from django.utils import timezone

from scoring.models import Club, Player, RuleProfile, Table
from scoring.presets import PRESETS
from scoring.writes.services import Actor, deal_record, evening_create, table_create

from .factories import won

SCORER = Actor(None, "table code, table 1")


def short_table(club: Club, players: int = 4, rounds: int = 1, *, play: int | None = None,
                preset: str = "club_evening") -> Table:
    """A table of the club's first ``players`` players in an evening whose series has
    ``rounds`` rounds, with ``play`` games (default: the whole series) played: each won by
    the player after the dealer."""
    profile = RuleProfile.objects.get(club=club, name=PRESETS[preset]["name"])
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile,
                             series_rounds=rounds)
    table = table_create(evening=evening, players=list(club.players.all()[:players]))
    for n in range(rounds * players if play is None else play):
        deal_record(table=table, record=won((n + 1) % players), expected_version=table.version,
                    actor=SCORER)
    return table


def seated(table: Table) -> list[Player]:
    return [seat.player for seat in table.seats.select_related("player").order_by("position")]
