"""Team leagues: what holds of every league (hypothesis), whatever the scores and line-ups.
Scores are drawn from a few values, so that shared places are common."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    LeagueDay,
    LeagueResult,
    LeagueTeam,
    SeriesRow,
    TableRow,
    league_standings,
)


@st.composite
def leagues(draw: st.DrawFn) -> tuple[tuple[LeagueTeam, ...], tuple[LeagueDay, ...]]:
    n = draw(st.integers(1, 7))
    # a team without players and a series of nobody, as the pages may have them while a
    # league is set up; the first team always has players
    teams = tuple(LeagueTeam(f"T{t}", tuple(f"p{t}.{i}"
                                            for i in range(draw(st.integers(int(t == 0), 5)))))
                  for t in range(n))
    players = [p for team in teams for p in team.players]
    score = st.integers(-3, 3) | st.integers(-2000, 2000)
    series = st.dictionaries(st.sampled_from(players), score)
    days = draw(st.lists(st.builds(LeagueDay, st.text(max_size=3),
                                   st.lists(series, max_size=4).map(tuple)), max_size=3))
    return teams, tuple(days)


def half(x: float) -> Fraction:
    """A row's number as exact as it is meant: an int, or a float that is a whole half."""
    assert type(x) is int or (type(x) is float and (x * 2).is_integer() and not x.is_integer())
    return Fraction(x)


def check_places(keys: list[tuple[Fraction, ...]], places: list[int]) -> None:
    """Places 1, 1, 3: the first is 1; a row keeps the place before it exactly when its key
    is equal, else its place is its position; keys never rise."""
    for i, (key, place) in enumerate(zip(keys, places, strict=True)):
        if i and key == keys[i - 1]:
            assert place == places[i - 1]
        else:
            assert place == i + 1
        assert i == 0 or key <= keys[i - 1]


def check_series(rows: tuple[SeriesRow, ...], n: int, played: set[str]) -> None:
    assert sorted(r.team for r in rows) == sorted(f"T{t}" for t in range(n))
    assert sum(half(r.plus) for r in rows) == Fraction(n * (n - 1), 2)
    assert sum(half(r.minus) for r in rows) == Fraction(n * (n - 1), 2)
    assert all(half(r.plus) + half(r.minus) == n - 1 for r in rows)
    check_places([(Fraction(r.team in played), Fraction(r.points)) for r in rows],
                 [r.place for r in rows])


def check_table(rows: tuple[TableRow, ...]) -> None:
    check_places([(half(r.plus), Fraction(r.points)) for r in rows], [r.place for r in rows])


def result_of(league: tuple[tuple[LeagueTeam, ...], tuple[LeagueDay, ...]]) -> LeagueResult:
    return league_standings(*league)


@settings(max_examples=300)
@given(leagues())
def test_every_series_shares_out_n_n_minus_1_over_2(
        league: tuple[tuple[LeagueTeam, ...], tuple[LeagueDay, ...]]) -> None:
    teams, days = league
    n = len(teams)
    team_of = {p: team.name for team in teams for p in team.players}
    result = result_of(league)
    for day, scored in zip(days, result.days, strict=True):
        for points, rows in zip(day.series, scored.series, strict=True):
            check_series(rows, n, {team_of[p] for p in points})
            # a team's score is the sum of its players' Spielpunkte
            for row in rows:
                assert row.points == sum(v for p, v in points.items() if team_of[p] == row.team)


@settings(max_examples=300)
@given(leagues())
def test_the_tables_add_up_and_stand_in_place_order(
        league: tuple[tuple[LeagueTeam, ...], tuple[LeagueDay, ...]]) -> None:
    teams, days = league
    n = len(teams)
    result = result_of(league)
    plus: dict[str, Fraction] = {team.name: Fraction(0) for team in teams}
    points = dict.fromkeys(plus, 0)
    for day, scored in zip(days, result.days, strict=True):
        check_table(scored.table)
        total = sum(half(r.plus) for r in scored.table)
        assert total == len(day.series) * Fraction(n * (n - 1), 2)
        assert all(half(r.plus) + half(r.minus) == len(day.series) * (n - 1)
                   for r in scored.table)
        for row in scored.table:
            assert half(row.plus) == sum(half(r.plus) for rows in scored.series for r in rows
                                         if r.team == row.team)
            plus[row.team] += half(row.plus)
            points[row.team] += row.points
    check_table(result.table)
    assert {r.team: half(r.plus) for r in result.table} == plus
    assert {r.team: r.points for r in result.table} == points
