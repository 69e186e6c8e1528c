"""`manage.py score`: JSON in, JSON out, exit 0 or a JSON error with exit 1 (deal-record.md)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]

# M-01 of the seed cases: Clubs Hand with 1, bid 46, 74 card points -> overbid, -96.
CLUBS_HAND_OVERBID = {
    "kind": "game",
    "declarer": 1,
    "game": "clubs",
    "hand": True,
    "ouvert": False,
    "schneider_announced": False,
    "schwarz_announced": False,
    "matadors": 1,
    "bid": 46,
    "declarer_points": 74,
    "kontra": "none",
}


def run_score(source: str) -> tuple[int, dict[str, Any]]:
    """call_command the way the shell would: the exit status and the parsed stdout."""
    out = io.StringIO()
    try:
        call_command("score", source, stdout=out)
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, json.loads(out.getvalue())


def run_score_stdin(text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "score", "-"],
        cwd=ROOT,
        input=text,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


class FakeEngine(types.ModuleType):
    """What the score command uses of scoring.engine, for a stand-in module."""

    SkatError: type[Exception]
    evaluate_record: Callable[..., Any]


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> FakeEngine:
    """Stand in for scoring.engine, so the command's own paths are tested on their own."""

    class SkatError(ValueError):
        def __init__(self, field: str | None, message: str, deal: int | None = None) -> None:
            super().__init__(message)
            self.field, self.message, self.deal = field, message, deal

        def as_dict(self) -> dict[str, object]:
            return {"field": self.field, "message": self.message, "deal": self.deal}

    module = FakeEngine("scoring.engine")
    module.SkatError = SkatError
    module.evaluate_record = lambda obj, lang="en": {"echo": obj}
    monkeypatch.setitem(sys.modules, "scoring.engine", module)
    return module


# --- input errors: handled before the engine is called, so they pass with or without it ---


def test_missing_file_is_a_json_error(tmp_path: Path) -> None:
    status, out = run_score(str(tmp_path / "nope.json"))
    assert status == 1
    assert out["error"]["field"] is None
    assert out["error"]["deal"] is None
    assert "cannot read" in out["error"]["message"]
    assert "nope.json" in out["error"]["message"]


def test_a_directory_is_a_json_error(tmp_path: Path) -> None:
    status, out = run_score(str(tmp_path))
    assert status == 1
    assert "cannot read" in out["error"]["message"]


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    status, out = run_score(write(tmp_path, '{\n  "kind": "game",\n  "bid": ,\n}'))
    assert status == 1
    assert out == {
        "error": {
            "field": None,
            "message": "invalid JSON at line 3, column 10: Expecting value",
            "deal": None,
        }
    }


@pytest.mark.parametrize(
    ("text", "kind"),
    [("[1, 2]", "an array"), ('"deal"', "a string"), ("42", "a number"), ("null", "null")],
)
def test_json_that_is_not_an_object_is_refused(tmp_path: Path, text: str, kind: str) -> None:
    status, out = run_score(write(tmp_path, text))
    assert status == 1
    assert out["error"]["field"] is None
    assert out["error"]["message"].endswith(f"not {kind}")


def test_bytes_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"players": ["Jürgen"]}'.encode("latin-1"))
    status, out = run_score(str(path))
    assert status == 1
    assert out["error"]["message"] == "the input is not UTF-8 text"


@pytest.mark.parametrize(("text", "said"), [
    ("[" * 100_000, "invalid JSON: nested too deeply"),
    ('{"bid": ' + "1" * 5000 + "}", "invalid JSON: Exceeds the limit")])
def test_json_python_cannot_read_is_an_error_not_a_traceback(tmp_path: Path, text: str,
                                                            said: str) -> None:
    """Deeper than the recursion limit, or a number of more digits than Python converts:
    the contract's error shape, not a RecursionError's or a ValueError's traceback."""
    status, out = run_score(write(tmp_path, text))
    assert status == 1
    assert out["error"]["message"].startswith(said)


def test_invalid_json_on_stdin_exits_1_without_a_traceback() -> None:
    proc = run_score_stdin("{not json")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr == ""
    error = json.loads(proc.stdout)["error"]
    assert error["message"].startswith("invalid JSON at line 1, column 2")


def test_empty_stdin_is_invalid_json() -> None:
    proc = run_score_stdin("")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["message"].startswith("invalid JSON at line 1")


# --- the command around the engine, with a stand-in engine ---


def test_result_is_printed_as_indented_utf8_json(tmp_path: Path, fake_engine: FakeEngine) -> None:
    out = io.StringIO()
    call_command("score", write(tmp_path, '{"players": ["Jürgen", "Käthe", "Ömer"]}'), stdout=out)
    expected = {"echo": {"players": ["Jürgen", "Käthe", "Ömer"]}}
    assert out.getvalue() == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"


def test_key_order_of_the_result_is_kept(tmp_path: Path, fake_engine: FakeEngine) -> None:
    fake_engine.evaluate_record = lambda obj, lang="en": {"won": False, "value": 36, "base": 12}
    status, out = run_score(write(tmp_path, "{}"))
    assert status == 0
    assert list(out) == ["won", "value", "base"]


