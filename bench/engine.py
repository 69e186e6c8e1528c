"""Engine speed: deals/s of evaluate() from JSON-like dicts (validation included) and the time
of evaluate_table() on a generated 100,000-deal table with Kontra, Bock and Ramsch on.

Targets (issue 2): evaluate >= 150,000 deals/s; evaluate_table(100,000 deals) < 1 s.
Baseline, in the same run: a bare loop doing the ISkO arithmetic on the same dicts without
any validation, so the figures can be read against this machine's speed.
Run: make bench  (or .venv/bin/python bench/engine.py [--deals N])
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# The deal generator is the engine's own (scoring/engine/sample.py); _support still sets Django
# up, as every bench does, though the engine runs without it.
import _support  # noqa: E402, F401

from scoring.engine import (  # noqa: E402
    evaluate,
    evaluate_table,
    generate_deals,
    legal_bids,
    parse_options,
    random_game,
)

OPTIONS = {
    "kontra": True, "ramsch": "when_all_pass",
    "bock": {"triggers": ["sixty_sixty", "kontra_lost", "re", "grand_hand"],
             "ramsch_round_after": 1},
}
BASES = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}


def generate_table(n_deals: int, players: int = 4, seed: int = 7) -> dict[str, Any]:
    """A table that follows the round tracker, so every deal is valid where it stands."""
    return {"rules": "isko", "options": OPTIONS, "players": ["Anna", "Bernd", "Clara", "Dieter"],
            "stake": "0.05", "deals": generate_deals(n_deals, players, "isko", OPTIONS, 0, seed)}


def lone_deals(n: int, seed: int = 11) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    bids = sorted(legal_bids("isko", parse_options("isko", None, 3)))
    deals = []
    for _ in range(n):
        d = random_game(rng, rng.randint(0, 2), bids, kontra=False, seats=(0, 1, 2))
        deals.append(json.loads(json.dumps(d)))  # plain JSON-like dicts
    return deals


def baseline(deals: list[dict[str, Any]]) -> None:
    """The ISkO arithmetic with no validation and no explanation: a speed yardstick."""
    for d in deals:
        if d["game"] == "null":
            value = 23
            _ = value if d["declarer_tricks"] == 0 else -2 * value
            continue
        base = BASES[d["game"]]
        m = abs(d["matadors"]) + 1 + d["hand"]
        p = d.get("declarer_points", 75)  # a quick result stands for points in its range
        m += p >= 90 or p <= 30
        value = base * m
        won = p >= 61 and value >= d["bid"]
        _ = value if won else -2 * max(value, -(-d["bid"] // base) * base)


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    deals = lone_deals(args.deals)
    t_eval = timed(lambda: [evaluate(d) for d in deals], args.repeat)
    t_base = timed(lambda: baseline(deals), args.repeat)
    rate = args.deals / min(t_eval)
    base_rate = args.deals / min(t_base)
    print(f"evaluate: {rate:,.0f} deals/s (best of {args.repeat}; median "
          f"{args.deals / statistics.median(t_eval):,.0f}); target >= 150,000")
    print(f"baseline (bare arithmetic, no validation): {base_rate:,.0f} deals/s; "
          f"evaluate costs {base_rate / rate:.1f}x the bare arithmetic")

    table = generate_table(args.deals)
    t_table = timed(lambda: evaluate_table(table), args.repeat)
    result = evaluate_table(table)
    bock = sum(1 for r in result["deals"] if r["bock"])
    ramsch = sum(1 for r in result["deals"] if r["kind"] == "ramsch")
    print(f"evaluate_table: {len(table['deals']):,} deals in {min(t_table):.3f} s (best of "
          f"{args.repeat}; median {statistics.median(t_table):.3f} s); target < 1 s "
          f"[{bock:,} Bock deals, {ramsch:,} Ramsch]")
    tracemalloc.start()
    evaluate_table(table)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"evaluate_table peak memory (tracemalloc): {peak / 2**20:.0f} MiB")
    ok = rate >= 150_000 and min(t_table) < 1.0
    print("targets met" if ok else "TARGETS MISSED")


if __name__ == "__main__":
    main()
