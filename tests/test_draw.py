"""The tournament seat draw (scoring/draw/preisskat.py) and its command, manage.py draw_seats."""

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

from scoring.draw import preisskat as draw_module
from scoring.draw.preisskat import (
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


def most_meetings(result: list[list[list[int]]]) -> int:
    return max(v for row in meetings(result).values() for v in row.values())


def repeats(result: list[list[list[int]]]) -> list[int]:
    """The repeated pairs of each series after the first."""
    return [repeated_pairs(result[k], result[:k]) for k in range(1, len(result))]


# Fields and series counts where a seating without repeated opponents exists, and the draw
# finds it: 16 over 5 series is the whole affine plane of order 4 (each player meets all 15
# others once), 9 over 4 the plane of order 3. (13 over 2 left the list: without repeats the
# player of the first 4-table who sits at the second 4-table too has no 3-table series while
# five others have two; the fair share of 3-tables comes first, see FAIRNESS_BEFORE_REPEATS.)
NO_REPEATS = [(9, 4), (16, 4), (16, 5), (20, 3), (20, 4), (28, 3), (32, 4), (36, 4),
              (40, 5)]


@pytest.mark.parametrize(("players", "series"), NO_REPEATS)
@settings(max_examples=6, deadline=None)
@given(seed=seeds)
def test_nobody_meets_anybody_twice_where_that_is_possible(
        players: int, series: int, seed: int) -> None:
    result = tournament(players, series, seed)
    assert repeats(result) == [0] * (series - 1)
    assert most_meetings(result) == 1


@pytest.mark.parametrize(("players", "series"), [(16, 4), (16, 5), (20, 4)])
def test_the_search_alone_finds_the_seatings_without_repeats_too(
        players: int, series: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the affine plane as a start (a history it does not fit, say), the tabu search
    still finds a seating without repeats for these tight fields (fixed seeds: the search
    is bounded, so an unlucky seed could end above the floor)."""
    monkeypatch.setattr(draw_module, "_affine_start", lambda *args: None)
    for seed in range(3):
        assert sum(repeats(tournament(players, series, seed))) == 0


def test_planning_ahead_keeps_a_fourth_series_of_16_free() -> None:
    """Series 3 of 16 players as the cyclic Latin square leaves no fourth series without
    repeats (that square has no orthogonal mate): drawn alone, series 2 and 3 can end there;
    planned together with the rest, they never do."""
    first = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    second = [list(column) for column in zip(*first, strict=True)]
    cyclic = [[first[r][(r + c) % 4] for r in range(4)] for c in range(4)]
    assert repeats([first, second, cyclic]) == [0, 0]
    fourth = draw(list(range(1, 17)), random.Random(3), [first, second, cyclic])
    assert repeated_pairs(fourth, [first, second, cyclic]) > 0  # the dead end
    for seed in range(5):
        planned = draw(list(range(1, 17)), random.Random(seed), [first, second], ahead=2)
        rest = draw(list(range(1, 17)), random.Random(seed), [first, second, planned], ahead=1)
        assert repeats([first, second, planned, rest]) == [0, 0, 0]


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_1000_players_over_3_series_never_meet_twice(seed: int) -> None:
    result = tournament(1000, 3, seed)
    assert repeats(result) == [0, 0]


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_12_players_meet_as_few_again_as_possible(seed: int) -> None:
    """12 players sit at three 4-tables (3-tables only as needed), so a second series cannot
    avoid a repeat: each table's four come from three tables of series 1, so two of them sat
    together. The fewest is one repeated pair per table, 3 in series 2. In series 3 each
    table again holds two players from one table of series 1 and two from one table of
    series 2; nobody is to meet anybody a third time, so these are two different pairs: the
    fewest is 6. The draw meets that bound exactly."""
    result = tournament(12, 3, seed)
    assert repeats(result) == [3, 6]
    assert most_meetings(result) == 2


# 3-tables are most of the tables here (found by comparing against the draws before, whose
# figures tests/draw_recorded.json keeps, over 6..120 players, 2..4 series): a seating where
# nobody has a 3-table series more than anybody else but one cannot also be free of repeats
# (17 over 2: each 4-table of series 2 needs four from four tables of series 1, of which only
# three are 3-tables, so a player of a 4-table of series 1 sits at a 4-table again while
# another sits at 3-tables twice). The fair share of 3-tables comes first (it decides 36 or
# 48 games).
FAIRNESS_BEFORE_REPEATS = {10, 11, 13, 14, 17}

# What the draws this one replaced achieved, recorded once (tests/draw_recorded.json: the
# frozen copies of those draws were run at commit 0d8e58c and then removed from the tree).
RECORDED = json.loads((Path(__file__).parent / "draw_recorded.json").read_text(encoding="utf-8"))


def recorded_before() -> list[tuple[int, int, int, int]]:
    """(players, series, seed, repeated pairs in all) of the search one series at a time:
    40 random fields of 6..60 players over 1..4 series, and bench/tournament.py's small
    fields over seeds 0..9 (those with repeats to beat; 13 and 14 players put the fair share
    of 3-tables first and take seconds a draw: FAIRNESS_BEFORE_REPEATS)."""
    rows: list[tuple[int, int, int, int]] = [
        (players, series, seed, n) for players, series, seed, n in RECORDED["before"]["rows"]]
    for field, figures in RECORDED["bench_before"].items():
        players, series = map(int, field.split("x"))
        if players <= 60 and players not in FAIRNESS_BEFORE_REPEATS:
            rows += [(players, series, seed, n) for seed, n in enumerate(figures["repeats"])]
    return rows


@pytest.mark.parametrize(("players", "series", "seed", "before"), recorded_before())
def test_never_more_repeats_than_the_draw_one_series_at_a_time(
        players: int, series: int, seed: int, before: int) -> None:
    """Against the search before it planned ahead (a greedy swap search per series, same
    seeds, its figures recorded): never more repeated pairs in all (but where the fair share
    of 3-tables costs repeats: FAIRNESS_BEFORE_REPEATS)."""
    result = tournament(players, series, seed)
    if players in FAIRNESS_BEFORE_REPEATS:
        assert spread(result, players) <= 1  # the fair share first, a few more repeats
    else:
        assert sum(repeats(result)) <= before


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=6, max_value=60),
       series=st.integers(min_value=2, max_value=4), seed=seeds)
def test_never_fewer_repeats_than_the_pigeonhole_bound(
        players: int, series: int, seed: int) -> None:
    """Series 2's tables of 4 come from fewer tables of series 1: never fewer repeated pairs
    than that bound (a count that went wrong would show here), everybody seated once."""
    result = tournament(players, series, seed)
    for tables in result:
        assert sorted(p for t in tables for p in t) == list(range(1, players + 1))
        assert [len(t) for t in tables] == table_sizes(players)
    bound = sum(draw_module._fewest_pairs(len(t), len(result[0])) for t in result[1])
    assert repeats(result)[0] >= bound


def test_a_draw_with_history_is_repeatable_from_the_recorded_seed() -> None:
    history = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]
    players = list(range(1, 17))
    once = draw(players, series_random(99, 2), history)
    again = draw(players, series_random(99, 2), history)
    assert once == again
    assert repeated_pairs(once, history) == 0


def test_a_draw_planning_ahead_is_repeatable_and_ahead_is_not_negative() -> None:
    history = tournament(16, 1, 7)
    players = list(range(1, 17))
    once = draw(players, series_random(7, 2), history, ahead=3)
    assert once == draw(players, series_random(7, 2), history, ahead=3)
    assert repeated_pairs(once, history) == 0
    with pytest.raises(DrawError):
        draw(players, series_random(7, 2), history, ahead=-1)


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


def test_the_command_keeps_teams_apart(tmp_path: Path) -> None:
    path = tmp_path / "teams.txt"
    path.write_text("# teams\n1 2 3 4\n5,6,7,8\n9 10\n", encoding="utf-8")
    result = run("--players", "16", "--series", "3", "--seed", "4", "--apart", str(path))
    assert result["series"] == tournament(16, 3, 4, apart=[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]])
    for tables in result["series"]:
        for table in tables:
            assert len(set(table) & {1, 2, 3, 4}) <= 1 and len(set(table) & {5, 6, 7, 8}) <= 1
            assert not {9, 10} <= set(table)
    path.write_text("1 2 17\n", encoding="utf-8")
    with pytest.raises(CommandError, match="1 to 16"):
        run("--players", "16", "--series", "2", "--seed", "4", "--apart", str(path))


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


def three_table_series(result: list[list[list[int]]]) -> Counter[int]:
    """How many series each player sat at a 3-table (where a series has other tables too)."""
    count: Counter[int] = Counter()
    for tables in result:
        for table in tables:
            count.update(table if len(table) == 3 and len(tables) > 1 else ())
    return count


def spread(result: list[list[list[int]]], players: int) -> int:
    """Max − min 3-table series per player."""
    count = three_table_series(result)
    per = [count[p] for p in range(1, players + 1)]
    return max(per) - min(per)


# (players, series, seed, repeated pairs in all, 3-table spread) of the draw before the
# fairness cost: 30 random fields of 12..120 players over 2..4 series (random.Random(3636)),
# then the reported fields 30, 33, 45 over 3 series, seeds 0..3.
UNFAIR: list[tuple[int, int, int, int, int]] = [
    (players, series, seed, n, spread) for players, series, seed, n, spread
    in RECORDED["unfair"]["rows"]]


@pytest.mark.parametrize(("players", "series", "seed", "unfair_repeats", "unfair_spread"),
                         UNFAIR)
def test_three_tables_are_shared_fairly_and_repeats_stay_at_zero(
        players: int, series: int, seed: int, unfair_repeats: int, unfair_spread: int) -> None:
    """Nobody sits at a 3-table twice while somebody could have none (max − min ≤ 1), and no
    repeated opponents wherever the draw before this cost reached none."""
    result = tournament(players, series, seed)
    assert spread(result, players) <= 1
    if players not in FAIRNESS_BEFORE_REPEATS and unfair_repeats == 0:
        assert sum(repeats(result)) == 0


@pytest.mark.parametrize("players", [30, 33, 45, 1001])
def test_the_reported_fields_share_three_tables_over_three_series(players: int) -> None:
    """30 × 3 series: 18 3-table seats, so nobody needs one twice; the draw before sat one
    player at a 3-table in all three series (also 33 and 45)."""
    for seed in range(4):
        result = tournament(players, 3, seed)
        assert spread(result, players) <= 1
        assert repeats(result) == [0, 0]
        if players <= 45:
            assert max(three_table_series(result).values()) == 1


def test_the_draw_before_was_unfair_for_the_reported_fields() -> None:
    """The baseline shows the failure the fairness cost removes (same seeds, recorded)."""
    assert any(spread > 1 for players, series, seed, _repeats, spread in UNFAIR
               if players in (30, 33, 45) and series == 3 and seed < 4)


def teams_of(players: int, size: int, rng: random.Random) -> list[list[int]]:
    order = list(range(1, players + 1))
    rng.shuffle(order)
    return [order[k:k + size] for k in range(0, players - size + 1, size * 2)]


@settings(max_examples=20, deadline=None, derandomize=True)
@given(players=st.integers(min_value=16, max_value=120),
       series=st.integers(min_value=1, max_value=4), seed=seeds)
def test_members_of_a_team_or_tandem_never_share_a_table(
        players: int, series: int, seed: int) -> None:
    rng = random.Random(seed)
    teams = teams_of(players, 4, rng)
    taken = {p for t in teams for p in t}
    rest = [p for p in range(1, players + 1) if p not in taken]
    tandems = [rest[k:k + 2] for k in range(0, len(rest) - 1, 2)]
    result = tournament(players, series, seed, apart=teams + tandems)
    group = {p: g for g, members in enumerate(teams + tandems) for p in members}
    for tables in result:
        assert sorted(p for t in tables for p in t) == list(range(1, players + 1))
        for table in tables:
            marks = [group[p] for p in table if p in group]
            assert len(marks) == len(set(marks)), (tables, teams, tandems)
    assert spread(result, players) <= 1


def test_clubs_are_kept_apart_where_it_costs_nothing_else() -> None:
    clubs = [list(range(k, 41, 4)) for k in range(1, 5)]  # 4 clubs of 10 at 10 tables
    result = tournament(40, 3, 11, loose=clubs)
    club = {p: c for c, members in enumerate(clubs) for p in members}
    for tables in result:
        for table in tables:
            assert len({club[p] for p in table}) == len(table)
    assert repeats(result) == [0, 0]


def test_the_plan_knows_the_fewest_club_pairs_and_stops_there() -> None:
    """Issue 24 item 4 (clubs kept apart): 1,001 players of three clubs cannot avoid one pair
    of a club at each 4-table (248 of the 251 tables): the search's floor counts them, so it
    stops at the first such plan instead of searching on for a minute; a club larger than
    the number of tables counts too."""
    players = list(range(1, 1002))
    clubs = [[p for p in players if p % 3 == k] for k in range(3)]
    sizes = draw_module.table_sizes(1001)
    assert draw_module._club_floor(1001, sizes, clubs) == 248
    assert draw_module._club_floor(40, draw_module.table_sizes(40), [list(range(1, 21))]) == 10
    assert draw_module._club_floor(16, [4] * 4, [[1, 2, 3, 4], [5, 6, 7, 8]]) == 0
    plan = draw_module._Plan(players, sizes, [], 3, random.Random(1), None, (), clubs)
    assert plan.floor == 3 * 248
    tables = plan.run()
    assert sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1:]
               if a % 3 == b % 3) == 248
# Series seeded by the standings (issue 24, item 2): one search from the standings' seating


def ranked_last_at_three(result: list[list[list[int]]], players: int,
                         rng: random.Random) -> list[int]:
    """Standings as a Preisskat often has them: a 3-table plays 36 games instead of 48, so
    who sat at 3-tables most ranks last (the rest by lot). Seated by the standings alone,
    the 3-tables of the next series would go to them again."""
    count = three_table_series(result)
    order = list(range(1, players + 1))
    rng.shuffle(order)
    return sorted(order, key=lambda p: count[p])


def seeded_day(players: int, series: int, seed: int,
               apart: list[list[int]] | None = None) -> tuple[list[list[list[int]]],
                                                              list[list[int]]]:
    """Series 1 by lot, each later one seeded by the standings after the one before (by lot
    but for the 3-table players last, from a stream of its own)."""
    rng = random.Random(f"standings:{seed}")
    numbers = list(range(1, players + 1))
    result = [draw(numbers, series_random(seed, 1), apart=apart or ())]
    rankings = []
    for k in range(2, series + 1):
        ranking = ranked_last_at_three(result, players, rng)
        rankings.append(ranking)
        result.append(draw(numbers, series_random(seed, k), result, apart=apart or (),
                           standings=ranking))
    return result, rankings


def away(tables: list[list[int]], ranking: list[int]) -> list[int]:
    """How many tables each seat is from its place's table under ``by_standings``."""
    target = {p: t for t, table in enumerate(by_standings(ranking)) for p in table}
    return [abs(t - target[p]) for t, table in enumerate(tables) for p in table]


@settings(max_examples=12, deadline=None, derandomize=True)
@given(players=st.integers(min_value=16, max_value=120),
       series=st.integers(min_value=2, max_value=4), seed=seeds)
def test_series_seeded_by_the_standings_share_three_tables_and_keep_mates_apart(
        players: int, series: int, seed: int) -> None:
    """Seeded by the standings, the 3-tables are still shared evenly (max − min ≤ 1) even
    where the standings put the 3-table players last, and team and tandem mates never share
    a table (from 16 players: 12 cannot seat a team of 4 at 3 tables)."""
    rng = random.Random(seed)
    teams = teams_of(players, 4, rng)
    taken = {p for t in teams for p in t}
    rest = [p for p in range(1, players + 1) if p not in taken]
    tandems = [rest[k:k + 2] for k in range(0, len(rest) - 1, 2)]
    result, _rankings = seeded_day(players, series, seed, teams + tandems)
    assert spread(result, players) <= 1
    group = {p: g for g, members in enumerate(teams + tandems) for p in members}
    for tables in result[1:]:
        assert sorted(p for t in tables for p in t) == list(range(1, players + 1))
        assert [len(t) for t in tables] == table_sizes(players)
        for table in tables:
            marks = [group[p] for p in table if p in group]
            assert len(marks) == len(set(marks))


def test_seating_by_the_standings_alone_was_unfair_and_kept_no_mates_apart() -> None:
    """What the search changes: the standings' seating alone gives the 3-tables of series 2
    to the players who ranked last for having sat at one in series 1."""
    players, seed = 30, 7
    rng = random.Random(seed)
    first = draw(list(range(1, players + 1)), series_random(seed, 1))
    ranking = ranked_last_at_three([first], players, rng)
    assert spread([first, by_standings(ranking)], players) == 2
    seeded = draw(list(range(1, players + 1)), series_random(seed, 2), [first],
                  standings=ranking)
    assert spread([first, seeded], players) <= 1
    mates = [ranking[:4]]  # the four best are one team: by the standings all at table 1
    assert by_standings(ranking)[0] == ranking[:4]
    apart = draw(list(range(1, players + 1)), series_random(seed, 2), [first],
                 standings=ranking, apart=mates)
    assert all(len(set(t) & set(mates[0])) <= 1 for t in apart)


def test_seeded_where_nothing_else_costs_the_seating_is_the_standings() -> None:
    """32 players at 4-tables, no teams, and a history nobody of a table met in: places 1-4 at
    table 1, 5-8 at table 2 …; the same seed gives the same seating."""
    ranking = list(range(32, 0, -1))
    first = [[k, k + 8, k + 16, k + 24] for k in range(1, 9)]  # everybody at other tables
    tables = draw(list(range(1, 33)), series_random(3, 2), [first], standings=ranking)
    assert tables == by_standings(ranking)
    assert draw(list(range(1, 33)), series_random(3, 2), [first], standings=ranking) == tables


def test_seeded_1001_players_stay_at_their_places_and_share_three_tables() -> None:
    """1,001 players whose standings put the 3-table players last: they leave the 3-tables
    for 4-tables a few tables up (measured: 983 and 970 of 1,001 at their place's table, none
    more than 7 tables away), nobody sits at a 3-table twice."""
    result, rankings = seeded_day(1001, 3, 2)
    assert max(three_table_series(result).values()) == 1
    for tables, ranking in zip(result[1:], rankings, strict=True):
        distances = away(tables, ranking)
        assert sum(d == 0 for d in distances) >= 950 and max(distances) <= 10


def test_seeded_draw_refuses_standings_that_are_not_the_players() -> None:
    with pytest.raises(DrawError):
        draw([1, 2, 3, 4], random.Random(1), [[[1, 2, 3, 4]]], standings=[1, 2, 3])
    with pytest.raises(DrawError):
        draw([1, 2, 3, 4], random.Random(1), [[[1, 2, 3, 4]]], standings=[1, 2, 3, 3])
