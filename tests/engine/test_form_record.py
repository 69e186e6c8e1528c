"""The one mapping between the table screen's form and a deal record
(scoring/engine/form_record.py): the browser's raw form data read as DealForm reads it, and a
record turned back into the form's values for a correction. Pure: no Django."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring.engine import jsonapi
from scoring.engine.form_record import form_from_record, form_values, record_from_form


def test_raw_form_data_reads_as_the_form_s_cleaned_values() -> None:
    raw = {"kind": ["game"], "declarer": ["1"], "game": ["clubs"], "matadors": ["-2"],
           "bid": [""], "bid_more": ["120"], "hand": ["on"], "kontra": ["none"],
           "ramsch_loser": ["", "2", "0"], "ramsch_points_1": ["50"], "result": [""],
           "penalty_reason": ["  spaced  "], "version": ["3"]}
    assert form_values(raw) == {
        "kind": "game", "declarer": 1, "game": "clubs", "matadors": -2, "bid": None,
        "bid_more": 120, "hand": True, "kontra": "none", "ramsch_loser": [2, 0],
        "ramsch_points_1": 50, "result": None, "penalty_reason": "  spaced  ",
        "version": "3"}


def test_a_single_text_reads_as_a_list_of_one() -> None:
    assert form_values({"declarer": "2", "hand": "on"}) == {"declarer": 2, "hand": True}


@pytest.mark.parametrize(("text", "number"), [
    ("7", 7), (" 7 ", 7), ("-3", -3), ("1.5", 1.5), ("2.0", 2), ("x", None), ("nan", None),
    ("inf", None)])
def test_numbers_as_the_browser_reads_them(text: str, number: object) -> None:
    assert form_values({"bid": [text]})["bid"] == number


RECORDS: list[dict[str, Any]] = [
    {"kind": "game", "declarer": 1, "game": "clubs", "hand": False, "ouvert": False,
     "schneider_announced": False, "schwarz_announced": False, "matadors": 2, "bid": 18,
     "result": "won"},
    {"kind": "game", "declarer": 0, "game": "grand", "hand": True, "ouvert": False,
     "schneider_announced": True, "schwarz_announced": False, "matadors": -1, "bid": 24,
     "declarer_points": 95, "kontra_by": 2, "concession": "schenken", "kontra": "kontra",
     "spitze": 1, "spitze_made": False, "bock": 1, "bock_round": True},
    {"kind": "game", "declarer": 1, "game": "tourne_hearts", "hand": False, "ouvert": False,
     "schneider_announced": False, "schwarz_announced": False, "matadors": 1, "bid": 14,
     "result": "won", "passt_mir_nicht": True},
    {"kind": "passed"},
    {"kind": "passed", "bock_round": True},
    {"kind": "misdeal"},
    {"kind": "penalty", "penalty": {"seat": 2, "points": 25, "reason": "looked"}},
    {"kind": "ramsch", "ramsch": {"points": {"1": 50, "2": 40, "3": 30},
                                  "tricks": {"1": 4, "2": 4, "3": 2}}},
    {"kind": "ramsch", "ramsch": {"losers": {"0": 45, "2": 45}, "jungfrau": 1,
                                  "durchmarsch": None, "skat_points": 10}},
    {"kind": "ramsch", "ramsch": {"losers": {}, "jungfrau": 2, "durchmarsch": 1,
                                  "pushes": 2}},
]


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: json.dumps(r)[:60])
def test_a_record_goes_to_the_form_and_back_unchanged(record: dict[str, Any]) -> None:
    again = record_from_form(form_from_record(record))
    assert json.dumps(again) == json.dumps(record)


def _raw(initial: dict[str, Any]) -> dict[str, list[str]]:
    """The form's values as a browser would post them (empty and unticked left out)."""
    raw: dict[str, list[str]] = {}
    for key, value in initial.items():
        if value is None or value is False or value == "":
            continue
        if isinstance(value, list):
            raw[key] = [str(v) for v in value]
        else:
            raw[key] = ["on" if value is True else str(value)]
    return raw


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: json.dumps(r)[:60])
def test_the_browser_builds_the_same_record_through_jsonapi(record: dict[str, Any]) -> None:
    text = jsonapi.call("record_from_form", json.dumps(_raw(form_from_record(record))))
    assert text == json.dumps(record, ensure_ascii=False)


def test_jsonapi_refuses_what_is_no_form_data() -> None:
    answer = json.loads(jsonapi.call("record_from_form", "[1, 2]"))
    assert answer["error"]["message"].startswith("internal error")
    assert "record_from_form" in jsonapi.FUNCTIONS


def test_a_stored_record_of_the_wrong_shape_reads_as_empty() -> None:
    assert form_from_record({"kind": "penalty", "penalty": "x"}) == {
        "kind": "penalty", "penalty_seat": None, "penalty_points": None, "penalty_reason": ""}
    assert form_from_record({"kind": "ramsch", "ramsch": None}) == {
        "kind": "ramsch", "pushes": None, "skat_points": None}
