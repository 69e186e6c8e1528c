"""Hypothesis strategies for valid deals and tables."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scoring.engine import parse_options
from scoring.engine.deal import legal_bids

ISKO_BIDS = sorted(legal_bids("isko", parse_options("isko", None, 3)))
SUIT_GAMES = ["diamonds", "hearts", "spades", "clubs", "grand"]


@st.composite
def play(draw: st.DrawFn, zero_trick_points: int = 22) -> dict[str, int]:
    tricks = draw(st.integers(0, 10))
    if tricks == 10:
        points = 120
    elif tricks == 0:
        points = draw(st.integers(0, zero_trick_points))
    else:
        points = draw(st.integers(0, 120))
    return {"declarer_points": points, "declarer_tricks": tricks}


@st.composite
def isko_game(draw: st.DrawFn, players: int = 3) -> dict[str, Any]:
    game = draw(st.sampled_from(SUIT_GAMES))
    limit = 4 if game == "grand" else 11
    matadors = draw(st.integers(1, limit)) * draw(st.sampled_from([1, -1]))
    hand = draw(st.booleans())
    ouvert = hand and draw(st.booleans())
    s_ann = hand and draw(st.booleans())
    w_ann = s_ann and draw(st.booleans())
    deal = {
        "kind": "game", "declarer": draw(st.integers(0, 2)), "game": game,
        "hand": hand, "ouvert": ouvert, "schneider_announced": s_ann,
        "schwarz_announced": w_ann, "matadors": matadors,
        "bid": draw(st.sampled_from(ISKO_BIDS[:40])),
        **draw(play()),
    }
    return deal


@st.composite
def isko_null(draw: st.DrawFn) -> dict[str, Any]:
    hand, ouvert = draw(st.booleans()), draw(st.booleans())
    value = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
    bid = draw(st.sampled_from([b for b in ISKO_BIDS if b <= value[hand, ouvert]]))
    return {"kind": "game", "declarer": draw(st.integers(0, 2)), "game": "null", "hand": hand,
            "ouvert": ouvert, "bid": bid, "declarer_tricks": draw(st.integers(0, 10))}


@st.composite
def ramsch(draw: st.DrawFn, seats: tuple[int, ...] = (0, 1, 2)) -> dict[str, Any]:
    """A Ramsch whose skat went to the winner of the last trick: points sum to 120."""
    split = sorted(draw(st.lists(st.integers(0, 10), min_size=2, max_size=2)))
    tricks = [split[0], split[1] - split[0], 10 - split[1]]
    with_tricks = [i for i, t in enumerate(tricks) if t]
    points = [0, 0, 0]
    remaining = 120
    for i in with_tricks[:-1]:
        points[i] = draw(st.integers(0, remaining))
        remaining -= points[i]
    points[with_tricks[-1]] = remaining
    return {"kind": "ramsch", "ramsch": {
        "points": {str(s): p for s, p in zip(seats, points, strict=True)},
        "tricks": {str(s): t for s, t in zip(seats, tricks, strict=True)},
    }}


def table_record(players: int) -> st.SearchStrategy[dict[str, Any]]:
    """Any record a table can hold, with the declarer left to fix up by the caller."""
    return st.one_of(
        isko_game(), isko_null(), st.just({"kind": "passed"}), st.just({"kind": "misdeal"}),
        st.builds(lambda s: {"kind": "penalty", "penalty": {"seat": s}},
                  st.integers(0, players - 1)),
    )
