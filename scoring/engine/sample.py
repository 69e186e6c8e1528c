"""Realistic played deals, generated through the engine: for the demo clubs (scoring/demo/),
the benchmarks and the tests.

Every deal is valid where it stands: the generator follows the round tracker (who deals, who
plays, Bock and Ramsch rounds) exactly as evaluate_table will replay it. Seeded, so the same
arguments give the same deals.
"""

from __future__ import annotations

import random
from typing import Any

from .deal import legal_bids
from .rulesets import parse_options
from .table import _context, score_record
from .tracker import RoundTracker, bock_triggers

BASES = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}


def random_game(rng: random.Random, declarer: int, bids: list[int], *, kontra: bool,
                seats: tuple[int, ...], grand_hand: bool = False) -> dict[str, Any]:
    """A game record as a table plays it: a suit game, Grand or Null by their usual shares, a
    bid that fits its value (now and then an overbid), counted points or a quick result, and
    (``kontra``) now and then a Kontra or Re by a defender among ``seats``."""
    if grand_hand:
        game, hand = "grand", True
    else:
        game = rng.choices(["diamonds", "hearts", "spades", "clubs", "grand", "null"],
                           [12, 15, 15, 20, 30, 8])[0]
        hand = rng.random() < 0.15
    deal: dict[str, Any] = {"kind": "game", "declarer": declarer, "game": game, "hand": hand}
    if game == "null":
        deal["bid"] = rng.choice([18, 20, 22, 23])
        deal["declarer_tricks"] = 0 if rng.random() < 0.7 else rng.randint(1, 4)
        return deal
    limit = 4 if game == "grand" else 11
    deal["matadors"] = min(rng.choice([1, 1, 2, 2, 3, 4]), limit) * rng.choice([1, -1])
    value = BASES[game] * (abs(deal["matadors"]) + 1 + hand)
    fitting = [b for b in bids if b <= value] or [18]
    deal["bid"] = rng.choice(fitting[-4:]) if rng.random() < 0.95 else rng.choice(bids[:12])
    if rng.random() < 0.35:  # the scorer taps a quick result instead of counting
        deal["result"] = rng.choices(
            ["won", "won_schneider", "lost", "lost_schneider", "sixty"], [60, 10, 22, 4, 4])[0]
    else:
        points = min(120, max(0, int(rng.gauss(72, 16))))
        tricks = 10 if points == 120 else (0 if points == 0 else rng.randint(1, 9))
        if points <= 22 and rng.random() < 0.5:
            tricks = 0
        deal["declarer_points"], deal["declarer_tricks"] = points, tricks
    if kontra and rng.random() < 0.08:
        deal["kontra"] = "re" if rng.random() < 0.2 else "kontra"
        deal["kontra_by"] = rng.choice([s for s in seats if s != declarer])
    return deal


def random_ramsch(rng: random.Random, seats: tuple[int, ...]) -> dict[str, Any]:
    """A Ramsch record for the three ``seats``: card points adding up to 120, tricks to 10."""
    tricks = [3, 3, 4]
    rng.shuffle(tricks)
    a = rng.randint(5, 60)
    b = rng.randint(5, 115 - a)
    points = [a, b, 120 - a - b]
    return {"kind": "ramsch", "ramsch": {
        "points": {str(s): p for s, p in zip(seats, points, strict=True)},
        "tricks": {str(s): t for s, t in zip(seats, tricks, strict=True)},
    }}


def generate_deals(n_deals: int, players: int, rules: str = "isko",
                   options: dict[str, Any] | None = None, first_dealer: int = 0,
                   seed: int = 7) -> list[dict[str, Any]]:
    """``n_deals`` ISkO records for a table of ``players`` under ``options``."""
    if rules != "isko":
        raise ValueError("the generator plays the International Skat Order")
    rng = random.Random(seed)
    parsed = parse_options(rules, options or {}, players)
    ctx = _context(rules, parsed, players, None)
    bids = sorted(legal_bids(rules, parsed))
    tracker = RoundTracker(players, first_dealer, parsed)
    ramsch_on = parsed.ramsch != "off"
    deals: list[dict[str, Any]] = []
    while len(deals) < n_deals:
        _, seats, _, ramsch_round, level = tracker.begin(True)
        if ramsch_round:
            d = (random_game(rng, rng.choice(seats), bids, kontra=False, seats=seats,
                             grand_hand=True) if rng.random() < 0.05
                 else random_ramsch(rng, seats))
        else:
            r = rng.random()
            if r < 0.04:
                d = random_ramsch(rng, seats) if ramsch_on else {"kind": "passed"}
            elif r < 0.06:
                d = {"kind": "passed"}
            else:
                d = random_game(rng, rng.choice(seats), bids, kontra=parsed.kontra, seats=seats)
        s = score_record(d, ctx, seats, ramsch_round)
        counts = not (ramsch_round and s.kind == "game")
        triggered = bock_triggers(s, parsed.bock, ramsch_round) if parsed.bock else 0
        tracker.finish(triggered, level if counts else 0, counts)
        deals.append(d)
    return deals
