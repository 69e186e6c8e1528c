"""Reading the fields of a record: each reader checks type and range and names the field."""

from __future__ import annotations

import json
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


# ---------------------------------------------------------------- one deal, whoever wrote it

# Read the same absent as given with their default: a flag false, Kontra "none", a Ramsch
# without a Jungfrau.
_FLAGS = frozenset({"hand", "ouvert", "schneider_announced", "schwarz_announced",
                    "passt_mir_nicht", "rum", "bock_round", "bock_manual"})
# Where the deal stands in the list, not what happened in it: the dealer follows from the
# position (the engine checks a given one against it), and so does an export's number.
_PLACE_FIELDS = frozenset({"dealer", "number"})


def _normalised_part(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _normalised_part(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_normalised_part(v) for v in value]
    return value


def normalised(d: Record) -> Record:
    """The deal ``d`` as the engine reads it, whatever wrote it (the table screen's form, the
    offline tablet's script, an import): fields left out and fields given with their
    default are the same (null, a false flag, Kontra "none", Ramsch ``jungfrau`` 0 without
    a Durchmarsch), and the fields that only say where the deal stands (dealer, number) are
    left out. Two records with equal normalised forms are the same deal, wherever they
    stand in the list: "the same deal entered twice" (issue 23). Types are kept: ``true``
    is not ``1``."""
    out: Record = {}
    for key, value in d.items():
        if value is None or key in _PLACE_FIELDS:
            continue
        if key in _FLAGS and value is False:
            continue
        if key == "kontra" and value == "none":
            continue
        out[key] = _normalised_part(value)
    ramsch = out.get("ramsch")
    if isinstance(ramsch, dict):
        if ramsch.get("jungfrau") == 0 and "durchmarsch" not in ramsch:
            ramsch.pop("jungfrau")
        for key in ("pushes",):
            if ramsch.get(key) == 0:
                ramsch.pop(key)
    return out


def same_deal(a: object, b: object) -> bool:
    """Whether two deal records are the same deal (``normalised`` equal, types and all)."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return False
    return json.dumps(normalised(a), sort_keys=True) == json.dumps(normalised(b),
                                                                    sort_keys=True)
