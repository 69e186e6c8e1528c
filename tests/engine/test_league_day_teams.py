"""A group whose teams meet in turns (issue 25): a match day names the teams that meet on
it; the others are in none of its rows and take nothing from it (LeagueDay.teams)."""

from __future__ import annotations

import pytest

from scoring.engine import LeagueDay, LeagueTeam, SkatError, league_standings

TEAMS = [LeagueTeam(name, (f"{name}1", f"{name}2", f"{name}3"))
         for name in ("A", "B", "C", "D", "E")]


def test_a_team_that_does_not_meet_takes_nothing_from_the_day() -> None:
    # day 1: A, B, C meet (three teams: 2:0, 1:1, 0:2); D and E meet on day 2 with A, B
    day1 = LeagueDay("1", ({"A1": 100, "B1": 50, "C1": 10},), ("A", "B", "C"))
    day2 = LeagueDay("2", ({"D1": 300, "E1": 200, "A1": 100, "B1": 0},), ("A", "B", "D", "E"))
    result = league_standings(TEAMS, [day1, day2])
    first = result.days[0]
    assert [(r.team, r.plus, r.minus) for r in first.series[0]] == [
        ("A", 2, 0), ("B", 1, 1), ("C", 0, 2)]
    assert [r.team for r in first.table] == ["A", "B", "C"]
    second = result.days[1]
    assert [(r.team, r.plus, r.minus) for r in second.series[0]] == [
        ("D", 3, 0), ("E", 2, 1), ("A", 1, 2), ("B", 0, 3)]
    # the league: A 2+1 = 3 plus (minus 0+2), D 3, E 2, B 1+0, C 0 (minus 2)
    table = [(r.team, r.place, r.plus, r.minus, r.points) for r in result.table]
    assert table == [("D", 1, 3, 0, 300), ("A", 2, 3, 2, 200), ("E", 3, 2, 1, 200),
                     ("B", 4, 1, 4, 50), ("C", 5, 0, 2, 10)]


def test_every_team_meets_when_the_day_does_not_say() -> None:
    day = LeagueDay("1", ({"A1": 1},))
    assert len(league_standings(TEAMS, [day]).days[0].series[0]) == 5


def test_a_player_of_a_team_that_does_not_meet_is_refused() -> None:
    day = LeagueDay("1", ({"A1": 1, "D1": 5},), ("A", "B", "C"))
    with pytest.raises(SkatError) as refused:
        league_standings(TEAMS, [day])
    assert refused.value.field == "days[0].series[0].points"
    assert "D1" in refused.value.message and "does not meet" in refused.value.message


def test_a_day_naming_an_unknown_team_is_refused() -> None:
    with pytest.raises(SkatError) as refused:
        league_standings(TEAMS, [LeagueDay("1", ({"A1": 1},), ("A", "Z"))])
    assert refused.value.field == "days[0].teams"
