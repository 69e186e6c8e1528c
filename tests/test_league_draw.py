"""A league match day's seating (scoring/draw/league.py): pure, no database."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw import league as league_draw
from scoring.draw.league import repeated_pairs, seat_series
from scoring.draw.preisskat import meetings, series_random

Lineup = list[str | None]


def full(letters: str, size: int = 4) -> list[Lineup]:
    """Teams A, B … of ``size`` players A1, A2 … by position."""
    return [[f"{team}{k}" for k in range(1, size + 1)] for team in letters]


def team_of(player: str) -> str:
    return player[0]


def day(lineups: list[list[Lineup]], seed: int) -> list[list[list[str]]]:
    """Every series of a day, one lineup list per series."""
    done: list[list[list[str]]] = []
    for number, series in enumerate(lineups, start=1):
        done.append(seat_series(series, number, done, series_random(seed, number),
                                ahead=len(lineups) - number))
    return done


def repeats(result: list[list[list[str]]]) -> list[int]:
    return [repeated_pairs(result[k], result[:k]) for k in range(1, len(result))]


def assert_one_of_each_team(tables: list[list[str]], teams: str) -> None:
    for table in tables:
        assert len(table) in (3, 4)
        assert len({team_of(p) for p in table}) == len(table)
        assert {team_of(p) for p in table} <= set(teams)


def test_series_1_seats_table_k_with_the_players_at_position_k() -> None:
    tables = seat_series(full("ABCD"), 1, [], random.Random(1))
    assert tables == [["A1", "B1", "C1", "D1"], ["A2", "B2", "C2", "D2"],
                      ["A3", "B3", "C3", "D3"], ["A4", "B4", "C4", "D4"]]


def test_series_1_leaves_a_missing_position_empty_at_its_table() -> None:
    lineups = full("ABCD")
    lineups[1][1] = None  # B plays without position 2
    lineups[3] = lineups[3][:3]  # D without position 4 (a shorter list)
    tables = seat_series(lineups, 1, [], random.Random(1))
    assert tables == [["A1", "B1", "C1", "D1"], ["A2", "C2", "D2"],
                      ["A3", "B3", "C3", "D3"], ["A4", "B4", "C4"]]


def test_series_1_moves_the_fewest_where_a_position_is_empty_twice() -> None:
    """A and B both lack position 4: by positions table 4 would seat C4 and D4 alone, so one
    player of A or B moves there, nobody else."""
    lineups = full("ABCD")
    lineups[0] = lineups[0][:3]
    lineups[1] = lineups[1][:3]
    for seed in range(5):
        tables = seat_series(lineups, 1, [], random.Random(seed))
        assert_one_of_each_team(tables, "ABCD")
        moved = [p for k, table in enumerate(tables) for p in table if int(p[1]) != k + 1]
        assert len(moved) == 1
        assert sorted(len(t) for t in tables) == [3, 3, 4, 4]


@pytest.mark.parametrize("seed", range(12))
def test_four_full_teams_meet_nobody_twice_in_four_series(seed: int) -> None:
    """Series 2 and 3 without repeats (orthogonal Latin squares), and series 4 too: the
    teams, series 1, 2 and 3 are four classes of a net of order 4, which the affine plane's
    fifth class completes. Without the lookahead series 2 is often the cyclic square, which
    leaves series 3 repeats."""
    result = day([full("ABCD")] * 4, seed)
    assert repeats(result) == [0, 0, 0]
    for tables in result:
        assert len(tables) == 4
        assert_one_of_each_team(tables, "ABCD")
        assert all(len(t) == 4 for t in tables)


def test_the_seating_looks_ahead_even_when_the_caller_does_not() -> None:
    done: list[list[list[str]]] = []
    for seed in range(8):
        done = []
        for number in (1, 2, 3):
            done.append(seat_series(full("ABCD"), number, done, series_random(seed, number)))
        assert repeats(done) == [0, 0]


def test_a_fifth_and_sixth_series_repeat_the_fewest() -> None:
    """After four series without repeats every player has met all 12 opponents: each table
    of a fifth series holds 6 pairs who met before, 24 in all, as does a sixth, and nobody
    meets anybody a third time (the fewest: a third meeting weighs on the choice)."""
    result = day([full("ABCD")] * 6, 3)
    assert repeats(result) == [0, 0, 0, 24, 24]
    assert max(v for row in meetings(result).values() for v in row.values()) == 2


def test_the_search_finds_the_fewest_repeats_after_a_dead_end() -> None:
    """Series 2 seated by the cyclic Latin square: no series 3 is free of repeats; the
    seating finds one with the fewest (a brute force over all seatings agrees)."""
    first = [list(t) for t in zip(*full("ABCD"), strict=True)]
    cyclic = [[f"{'ABCD'[r]}{(r + c) % 4 + 1}" for r in range(4)] for c in range(4)]
    assert repeats([first, cyclic]) == [0]
    third = seat_series(full("ABCD"), 3, [first, cyclic], random.Random(2))
    found = repeated_pairs(third, [first, cyclic])
    assert found > 0
    fewest = min(
        repeated_pairs([[f"A{k + 1}", f"B{pb[k]}", f"C{pc[k]}", f"D{pd[k]}"] for k in range(4)],
                       [first, cyclic])
        for pb in itertools.permutations(range(1, 5))
        for pc in itertools.permutations(range(1, 5))
        for pd in itertools.permutations(range(1, 5)))
    assert found == fewest


def test_a_team_of_three_leaves_one_3_table_and_it_moves_round() -> None:
    lineups = full("ABCD")
    lineups[2] = lineups[2][:3]  # C brings three
    result = day([lineups] * 4, 5)
    three_seats: Counter[str] = Counter()
    for tables in result:
        assert_one_of_each_team(tables, "ABCD")
        assert [len(t) for t in tables] == [4, 4, 4, 3]  # the 3-table last
        assert "C" not in {team_of(p) for p in tables[-1]}
        three_seats.update(tables[-1])
    assert repeats(result) == [0, 0, 0]
    # 12 seats at the 3-table over 4 series for the 12 players of A, B and D: one each
    assert sorted(three_seats.values()) == [1] * 12


def test_the_3_table_goes_to_those_who_have_not_sat_at_one() -> None:
    """A1, B1 and D1 sat at a 3-table earlier (beside a table of others): the 3-table of
    this series (C brings three) seats three others, whatever the lot. (Where series 1
    is by positions, no repeats alone already keep its 3-table's players off the next.)"""
    lineups = full("ABCD")
    lineups[2] = lineups[2][:3]
    earlier = [[["A1", "B1", "D1"], ["X1", "X2", "X3", "X4"]]]
    for seed in range(12):
        tables = seat_series(lineups, 2, earlier, random.Random(seed))
        assert repeated_pairs(tables, earlier) == 0
        assert len(tables[-1]) == 3
        assert not {"A1", "B1", "D1"} & set(tables[-1])


def test_a_substitute_takes_a_players_place_in_series_2() -> None:
    second = full("ABCD")
    second[1][2] = "B9"  # B3 is replaced
    result = day([full("ABCD"), second, second], 4)
    seated = [p for table in result[1] for p in table]
    assert "B9" in seated and "B3" not in seated
    assert sorted(seated) == sorted(p for lineup in second for p in lineup if p)
    for tables in result:
        assert_one_of_each_team(tables, "ABCD")
    assert repeats(result) == [0, 0]


def test_the_same_seed_gives_the_same_seating_another_may_differ() -> None:
    first = seat_series(full("ABCD"), 1, [], random.Random(0))
    seatings = {str(seat_series(full("ABCD"), 2, [first], random.Random(seed)))
                for seed in range(6)}
    assert len(seatings) > 1
    for seed in range(3):
        again = {str(seat_series(full("ABCD"), 2, [first], random.Random(seed)))
                 for _ in range(3)}
        assert len(again) == 1
    assert day([full("ABCDEF")] * 3, 7) == day([full("ABCDEF")] * 3, 7)


def test_three_teams_play_at_3_tables() -> None:
    result = day([full("ABC")] * 3, 1)
    assert result[0] == [["A1", "B1", "C1"], ["A2", "B2", "C2"], ["A3", "B3", "C3"],
                         ["A4", "B4", "C4"]]
    for tables in result:
        assert [len(t) for t in tables] == [3, 3, 3, 3]
        assert_one_of_each_team(tables, "ABC")
    assert repeats(result) == [0, 0]


def test_a_team_without_players_is_not_present() -> None:
    lineups = full("ABCD")
    lineups[3] = [None, None]
    tables = seat_series(lineups, 2, [], random.Random(1))
    assert [len(t) for t in tables] == [3, 3, 3, 3]
    assert_one_of_each_team(tables, "ABC")


@pytest.mark.parametrize("letters", ["ABCDE", "ABCDEF", "ABCDEFG"])
def test_five_or_more_teams_keep_teammates_apart(letters: str) -> None:
    lineups = full(letters)
    lineups[1] = lineups[1][:3]
    result = day([lineups] * 4, 2)
    players = sorted(p for lineup in lineups for p in lineup if p)
    for tables in result:
        assert sorted(p for t in tables for p in t) == players
        for table in tables:
            assert len(table) in (3, 4)
            assert len({team_of(p) for p in table}) == len(table)


def test_six_teams_repeat_little() -> None:
    assert sum(repeats(day([full("ABCDEF")] * 4, 1))) <= 2


def test_a_day_of_six_teams_over_four_series_seats_fast() -> None:
    start = time.perf_counter()
    for seed in range(3):
        day([full("ABCDEF")] * 4, seed)
    assert (time.perf_counter() - start) / 3 < 1.0


def test_the_dealt_seating_keeps_teammates_apart_when_the_search_does_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def together(players: list[str], *args: object, **kwargs: object) -> list[list[str]]:
        return [list(players[k:k + 4]) for k in range(0, len(players), 4)]

    monkeypatch.setattr(league_draw, "draw", together)
    lineups = full("ABCDE")
    lineups[4] = lineups[4][:2]
    tables = seat_series(lineups, 2, [], random.Random(1))
    assert [len(t) for t in tables] == [4, 4, 4, 3, 3]
    for table in tables:
        assert len({team_of(p) for p in table}) == len(table)


def refusal(lineups: list[Lineup], code: str, *words: str,
            names: list[str] | None = None) -> None:
    # the English messages (the site's default language is German)
    with translation.override("en"), pytest.raises(ValidationError) as caught:
        seat_series(lineups, 1, [], random.Random(1), names=names)
    assert caught.value.code == code
    message = caught.value.messages[0]
    for word in words:
        assert word in message


def test_fewer_than_three_teams_are_refused() -> None:
    refusal(full("AB"), "too_few_teams", "three teams", "2")
    refusal([*full("AB"), [None]], "too_few_teams")


def test_three_teams_of_unequal_size_are_refused_naming_the_team() -> None:
    lineups = full("ABC")
    lineups[1] = lineups[1][:3]
    refusal(lineups, "unequal_teams", "Grand Hand", "3", "4", "substitute",
            names=["Herz As", "Grand Hand", "Kreuz Bube"])
    refusal(lineups, "unequal_teams", "Team 2")


def test_four_teams_short_of_too_many_are_refused() -> None:
    lineups = full("ABCD")
    lineups[0] = lineups[0][:2]
    lineups[1] = lineups[1][:1]
    refusal(lineups, "too_many_missing", "5", "4 tables", "substitute")
    lineups[1] = lineups[1] + ["B2", "B3"]
    assert len(seat_series(lineups, 1, [], random.Random(1))) == 4  # 2 missing: fine


def test_a_lineup_of_five_and_a_player_twice_are_refused() -> None:
    lineups = full("ABC")
    lineups[0] = [*lineups[0], "A5"]
    refusal(lineups, "too_many_players", "Team 1", "5")
    lineups = full("ABC")
    lineups[2][0] = "A1"
    refusal(lineups, "twice", "A1")


def test_five_teams_that_cannot_keep_teammates_apart_are_refused() -> None:
    refusal([["A1", "A2", "A3", "A4"], ["B1"], ["C1"], ["D1"], ["E1"]], "team_too_large",
            "Team 1", "2 tables", "substitute")
    refusal([["A1"], ["B1"], ["C1"], ["D1"], ["E1"]], "cannot_seat", "5")


# a day of lineups: 3 to 7 teams, each position filled (True) or empty, a substitute at
# some position from series 2 on
lineup_days = st.tuples(
    st.lists(st.lists(st.booleans(), max_size=4), min_size=3, max_size=7),
    st.integers(min_value=1, max_value=3),
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3)), max_size=3),
    st.integers(min_value=0, max_value=2**32))


