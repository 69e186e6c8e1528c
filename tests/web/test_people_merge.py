"""Two records of one person merged at the desk (issue 35), and undone exactly: every row
that pointed at the merged record (seats, signatures, table scores, totals from paper,
entries, team places, line-ups) moves to the kept one and back; the season table and the
federation ranking add them up as one person and then as two again, their cached pages
too; the merged record leaves every choice list; a merge that would break a uniqueness
(both at one table, in one tournament, in one league) or join two accounts is refused and
changes nothing."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from scoring.forms.club import TableForm, find_player
from scoring.forms.members import LinkForm
from scoring.forms.season import SeriesForm
from scoring.forms.tournament import EntrantForm
from scoring.models import (
    Club,
    ClubLogEntry,
    Entrant,
    ImportedTotal,
    Player,
    PlayerMerge,
    RuleProfile,
    Season,
    Seat,
    Signature,
    TableScore,
)
from scoring.presets import PRESETS
from scoring.reads.federation import federation_ranking
from scoring.reads.standings import season_standings
from scoring.writes import people
from scoring.writes import tournament as tw

from .factories import make_club, make_user
from .seasons import played_table, year_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

YEAR = 2026


def _tournament(club: Club, name: str, month: int) -> Any:
    profile = RuleProfile.objects.get(club=club, name=PRESETS["isko_tournament"]["name"])
    zero = Decimal("0")
    return tw.tournament_create(
        club=club, name=name, date=datetime.date(YEAR, month, 1), profile=profile,
        series_count=1, series_rounds=1, entry_fee=zero,
        settlement=tw.fee_settlement(lost_fee=zero, lost_fee_high=zero, lost_fee_from=4,
                                     passed_fee=zero),
        categories=[], team_fee=None, tandem_fee=None, reseat="draw", tie_rule="won",
        prizes=[], public=False)


@pytest.fixture
def paula(club: Club) -> dict[str, Any]:
    """Paula Wagner played two evenings as herself and one as "Paula Wagner (Gotha)", who
    also has a total from paper and a tournament entry."""
    season = year_season(club)
    kept = Player.objects.create(club=club, name="Paula Wagner")
    merged = Player.objects.create(club=club, name="Paula Wagner (Gotha)", guest=True)
    others = list(club.players.filter(name__endswith="Altenburg").order_by("pk"))
    tables = [played_table(season, datetime.date(YEAR, 3, 1), [kept, *others[:3]]),
              played_table(season, datetime.date(YEAR, 3, 8), [others[0], merged, *others[1:3]]),
              played_table(season, datetime.date(YEAR, 3, 15), [kept, *others[2:5]])]
    ImportedTotal.objects.create(evening=tables[1].evening, player=merged, points=40, won=2,
                                 lost=0, seeger_fabian=100)
    Signature.objects.create(table=tables[1], player=merged)
    Signature.objects.create(table=tables[1], player=others[0])
    tournament = _tournament(club, "Preisskat", 5)
    tw.entrant_register(tournament=tournament, name="Paula Wagner (Gotha)")
    admin = make_user(club, "admin", username="chef")
    return {"season": season, "kept": kept, "merged": merged, "tables": tables,
            "tournament": tournament, "admin": admin}


def _rows() -> dict[str, list[tuple[int, int]]]:
    return {model.__name__: sorted(model._default_manager.values_list("pk", "player_id"))
            for model in (Seat, Signature, TableScore, ImportedTotal, Entrant)}


def _standings(season: Season) -> list[tuple[str, int, int]]:
    return sorted((row.player.name, row.score, row.evenings)
                  for row in season_standings(season).rows)


def _federation() -> list[tuple[str, int, int]]:
    return sorted((row.name, row.score, row.evenings)
                  for row in federation_ranking(YEAR, 1).ranked)


def test_merge_and_undo_move_exactly_the_rows_and_the_numbers(
        client: Client, club: Club, paula: dict[str, Any]) -> None:
    kept, merged, season = paula["kept"], paula["merged"], paula["season"]
    client.force_login(paula["admin"])
    season_url = reverse("scoring:season", args=[season.pk])
    client.get(season_url)  # the page is cached under the season's state
    rows, standings, ranking = _rows(), _standings(season), _federation()
    alone = {name: (score, evenings) for name, score, evenings in standings}
    response = client.post(reverse("scoring:player-merge", args=[club.slug]), {
        "kept": kept.pk, "merged": merged.pk, "reason": "the same Paula, typed twice"},
        follow=True)  # the message is shown on the members page
    assert response.status_code == 200
    merged.refresh_from_db()
    assert merged.merged_into == kept
    record = PlayerMerge.objects.get()
    assert record.reason == "the same Paula, typed twice" and record.by == paula["admin"]
    assert set(record.moved) == {"seat", "signature", "score", "total", "entrant"}
    assert record.moved["signature"] == [Signature.objects.get(player=kept).pk]
    assert not Seat.objects.filter(player=merged).exists()
    assert not TableScore.objects.filter(player=merged).exists()
    assert Entrant.objects.get(tournament=paula["tournament"]).player == kept

    after = {name: (score, evenings) for name, score, evenings in _standings(season)}
    assert "Paula Wagner (Gotha)" not in after
    assert after["Paula Wagner"] == (
        alone["Paula Wagner"][0] + alone["Paula Wagner (Gotha)"][0], 3)
    federation = {name: (score, evenings) for name, score, evenings in _federation()}
    assert "Paula Wagner (Gotha)" not in federation
    assert federation["Paula Wagner"][1] == 3
    page = client.get(season_url).content.decode()
    assert "Paula Wagner (Gotha)" not in page  # the cached page is not served stale

    members = client.get(reverse("scoring:members", args=[club.slug])).content.decode()
    assert "merged into Paula Wagner" in members
    response = client.post(reverse("scoring:player-unmerge", args=[club.slug, record.pk]),
                           {"reason": "two different Paulas after all"}, follow=True)
    assert response.status_code == 200
    assert _rows() == rows and _standings(season) == standings and _federation() == ranking
    assert "Paula Wagner (Gotha)" in client.get(season_url).content.decode()
    merged.refresh_from_db()
    assert merged.merged_into is None
    record.refresh_from_db()
    assert record.undone_by == paula["admin"]
    assert record.undo_reason == "two different Paulas after all"
    assert [(e.action, e.reason) for e in ClubLogEntry.objects.order_by("pk")] == [
        ("merge", "the same Paula, typed twice"),
        ("unmerge", "two different Paulas after all")]
    again = client.post(reverse("scoring:player-unmerge", args=[club.slug, record.pk]),
                        {"reason": "twice"}, follow=True)
    assert "undone already" in again.content.decode()


def test_the_merged_record_leaves_every_choice(client: Client, club: Club,
                                               paula: dict[str, Any]) -> None:
    kept, merged = paula["kept"], paula["merged"]
    people.merge(kept=kept, merged=merged, reason="same", by=paula["admin"])
    gone = "Paula Wagner (Gotha)"
    assert find_player(club, gone) == kept  # typed at a table: the kept record
    assert gone not in str(TableForm(club=club)["seat_0"])
    assert gone not in str(SeriesForm(club=club)["players"])
    assert gone not in str(EntrantForm(tournament=paula["tournament"])["member"])
    assert gone not in str(LinkForm(club=club)["player"])
    assert "Paula Wagner" in str(LinkForm(club=club)["player"])
    client.force_login(paula["admin"])
    assert gone not in client.get(reverse("scoring:club", args=[club.slug])).content.decode()
    # typed at a tournament's desk: the kept record is a member's, and a typed name never
    # hands out a member's record, so the guest gets one of his own; a guest kept by a
    # merge is found again under the merged name
    other = _tournament(club, "Herbstskat", 9)
    typed = tw.entrant_register(tournament=other, name=gone).player
    assert typed != kept and typed.guest and typed.user_id is None
    guest = Player.objects.create(club=club, name="Otto Gast", guest=True)
    twin = Player.objects.create(club=club, name="Otto Gast (Jena)", guest=True)
    people.merge(kept=guest, merged=twin, reason="same", by=paula["admin"])
    assert tw.entrant_register(tournament=other, name="Otto Gast (Jena)").player == guest


def test_a_merge_is_refused_where_it_would_break_a_uniqueness(
        club: Club, paula: dict[str, Any]) -> None:
    kept, merged, admin = paula["kept"], paula["merged"], paula["admin"]
    season = paula["season"]
    played_table(season, datetime.date(YEAR, 3, 22), [kept, merged, *club.players.filter(
        name__endswith="Altenburg").order_by("pk")[:2]])
    tw.entrant_register(tournament=paula["tournament"], member=kept)
    before = _rows()
    with pytest.raises(people.Refused) as refused:
        people.merge(kept=kept, merged=merged, reason="same", by=admin)
    assert "both sat at table 1" in refused.value.message
    assert "both entered Preisskat" in refused.value.message
    assert _rows() == before and not PlayerMerge.objects.exists()
    assert Player.objects.get(pk=merged.pk).merged_into is None
    assert not ClubLogEntry.objects.exists()


def test_a_merge_of_two_accounts_is_refused_one_account_moves(
        club: Club, paula: dict[str, Any]) -> None:
    kept, merged, admin = paula["kept"], paula["merged"], paula["admin"]
    first, second = make_user(club, "viewer", "p1"), make_user(club, "viewer", "p2")
    people.link(player=kept, user=first, by=admin)
    people.link(player=merged, user=second, by=admin)
    with pytest.raises(people.Refused, match="different accounts"):
        people.merge(kept=kept, merged=merged, reason="same", by=admin)
    people.unlink(player=kept, by=admin)
    record = people.merge(kept=kept, merged=merged, reason="same", by=admin)
    assert Player.objects.get(pk=kept.pk).user == second
    assert Player.objects.get(pk=merged.pk).user is None
    people.unmerge(record=record, reason="no", by=admin)
    assert Player.objects.get(pk=kept.pk).user is None
    assert Player.objects.get(pk=merged.pk).user == second


def test_a_merge_needs_a_reason_and_two_records_of_the_club(
        client: Client, club: Club, paula: dict[str, Any]) -> None:
    client.force_login(paula["admin"])
    url = reverse("scoring:player-merge", args=[club.slug])
    other = make_club("gotha", "SC Gotha").players.first()
    assert other is not None
    for data in ({"kept": paula["kept"].pk, "merged": paula["merged"].pk, "reason": " "},
                 {"kept": paula["kept"].pk, "merged": paula["kept"].pk, "reason": "x"},
                 {"kept": paula["kept"].pk, "merged": other.pk, "reason": "x"},
                 {"kept": "abc", "merged": "", "reason": "x"}):
        assert client.post(url, data).status_code == 302
    assert not PlayerMerge.objects.exists()
    with pytest.raises(people.Refused, match="same club"):
        people.merge(kept=paula["kept"], merged=other, reason="x", by=paula["admin"])


def test_a_league_merge_moves_team_places_and_refuses_two_of_one_league(club: Club) -> None:
    from scoring.models import TeamPlayer
    from scoring.writes import league as lw

    from .leagues import make_league

    league = make_league(club, teams=3)
    admin = make_user(club, "admin", "chef")
    herz = league.groups.get().teams.get(name="Herz As")
    extra = lw.team_create(group=league.groups.get(), name="Extra", club_name="SC X")
    first = TeamPlayer.objects.filter(team=herz).order_by("pk").first()
    assert first is not None
    twin = Player.objects.create(club=club, name=f"{first.player.name} (2)", guest=True)
    TeamPlayer.objects.create(team=extra, player=twin, position=1)
    with pytest.raises(people.Refused, match="both play in Bezirksliga"):
        people.merge(kept=first.player, merged=twin, reason="x", by=admin)
    lone = Player.objects.create(club=club, name="Lone Wolf", guest=True)
    TeamPlayer.objects.filter(player=twin).update(player=lone)
    record = people.merge(kept=twin, merged=lone, reason="x", by=admin)
    assert record.moved["team"] and TeamPlayer.objects.get(team=extra).player == twin
    with pytest.raises(ValidationError):
        lw.team_player_add(team=extra, member=Player.objects.get(pk=lone.pk))
