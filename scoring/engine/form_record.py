"""The one mapping between the table screen's form and a deal record (deal-record.md).

``record_from_form(values)`` turns what a scorer entered into the record the engine scores;
``form_from_record(record)`` is the reverse, the form's initial values for correcting a
stored deal. The server's ``DealForm`` passes its cleaned data; the offline table passes the
browser's raw form data through ``form_values`` first (jsonapi's "record_from_form", called by
``SkatEngine.recordFromForm``), so both build the very same record.

Values: the form's field names (forms/entry.py ``DealForm``), empty inputs as None or absent,
numbers as int, ticked boxes as True, ``ramsch_loser`` as a list of seats. Shape only: a
value the engine refuses is passed on for the engine to refuse with its reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# How each field of the form reads (everything else is text).
NUMBER_FIELDS = frozenset({
    "declarer", "matadors", "bid", "bid_more", "declarer_points", "declarer_tricks",
    "kontra_by", "spitze", "pushes", "skat_points", "ramsch_loser_points", "ramsch_jungfrau",
    "ramsch_durchmarsch", "bock", "penalty_seat", "penalty_points"})
FLAG_FIELDS = frozenset({"hand", "ouvert", "schneider_announced", "schwarz_announced",
                         "passt_mir_nicht", "bock_round"})
LIST_FIELDS = frozenset({"ramsch_loser"})
# A Ramsch counted seat by seat: ramsch_points_<seat>, ramsch_tricks_<seat>.
RAMSCH_SEAT_FIELD = re.compile(r"^ramsch_(points|tricks)_(\d+)$")
DECLARATIONS = ("hand", "ouvert", "schneider_announced", "schwarz_announced")
# The kinds that may carry Bock set by hand (option bock.manual).
BOCK_KINDS = ("game", "ramsch", "passed")


def _number(text: str) -> int | float | None:
    """A number as the browser's Number() reads an input's text (None: not a number)."""
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")):
        return None
    return int(value) if value.is_integer() else value


def form_values(raw: Mapping[str, object]) -> dict[str, Any]:
    """A browser's form data (each name: its text, or a list of texts for a repeated name,
    as FormData holds them) read as ``record_from_form`` takes it."""
    values: dict[str, Any] = {}
    for name, given in raw.items():
        texts = [str(t) for t in given] if isinstance(given, list) else [str(given)]
        if name in LIST_FIELDS:
            values[name] = [n for n in (_number(t) for t in texts if t) if n is not None]
        elif name in FLAG_FIELDS:
            values[name] = True
        elif not texts or texts[0] == "":
            values[name] = None
        elif name in NUMBER_FIELDS or RAMSCH_SEAT_FIELD.match(name):
            values[name] = _number(texts[0])
        else:
            values[name] = texts[0]
    return values


def short_ramsch_given(d: Mapping[str, Any]) -> bool:
    """Whether a Ramsch was entered the short way (loser, Jungfrau, Durchmarsch)."""
    return bool(d.get("ramsch_loser")) or d.get("ramsch_loser_points") is not None or (
        d.get("ramsch_durchmarsch") is not None) or bool(d.get("ramsch_jungfrau"))


def _seat_values(d: Mapping[str, Any], which: str) -> dict[str, Any]:
    seats = []
    for name, value in d.items():
        match = RAMSCH_SEAT_FIELD.match(name)
        if match and match.group(1) == which and value is not None:
            seats.append((int(match.group(2)), value))
    return {str(seat): value for seat, value in sorted(seats)}


def record_from_form(d: Mapping[str, Any]) -> dict[str, Any]:
    """The deal record the form's values stand for."""
    record = _record(d)
    # Bock by hand: sent as given, for the engine to accept or refuse (bock.manual).
    if record["kind"] in BOCK_KINDS:
        if d.get("bock") is not None:
            record["bock"] = d["bock"]
        if d.get("bock_round"):
            record["bock_round"] = True
    return record


