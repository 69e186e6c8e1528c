"""Team leagues: match days worked by hand (league-day.md "Scoring"), each number's arithmetic
in a comment beside it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine import (
    LeagueDay,
    LeagueTeam,
    SeriesRow,
    TableRow,
    league_standings,
    parse_league,
)


def teams(*spec: str) -> tuple[LeagueTeam, ...]:
    """``teams("A:a1 a2 a3 a4", "B:b1 b2")``: a team by name and its players."""
    out = []
    for one in spec:
        name, _, players = one.partition(":")
        out.append(LeagueTeam(name, tuple(players.split())))
    return tuple(out)


def day(*series: Mapping[str, int], name: str = "1. Spieltag") -> LeagueDay:
    return LeagueDay(name, tuple(series))


FOUR = teams("A:a1 a2 a3 a4", "B:b1 b2 b3 b4", "C:c1 c2 c3 c4", "D:d1 d2 d3 d4")


def series_of(teams_: tuple[LeagueTeam, ...], *points: Mapping[str, int]) -> list[
        tuple[str, int, int, float, float]]:
    """The one day's series rows as (team, points, place, plus, minus), series after series."""
    result = league_standings(teams_, [day(*points)])
    return [(r.team, r.points, r.place, r.plus, r.minus)
            for rows in result.days[0].series for r in rows]


def test_four_teams_take_3_2_1_0() -> None:
    rows = series_of(FOUR, {"a1": 100, "a2": 200, "a3": 0, "a4": 0,  # A: 100 + 200 = 300
                            "b1": 500, "b2": 0, "b3": 0, "b4": 0,  # B: 500
                            "c1": -50, "c2": 250, "c3": 0, "c4": 0,  # C: -50 + 250 = 200
                            "d1": 400, "d2": 0, "d3": 0, "d4": 0})  # D: 400
    # n = 4: place k gets 4 - k plus and k - 1 minus
    assert rows == [("B", 500, 1, 3, 0), ("D", 400, 2, 2, 1), ("A", 300, 3, 1, 2),
                    ("C", 200, 4, 0, 3)]


def test_a_tie_for_first_shares_2_5_to_0_5() -> None:
    rows = series_of(FOUR, {"a1": 500, "b1": 300, "b2": 200, "c1": 300, "d1": 100})
    # A 500 and B 300 + 200 = 500 cover places 1 and 2: plus (3 + 2) / 2 = 2.5, minus
    # (0 + 1) / 2 = 0.5; then C 300 third (1:2), D 100 fourth (0:3). A before B by name.
    assert rows == [("A", 500, 1, 2.5, 0.5), ("B", 500, 1, 2.5, 0.5), ("C", 300, 3, 1, 2),
                    ("D", 100, 4, 0, 3)]
    first = league_standings(FOUR, [day({"a1": 500, "b1": 500, "c1": 0, "d1": 0})])
    a = first.days[0].series[0][0]
    assert type(a.plus) is float and type(a.minus) is float  # a half is a float
    assert type(first.days[0].series[0][2].plus) is float  # C, D tied for 3-4: 0.5:2.5


def test_three_teams_tied_for_places_2_to_4_take_1_to_2() -> None:
    rows = series_of(FOUR, {"a1": 900, "b1": 10, "c1": 10, "d1": 10})
    # B, C, D cover places 2, 3, 4: plus (2 + 1 + 0) / 3 = 1, minus (1 + 2 + 3) / 3 = 2 (whole)
    assert rows == [("A", 900, 1, 3, 0), ("B", 10, 2, 1, 2), ("C", 10, 2, 1, 2),
                    ("D", 10, 2, 1, 2)]
    assert all(type(r[3]) is int and type(r[4]) is int for r in rows)


def test_a_three_player_team_adds_its_three() -> None:
    three = teams("Drei:x1 x2 x3", "Vier:v1 v2 v3 v4 v5")  # v5 a substitute
    rows = series_of(three,
                     # Drei: 400 + 300 + 200 = 900; Vier: 250 · 3 + (-10) = 740
                     {"x1": 400, "x2": 300, "x3": 200, "v1": 250, "v2": 250, "v3": 250,
                      "v4": -10},
                     # Drei: 0 + 0 + 10 = 10; Vier with the substitute: 5 + 5 + 5 + 5 = 20
                     {"x1": 0, "x2": 0, "x3": 10, "v5": 5, "v2": 5, "v3": 5, "v4": 5})
    # n = 2: first 1:0, second 0:1
    assert rows == [("Drei", 900, 1, 1, 0), ("Vier", 740, 2, 0, 1),
                    ("Vier", 20, 1, 1, 0), ("Drei", 10, 2, 0, 1)]