@settings(max_examples=60, deadline=None)
@given(lineup_days)
def test_everybody_is_seated_once_with_no_teammates_at_tables_of_3_or_4(
        case: tuple[list[list[bool]], int, list[tuple[int, int]], int]) -> None:
    shape, series, substitutes, seed = case
    letters = "ABCDEFG"
    base: list[Lineup] = [[f"{letters[t]}{k + 1}" if filled else None
                           for k, filled in enumerate(positions)]
                          for t, positions in enumerate(shape)]
    done: list[list[list[str]]] = []
    for number in range(1, series + 1):
        lineups = [list(lineup) for lineup in base]
        if number > 1:
            for t, k in substitutes:
                if t < len(lineups) and k < len(lineups[t]) and lineups[t][k]:
                    lineups[t][k] = f"{letters[t]}{k + 5}"
        try:
            tables = seat_series(lineups, number, done, series_random(seed, number))
        except ValidationError:
            return
        players = sorted(p for lineup in lineups for p in lineup if p)
        assert sorted(p for table in tables for p in table) == players
        for table in tables:
            assert len(table) in (3, 4)
            assert len({team_of(p) for p in table}) == len(table)
        present = sum(1 for lineup in lineups if any(lineup))
        if present <= 4:
            # one of each team: as many tables as the largest team has players
            assert len(tables) == max(sum(1 for p in lineup if p) for lineup in lineups)
        done.append(tables)