def _record(d: Mapping[str, Any]) -> dict[str, Any]:
    kind = d.get("kind") or "game"
    if kind in ("passed", "misdeal"):
        return {"kind": kind}
    if kind == "penalty":
        penalty: dict[str, Any] = {"seat": d.get("penalty_seat")}
        if d.get("penalty_points") is not None:
            penalty["points"] = d["penalty_points"]
        if d.get("penalty_reason"):
            penalty["reason"] = d["penalty_reason"]
        return {"kind": "penalty", "penalty": penalty}
    if kind == "ramsch":
        points, tricks = _seat_values(d, "points"), _seat_values(d, "tricks")
        ramsch: dict[str, Any]
        if points or tricks or not short_ramsch_given(d):
            ramsch = {"points": points, "tricks": tricks}
        else:
            # A Durchmarsch: nobody else loses and the other two took no trick.
            durchmarsch = d.get("ramsch_durchmarsch")
            losers = [] if durchmarsch is not None else sorted(
                set(d.get("ramsch_loser") or []))
            ramsch = {"losers": {str(s): d.get("ramsch_loser_points") for s in losers},
                      "jungfrau": 2 if durchmarsch is not None else (
                          d.get("ramsch_jungfrau") or 0),
                      "durchmarsch": durchmarsch}
        if d.get("pushes") is not None:
            ramsch["pushes"] = d["pushes"]
        if d.get("skat_points") is not None:
            ramsch["skat_points"] = d["skat_points"]
        return {"kind": "ramsch", "ramsch": ramsch}
    record: dict[str, Any] = {"kind": "game", "declarer": d.get("declarer"),
                              "game": d.get("game") or None}
    for key in DECLARATIONS:
        record[key] = bool(d.get(key))
    optional = {
        "matadors": d.get("matadors"),
        "bid": d.get("bid_more") if d.get("bid_more") is not None else d.get("bid"),
        "result": d.get("result") or None,
        "declarer_points": d.get("declarer_points"),
        "declarer_tricks": d.get("declarer_tricks"),
        "kontra_by": d.get("kontra_by"),
        "concession": d.get("concession") or None,
    }
    record.update({k: v for k, v in optional.items() if v is not None})
    if d.get("kontra") and d["kontra"] != "none":
        record["kontra"] = d["kontra"]
    if d.get("spitze"):
        record["spitze"] = d["spitze"]
    if d.get("spitze_made"):
        record["spitze_made"] = d["spitze_made"] == "yes"
    if d.get("passt_mir_nicht"):
        record["passt_mir_nicht"] = True
    return record


def _object(value: Any) -> dict[str, Any]:
    """A part of a stored record that should be an object; anything else (a record stored
    before the import checked deleted deals, issue 16) reads as empty, never an error."""
    return value if isinstance(value, dict) else {}


def form_from_record(record: dict[str, Any]) -> dict[str, Any]:
    """The form's initial values for a stored record (correcting a deal)."""
    kind = record.get("kind", "game")
    initial: dict[str, Any] = {"kind": kind}
    if record.get("bock") is not None:
        initial["bock"] = record["bock"]
    if record.get("bock_round"):
        initial["bock_round"] = True
    if kind == "penalty":
        penalty = _object(record.get("penalty"))
        initial.update(penalty_seat=penalty.get("seat"), penalty_points=penalty.get("points"),
                       penalty_reason=penalty.get("reason") or "")
        return initial
    if kind == "ramsch":
        ramsch = _object(record.get("ramsch"))
        if "losers" in ramsch or "durchmarsch" in ramsch:
            losers = _object(ramsch.get("losers"))
            initial.update(ramsch_loser=[int(s) for s in losers if str(s).isdigit()],
                           ramsch_loser_points=next(iter(losers.values()), None),
                           ramsch_jungfrau=ramsch.get("jungfrau") or 0,
                           ramsch_durchmarsch=ramsch.get("durchmarsch"),
                           pushes=ramsch.get("pushes"), skat_points=ramsch.get("skat_points"))
            return initial
        for key, prefix in (("points", "ramsch_points_"), ("tricks", "ramsch_tricks_")):
            for seat, value in _object(ramsch.get(key)).items():
                initial[f"{prefix}{seat}"] = value
        initial.update(pushes=ramsch.get("pushes"), skat_points=ramsch.get("skat_points"))
        return initial
    if kind != "game":
        return initial
    for key in ("declarer", "game", "matadors", "bid", "result", "kontra_by", "spitze",
                "hand", "ouvert", "schneider_announced", "schwarz_announced",
                "passt_mir_nicht"):
        if record.get(key) is not None:
            initial[key] = record[key]
    initial["declarer_points"] = record.get("declarer_points")
    initial["declarer_tricks"] = record.get("declarer_tricks")
    initial["kontra"] = record.get("kontra") or "none"
    initial["concession"] = record.get("concession") or ""
    made = record.get("spitze_made")
    initial["spitze_made"] = "" if made is None else ("yes" if made else "no")
    return initial