def test_a_team_absent_from_a_series_is_placed_last() -> None:
    rows = series_of(FOUR, {"a1": -100, "b1": -200, "c1": -300})  # nobody of D played
    # D has the best score (0) but did not play: after every team that played (rule 3)
    assert rows == [("A", -100, 1, 3, 0), ("B", -200, 2, 2, 1), ("C", -300, 3, 1, 2),
                    ("D", 0, 4, 0, 3)]


def test_two_absent_teams_share_the_last_places() -> None:
    rows = series_of(FOUR, {"c1": -5, "a1": -7})
    # C -5 first (3:0), A -7 second (2:1); B and D share places 3-4: plus (1 + 0) / 2 = 0.5,
    # minus (2 + 3) / 2 = 2.5
    assert rows == [("C", -5, 1, 3, 0), ("A", -7, 2, 2, 1), ("B", 0, 3, 0.5, 2.5),
                    ("D", 0, 3, 0.5, 2.5)]


def test_a_team_absent_all_day_takes_its_minus_points() -> None:
    result = league_standings(FOUR, [day({"a1": 1, "b1": 2, "c1": 3}, {"a1": 3, "b1": 2})])
    table = [(r.team, r.place, r.plus, r.minus, r.points) for r in result.days[0].table]
    # series 1: C 3:0, B 2:1, A 1:2, D 0:3; series 2: A 3:0, B 2:1, C and D 0.5:2.5
    # A 1 + 3 = 4 (4 points), B 2 + 2 = 4 (4 points): equal on both, shared place 1
    # C 3 + 0.5 = 3.5, D 0 + 0.5 = 0.5 (minus 3 + 2.5 = 5.5)
    assert table == [("A", 1, 4, 2, 4), ("B", 1, 4, 2, 4), ("C", 3, 3.5, 2.5, 3),
                     ("D", 4, 0.5, 5.5, 0)]


def test_five_teams_take_4_to_0() -> None:
    five = teams("E:e1", "F:f1", "G:g1", "H:h1", "I:i1")
    rows = series_of(five, {"e1": 50, "f1": 40, "g1": 30, "h1": 20, "i1": 20})
    # n = 5: place k gets 5 - k : k - 1; H and I share places 4-5: (1 + 0) / 2 = 0.5 plus,
    # (3 + 4) / 2 = 3.5 minus
    assert rows == [("E", 50, 1, 4, 0), ("F", 40, 2, 3, 1), ("G", 30, 3, 2, 2),
                    ("H", 20, 4, 0.5, 3.5), ("I", 20, 4, 0.5, 3.5)]


XYZ = teams("X:x", "Y:y", "Z:z")


def test_the_day_and_the_league_table_share_places_1_1_3() -> None:
    day1 = day({"x": 100, "y": 50, "z": 0},  # X 2:0, Y 1:1, Z 0:2
               {"x": 50, "y": 100, "z": 0})  # Y 2:0, X 1:1, Z 0:2
    day2 = day({"x": 20, "y": 20, "z": 300}, name="2. Spieltag")
    # day 2: Z 2:0; X and Y share places 2-3: (1 + 0) / 2 = 0.5 plus, (1 + 2) / 2 = 1.5 minus
    result = league_standings(XYZ, [day1, day2])

    def rows(table: tuple[TableRow, ...]) -> list[tuple[Any, ...]]:
        return [(r.team, r.place, r.plus, r.minus, r.points) for r in table]

    # day 1: X 2 + 1 = 3 plus, 100 + 50 = 150; Y 1 + 2 = 3, 50 + 100 = 150: places 1, 1, 3
    assert rows(result.days[0].table) == [("X", 1, 3, 1, 150), ("Y", 1, 3, 1, 150),
                                          ("Z", 3, 0, 4, 0)]
    assert rows(result.days[1].table) == [("Z", 1, 2, 0, 300), ("X", 2, 0.5, 1.5, 20),
                                          ("Y", 2, 0.5, 1.5, 20)]
    # league: X 3 + 0.5 = 3.5 plus, 1 + 1.5 = 2.5 minus, 150 + 20 = 170; Y the same;
    # Z 0 + 2 = 2 plus, 4 + 0 = 4 minus, 300 points: more Spielpunkte, fewer plus points
    assert rows(result.table) == [("X", 1, 3.5, 2.5, 170), ("Y", 1, 3.5, 2.5, 170),
                                  ("Z", 3, 2, 4, 300)]
    assert [d.name for d in result.days] == ["1. Spieltag", "2. Spieltag"]


