"""An evening of two tables with known deals and club extras, for the settlement tests."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils import timezone

from scoring.engine import evaluate_table
from scoring.models import Club, Evening, Player, RuleProfile, Table
from scoring.presets import PRESETS
from scoring.reads.sheet import table_document, tables_with_everything
from scoring.writes.services import evening_create, table_create

from .factories import won
from .test_sheet_pages import play

FOUR = ["Jürgen Weiß", "Käthe Öztürk", "Björn Groß", "Ännchen Süß"]
THREE = ["Ölaf Bär", "Üwe Mäß", "Zoë Brühl"]
EXTRAS = {"lost_game_fee": "0.50", "passed_deal_fee": "0.10", "entry_fee": "2.00"}


def money_evening(club: Club, preset: str = "club_evening", stake: str = "0.05",
                  settlement: dict[str, Any] | None = None) -> Evening:
    profile = RuleProfile.objects.get(club=club, name=PRESETS[preset]["name"])
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile,
                             stake=Decimal(stake))
    if settlement is not None:
        Evening.objects.filter(pk=evening.pk).update(settlement=settlement)
        evening.refresh_from_db()
    four = table_create(evening=evening, players=[
        Player.objects.get_or_create(club=club, name=name)[0] for name in FOUR])
    three = table_create(evening=evening, players=[
        Player.objects.get_or_create(club=club, name=name)[0] for name in THREE])
    # four: dealer 0 → seat 1 wins 24; dealer 1 → seat 2 loses 48 (40 points); passed;
    # dealer 3 → seat 1 wins 24; dealer 0 → seat 3 wins 36 (spades with 2)
    play(four, [won(1), won(2, 40), {"kind": "passed"}, won(1),
                {**won(3), "game": "spades", "matadors": 2}])
    # three: seat 1 wins 24, seat 2 loses 48, seat 0 wins 24, seat 1 loses 48
    play(three, [won(1), won(2, 40), won(0), won(1, 40)])
    return Evening.objects.select_related("club").get(pk=evening.pk)


def engine_tables(evening: Evening) -> list[tuple[Table, list[str], Any]]:
    """(table, player names, the engine's result) for each table, straight from the records."""
    out = []
    for table in tables_with_everything(evening.tables.order_by("number")):
        document = table_document(table)
        out.append((table, document["players"], evaluate_table(document)))
    return out
