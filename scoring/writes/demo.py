"""Realistic played deals for demos and benchmarks, generated through the engine, and the demo
user who runs the demo clubs.

Every deal is valid where it stands: the generator follows the round tracker (who deals, who
plays, Bock and Ramsch rounds) exactly as evaluate_table will replay it.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model

from scoring.engine.deal import legal_bids
from scoring.engine.fields import active_seats
from scoring.engine.options import parse_options
from scoring.engine.table import _context, score_record
from scoring.engine.tracker import RoundTracker, bock_triggers
from scoring.models import Club, Membership

USERNAME = "demo"
PASSWORD = "skat-demo"  # a demo on 127.0.0.1 only; printed so the reader can log in

BASES = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}


def random_game(rng: random.Random, declarer: int, bids: list[int], *, kontra: bool,
                seats: tuple[int, ...], grand_hand: bool = False) -> dict[str, Any]:
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


__all__ = ["PASSWORD", "USERNAME", "active_seats", "demo_admin", "generate_deals", "random_game",
           "random_ramsch"]


def demo_admin(club: Club) -> Any:
    """The demo user (made once), as an admin of ``club``."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=USERNAME).first()
    if user is None:
        user = user_model.objects.create_user(USERNAME, password=PASSWORD)
    Membership.objects.update_or_create(user=user, club=club,
                                        defaults={"role": Membership.Role.ADMIN})
    return user
