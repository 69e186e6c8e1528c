"""The engine's answers as types: ``DealScore`` (what ``evaluate`` says of one deal),
``TableDeal`` (one deal of a scored table) and ``ScoredTable`` (what ``evaluate_table`` says of
a table). deal-record.md "Results" is the contract.

They are ``TypedDict``s: at run time the very dicts the engine always built (a table of 100,000
deals costs nothing more, and ``json.dumps`` writes the spec's JSON byte for byte, key order
and all), to mypy a closed shape, so a misspelt key or a wrong type is found before it runs.
Seat keys are the strings "0", "1" … as in the JSON. (Not to be confused with
``reads.results.TableResult``, the club's per-seat summary of a stored table, nor the model
``TableScore``, the kept rows of the federation ranking: both are built from a ``ScoredTable``.)
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class DealScore(TypedDict):
    """One deal scored on its own (``evaluate``)."""

    kind: str
    won: bool | None
    value: int | None
    charged_value: int | None
    overbid: bool | None
    base: int | None
    multiplier: int | None
    entries: dict[str, int]  # seat -> points, Bock applied
    bock: int
    explanation: NotRequired[str]


class RamschOutcome(TypedDict):
    losers: list[int]
    jungfrau: int  # players without a trick
    durchmarsch: int | None  # the seat that took every trick


class TableDeal(TypedDict):
    """One deal of a scored table, with its place in the rounds and the running totals."""

    number: int
    kind: str
    dealer: int
    active: tuple[int, ...]
    round: int
    ramsch_round: bool
    counts: bool  # counts towards the rounds (not a misdeal, penalty, Ramsch-round Grand)
    round_end: bool
    bock: int
    won: bool | None
    value: int | None
    charged_value: int | None
    overbid: bool | None
    base: int | None
    multiplier: int | None
    matadors: int | None
    levels: tuple[str, ...]
    bock_manual: NotRequired[bool]
    ramsch: NotRequired[RamschOutcome]
    bock_round: NotRequired[bool]
    explanation: NotRequired[str]
    entries: dict[str, int]
    totals: dict[str, int]
    underline: tuple[int, ...]  # seats whose column is underlined after this deal
    seeger_fabian: NotRequired[dict[str, int]]


class GameCounts(TypedDict):
    won: dict[str, int]
    lost: dict[str, int]
    passed: dict[str, int]  # passed-in deals each seat sat in on


class NextDeal(TypedDict):
    dealer: int
    active: list[int]
    round: int
    deal_in_round: int
    bock: int
    ramsch_round: bool
    ramsch_deal: int
    # where the Bock rounds stand (tracker.bock_standing): "Bock 2 of 3", "+1 waiting"
    bock_position: int
    bock_waiting: int
    bock_to_go: int


class ScoredTable(TypedDict):
    """A table scored (``evaluate_table``)."""

    rules: str
    scoring: str
    players: list[str] | int
    deals: list[TableDeal]
    totals: dict[str, int]
    games: GameCounts
    bock_pending: int
    next: NextDeal
    seeger_fabian_totals: NotRequired[dict[str, int]]
    beer_loser: NotRequired[int | None]
    # settlement.py's answer (pairs, net, fees, balance …); None in Beer Skat
    settlement: dict[str, Any] | None


class ScoredEvening(TypedDict):
    """An evening scored (``evaluate_evening``): each table on its own."""

    club: Any
    date: Any
    name: Any
    tables: list[ScoredTable]


__all__ = ["DealScore", "ScoredEvening", "GameCounts", "NextDeal", "RamschOutcome", "TableDeal",
           "ScoredTable"]
