"""The federation ranking (issue 15, item 9): every club's players of a year by
Seeger-Fabian points, read from the table scores that the deal services keep in the same
transaction as each change. A saved, corrected, deleted or restored deal moves the ranking
at once, and the kept ranking always equals the one derived from the raw deals by the
engine (a property test over random sequences of changes). Who may look: members of any
club and staff; not anonymous visitors, a table-code device or an account of no club."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.cache import caches
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import SkatError
from scoring.models import Club, Deal, Evening, Player, RuleProfile, Season, Table, TableScore
from scoring.presets import PRESETS
from scoring.reads.federation import FederationRanking, federation_ranking, recomputed
from scoring.writes import scores
from scoring.writes.services import (
    Actor,
    deal_delete,
    deal_edit,
    deal_record,
    deal_restore,
    evening_create,
    table_create,
)

from .factories import make_club, make_table, make_user
from .seasons import game

pytestmark = pytest.mark.django_db

ME = Actor(None, "test")
YEAR = 2026


def _season(club: Club) -> Season:
    return Season.objects.create(club=club, name="2026", start=datetime.date(YEAR, 1, 1),
                                 end=datetime.date(YEAR, 12, 31), evaluation="seeger_fabian")


def _evening(club: Club, season: Season | None, day: int, preset: str) -> Evening:
    profile = RuleProfile.objects.get(club=club, name=PRESETS[preset]["name"])
    evening: Evening = evening_create(
        club=club, date=datetime.date(YEAR, 3, 1) + datetime.timedelta(day), profile=profile,
        season=season, series_rounds=None)
    return evening


def _table(evening: Evening, players: list[Player]) -> Table:
    return table_create(evening=evening, players=players)


def _flat(ranking: FederationRanking) -> list[tuple[Any, ...]]:
    return [(r.player_id, r.rank, r.score, r.points, r.won, r.lost, r.evenings)
            for r in ranking.ranked]


def _row(ranking: FederationRanking, player: Player) -> Any:
    return next((r for r in ranking.ranked if r.player_id == player.pk), None)


@pytest.fixture
def federation() -> dict[str, Any]:
    """Two clubs, each with a season of 2026; three tables over three evenings (a 4-table
    and a 3-table of the tournament rules, a 4-table of the club evening's rules with Bock
    and Ramsch) and a table outside any season."""
    a, b = make_club("altenburg"), make_club("borna", "Skatrunde Borna")
    season_a, season_b = _season(a), _season(b)
    pa, pb = list(a.players.order_by("pk")), list(b.players.order_by("pk"))
    tables = [
        _table(_evening(a, season_a, 0, "isko_tournament"), pa[:4]),
        _table(_evening(a, season_a, 7, "club_evening"), pa[1:5]),
        _table(_evening(b, season_b, 2, "isko_tournament"), pb[:3]),
    ]
    outside = _table(_evening(b, None, 9, "isko_tournament"), pb[:4])
    return {"clubs": (a, b), "players": (pa, pb), "tables": tables, "outside": outside}


def test_a_saved_corrected_deleted_deal_moves_the_ranking(federation: dict[str, Any]) -> None:
    table = federation["tables"][0]
    anna, bernd = federation["players"][0][0], federation["players"][0][1]
    assert federation_ranking(YEAR, 1).ranked[0].score == 0  # seated, nothing played
    # Deal 1: Anna deals at a 4-table and sits out; Bernd (seat 1) wins Clubs with 1:
    # 24 + 50 Seeger-Fabian points.
    deal = deal_record(table=table, record=game(1), expected_version=0, actor=ME)
    row = _row(federation_ranking(YEAR, 1), bernd)
    assert (row.score, row.points, row.won, row.lost, row.rank) == (74, 24, 1, 0, 1)
    # Corrected to lost: −48 − 50 for Bernd, +30 for each other player (Anna included).
    deal_edit(deal=deal, record=game(1, won=False), reason="miscounted", expected_version=1,
              actor=ME)
    ranking = federation_ranking(YEAR, 1)
    assert (_row(ranking, bernd).score, _row(ranking, bernd).lost) == (-98, 1)
    assert _row(ranking, anna).score == 30 and _row(ranking, anna).rank == 1
    deal_delete(deal=deal, reason="wrong table", expected_version=2, actor=ME)
    assert _row(federation_ranking(YEAR, 1), bernd).score == 0
    deal_restore(deal=Deal.objects.get(pk=deal.pk), reason="right table after all",
                 expected_version=3, actor=ME)
    assert _row(federation_ranking(YEAR, 1), bernd).score == -98
    assert _flat(federation_ranking(YEAR, 1)) == _flat(recomputed(YEAR, 1))


def test_a_refused_deal_changes_no_score(federation: dict[str, Any]) -> None:
    table = federation["tables"][0]
    before = list(TableScore.objects.values_list("player_id", "seeger_fabian"))
    with pytest.raises(SkatError):  # seat 0 deals the first deal at a 4-table: not playing
        deal_record(table=table, record=game(0), expected_version=0, actor=ME)
    assert list(TableScore.objects.values_list("player_id", "seeger_fabian")) == before


def test_who_counts_the_year_the_seasons_and_the_minimum(federation: dict[str, Any]) -> None:
    a_table, club_table, b_table = federation["tables"]
    outside = federation["outside"]
    deal_record(table=outside, record=game(1, 4), expected_version=0, actor=ME)
    deal_record(table=b_table, record=game(1), expected_version=0, actor=ME)
    ranking = federation_ranking(YEAR, 1)
    borna = federation["players"][1]
    # The evening outside a season does not count: Borna's seat 1 has 74 from its 3-table only.
    assert _row(ranking, borna[1]).score == 74 and _row(ranking, borna[1]).evenings == 1
    assert _row(ranking, borna[3]) is None  # played only outside the season
    assert ranking.clubs == 2
    # Bernd, Clara, Dieter sat at two evenings of Altenburg; Anna and Erika at one.
    two = federation_ranking(YEAR, 2)
    altenburg = federation["players"][0]
    assert {r.player_id for r in two.ranked} == {p.pk for p in altenburg[1:4]}
    assert two.unranked == len(ranking.ranked) - 3
    assert federation_ranking(YEAR + 1, 1).ranked == []


def test_rebuild_gives_the_kept_rows(federation: dict[str, Any]) -> None:
    table = federation["tables"][1]
    deal_record(table=table, record=game(1), expected_version=0, actor=ME)
    deal_record(table=table, record=game(2, won=False), expected_version=1, actor=ME)
    kept = sorted(TableScore.objects.values_list(
        "table_id", "player_id", "seeger_fabian", "points", "won", "lost"))
    scores.rebuild(Table.objects.all())
    assert sorted(TableScore.objects.values_list(
        "table_id", "player_id", "seeger_fabian", "points", "won", "lost")) == kept


RECORD = st.fixed_dictionaries({
    "declarer": st.integers(0, 3), "game": st.sampled_from(["clubs", "grand", "hearts"]),
    "matadors": st.sampled_from([1, 2, -1, -3]), "won": st.booleans()})
OPERATION = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 2), RECORD),
    st.tuples(st.just("edit"), st.integers(0, 2), st.integers(0, 20), RECORD),
    st.tuples(st.just("delete"), st.integers(0, 2), st.integers(0, 20)),
    st.tuples(st.just("restore"), st.integers(0, 2), st.integers(0, 20)),
)


def _record(spec: dict[str, Any]) -> dict[str, Any]:
    record = game(spec["declarer"], spec["matadors"], spec["won"])
    record["game"] = spec["game"]
    record["bid"] = 18
    return record


def _apply(table: Table, operation: tuple[Any, ...]) -> None:
    table.refresh_from_db()
    kind = operation[0]
    deals = list(table.deals.order_by("position"))
    try:
        if kind == "record":
            deal_record(table=table, record=_record(operation[2]),
                        expected_version=table.version, actor=ME)
            return
        if not deals:
            return
        deal = deals[operation[2] % len(deals)]
        common: dict[str, Any] = {"reason": "property test", "expected_version": table.version,
                                  "actor": ME}
        if kind == "edit":
            deal_edit(deal=deal, record=_record(operation[3]), **common)
        elif kind == "delete":
            deal_delete(deal=deal, **common)
        else:
            deal_restore(deal=deal, **common)
    except SkatError:
        pass  # refused: nothing changed, which the comparison checks as well


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(operations=st.lists(OPERATION, max_size=14))
def test_kept_ranking_equals_a_full_recomputation(federation: dict[str, Any],
                                                  operations: list[tuple[Any, ...]]) -> None:
    tables = federation["tables"]
    with transaction.atomic():
        caches["results"].clear()  # versions repeat across the rolled-back examples
        for operation in operations:
            _apply(tables[operation[1]], operation)
        for least in (1, 2):
            kept, derived = federation_ranking(YEAR, least), recomputed(YEAR, least)
            assert _flat(kept) == _flat(derived)
            assert (kept.unranked, kept.clubs) == (derived.unranked, derived.clubs)
        transaction.set_rollback(True)
    caches["results"].clear()


# ---------------------------------------------------------------- the page


def _url(**query: Any) -> str:
    url = reverse("scoring:federation-ranking")
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.mark.parametrize("role", ["admin", "scorer", "viewer"])
def test_members_of_any_club_see_every_clubs_players(client: Client, role: str,
                                                     federation: dict[str, Any]) -> None:
    deal_record(table=federation["tables"][2], record=game(1), expected_version=0, actor=ME)
    client.force_login(make_user(federation["clubs"][0], role))  # a member of Altenburg
    response = client.get(_url(year=YEAR, min_evenings=1))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Bernd Borna" in text and "Skatrunde Borna" in text and "Anna Altenburg" in text


def test_staff_without_a_club_may_look(client: Client, federation: dict[str, Any]) -> None:
    from django.contrib.auth import get_user_model
    staff = get_user_model().objects.create_user("staff", password="pw", is_staff=True)
    client.force_login(staff)
    assert client.get(_url(year=YEAR)).status_code == 200


def test_an_account_of_no_club_is_refused(client: Client, federation: dict[str, Any]) -> None:
    from django.contrib.auth import get_user_model
    client.force_login(get_user_model().objects.create_user("nobody", password="pw"))
    response = client.get(_url(year=YEAR))
    assert response.status_code == 403
    assert "Anna Altenburg" not in response.content.decode()


def test_anonymous_and_table_code_devices_are_sent_to_sign_in(
        client: Client, federation: dict[str, Any]) -> None:
    response = client.get(_url(year=YEAR))
    assert response.status_code == 302 and "/login/" in response["Location"]
    table = make_table(federation["clubs"][0])  # tonight's table: its code is valid now
    session = client.session
    session["table_grants"] = {str(table.pk): table.access_code}
    session.save()
    assert client.get(reverse("scoring:table", args=[table.pk])).status_code == 200
    response = client.get(_url(year=YEAR))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_bad_choices_fall_back_to_the_defaults(client: Client,
                                               federation: dict[str, Any]) -> None:
    client.force_login(make_user(federation["clubs"][1], "viewer"))
    for query in ({"year": "abc"}, {"year": "1800", "min_evenings": "0"},
                  {"min_evenings": "-3"}, {"page": "999"}, {"page": "x"}):
        response = client.get(_url(**query))
        assert response.status_code == 200, query


def test_the_page_costs_the_same_however_many_clubs(
        client: Client, federation: dict[str, Any],
        django_assert_max_num_queries: Any) -> None:
    client.force_login(make_user(federation["clubs"][0], "viewer"))
    deal_record(table=federation["tables"][0], record=game(1), expected_version=0, actor=ME)
    with django_assert_max_num_queries(6):
        assert client.get(_url(year=YEAR, min_evenings=1)).status_code == 200
    for number in range(5):  # five more clubs, each with a played table
        club = make_club(f"club{number}", f"Club {number}")
        table = _table(_evening(club, _season(club), number, "isko_tournament"),
                       list(club.players.all()[:4]))
        deal_record(table=table, record=game(1), expected_version=0, actor=ME)
    with django_assert_max_num_queries(6):
        response = client.get(_url(year=YEAR, min_evenings=1))
    assert response.content.decode().count('<td class="num place">') == 5 + 3 + 5 * 4


def test_a_seat_corrected_in_the_admin_moves_the_scores(federation: dict[str, Any]) -> None:
    from types import SimpleNamespace

    from django.contrib import admin
    from django.test import RequestFactory

    from scoring.models import Seat

    table = federation["tables"][0]
    deal_record(table=table, record=game(1), expected_version=0, actor=ME)
    bernd, fritz = federation["players"][0][1], federation["players"][0][5]
    # The seat inline saved Fritz where Bernd sat; then the admin saves the related objects.
    Seat.objects.filter(table=table, player=bernd).update(player=fritz)
    admin.site._registry[Table].save_related(
        RequestFactory().post("/"), SimpleNamespace(instance=table, save_m2m=lambda: None),
        [], True)
    ranking = federation_ranking(YEAR, 1)
    assert _row(ranking, fritz).score == 74
    assert _row(ranking, bernd).evenings == 1  # his other evening, at the club evening's table
    assert _flat(ranking) == _flat(recomputed(YEAR, 1))
