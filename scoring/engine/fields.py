"""Reading the fields of a record: each reader checks type and range and names the field."""

from __future__ import annotations

from typing import Any

from .errors import Phrase, SkatError

Record = dict[str, Any]


def flag(d: Record, key: str) -> bool:
    value = d.get(key)
    if value is None or value is False:
        return False
    if value is True:
        return True
    raise SkatError(key, "{key} must be true or false.", key=key)


def whole(d: Record, key: str, low: int, high: int, what: Phrase) -> int:
    value = d.get(key)
    if type(value) is not int:
        if value is None:
            raise SkatError(key, "{what} is missing.", what=what)
        raise SkatError(key, "{what} must be a whole number.", what=what)
    if not low <= value <= high:
        raise SkatError(key, "{what} must be from {low} to {high}, not {value}.", what=what,
                        low=low, high=high, value=value)
    return value


def optional_whole(d: Record, key: str, low: int, high: int, what: Phrase) -> int | None:
    if d.get(key) is None:
        return None
    return whole(d, key, low, high, what)


def seat(value: object, field: str, players: int, what: Phrase) -> int:
    if type(value) is not int:
        raise SkatError(field, "{what} must be a seat number (0 to {top}).", what=what,
                        top=players - 1)
    if not 0 <= value < players:
        raise SkatError(field, "{what} must be a seat number from 0 to {top}, not {value}.",
                        what=what, top=players - 1, value=value)
    return value


def active_seats(dealer: int, players: int) -> tuple[int, ...]:
    """Forehand, Middlehand, Rearhand for a dealer (DECISIONS.md §5)."""
    if players == 3:
        return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
    if players == 4:
        return tuple((dealer + k) % 4 for k in (1, 2, 3))
    return ((dealer + 1) % players, (dealer + 2) % players, (dealer - 1) % players)
