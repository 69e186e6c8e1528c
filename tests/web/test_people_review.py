"""Issue 35's people features tried as an attacker and a careful treasurer would (the
review after the merge): each test here failed on the code before its fix.

- A merge undone after the kept record's lists changed: the rows a deal correction or a new
  signature made meanwhile at the merged record's tables (its table scores, its signatures)
  go back with the seats, so the season table and the federation ranking count the merged
  record's evenings for it again, and no row is left with a player who does not sit there.
- A merge undone after a series was drawn or a match day played: the seats, line-ups,
  scores and signatures the kept record got through the moved entry or team place go back
  with it (the entry kept no seat: its series were lost to the tournament's ranking).
- Imports after a merge (a sheet's CSV, totals from paper): a name of the merged record is
  the kept one, as the desk reads a typed name, so a file does not bring the merged record
  back beside the kept one (the season table split the person in two again); a file naming
  both records at one table or evening is refused, never a 500.
- Member numbers: an invisible character (zero-width, bidi) or another width of the same
  digits does not make a second "12345" beside the first one; the number is read as NFKC
  and compared without case.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.models import (
    Club,
    Player,
    Season,
    Seat,
    Signature,
    TableScore,
)
from scoring.reads.standings import season_standings
from scoring.writes import people
from scoring.writes.services import Actor, deal_edit

from .factories import make_club, make_user
from .seasons import evening_on, played_table, year_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

YEAR = 2026


def _standings(season: Season) -> dict[str, tuple[int, int]]:
    return {row.player.name: (row.score, row.evenings)
            for row in season_standings(season).rows}


def _strays() -> list[tuple[str, int, int]]:
    """Table scores and signatures of a player who does not sit at their table."""
    seated = set(Seat.objects.values_list("table_id", "player_id"))
    return [(model.__name__, table, player) for model in (TableScore, Signature)
            for table, player in model._default_manager.values_list("table_id", "player_id")
            if (table, player) not in seated]


# ---------------------------------------------------------------- merge, change, undo

def test_an_undo_after_a_correction_gives_the_merged_record_its_scores_and_signatures(
        ) -> None:
    cache.clear()
    club = make_club()
    season = year_season(club)
    admin = make_user(club, "admin", username="chef")
    kept = Player.objects.create(club=club, name="Paula Wagner")
    merged = Player.objects.create(club=club, name="Paula Wagner (Gotha)", guest=True)
    others = list(club.players.filter(name__endswith="Altenburg").order_by("pk"))
    played_table(season, datetime.date(YEAR, 3, 1), [kept, *others[:3]])
    gotha = played_table(season, datetime.date(YEAR, 3, 8), [others[0], merged, *others[1:3]])
    before = _standings(season)
    assert before["Paula Wagner (Gotha)"][1] == 1

    record = people.merge(kept=kept, merged=merged, reason="the same Paula", by=admin)
    # meanwhile the Gotha evening's list is corrected (a deal's points typed again, the
    # same result) and signed again: new score rows and a new signature, for the kept
    # record, which sits there now
    deal = gotha.deals.order_by("position").last()
    assert deal is not None
    gotha.refresh_from_db()
    deal_edit(deal=deal, record=deal.record, reason="typo in the points",
              expected_version=gotha.version, actor=Actor(admin, "chef", admin=True))
    Signature.objects.create(table=gotha, player=kept)
    assert TableScore.objects.filter(table=gotha, player=kept).exists()

    people.unmerge(record=record, reason="two Paulas after all", by=admin)
    assert _strays() == []
    assert TableScore.objects.filter(table=gotha, player=merged).count() == 1
    assert Signature.objects.filter(table=gotha, player=merged).count() == 1
    assert not TableScore.objects.filter(table=gotha, player=kept).exists()
    assert _standings(season) == before


def test_a_correction_during_the_merge_and_the_undo_through_the_desk(client: Client) -> None:
    """The same through the members page, and a second undo changes nothing."""
    cache.clear()
    club = make_club()
    season = year_season(club)
    admin = make_user(club, "admin", username="chef")
    kept = Player.objects.create(club=club, name="Paula Wagner")
    merged = Player.objects.create(club=club, name="Paula Wagner (Gotha)", guest=True)
    others = list(club.players.filter(name__endswith="Altenburg").order_by("pk"))
    played_table(season, datetime.date(YEAR, 3, 1), [kept, *others[:3]])
    gotha = played_table(season, datetime.date(YEAR, 3, 8), [others[0], merged, *others[1:3]])
    before = _standings(season)
    client.force_login(admin)
    client.post(reverse("scoring:player-merge", args=[club.slug]), {
        "kept": kept.pk, "merged": merged.pk, "reason": "same"})
    deal = gotha.deals.order_by("position").first()
    assert deal is not None
    gotha.refresh_from_db()
    deal_edit(deal=deal, record=deal.record, reason="again",
              expected_version=gotha.version, actor=Actor(admin, "chef", admin=True))
    record = merged.merges_merged.get()
    client.post(reverse("scoring:player-unmerge", args=[club.slug, record.pk]),
                {"reason": "two"})
    client.post(reverse("scoring:player-unmerge", args=[club.slug, record.pk]),
                {"reason": "twice"})
    assert _strays() == [] and _standings(season) == before


# ---------------------------------------------------------------- member numbers

@pytest.mark.parametrize("twin", [
    "12345\u200b",   # a zero-width space after it
    "\u202e12345",   # a right-to-left override before it
    "１２３４５",      # fullwidth digits
])
def test_a_member_number_cannot_be_given_twice_in_disguise(client: Client, twin: str) -> None:
    cache.clear()
    club = make_club()
    gotha = make_club("gotha", "Skatfreunde Gotha")
    admin = make_user(club, "admin", username="chef")
    people.member_number(player=gotha.players.get(name="Anna Gotha"), number="12345",
                         by=admin)
    anna = club.players.get(name="Anna Altenburg")
    client.force_login(admin)
    response = client.post(reverse("scoring:player-member-number", args=[club.slug, anna.pk]),
                           {"member_number": twin}, follow=True)
    assert response.status_code == 200
    anna.refresh_from_db()
    assert anna.member_number == ""
    assert [str(m) for m in response.context["messages"]] != [
        "Anna Altenburg: member number saved."]


def test_a_member_number_differs_from_another_only_by_case_is_the_same() -> None:
    club = make_club()
    admin = make_user(club, "admin", username="chef")
    anna, bernd = club.players.get(name="Anna Altenburg"), club.players.get(
        name="Bernd Altenburg")
    people.member_number(player=anna, number="TH-0815", by=admin)
    with pytest.raises(people.Refused):
        people.member_number(player=bernd, number="th-0815", by=admin)
    # fullwidth is stored as the digits and letters they are
    people.member_number(player=bernd, number="ＴＨ－０８１６", by=admin)
    bernd.refresh_from_db()
    assert bernd.member_number == "TH-0816"


# ---------------------------------------------------------------- imports after a merge

def _merged_paula(club: Club) -> tuple[Player, Player, Any]:
    admin = make_user(club, "admin", username="chef")
    kept = Player.objects.create(club=club, name="Paula Wagner")
    merged = Player.objects.create(club=club, name="Paula Wagner (Gotha)", guest=True)
    people.merge(kept=kept, merged=merged, reason="the same Paula", by=admin)
    return kept, merged, admin


def test_totals_from_paper_for_a_merged_name_go_to_the_kept_record() -> None:
    from scoring.writes.paper import import_totals

    club = make_club()
    season = year_season(club)
    kept, merged, _admin = _merged_paula(club)
    content = (b"Spieler;Datum;Abend;Punkte;gewonnen;verloren;Seeger-Fabian\r\n"
               b"Paula Wagner (Gotha);05.09.2026;Clubabend;412;7;1;900\r\n"
               b"Anna Altenburg;05.09.2026;Clubabend;96;2;3;150\r\n")
    import_totals(content, season, actor=Actor(None, "test"), source="p.csv")
    assert not merged.imported_totals.exists()
    assert kept.imported_totals.get().points == 412
    assert "Paula Wagner (Gotha)" not in _standings(season)


def test_totals_from_paper_naming_both_records_on_one_evening_are_refused() -> None:
    from scoring.writes.import_problems import ImportProblem
    from scoring.writes.paper import import_totals, plan_totals

    club = make_club()
    season = year_season(club)
    _merged_paula(club)
    content = (b"Spieler;Datum;Abend;Punkte;gewonnen;verloren;Seeger-Fabian\r\n"
               b"Paula Wagner (Gotha);05.09.2026;Clubabend;412;7;1;900\r\n"
               b"Paula Wagner;05.09.2026;Clubabend;96;2;3;150\r\n")
    plan = plan_totals(content, season)
    assert plan.problems and "Paula Wagner" in plan.problems[0]
    with pytest.raises(ImportProblem):
        import_totals(content, season, actor=Actor(None, "test"), source="p.csv")


def test_a_sheet_naming_a_merged_record_seats_the_kept_one() -> None:
    from scoring.models import Table
    from scoring.reads.export import sheet_csv
    from scoring.reads.sheet import table_in_full, table_sheet
    from scoring.writes.import_problems import ImportProblem
    from scoring.writes.sheetcsv import import_sheet

    club = make_club()
    season = year_season(club)
    kept, merged, _admin = _merged_paula(club)
    guest = Player.objects.create(club=club, name="Gerd Gast", guest=True)
    others = list(club.players.filter(name__endswith="Altenburg").order_by("pk"))
    played = played_table(season, datetime.date(YEAR, 3, 1), [guest, *others[:3]])
    table = table_in_full(played.pk)
    from django.utils import translation
    with translation.override("de"):
        content = sheet_csv(table_sheet(table, "de", explain=False))
    target = evening_on(season, datetime.date(YEAR, 4, 1))
    as_merged = content.replace("Gerd Gast", "Paula Wagner (Gotha)").encode()
    import_sheet(as_merged, target, actor=Actor(None, "test"), source="s.csv")
    assert not Seat.objects.filter(player=merged).exists()
    assert Seat.objects.filter(player=kept, table__evening=target).count() == 1
    assert "Paula Wagner (Gotha)" not in _standings(season)
    # both of her names at one table: refused by name, nothing written
    other = evening_on(season, datetime.date(YEAR, 4, 8))
    both = content.replace("Gerd Gast", "Paula Wagner (Gotha)").replace(
        others[0].name, "Paula Wagner").encode()
    with pytest.raises(ImportProblem, match="Paula Wagner"):
        import_sheet(both, other, actor=Actor(None, "test"), source="s.csv")
    assert not Table.objects.filter(evening=other).exists()


# ---------------------------------------------------------------- a draw during the merge

def test_a_series_drawn_during_the_merge_goes_back_with_the_entry() -> None:
    from scoring.writes.tournament import entrant_register, series_draw

    from .tournaments import make_tournament

    cache.clear()
    club = make_club()
    admin = make_user(club, "admin", username="chef")
    tournament = make_tournament(club, players=11)
    kept = Player.objects.create(club=club, name="Paula Wagner")
    entrant = entrant_register(tournament=tournament, name="Paula Wagner (Gotha)", paid=True,
                               at_door=True)
    merged = entrant.player
    record = people.merge(kept=kept, merged=merged, reason="the same Paula", by=admin)
    series_draw(tournament=tournament, seed=1)  # she is drawn as the kept record
    seat = Seat.objects.get(player=kept)
    people.unmerge(record=record, reason="two Paulas after all", by=admin)
    entrant.refresh_from_db()
    seat.refresh_from_db()
    assert entrant.player == merged
    assert seat.player == merged  # the entry's seat, not a seat of nobody's entry
    assert _strays() == []
    assert not Seat.objects.filter(player=kept).exists()


def test_a_match_day_played_during_the_merge_goes_back_with_the_team_place() -> None:
    from scoring.models import Lineup, TeamPlayer
    from scoring.writes import league as lw

    from .leagues import check_in, make_day, make_league, play_series

    cache.clear()
    club = make_club()
    admin = make_user(club, "admin", username="chef")
    league = make_league(club)
    place = TeamPlayer.objects.filter(team__group__league=league, position=2).order_by(
        "pk").select_related("player").first()
    assert place is not None
    merged = place.player
    kept = Player.objects.create(club=club, name=f"{merged.name} (neu)")
    record = people.merge(kept=kept, merged=merged, reason="one person", by=admin)
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day, seed=5)
    play_series(day, 1)
    assert Lineup.objects.filter(player=kept).exists()
    assert Seat.objects.filter(player=kept).exists()
    people.unmerge(record=record, reason="two after all", by=admin)
    place.refresh_from_db()
    assert place.player == merged
    assert not Lineup.objects.filter(player=kept).exists()
    assert not Seat.objects.filter(player=kept).exists()
    assert Seat.objects.filter(player=merged, table__evening=day.evening).count() == 1
    assert _strays() == []


def test_the_desk_finds_a_member_number_typed_in_fullwidth(client: Client) -> None:
    club = make_club()
    admin = make_user(club, "admin", username="chef")
    people.member_number(player=club.players.get(name="Anna Altenburg"), number="TH-0815",
                         by=admin)
    client.force_login(admin)
    page = client.get(reverse("scoring:members", args=[club.slug]), {"q": "ｔｈ－０８１５"})
    assert page.context["players_found"] == 1
