"""Who sits where in a series: drawn by lot for the first, seeded by results for the next.

Tables are of 4 with 3-tables only as needed: n players make as many 4-tables as possible and
the rest 3-tables (n = 4a + 3b: 10 → 4 + 3 + 3, 11 → 4 + 4 + 3, 9 → 3 + 3 + 3). Fewer than 3
players, or 5, cannot be seated that way.

Seeding follows the German tournament practice (Setzung nach Leistung, as in the Skat
leagues' ranking lists): the players are listed by their results so far and seated in blocks,
places 1–4 at table 1, places 5–8 at table 2 and so on, so that the leaders play each other;
the 3-tables, if any, are the last tables. Within a table the seats follow the list.
The random source is passed in, so a draw can be repeated (tests inject a seeded one).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

T = TypeVar("T")


def table_sizes(players: int) -> list[int]:
    """The sizes of the tables for ``players`` people, 4-tables first: 10 → [4, 3, 3]."""
    if players < 3:
        raise ValidationError(
            _("A series needs at least 3 players; %(count)d are present.") % {"count": players})
    if players == 5:
        raise ValidationError(
            _("5 players cannot be seated at tables of 3 and 4: add a sixth player or leave "
              "one out."))
    threes = (4 - players % 4) % 4
    fours = (players - 3 * threes) // 4
    return [4] * fours + [3] * threes


def _split(ordered: list[T], sizes: list[int]) -> list[list[T]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(ordered[start:start + size])
        start += size
    return tables


def draw(players: Sequence[T], rng: random.Random) -> list[list[T]]:
    """The first series: tables and seats by lot."""
    order = list(players)
    rng.shuffle(order)
    return _split(order, table_sizes(len(order)))


def seed(ranked: Sequence[T]) -> list[list[T]]:
    """A later series: block seating by the ranking, best first (places 1–4 at table 1 …)."""
    order = list(ranked)
    return _split(order, table_sizes(len(order)))
