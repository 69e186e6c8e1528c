"""Legal bids and the auction (Reizen): Middlehand bids to Forehand, then Rearhand to the
survivor; if nobody has bid, Forehand may open or the deal is passed in."""

from __future__ import annotations

from typing import Any

from .deal import legal_bids
from .errors import SkatError
from .rulesets import parse_options

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
            raise SkatError("calls", "Call {index} must be [seat, call] with seat F, M or R.",
                            index=index)
        who, call = raw
        if who != expected:
            raise SkatError("calls", "Call {index}: it is {expected}'s turn, not {who}'s.",
                            index=index, expected=expected, who=who)
        if call in ("yes", "pass"):
            return index, str(call), None
        try:
            value = int(call)
        except (TypeError, ValueError):
            raise SkatError("calls", "Call {index}: say a number, yes or pass.",
                            index=index) from None
        return index, "bid", value

    def duel(bidder: str, listener: str) -> str | None:
        """The bidder says numbers, the listener holds or passes; returns the survivor."""
        nonlocal current
        while True:
            said = next_call(bidder)
            if said is None:
                raise SkatError("calls", "The auction stops while {seat} is to bid.",
                                seat=bidder)
            index, what, value = said
            if what == "pass":
                return listener
            if what != "bid" or value is None:
                raise SkatError("calls", "Call {index}: {seat} bids or passes.", index=index,
                                seat=bidder)
            if value not in bids or value <= current:
                raise SkatError("calls", "Call {index}: {value} is not a legal bid above "
                                "{current}.", index=index, value=value, current=current)
            current = value
            answer = next_call(listener)
            if answer is None:
                raise SkatError("calls", "The auction stops while {seat} is to answer.",
                                seat=listener)
            if answer[1] == "pass":
                return bidder
            if answer[1] != "yes":
                raise SkatError("calls", "Call {index}: {seat} says yes or pass.",
                                index=answer[0], seat=listener)

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
            raise SkatError("calls", "Call {index}: Forehand opens with a legal bid or passes.",
                            index=said[0])
    if queue:
        raise SkatError("calls", "Call {index} comes after the auction has ended.",
                        index=queue[0][0])
    return {"declarer": winner, "bid": current or None}
