"""Every example of deal-record.md, through `manage.py score -` as a script would run it.

The examples are copied here (tests never read the shared spec folder); where the spec
shows a fragment, the smallest record around it is used.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

SPEC_DEAL = {
    "kind": "game", "declarer": 1, "game": "clubs", "hand": True, "ouvert": False,
    "schneider_announced": False, "schwarz_announced": False, "matadors": -2, "bid": 46,
    "declarer_points": 74, "declarer_tricks": 6, "kontra": "none", "kontra_by": None,
    "spitze": 0, "spitze_made": None, "passt_mir_nicht": False, "concession": None,
    "bock": None,
}
SPEC_RAMSCH = {
    "kind": "ramsch", "options": {"ramsch": "when_all_pass"},
    "ramsch": {"points": {"0": 50, "1": 40, "2": 30}, "tricks": {"0": 4, "1": 4, "2": 2},
               "pushes": 0, "skat_points": 0},
}
SPEC_PENALTY = {"kind": "penalty", "penalty": {"seat": 2, "points": 10, "reason": "misdeal"}}
# The result example: with 1, game 2, hand 3 × Clubs 12 = 36 < bid 46 → −96.
SPEC_RESULT_DEAL = {**SPEC_DEAL, "matadors": 1, "declarer_tricks": None}
SPEC_TABLE = {
    "rules": "isko",
    "options": {"kontra": True, "bock": {"triggers": ["sixty_sixty", "kontra_lost", "re"]}},
    "scoring": "classic", "players": ["Anna", "Bernd", "Clara", "Dieter"], "first_dealer": 0,
    "stake": "0.05", "currency": "EUR",
    "deals": [
        {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
         "declarer_points": 60},
        {"kind": "passed"},
    ],
}


def score(record: Any, *args: str) -> tuple[int, dict[str, Any], str]:
    done = subprocess.run(
        [sys.executable, "manage.py", "score", "-", *args], cwd=ROOT,
        input=json.dumps(record).encode(), capture_output=True, timeout=60,
    )
    return done.returncode, json.loads(done.stdout), done.stderr.decode()


def test_the_spec_deal() -> None:
    status, result, stderr = score(SPEC_DEAL)
    assert (status, stderr) == (0, "")
    # without 2, game 3, hand 4 × Clubs 12 = 48 >= 46, 74 card points: won
    assert result["won"] is True and result["value"] == 48 and result["entries"] == {"1": 48}


def test_the_spec_result_example() -> None:
    status, result, _ = score(SPEC_RESULT_DEAL)
    assert status == 0
    expected = {"won": False, "value": 36, "charged_value": 48, "overbid": True, "base": 12,
                "multiplier": 3, "entries": {"1": -96},
                "explanation": "with 1, game 2, hand 3 × Clubs 12 = 36 < bid 46 → overbid: "
                               "48 × 2 = −96"}
    assert {k: result[k] for k in expected} == expected


def test_the_explanation_in_german() -> None:
    status, result, _ = score(SPEC_RESULT_DEAL, "--lang", "de")
    assert status == 0
    assert result["explanation"] == ("mit 1, Spiel 2, Hand 3 × Kreuz 12 = 36 < Reizwert 46 → "
                                     "überreizt: 48 × 2 = −96")


def test_the_spec_ramsch() -> None:
    status, result, _ = score(SPEC_RAMSCH)
    assert status == 0
    assert result["won"] is None and result["value"] is None
    assert result["entries"] == {"0": -50}


def test_the_spec_penalty() -> None:
    status, result, _ = score(SPEC_PENALTY)
    assert status == 0
    assert result["entries"] == {"2": -10} and result["won"] is None


def test_the_spec_table() -> None:
    status, result, _ = score(SPEC_TABLE)
    assert status == 0
    first, second = result["deals"]
    assert (first["number"], first["dealer"], first["bock"]) == (1, 0, 0)
    assert first["active"] == [1, 2, 3]
    assert first["entries"] == {"1": -48}  # 60:60 is lost, and triggers a Bock round
    assert second["bock"] == 1 and second["round"] == 1
    assert result["bock_pending"] == 3
    assert result["totals"] == {"0": 0, "1": -48, "2": 0, "3": 0}
    net = result["settlement"]["net"]
    # Bernd owes each of the three others 48 × 0.05 = 2.40
    assert net == {"0": "2.40", "1": "-7.20", "2": "2.40", "3": "2.40"}


def test_the_spec_evening() -> None:
    evening = {"club": "skatfreunde-altenburg", "date": "2026-11-20", "name": "Clubabend",
               "tables": [SPEC_TABLE, {**SPEC_TABLE, "players": ["Emil", "Frieda", "Gerd"],
                                       "deals": [SPEC_RESULT_DEAL]}]}
    status, result, _ = score(evening)
    assert status == 0
    assert result["club"] == "skatfreunde-altenburg"
    assert [t["totals"] for t in result["tables"]] == [
        {"0": 0, "1": -48, "2": 0, "3": 0}, {"0": 0, "1": -96, "2": 0}]


def test_the_spec_error_example() -> None:
    deals = [{"kind": "passed"}] * 6 + [
        {"kind": "game", "declarer": 1, "game": "null", "bid": 24, "declarer_tricks": 0}]
    status, result, stderr = score({**SPEC_TABLE, "deals": deals})
    assert status == 1 and "Traceback" not in stderr
    error = result["error"]
    assert (error["field"], error["deal"]) == ("bid", 7)
    assert error["message"].startswith("Null (23) cannot be declared after a bid of 24; "
                                       "Null Hand (35) can")


@pytest.mark.parametrize("record, field", [
    ({**SPEC_DEAL, "bid": 19}, "bid"),
    ({**SPEC_DEAL, "declarer": 5}, "declarer"),
    ({**SPEC_DEAL, "kontra": "kontra"}, "kontra"),
    ({**SPEC_DEAL, "options": {"kontra": "yes"}}, "options.kontra"),
    ({**SPEC_DEAL, "declarer_points": 121}, "declarer_points"),
    ({**SPEC_DEAL, "hirsch": 1}, "hirsch"),
    ({**SPEC_RAMSCH, "ramsch": {"points": {"0": 50}, "tricks": {"0": 10}}}, "ramsch.points"),
])
def test_bad_input_names_the_field_without_a_traceback(record: Any, field: str) -> None:
    status, result, stderr = score(record)
    assert status == 1 and "Traceback" not in stderr
    assert result["error"]["field"] == field and result["error"]["message"]
