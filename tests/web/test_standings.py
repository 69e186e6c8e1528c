"""The season table and the evening ranking on hand-made seasons: best N of M, averages,
the minimum number of evenings, Seeger-Fabian, the tie-breaks, and the cache that never
goes stale."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pytest_django import DjangoAssertNumQueries

from scoring.models import Evening, Player
from scoring.reads.standings import Standing, evening_ranking, player_season, season_standings

from .factories import make_club
from .seasons import game, make_evening, make_season, play, player, seat_and_play

pytestmark = pytest.mark.django_db

W, L = True, False


def game_key(evening: Evening, kind: str, key: str) -> str:
    return key


def table_of(rows: list[Standing]) -> list[tuple[object, ...]]:
    return [(r.rank, r.player.name, r.score, r.total, r.evenings, r.counted, r.average,
             r.won, r.lost) for r in rows]


def test_best_n_average_and_minimum_evenings() -> None:
    club = make_club()
    a, b, c, d, e, f, g = (player(club, n) for n in "ABCDEFG")
    season = make_season(club, "classic", best_of=2, min_evenings=2)
    one, two, three = (make_evening(season, day) for day in (7, 14, 21))
    seat_and_play(one, [a, b, c], {0: [(1, W)], 1: [(3, W)], 2: [(1, L)]})  # +24 +48 −48
    seat_and_play(two, [a, b, d], {0: [(5, W)], 1: [(1, L)], 2: [(1, W)]})  # +72 −48 +24
    seat_and_play(two, [e, f, g], {0: [(9, W)]})  # E +120 at another table
    seat_and_play(three, [a, c, d], {0: [(1, L)], 1: [(7, W)], 2: [(1, W)]})  # −48 +96 +24

    standings = season_standings(season)

    assert table_of(standings.rows) == [
        # A: 24 + 72 − 48 = 48 over three evenings; the best two make 96, −48 is dropped
        (1, "A", 96, 48, 3, 2, Decimal("16.0"), 2, 1),
        # D and C both count 48 over two evenings: D won two games, C one (and lost one)
        (2, "D", 48, 48, 2, 2, Decimal("24.0"), 2, 0),
        (3, "C", 48, 48, 2, 2, Decimal("24.0"), 1, 1),
        (4, "B", 0, 0, 2, 2, Decimal("0.0"), 1, 1),
        # one evening is not enough to be ranked, however high it scored
        (None, "E", 120, 120, 1, 1, Decimal("120.0"), 1, 0),
        (None, "F", 0, 0, 1, 1, Decimal("0.0"), 0, 0),
        (None, "G", 0, 0, 1, 1, Decimal("0.0"), 0, 0),
    ]
    a_row = standings.rows[0]
    assert [(line.evening.pk, line.score, line.counted) for line in a_row.lines] == [
        (one.pk, 24, True), (two.pk, 72, True), (three.pk, -48, False)]
    assert a_row.dropped == 1
    assert [e.pk for e in standings.evenings] == [one.pk, two.pk, three.pk]
    assert standings.problems == []

    # the place after each evening: ranked from the second evening on
    def places(who: Player) -> list[int | None]:
        return [place for _e, place in player_season(season, who, game_key).places]

    assert places(a) == [None, 1, 1]
    assert places(b) == [None, 2, 4]  # C and D pass him at the third evening
    assert places(d) == [None, None, 2]
    assert places(e) == [None, None, None]


def test_every_evening_counts_without_best_n() -> None:
    club = make_club()
    a, b, c = (player(club, n) for n in "ABC")
    season = make_season(club, "classic")
    for day, results in ((1, {0: [(1, W)]}), (2, {0: [(1, L)]}), (3, {1: [(2, W)]})):
        seat_and_play(make_evening(season, day), [a, b, c], results)
    rows = season_standings(season).rows
    assert [(r.player.name, r.score, r.total, r.dropped) for r in rows] == [
        ("B", 36, 36, 0), ("C", 0, 0, 0), ("A", -24, -24, 0)]
    assert rows[1].average == Decimal("0.0") and rows[2].average == Decimal("-8.0")


def test_seeger_fabian_season_counts_50_and_40() -> None:
    club = make_club()
    a, b, c = (player(club, n) for n in "ABC")
    season = make_season(club, "seeger_fabian")
    evening = make_evening(season, 5)
    # A wins 24 (+24 +50 = 74); B loses 24 (−48 −50 = −98, A and C +40 each)
    seat_and_play(evening, [a, b, c], {0: [(1, W)], 1: [(1, L)]})
    rows = season_standings(season).rows
    assert [(r.player.name, r.score, r.points, r.won, r.lost) for r in rows] == [
        ("A", 114, 24, 1, 0), ("C", 40, 0, 0, 0), ("B", -98, -48, 0, 1)]


def test_tie_breaks_more_games_won_then_fewer_lost_then_a_shared_place() -> None:
    club = make_club()
    p1, p2, p3, p4, x, y = (player(club, n) for n in ("P1", "P2", "P3", "P4", "X", "Y"))
    season = make_season(club, "classic")
    evening = make_evening(season, 3)
    # all four score 48: P1 with two won games, P2 and P4 with one, P3 with one won and one lost
    seat_and_play(evening, [p1, p2, x], {0: [(1, W), (1, W)], 1: [(3, W)]})
    seat_and_play(evening, [p3, p4, y], {0: [(7, W), (1, L)], 1: [(3, W)]})
    expected = [(1, "P1", 48, 2, 0), (2, "P2", 48, 1, 0), (2, "P4", 48, 1, 0),
                (4, "P3", 48, 1, 1), (5, "X", 0, 0, 0), (5, "Y", 0, 0, 0)]
    ranking = evening_ranking(evening)
    assert [(r.rank, r.player.name, r.score, r.won, r.lost) for r in ranking.rows] == expected
    season_rows = season_standings(season).rows
    assert [(r.rank, r.player.name, r.score, r.won, r.lost) for r in season_rows] == expected


def test_the_evening_ranking_adds_up_the_series() -> None:
    club = make_club()
    a, b, c, d = (player(club, n) for n in "ABCD")
    season = make_season(club, "classic")
    evening = make_evening(season, 9)
    seat_and_play(evening, [a, b, c], {0: [(1, W)], 1: [(2, W)]})  # A 24, B 36
    seat_and_play(evening, [b, c, a], {0: [(1, L)], 2: [(3, W)]}, series=2)  # B −48, A 48
    ranking = evening_ranking(evening)
    assert ranking.series_numbers == [1, 2]
    assert [(r.player.name, r.series, r.score) for r in ranking.rows] == [
        ("A", {1: 24, 2: 48}, 72), ("C", {1: 0, 2: 0}, 0), ("B", {1: 36, 2: -48}, -12)]


def test_a_changed_table_is_scored_again_and_an_unchanged_one_is_not(
        django_assert_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    a, b, c = (player(club, n) for n in "ABC")
    season = make_season(club, "classic")
    table = seat_and_play(make_evening(season, 1), [a, b, c], {0: [(1, W)]})
    assert season_standings(season).rows[0].score == 24
    # evenings, players, tables, seats and the totals from paper: the table's result comes
    # from the cache
    with django_assert_num_queries(5):
        assert season_standings(season).rows[0].score == 24
    play(table, game(1, 2))  # B wins 36: a new version of the table
    with django_assert_num_queries(6):  # and its deals, read again
        rows = season_standings(season).rows
    assert [(r.player.name, r.score) for r in rows] == [("B", 36), ("A", 24), ("C", 0)]


def test_a_beer_skat_evening_ranks_the_lowest_count_first() -> None:
    """Beer Skat counts up and the first to reach the limit loses (DECISIONS §3), so outside
    a season its evening ranking puts the lowest count first."""
    from django.utils import timezone

    from scoring.models import RuleProfile
    from scoring.writes.services import Actor, deal_record, evening_create, table_create

    club = make_club()
    profile = RuleProfile.objects.create(club=club, name="Bierskat", rules="american1898",
                                         scoring="beer", stake="0")
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile)
    table = table_create(evening=evening, players=list(club.players.all()[:3]))
    deal_record(table=table, expected_version=0, actor=Actor(None, "test"), record={
        "kind": "game", "declarer": 1, "game": "solo_clubs", "matadors": 1, "bid": 18,
        "declarer_points": 70})  # won 24: each other player is charged 24
    ranking = evening_ranking(evening)
    names = [row.player.name for row in ranking.rows]
    winner = table.seats.get(position=1).player.name
    assert names[0] == winner
    assert [(row.score, row.rank) for row in ranking.rows] == [(0, 1), (24, 2), (24, 2)]
