"""Series: seats by lot for the first (reproducible with an injected random source), seeded
by results for the next, tables of 4 with 3-tables only as needed, and a series that ends on
its own when its games are played."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from django.core.exceptions import ValidationError
from django.utils.translation import override

from scoring.engine import SkatError, active_seats
from scoring.models import Table
from scoring.reads.standings import evening_ranking
from scoring.writes import seating
from scoring.writes.services import series_draw, series_seed

from .factories import make_club
from .seasons import PASSED, game, make_evening, make_season, play, player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with override("en"):  # the messages checked here are the English ones
        yield


@pytest.mark.parametrize(("players", "sizes"), [
    (3, [3]), (4, [4]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]),
    (10, [4, 3, 3]), (11, [4, 4, 3]), (12, [4, 4, 4]), (13, [4, 3, 3, 3]), (17, [4, 4, 3, 3, 3]),
    (48, [4] * 12), (47, [4] * 11 + [3]),
])
def test_as_many_4_tables_as_possible(players: int, sizes: list[int]) -> None:
    assert seating.table_sizes(players) == sizes
    assert sum(sizes) == players


@pytest.mark.parametrize(("players", "message"), [
    (0, "at least 3"), (2, "at least 3"), (5, "5 players cannot be seated"),
])
def test_impossible_counts_are_refused_with_a_clear_message(players: int, message: str) -> None:
    with pytest.raises(ValidationError) as refused:
        seating.table_sizes(players)
    assert message in refused.value.messages[0]


def test_the_draw_is_reproducible_with_the_same_random_source() -> None:
    names = [f"P{i}" for i in range(10)]
    first = seating.draw(names, random.Random(2026))
    assert first == seating.draw(names, random.Random(2026))
    assert [len(t) for t in first] == [4, 3, 3]
    assert sorted(n for t in first for n in t) == sorted(names)
    assert first != seating.draw(names, random.Random(2027))


def test_seeding_seats_the_ranking_in_blocks() -> None:
    assert seating.seed(list("ABCDEFGHIJ")) == [list("ABCD"), list("EFG"), list("HIJ")]


def one_round(table: Table, wins: dict[str, int], losses: dict[str, int]) -> None:
    """Play the table's deals of one round: the named players declare (with m, won or lost)
    when they are active; everybody else's deals are passed in."""
    names = [s.player.name for s in table.seats.order_by("position")]
    n = len(names)
    records = []
    todo = {**{k: (m, True) for k, m in wins.items()}, **{k: (m, False) for k, m in losses.items()}}
    for dealer in range(n):
        active = active_seats(dealer, n)
        name = next((names[s] for s in active if names[s] in todo), None)
        if name is None:
            records.append(PASSED)
        else:
            m, won = todo.pop(name)
            records.append(game(names.index(name), m, won))
    assert not todo, f"could not place {todo}"
    play(table, *records)


def test_the_second_series_is_seeded_by_the_first_series_results() -> None:
    club = make_club()
    people = [player(club, f"S{i}") for i in range(1, 11)]  # 10 players: 4 + 3 + 3
    season = make_season(club, "classic")
    evening = make_evening(season, 4, series_rounds=1)  # one round: 4 games at 4, 3 at 3

    tables = series_draw(evening=evening, players=people, rng=random.Random(7))
    assert [(t.series, t.number, t.seats.count()) for t in tables] == [
        (1, 1, 4), (1, 2, 3), (1, 3, 3)]
    again = [sorted(s.player.name for s in t.seats.all()) for t in tables]
    order = people[:]
    random.Random(7).shuffle(order)  # the same lot, drawn again
    assert again == [sorted(p.name for p in order[:4]), sorted(p.name for p in order[4:7]),
                     sorted(p.name for p in order[7:])]

    with pytest.raises(ValidationError, match="not finished yet"):
        series_seed(evening=evening, rng=random.Random(1))

    # Results: at every table one player wins big, one loses; the rest pass.
    by_table = [[s.player.name for s in t.seats.order_by("position")] for t in tables]
    one_round(tables[0], {by_table[0][2]: 7}, {by_table[0][3]: 1})  # +96, −48
    one_round(tables[1], {by_table[1][0]: 5}, {by_table[1][1]: 2})  # +72, −72
    one_round(tables[2], {by_table[2][1]: 3}, {by_table[2][2]: 4})  # +48, −120

    ranking = [r.player.name for r in evening_ranking(evening).rows]
    assert ranking[:3] == [by_table[0][2], by_table[1][0], by_table[2][1]]
    assert ranking[-3:] == [by_table[0][3], by_table[1][1], by_table[2][2]]

    second = series_seed(evening=evening, rng=random.Random(1))
    seated = [[s.player.name for s in t.seats.order_by("position")] for t in second]
    assert [(t.series, t.number) for t in second] == [(2, 1), (2, 2), (2, 3)]
    # places 1–4 at table 1, 5–7 at table 2, 8–10 at table 3; the four players on 0 points
    # (places 4 to 7) are in the order the lot gave them
    assert seated[0][:3] == ranking[:3]
    assert sorted(seated[0][3:] + seated[1]) == sorted(ranking[3:7])
    assert seated[2] == ranking[7:]


def test_latecomers_are_seated_after_the_ranked_players() -> None:
    club = make_club()
    people = [player(club, f"L{i}") for i in range(1, 7)]
    evening = make_evening(make_season(club, "classic"), 2, series_rounds=1)
    tables = series_draw(evening=evening, players=people, rng=random.Random(3))
    for table in tables:
        one_round(table, {}, {})
    late = player(club, "Zuspät")
    second = series_seed(evening=evening, players=people + [late], rng=random.Random(3))
    assert [t.seats.count() for t in second] == [4, 3]
    last_seat = second[-1].seats.order_by("position").last()
    assert last_seat is not None and last_seat.player == late


def test_the_first_series_is_drawn_once_and_five_players_are_refused() -> None:
    club = make_club()
    people = [player(club, f"F{i}") for i in range(1, 6)]
    evening = make_evening(make_season(club, "classic"), 1)
    with pytest.raises(ValidationError, match="5 players"):
        series_draw(evening=evening, players=people, rng=random.Random(1))
    series_draw(evening=evening, players=people[:4], rng=random.Random(1))
    with pytest.raises(ValidationError, match="already seated"):
        series_draw(evening=evening, players=people[:4], rng=random.Random(1))


def test_a_series_ends_on_its_own_when_its_games_are_played() -> None:
    club = make_club()
    people = [player(club, f"E{i}") for i in range(1, 4)]
    evening = make_evening(make_season(club, "classic"), 1, series_rounds=2)  # 6 games at 3
    (table,) = series_draw(evening=evening, players=people, rng=random.Random(5))
    play(table, *[PASSED] * 5, {"kind": "misdeal"})  # a misdeal is no game
    play(table, PASSED)  # the 6th game
    with pytest.raises(SkatError, match="Series 1 is complete: all 6 games"):
        play(table, game(0))
    # a fine may still be written under a finished list
    play(table, {"kind": "penalty", "penalty": {"seat": 1, "points": 10, "reason": "skat"}})
    assert table.deals.count() == 8