def test_equal_plus_points_are_parted_by_spielpunkte() -> None:
    result = league_standings(XYZ, [day({"x": 100, "y": 50, "z": 0},  # X 2:0, Y 1:1
                                        {"x": 50, "y": 101, "z": 0})])  # Y 2:0, X 1:1
    # X and Y 3 plus each; Y 50 + 101 = 151 before X 100 + 50 = 150
    assert [(r.team, r.place, r.points) for r in result.days[0].table] == [
        ("Y", 1, 151), ("X", 2, 150), ("Z", 3, 0)]


def test_shared_places_list_the_teams_in_reading_order() -> None:
    named = teams("Zwölfer:z", "Äskulap:a", "bube:b")
    rows = series_of(named, {"z": 1, "a": 1, "b": 1})
    assert [r[0] for r in rows] == ["Äskulap", "bube", "Zwölfer"]  # not "Z" < "b" < "Ä"
    assert [r[2:] for r in rows] == [(1, 1, 1)] * 3  # three of three share 1:1 each


def test_a_day_without_series_yet_leaves_everyone_level() -> None:
    result = league_standings(XYZ, [day()])
    assert result.days[0].series == ()
    assert [(r.team, r.place, r.plus, r.minus, r.points) for r in result.table] == [
        ("X", 1, 0, 0, 0), ("Y", 1, 0, 0, 0), ("Z", 1, 0, 0, 0)]


def test_the_rows_are_the_spec_shapes() -> None:
    assert SeriesRow("A", 5, 1, 2.5, 0.5).to_json() == {
        "team": "A", "points": 5, "place": 1, "plus": 2.5, "minus": 0.5}
    assert list(TableRow("A", 1, 2, 0, 7).to_json()) == ["team", "place", "plus", "minus",
                                                         "points"]


# The spec's example (league-day.md), its output written out in full.
SPEC_INPUT: dict[str, Any] = {
    "teams": [{"name": "Herz As", "players": ["Anna", "Bernd", "Clara", "Dieter"]},
              {"name": "Grand Hand", "players": ["Emil", "Frieda", "Gero", "Hanna"]}],
    "days": [{"name": "1. Spieltag",
              "series": [{"points": {"Anna": 1012, "Bernd": 744, "Emil": -120, "Frieda": 903}},
                         {"points": {"Anna": 655, "Clara": 1201, "Emil": 830, "Gero": 410}}]}]}
# series 1: Herz As 1012 + 744 = 1756, Grand Hand -120 + 903 = 783
# series 2: Herz As 655 + 1201 = 1856, Grand Hand 830 + 410 = 1240
# the day: Herz As 2:0, 1756 + 1856 = 3612; Grand Hand 0:2, 783 + 1240 = 2023
TABLE = [{"team": "Herz As", "place": 1, "plus": 2, "minus": 0, "points": 3612},
         {"team": "Grand Hand", "place": 2, "plus": 0, "minus": 2, "points": 2023}]
SPEC_OUTPUT: dict[str, Any] = {
    "days": [{"name": "1. Spieltag",
              "series": [[{"team": "Herz As", "points": 1756, "place": 1, "plus": 1, "minus": 0},
                          {"team": "Grand Hand", "points": 783, "place": 2, "plus": 0,
                           "minus": 1}],
                         [{"team": "Herz As", "points": 1856, "place": 1, "plus": 1, "minus": 0},
                          {"team": "Grand Hand", "points": 1240, "place": 2, "plus": 0,
                           "minus": 1}]],
              "table": TABLE}],
    "table": TABLE}


def test_the_specs_example() -> None:
    out = league_standings(*parse_league(SPEC_INPUT)).to_json()
    assert out == SPEC_OUTPUT
    assert list(out) == ["days", "table"]
    assert list(out["days"][0]) == ["name", "series", "table"]
    assert list(out["days"][0]["series"][0][0]) == ["team", "points", "place", "plus", "minus"]
