"""The engine behind JSON text, for a caller that is not Python: the browser's Web Worker
(static/js/skat-engine-worker.js runs this very package under Pyodide).

``call("evaluate", text, lang)`` and ``call("evaluate_table", text, lang, explain,
explain_from)`` take the record as JSON text and answer JSON text: what ``evaluate`` or
``evaluate_table`` returns, or ``{"error": {"field", "message", "deal"}}`` with the message in
``lang``, the shape the ``score`` command prints. ``call("record_from_form", text)`` takes
the table screen's raw form data (``{name: [text, ...]}``, as the browser's FormData holds it)
and answers the deal record ``DealForm`` would build of it (form_record.py). Nothing here knows
a rule of Skat; it only moves text in and out, so the browser and the server cannot disagree
on a result or a record.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import SkatError
from .form_record import form_values, record_from_form
from .scores import DealScore, ScoredTable
from .table import evaluate, evaluate_table

FUNCTIONS = ("evaluate", "evaluate_table", "record_from_form")


def _error(message: str) -> dict[str, Any]:
    return {"error": {"field": None, "message": message, "deal": None}}


def result(function: str, record: object, lang: str = "en", explain: bool = False,
           explain_from: int = 1) -> DealScore | ScoredTable | dict[str, Any]:
    """The payload for a parsed record, errors included (never raises): the engine's typed
    answer, which is its JSON (scores.py), or the error shape."""
    try:
        if function == "evaluate":
            return evaluate(record, lang)
        if function == "evaluate_table":
            return evaluate_table(record, lang, explain=explain, explain_from=explain_from)
        if function == "record_from_form":
            if not isinstance(record, dict):
                return _error("internal error: the form data is not an object")
            return record_from_form(form_values(record))
        return _error(f"internal error: unknown function {function!r}")
    except SkatError as exc:
        return {"error": exc.as_dict(lang)}
    except Exception as exc:
        # As in the score command: even an engine bug answers in the error shape, and the
        # type name tells the engine team where to look.
        return _error(f"internal error: {type(exc).__name__}: {exc}")


def call(function: str, text: str, lang: str = "en", explain: bool = False,
         explain_from: int = 1) -> str:
    """``result`` from JSON text to JSON text."""
    payload: DealScore | ScoredTable | dict[str, Any]
    try:
        record = json.loads(text)
    except (TypeError, ValueError) as exc:
        payload = _error(f"internal error: the record is not JSON: {exc}")
    else:
        payload = result(function, record, lang, explain, explain_from)
    try:
        return json.dumps(payload, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return json.dumps(_error(f"internal error: result is not JSON: {exc}"))
