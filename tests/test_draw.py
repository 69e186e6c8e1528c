"""The tournament seat draw (scoring/draw.py) and its command, manage.py draw_seats."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw import (
    DrawError,
    by_standings,
    draw,
    meetings,
    parse_standings,
    repeated_pairs,
    series_random,
    table_sizes,
    tournament,
)

seeds = st.integers(min_value=0, max_value=2**63)
fields = st.integers(min_value=3, max_value=60).filter(lambda n: n != 5)


@pytest.mark.parametrize(("players", "sizes"), [
    (3, [3]), (4, [4]), (6, [3, 3]), (7, [4, 3]), (9, [3, 3, 3]), (10, [4, 3, 3]),
    (11, [4, 4, 3]), (12, [4, 4, 4]), (13, [4, 3, 3, 3]), (1000, [4] * 250)])
def test_tables_of_four_and_threes_only_as_needed(players: int, sizes: list[int]) -> None:
    assert table_sizes(players) == sizes


@pytest.mark.parametrize("players", [0, 1, 2, 5])
def test_fields_that_cannot_be_seated_are_refused(players: int) -> None:
    with pytest.raises(DrawError):
        table_sizes(players)
    with pytest.raises(DrawError):
        tournament(players, 2, 1)


@settings(max_examples=40, deadline=None)
@given(players=fields, series=st.integers(min_value=1, max_value=4), seed=seeds)
def test_everybody_is_seated_once_per_series_at_tables_of_the_right_size(
        players: int, series: int, seed: int) -> None:
    result = tournament(players, series, seed)
    assert len(result) == series
    for tables in result:
        seated = [p for table in tables for p in table]
        assert sorted(seated) == list(range(1, players + 1))
        assert [len(t) for t in tables] == table_sizes(players)
        # 3-tables only as many as needed: fewer than four of them
        assert sum(1 for t in tables if len(t) == 3) < 4


@settings(max_examples=25, deadline=None)
@given(players=fields, series=st.integers(min_value=1, max_value=4), seed=seeds)
def test_the_same_seed_gives_the_same_draw(players: int, series: int, seed: int) -> None:
    assert tournament(players, series, seed) == tournament(players, series, seed)


def test_another_seed_gives_another_draw() -> None:
    draws = {json.dumps(tournament(20, 2, seed)) for seed in range(10)}
    assert len(draws) == 10


@settings(max_examples=15, deadline=None)
@given(seed=seeds)
def test_32_players_over_4_series_never_meet_twice(seed: int) -> None:
    result = tournament(32, 4, seed)
    for k in range(1, 4):
        assert repeated_pairs(result[k], result[:k]) == 0
    assert max(v for row in meetings(result).values() for v in row.values()) == 1


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_1000_players_over_3_series_never_meet_twice(seed: int) -> None:
    result = tournament(1000, 3, seed)
    assert repeated_pairs(result[1], result[:1]) == 0
    assert repeated_pairs(result[2], result[:2]) == 0


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_12_players_meet_as_few_again_as_possible(seed: int) -> None:
    """12 players at three 4-tables cannot play a second series without a repeat (each
    table's four come from three earlier tables, so two of them sat together): the draw
    reaches that bound, one repeated pair per table, and nobody meets anybody three times."""
    result = tournament(12, 3, seed)
    assert repeated_pairs(result[1], result[:1]) == 3
    assert repeated_pairs(result[2], result[:2]) <= 6
    assert max(v for row in meetings(result).values() for v in row.values()) == 2


def test_a_draw_with_history_is_repeatable_from_the_recorded_seed() -> None:
    history = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]
    players = list(range(1, 17))
    once = draw(players, series_random(99, 2), history)
    again = draw(players, series_random(99, 2), history)
    assert once == again
    assert repeated_pairs(once, history) == 0


def test_withdrawn_players_leave_the_draw() -> None:
    """A later series seats whoever is left; the history may name players who withdrew."""
    history = tournament(13, 1, 3)
    left = [p for p in range(1, 14) if p not in (4, 9)]
    tables = draw(left, random.Random(1), history)
    assert sorted(p for t in tables for p in t) == left
    assert [len(t) for t in tables] == [4, 4, 3]


def test_seating_by_standings_puts_the_best_four_at_table_1() -> None:
    ranking = [7, 3, 11, 1, 2, 9, 13, 4, 5, 6, 8, 10, 12]
    assert by_standings(ranking) == [[7, 3, 11, 1], [2, 9, 13], [4, 5, 6], [8, 10, 12]]
    with pytest.raises(DrawError):
        by_standings([1, 2, 2, 3])


def test_tournament_by_standings_uses_the_ranking_after_each_series() -> None:
    standings = [list(range(13, 0, -1))]
    result = tournament(13, 2, 5, standings)
    assert result[1] == [[13, 12, 11, 10], [9, 8, 7], [6, 5, 4], [3, 2, 1]]
    assert result[0] == tournament(13, 1, 5)[0]
    with pytest.raises(DrawError):
        tournament(13, 3, 5, standings)  # the ranking after series 2 is missing
    with pytest.raises(DrawError):
        tournament(13, 2, 5, [[1, 2, 3]])  # not every player


def test_the_standings_file_format() -> None:
    assert parse_standings("# after 1\n3 1 2\n\n2,3,1\n") == [[3, 1, 2], [2, 3, 1]]
    with pytest.raises(DrawError):
        parse_standings("1 2 x\n")


def run(*args: str) -> dict[str, list[list[list[int]]]]:
    out = io.StringIO()
    call_command("draw_seats", *args, stdout=out)
    parsed: dict[str, list[list[list[int]]]] = json.loads(out.getvalue())
    return parsed


def test_the_command_prints_the_draw_as_json() -> None:
    result = run("--players", "13", "--series", "2", "--seed", "42")
    assert list(result) == ["series"]
    assert result["series"] == tournament(13, 2, 42)
    assert [len(t) for t in result["series"][0]] == [4, 3, 3, 3]
    assert run("--players", "13", "--series", "2", "--seed", "42") == result


def test_the_command_seats_by_a_standings_file(tmp_path: Path) -> None:
    path = tmp_path / "standings.txt"
    path.write_text("# after series 1\n8 7 6 5 4 3 2 1\n", encoding="utf-8")
    result = run("--players", "8", "--series", "2", "--seed", "1", "--by-standings", str(path))
    assert result["series"][1] == [[8, 7, 6, 5], [4, 3, 2, 1]]


@pytest.mark.parametrize("args", [
    ("--players", "5", "--series", "2", "--seed", "1"),
    ("--players", "8", "--series", "0", "--seed", "1"),
    ("--players", "8", "--series", "2", "--seed", "1", "--by-standings", "/nonexistent"),
])
def test_the_command_refuses_clearly(args: tuple[str, ...]) -> None:
    with pytest.raises(CommandError):
        run(*args)


def test_counter_of_meetings() -> None:
    met = meetings([[[1, 2, 3]], [[1, 2, 4]]])
    assert met[1][2] == 2 and met[1][3] == 1 and Counter(met[4].values()) == Counter({1: 2})
