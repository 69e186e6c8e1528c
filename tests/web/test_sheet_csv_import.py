"""A score sheet's CSV (the layout export_sheet_csv writes) read back into deals (issue 16):
every table of the test club, in German and in English, comes back as the same deals, the
same sheet and the same totals; a line no deal reproduces is refused by its number."""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation

from scoring.models import Club, Deal, Evening, Table
from scoring.reads.export import sheet_csv
from scoring.reads.sheet import table_sheet, tables_with_everything
from scoring.writes.import_problems import ImportProblem
from scoring.writes.services import Actor, evening_create
from scoring.writes.sheetcsv import import_sheet, plan_sheet

from .factories import won
from .interchange_data import build_club, play, profile
from .test_import_export import counts

pytestmark = pytest.mark.django_db
ME = Actor(None, "test")


def csv_of(table: Table, lang: str) -> bytes:
    table = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    with translation.override(lang):
        return sheet_csv(table_sheet(table, lang, explain=False)).encode()


def empty_evening(club: Club, like: Evening, name: str) -> Evening:
    preset = {"isko": "club_evening", "american1898": "american1898", "hoyle": "hoyle"}[
        like.rules]
    made: Evening = evening_create(club=club, date=like.date, profile=profile(club, preset),
                                   name=name, season=like.season, series_rounds=None)
    return made


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_table_comes_back_as_the_same_deals(lang: str) -> None:
    club = build_club()
    for table in list(Table.objects.filter(evening__club=club)):
        evening = table.evening
        target = empty_evening(club, evening, f"{evening.name} ({lang})")
        content = csv_of(table, lang)
        plan = import_sheet(content, target, actor=ME, source="sheet.csv")
        assert not plan.problems
        made = Table.objects.get(evening=target)
        original = [d.record for d in table.deals.order_by("position") if not d.deleted]
        copied = [d.record for d in made.deals.order_by("position")]
        assert len(copied) == len(original)
        assert csv_of(made, lang) == content  # the same sheet, line for line
        # twice: nothing added
        before = counts()
        again = import_sheet(content, target, actor=ME, source="sheet.csv")
        assert again.existing == made
        after = counts()
        assert after.pop("AuditEntry") == before.pop("AuditEntry") + 1
        assert after == before


def test_a_line_the_engine_cannot_reproduce_is_refused_by_number() -> None:
    club = build_club()
    table = Table.objects.filter(evening__club=club, evening__name="Clubabend",
                                 series=1).get()
    text = csv_of(table, "de").decode()
    lines = text.split("\r\n")
    lines[3] = lines[3].replace(",48,48,", ",96,96,", 1)  # deal 3: Anna +96, not +48
    target = empty_evening(club, table.evening, "Kaputt")
    before = counts()
    with translation.override("en"):
        with pytest.raises(ImportProblem, match="Line 4: no deal gives the entries"):
            import_sheet("\r\n".join(lines).encode(), target, actor=ME, source="s.csv")
        assert counts() == before
        assert "Line 1:" in plan_sheet(b"a,b,c\n1,2,3\n", target).problems[0]
        bad_game = text.replace('"Kreuz"', '"Schafkopf"', 1).encode()
        assert "Line 2: 'Schafkopf' is no game" in plan_sheet(bad_game, target).problems[0]
    assert not Deal.objects.filter(table__evening=target).exists()


def test_a_penalty_a_null_game_and_a_passed_deal_come_back() -> None:
    club = build_club()
    evening = evening_create(club=club, date=datetime.date(2026, 11, 3),
                             profile=profile(club, "club_evening"), name="Bunt")
    from scoring.models import Player
    from scoring.writes.services import table_create
    people = list(Player.objects.filter(club=club, guest=False).order_by("name")[:4])
    table = table_create(evening=evening, players=people, first_dealer=0)
    play(table, won(1), {"kind": "passed"},
         {"kind": "game", "declarer": 3, "game": "null", "hand": True, "ouvert": True,
          "bid": 59, "declarer_tricks": 0},
         {"kind": "penalty", "penalty": {"seat": 2, "points": 10}},
         {"kind": "game", "declarer": 0, "game": "grand", "matadors": -2, "bid": 48,
          "result": "lost_schneider"},
         won(2, 31, kontra="kontra"))
    for lang in ("de", "en"):
        target = evening_create(club=club, date=evening.date,
                                profile=profile(club, "club_evening"), name=f"Bunt {lang}")
        content = csv_of(table, lang)
        import_sheet(content, target, actor=ME, source="s.csv")
        assert csv_of(Table.objects.get(evening=target), lang) == content
