"""Where the Bock rounds stand before the next deal (``bock_standing``, in ``evaluate_table``'s
``next``): "Bock 2 of 3", "+1 Bock round waiting", the deals to go under parallel stacking.
The sheet and the offline table in the browser both read it (issue 36)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import bock_standing, evaluate_table

from .test_tracker import PLAIN, table

SIXTY = {**PLAIN, "declarer_points": 60}


def standing(deals: list[dict[str, Any]], stacking: str = "queue") -> tuple[int, ...]:
    bock = {"triggers": ["sixty_sixty"], "stacking": stacking}
    nxt = evaluate_table(table(deals, bock=bock))["next"]
    return nxt["bock"], nxt["bock_position"], nxt["bock_waiting"], nxt["bock_to_go"]


def test_a_bock_round_counts_its_deals_and_the_rounds_behind_it() -> None:
    assert standing([PLAIN]) == (0, 0, 0, 0)
    assert standing([SIXTY]) == (1, 1, 0, 0)  # Bock 1 of 3
    assert standing([SIXTY, PLAIN]) == (1, 2, 0, 0)  # Bock 2 of 3
    assert standing([SIXTY, SIXTY]) == (1, 2, 1, 0)  # Bock 2 of 3, +1 round waiting
    assert standing([SIXTY, PLAIN, PLAIN, PLAIN]) == (0, 0, 0, 0)


def test_parallel_rounds_count_deals_to_go() -> None:
    level, position, waiting, to_go = standing([SIXTY, SIXTY], "parallel")
    assert (position, waiting) == (0, 0) and level >= 1 and to_go > 0


@pytest.mark.parametrize("pending, level, players, parallel, expected", [
    (0, 0, 3, False, (0, 0, 0)), (3, 1, 3, False, (1, 0, 0)), (2, 1, 3, False, (2, 0, 0)),
    (5, 1, 3, False, (2, 1, 0)), (4, 0, 4, False, (0, 1, 0)), (5, 0, 4, False, (0, 2, 0)),
    (5, 2, 3, True, (0, 0, 5)),
])
def test_the_arithmetic(pending: int, level: int, players: int, parallel: bool,
                        expected: tuple[int, int, int]) -> None:
    assert tuple(bock_standing(pending, level, players, parallel)) == expected
