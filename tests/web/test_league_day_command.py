"""`manage.py league_day FILE|-` (league-day.md): the engine's standings as JSON on standard
output, exit 0; a bad file's place on standard error, exit 2, nothing on standard output."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests.engine.test_league import SPEC_INPUT, SPEC_OUTPUT

ROOT = Path(__file__).resolve().parents[2]

# Four teams, two series, worked by hand:
# series 1: A 100 + 200 = 300 third (1:2), B 500 first (3:0), C -50 + 250 = 200 fourth (0:3),
#           D 400 second (2:1)
# series 2: A 500 and B 300 + 200 = 500 share places 1-2 (2.5:0.5 each); C 300 third (1:2);
#           nobody of D played: fourth (0:3)
# the day:  B 3 + 2.5 = 5.5 plus, 500 + 500 = 1000; A 1 + 2.5 = 3.5, 300 + 500 = 800;
#           C 0 + 1 = 1, 200 + 300 = 500; D 2 + 0 = 2, 400: D (2) before C (1)
FOUR_TEAMS = {
    "teams": [{"name": n, "players": [f"{n.lower()}{i}" for i in range(1, 5)]}
              for n in ("A", "B", "C", "D")],
    "days": [{"name": "3. Spieltag", "series": [
        {"points": {"a1": 100, "a2": 200, "b1": 500, "c1": -50, "c2": 250, "d1": 400}},
        {"points": {"a1": 500, "b1": 300, "b2": 200, "c1": 300}}]}]}
FOUR_TABLE = [{"team": "B", "place": 1, "plus": 5.5, "minus": 0.5, "points": 1000},
              {"team": "A", "place": 2, "plus": 3.5, "minus": 2.5, "points": 800},
              {"team": "D", "place": 3, "plus": 2, "minus": 4, "points": 400},
              {"team": "C", "place": 4, "plus": 1, "minus": 5, "points": 500}]
FOUR_OUTPUT = {"days": [{"name": "3. Spieltag", "series": [
    [{"team": "B", "points": 500, "place": 1, "plus": 3, "minus": 0},
     {"team": "D", "points": 400, "place": 2, "plus": 2, "minus": 1},
     {"team": "A", "points": 300, "place": 3, "plus": 1, "minus": 2},
     {"team": "C", "points": 200, "place": 4, "plus": 0, "minus": 3}],
    [{"team": "A", "points": 500, "place": 1, "plus": 2.5, "minus": 0.5},
     {"team": "B", "points": 500, "place": 1, "plus": 2.5, "minus": 0.5},
     {"team": "C", "points": 300, "place": 3, "plus": 1, "minus": 2},
     {"team": "D", "points": 0, "place": 4, "plus": 0, "minus": 3}]],
    "table": FOUR_TABLE}], "table": FOUR_TABLE}


def run(source: str, *args: str) -> tuple[int, str, str]:
    """call_command as the shell would: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("league_day", source, *args, stdout=out, stderr=err)
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, out.getvalue(), err.getvalue()


def write(tmp_path: Path, data: bytes | str) -> str:
    path = tmp_path / "league.json"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


@pytest.mark.parametrize(("league", "expected"), [(SPEC_INPUT, SPEC_OUTPUT),
                                                  (FOUR_TEAMS, FOUR_OUTPUT)])
def test_a_file_gives_the_standings(tmp_path: Path, league: dict[str, Any],
                                    expected: dict[str, Any]) -> None:
    status, out, err = run(write(tmp_path, json.dumps(league, ensure_ascii=False)))
    assert (status, err) == (0, "")
    assert json.loads(out) == expected
    assert list(json.loads(out)["days"][0]["table"][0]) == ["team", "place", "plus", "minus",
                                                            "points"]
    assert '"plus": 5.5' in out or league is SPEC_INPUT  # a half prints as .5


def test_standard_input_gives_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps(FOUR_TEAMS)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    status, out, err = run("-")
    assert (status, err) == (0, "")
    assert json.loads(out) == FOUR_OUTPUT


@pytest.mark.parametrize(("data", "message"), [
    ("{not json", "invalid JSON at line 1, column 2: Expecting property name enclosed in "
                  "double quotes"),
    ("", "invalid JSON at line 1, column 1: Expecting value"),
    (b"\xff\xfe\xfa", "the input is not UTF-8 text"),
    ("[" * 100_000 + "]" * 100_000, "invalid JSON: nested too deeply"),
    ("[]", "The input must be a JSON object with teams and days, not []."),
    (json.dumps({**SPEC_INPUT, "teams": []}), "teams: A league needs one or more teams."),
    (json.dumps({"teams": SPEC_INPUT["teams"], "days": [{"name": "1", "series": [
        {"points": {"Anna": 1, "Xaver": 2}}, {"points": {}}]}]}),
     'days[0].series[0].points: "Xaver" is not on a team.'),
    (json.dumps({"teams": SPEC_INPUT["teams"], "days": [{"name": "1", "series": [
        {"points": {}}]}]}),
     "days[0].series[0].points: A series names the players who played it; this one names "
     "nobody."),
])
def test_a_bad_file_exits_2_with_the_place_on_stderr(tmp_path: Path, data: bytes | str,
                                                     message: str) -> None:
    status, out, err = run(write(tmp_path, data))
    assert (status, out) == (2, "")
    assert err.strip() == message


def test_an_unreadable_file_exits_2(tmp_path: Path) -> None:
    status, out, err = run(str(tmp_path / "missing.json"))
    assert (status, out) == (2, "")
    assert err.startswith(f"cannot read {tmp_path / 'missing.json'}: ")
    status, out, err = run(str(tmp_path))  # a directory
    assert (status, out) == (2, "")
    assert err.startswith("cannot read ")


def test_the_message_in_german(tmp_path: Path) -> None:
    bad = {**SPEC_INPUT, "teams": SPEC_INPUT["teams"] + [{"name": "Herz As", "players": ["X"]}]}
    status, out, err = run(write(tmp_path, json.dumps(bad)), "--lang", "de")
    assert (status, out) == (2, "")
    assert err.strip() == "teams[2].name: Zwei Mannschaften heißen „Herz As“."


def shell(source: str, text: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "manage.py", "league_day", source], cwd=ROOT,
                          input=text.encode(), capture_output=True, timeout=60, check=False)


def test_the_shell_reads_standard_input_and_exits_2_on_a_bad_one() -> None:
    good = shell("-", json.dumps(FOUR_TEAMS))
    assert (good.returncode, good.stderr) == (0, b"")
    assert json.loads(good.stdout) == FOUR_OUTPUT
    bad = shell("-", json.dumps({"teams": [{"name": "Ä", "players": []}], "days": []}))
    assert (bad.returncode, bad.stdout) == (2, b"")
    assert bad.stderr.decode().strip() == 'teams[0].players: The team "Ä" has no players.'
    assert b"Traceback" not in bad.stderr