def test_skat_error_is_printed_with_exit_1(tmp_path: Path, fake_engine: FakeEngine) -> None:
    def refuse(obj: dict[str, Any], lang: str = "en") -> dict[str, Any]:
        raise fake_engine.SkatError("bid", "Null (23) cannot be declared after a bid of 24", 7)

    fake_engine.evaluate_record = refuse
    status, out = run_score(write(tmp_path, '{"deals": []}'))
    assert status == 1
    assert out == {
        "error": {
            "field": "bid",
            "message": "Null (23) cannot be declared after a bid of 24",
            "deal": 7,
        }
    }


def test_engine_crash_is_an_internal_error_not_a_traceback(
    tmp_path: Path, fake_engine: FakeEngine
) -> None:
    fake_engine.evaluate_record = lambda obj, lang="en": obj["missing"]
    status, out = run_score(write(tmp_path, "{}"))
    assert status == 1
    assert out == {
        "error": {"field": None, "message": "internal error: KeyError: 'missing'", "deal": None}
    }


def test_a_result_json_cannot_carry_is_an_internal_error(tmp_path: Path,
                                                         fake_engine: FakeEngine) -> None:
    fake_engine.evaluate_record = lambda obj, lang="en": {"value": float("nan")}
    status, out = run_score(write(tmp_path, "{}"))
    assert status == 1
    assert out["error"]["message"].startswith("internal error: result is not JSON")


def test_an_engine_that_cannot_be_imported_is_an_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # None in sys.modules makes the import raise ImportError, like a half-written engine.
    monkeypatch.setitem(sys.modules, "scoring.engine", None)
    status, out = run_score(write(tmp_path, "{}"))
    assert status == 1
    assert out["error"]["message"].startswith("internal error: scoring engine unavailable")


# --- with the real engine ---


def test_overbid_clubs_hand_is_scored(tmp_path: Path) -> None:
    status, out = run_score(write(tmp_path, json.dumps(CLUBS_HAND_OVERBID)))
    assert status == 0
    assert out["won"] is False
    assert out["overbid"] is True
    assert out["value"] == 36
    assert out["entries"]["1"] == -96


def test_real_engine_over_stdin() -> None:
    proc = run_score_stdin(json.dumps(CLUBS_HAND_OVERBID))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["entries"]["1"] == -96


def test_unknown_game_is_a_skat_error_on_its_field(tmp_path: Path) -> None:
    record = {**CLUBS_HAND_OVERBID, "game": "bananas"}
    status, out = run_score(write(tmp_path, json.dumps(record)))
    assert status == 1
    assert out["error"]["field"] == "game"
    assert out["error"]["message"]


def test_a_short_ramsch_record_is_scored(tmp_path: Path) -> None:
    """DECISIONS.md §9: the short Ramsch form scores as the full one would."""
    short = {"kind": "ramsch", "options": {"ramsch": "when_all_pass"},
             "ramsch": {"losers": {"1": 61}, "jungfrau": 1, "durchmarsch": None, "pushes": 0}}
    status, result = run_score(write(tmp_path, json.dumps(short)))
    assert status == 0 and result["entries"] == {"1": -122}
    wrong = {**short, "ramsch": {"losers": {"1": 50}, "jungfrau": 1}}
    status, result = run_score(write(tmp_path, json.dumps(wrong)))
    assert status == 1
    assert result["error"]["field"] == "ramsch.losers"
    assert "61 to 120" in result["error"]["message"]


def test_the_house_rules_of_decisions_9_are_scored(tmp_path: Path) -> None:
    """A table with every §9 option: Bock by hand, a Bock round by hand, Kontra on a Ramsch,
    the cap, all three tied losing and the overbid charged at the bid."""
    table = {
        "rules": "isko", "players": ["Anna", "Bernd", "Clara"],
        "options": {"kontra": True, "ramsch": "when_all_pass", "ramsch_kontra": True,
                    "ramsch_cap": 250, "ramsch_all_tied": "all_lose", "overbid_charge": "bid",
                    "bock": {"manual": True, "triggers": []}},
        "deals": [
            {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 30,
             "declarer_points": 70, "bock_round": True},
            {"kind": "ramsch", "kontra": "kontra",
             "ramsch": {"losers": {"1": 96}, "jungfrau": 0, "durchmarsch": None}},
            {"kind": "ramsch", "ramsch": {"losers": {"0": 40, "1": 40, "2": 40}}},
            {"kind": "passed", "bock": 0},
        ],
    }
    status, result = run_score(write(tmp_path, json.dumps(table)))
    assert status == 0
    rows = result["deals"]
    assert [row["entries"] for row in rows] == [
        {"1": -60}, {"1": -250}, {"0": -80, "1": -80, "2": -80}, {}]
    assert [row["bock"] for row in rows] == [0, 1, 1, 0]
    assert rows[0]["bock_round"] is True and rows[3]["bock_manual"] is True
    assert result["totals"] == {"0": -80, "1": -390, "2": -80}
