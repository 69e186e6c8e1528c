"""Legal bids and the auction (Reizen): Middlehand bids to Forehand, then Rearhand to the
survivor; if nobody has bid, Forehand may open or the deal is passed in."""

from __future__ import annotations

from typing import Any

from .deal import legal_bids
from .errors import SkatError
from .options import parse_options

SEATS = ("F", "M", "R")


def is_legal_bid(rules: str, bid: object, options: dict[str, Any] | None = None,
                 players: int = 3) -> bool:
    """Whether ``bid`` can be said under the rule system (a value some game can reach)."""
    parsed = parse_options(rules, options, players)
    return type(bid) is int and bid in legal_bids(rules, parsed)


def auction(calls: object, rules: str = "isko", options: dict[str, Any] | None = None
            ) -> dict[str, Any]:
    """Follow an auction and return ``{"declarer": "F"|"M"|"R"|None, "bid": int|None}``.

    ``calls`` is a list of ``[seat, call]`` with seat F, M or R and call a number (as text or
    int), "yes" or "pass". Calls out of turn, bids that are not higher or not legal are refused.
    """
    bids = legal_bids(rules, parse_options(rules, options, 3))
    if not isinstance(calls, list):
        raise SkatError("calls", "calls must be a list of [seat, call].")
    current = 0
    queue = list(enumerate(calls, 1))

    def next_call(expected: str) -> tuple[int, str, int | None] | None:
        if not queue:
            return None
        index, raw = queue.pop(0)
        if (not isinstance(raw, list) or len(raw) != 2 or raw[0] not in SEATS):
            raise SkatError("calls", f"Call {index} must be [seat, call] with seat F, M or R.")
        who, call = raw
        if who != expected:
            raise SkatError("calls", f"Call {index}: it is {expected}'s turn, not {who}'s.")
        if call in ("yes", "pass"):
            return index, str(call), None
        try:
            value = int(call)
        except (TypeError, ValueError):
            raise SkatError("calls", f"Call {index}: say a number, yes or pass.") from None
        return index, "bid", value

    def duel(bidder: str, listener: str) -> str | None:
        """The bidder says numbers, the listener holds or passes; returns the survivor."""
        nonlocal current
        while True:
            said = next_call(bidder)
            if said is None:
                raise SkatError("calls", f"The auction stops while {bidder} is to bid.")
            index, what, value = said
            if what == "pass":
                return listener
            if what != "bid" or value is None:
                raise SkatError("calls", f"Call {index}: {bidder} bids or passes.")
            if value not in bids or value <= current:
                raise SkatError("calls", f"Call {index}: {value} is not a legal bid above "
                                f"{current}.")
            current = value
            answer = next_call(listener)
            if answer is None:
                raise SkatError("calls", f"The auction stops while {listener} is to answer.")
            if answer[1] == "pass":
                return bidder
            if answer[1] != "yes":
                raise SkatError("calls", f"Call {answer[0]}: {listener} says yes or pass.")

    survivor = duel("M", "F")
    assert survivor is not None
    winner = duel("R", survivor)
    if current == 0:  # nobody has bid: Forehand may open at any legal bid
        said = next_call("F")
        if said is None or said[1] == "pass":
            winner, current = None, 0
        elif said[1] == "bid" and said[2] in bids:
            winner, current = "F", said[2]
        else:
            raise SkatError("calls", f"Call {said[0]}: Forehand opens with a legal bid or passes.")
    if queue:
        raise SkatError("calls", f"Call {queue[0][0]} comes after the auction has ended.")
    return {"declarer": winner, "bid": current or None}
