"""Random deal records and tables for comparing the in-browser engine with the server's
(tests/web/test_offline_engine.py, bench/offline.py).

Seeded, so a failure comes back with the same records. The raw material is the engine's own
case files (tests/engine/cases: every rule system, Kontra, Spitze, Ramsch, Bock, settlements)
and tables that generate_deals plays under the "Club evening" preset (Kontra, Bock rounds,
Ramsch rounds after Bock). Records are then garbled: a field takes a value another record
had for it, a junk value, or goes missing, so that errors are compared too (same field, same
message) and not only results. Numbers stay within what JSON carries exactly in a browser
(integers far below 2**53, no whole-number floats), so that only the engine is compared.
"""

from __future__ import annotations

import copy
import json
import random
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scoring.engine import generate_deals
from scoring.presets import PRESETS

CASES = Path(__file__).resolve().parents[1] / "engine" / "cases"
SYSTEMS = ("isko", "american1898", "hoyle")
TABLE_ONLY = ("rules", "options", "players")
JUNK: list[Any] = [None, True, False, -1, 0, 1, 7, 18, 23, 61, 120, 500, 2.5, -0.5, "", "x",
                   "clubs", "grand", "null", "nullo", "none", "kontra", "re", "game", "ramsch",
                   "passed", "penalty", "misdeal", "Jürgen", [], [1, 2], {}, {"0": 1}]
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Jürgen", "Käthe", "Özlem"]


def _cases() -> Iterator[dict[str, Any]]:
    for path in sorted(CASES.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


class Records:
    """Seeds and the values seen per field, read once."""

    def __init__(self) -> None:
        self.deals: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.tables: list[dict[str, Any]] = []
        self.values: dict[str, list[Any]] = defaultdict(list)
        for case in _cases():
            record = case.get("input")
            if case["kind"] not in ("deal", "error", "table") or not isinstance(record, dict):
                continue
            if "deals" in record:
                self.tables.append(record)
                for deal in record["deals"]:
                    if isinstance(deal, dict):
                        self._learn(deal)
                        self.deals[record.get("rules", "isko")].append(
                            {**deal, "rules": record.get("rules", "isko")})
                self._learn({k: v for k, v in record.items() if k != "deals"}, prefix="table.")
            else:
                self._learn(record)
                self.deals[record.get("rules", "isko")].append(record)
        for preset in PRESETS.values():
            self.values["options"].append(preset["options"])
            self.values["table.options"].append(preset["options"])

    def _learn(self, record: dict[str, Any], prefix: str = "") -> None:
        for key, value in record.items():
            if value not in self.values[prefix + key]:
                self.values[prefix + key].append(value)
            if isinstance(value, dict) and not prefix:
                self._learn(value, prefix=f"{key}.")

    # ------------------------------------------------------------ garbling

    def garble(self, rng: random.Random, record: dict[str, Any], prefix: str = "") -> None:
        """One change to ``record`` in place: another record's value, junk, or a gap."""
        keys = list(record) + [k[len(prefix):] for k in self.values
                               if k.startswith(prefix) and "." not in k[len(prefix):]]
        key = rng.choice(keys) if keys else "kind"
        current = record.get(key)
        roll = rng.random()
        if isinstance(current, dict) and current and roll < 0.3:
            record[key] = copy.deepcopy(current)
            self.garble(rng, record[key], prefix=f"{key}.")
        elif roll < 0.7 and self.values.get(prefix + key):
            record[key] = copy.deepcopy(rng.choice(self.values[prefix + key]))
        elif roll < 0.85:
            record[key] = copy.deepcopy(rng.choice(JUNK))
        else:
            record.pop(key, None)

    def deal(self, rng: random.Random) -> dict[str, Any]:
        """A lone deal: a case's deal as it is (a third of them) or with 1-3 changes."""
        system = rng.choice(SYSTEMS)
        deal = copy.deepcopy(rng.choice(self.deals[system]))
        if rng.random() < 0.15:
            deal["players"] = rng.choice([3, 4, 5])
            deal["dealer"] = rng.randrange(deal["players"])
        if rng.random() < 0.25 and self.values["options"]:
            deal["options"] = copy.deepcopy(rng.choice(self.values["options"]))
        if rng.random() < 0.1:
            deal["bock"] = rng.choice([0, 1, 2])
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            self.garble(rng, deal)
        return deal

    def table(self, rng: random.Random) -> dict[str, Any]:
        """A table: a case's, one played under the Club evening preset, or one put together
        from a rule system's deals; then perhaps garbled."""
        roll = rng.random()
        if roll < 0.15:
            table = copy.deepcopy(rng.choice(self.tables))
        elif roll < 0.75:
            players = rng.choice([3, 4])
            preset = PRESETS[rng.choice(["club_evening", "club_evening", "isko_tournament"])]
            options = copy.deepcopy(preset["options"])
            if "bock" in options and rng.random() < 0.3:
                options["bock"]["ramsch_round_after"] = 0  # Bock rounds without Ramsch
                options["ramsch"] = rng.choice(["off", "when_all_pass"])
            dealer = rng.randrange(players)
            deals = generate_deals(rng.randint(1, 36), players, "isko", options,
                                   first_dealer=dealer, seed=rng.randrange(10**6))
            table = {"rules": "isko", "options": options, "scoring": preset["scoring"],
                     "players": rng.sample(NAMES, players), "first_dealer": dealer,
                     "deals": deals}
            if rng.random() < 0.5:
                table.update(stake=rng.choice(["0.01", "0.05", "0.1"]), currency="EUR")
        else:
            system = rng.choice(SYSTEMS)
            deals = [{k: v for k, v in copy.deepcopy(rng.choice(self.deals[system])).items()
                      if k not in TABLE_ONLY}
                     for _ in range(rng.randint(1, 20))]
            table = {"rules": system, "players": rng.sample(NAMES, 3), "deals": deals,
                     "scoring": "classic" if system != "isko" or rng.random() < 0.5
                     else "seeger_fabian"}
            if rng.random() < 0.7:
                table["options"] = {"isko": {"kontra": True, "ramsch": "when_all_pass"},
                                    "american1898": {"contra": True}, "hoyle": {}}[system]
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            garbled = table.get("deals")
            if rng.random() < 0.6 and isinstance(garbled, list) and garbled:
                deal = rng.choice(garbled)
                if isinstance(deal, dict):
                    self.garble(rng, deal)
            else:
                self.garble(rng, table, prefix="table.")
        return table


def records(seed: int, deals: int, tables: int) -> list[tuple[str, dict[str, Any]]]:
    """``deals`` lone deals and ``tables`` tables, as (function name, record)."""
    rng = random.Random(seed)
    source = Records()
    out: list[tuple[str, dict[str, Any]]] = [("evaluate", source.deal(rng)) for _ in range(deals)]
    out += [("evaluate_table", source.table(rng)) for _ in range(tables)]
    rng.shuffle(out)
    return out
