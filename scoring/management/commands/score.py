"""`manage.py score FILE|-`: score a deal record (a lone deal or a table) and print JSON.

The contract is ../shared/spec/deal-record.md, "The command" and "Errors": the result goes to
standard output as JSON with exit status 0; any problem goes to standard output as
{"error": {"field", "message", "deal"}} with exit status 1, never as a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

STDIN = "-"

# Names a scorer recognises, for "the input must be a JSON object, not …".
JSON_TYPE_NAMES = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true or false",
    type(None): "null",
}


class InputError(Exception):
    """The input could not be turned into a JSON object; the engine never saw it."""


def error_payload(
    message: str, field: str | None = None, deal: int | None = None
) -> dict[str, Any]:
    return {"error": {"field": field, "message": message, "deal": deal}}


def read_bytes(source: str) -> bytes:
    if source == STDIN:
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from exc


def parse_json(raw: bytes) -> Any:
    """The input as JSON, or an InputError saying why not: never a traceback (the contract),
    also for an array nested deeper than Python's recursion allows or a number of more
    digits than it converts. Shared by the league_day command."""
    # json.loads on bytes detects UTF-8/16/32 and a BOM itself, so the reader's locale
    # never decides how a player's name with umlauts is decoded.
    try:
        return json.loads(raw)
    except UnicodeDecodeError as exc:
        raise InputError("the input is not UTF-8 text") from exc
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from exc
    except RecursionError as exc:
        raise InputError("invalid JSON: nested too deeply") from exc
    except ValueError as exc:  # a number of more digits than Python converts
        raise InputError(f"invalid JSON: {exc}") from exc


def parse_record(raw: bytes) -> dict[str, Any]:
    obj = parse_json(raw)
    if not isinstance(obj, dict):
        kind = JSON_TYPE_NAMES.get(type(obj), type(obj).__name__)
        raise InputError(f"the input must be a JSON object (a deal or a table), not {kind}")
    return obj


def score(record: dict[str, Any], lang: str = "en") -> tuple[dict[str, Any], int]:
    """Run the engine on a parsed record; return the payload to print and the exit status."""
    try:
        # Imported here, not at module level: an engine that fails to import must still end
        # in a JSON error, and input errors are reported even while the engine is missing.
        from scoring.engine import SkatError, evaluate_record
    except Exception as exc:
        return error_payload(f"internal error: scoring engine unavailable: {exc}"), 1
    try:
        result = evaluate_record(record, lang)
    except SkatError as exc:
        # The message follows --lang; English, the contract's language, is the default.
        return {"error": exc.as_dict() if lang == "en" else exc.as_dict(lang)}, 1
    except Exception as exc:
        # The contract forbids a traceback for any input, so even an engine bug is reported
        # in the error shape; the type name tells the engine team where to look.
        return error_payload(f"internal error: {type(exc).__name__}: {exc}"), 1
    return dict(result), 0


def run(source: str, lang: str = "en") -> tuple[dict[str, Any], int]:
    try:
        record = parse_record(read_bytes(source))
    except InputError as exc:
        return error_payload(str(exc)), 1
    return score(record, lang)


def to_json(payload: dict[str, Any]) -> str:
    # allow_nan=False: NaN or Infinity would print as JSON that other tools cannot read.
    return json.dumps(payload, indent=2, ensure_ascii=False, sort_keys=False, allow_nan=False)


class Command(BaseCommand):
    help = "Score a deal or a table given as JSON (a file, or - for standard input)."

    # Scoring is pure computation: no system checks, no database, so it runs anywhere.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", help="path to a JSON deal, table or evening, or - for standard input")
        parser.add_argument("--lang", choices=["en", "de"], default="en",
                            help="language of the explanations and of an error's message "
                                 "(default en)")

    def handle(self, *args: Any, **options: Any) -> None:
        payload, status = run(options["file"], options["lang"])
        try:
            text = to_json(payload)
        except (TypeError, ValueError) as exc:
            # The engine returned something JSON cannot carry: an engine bug, not bad input.
            text, status = to_json(error_payload(f"internal error: result is not JSON: {exc}")), 1
        self._use_utf8()
        self.stdout.write(text)
        if status:
            sys.exit(status)

    def _use_utf8(self) -> None:
        # JSON is UTF-8 by definition (RFC 8259); a C or Latin-1 terminal locale must not
        # turn "Jürgen" into a UnicodeEncodeError. Test buffers (StringIO) have no reconfigure.
        reconfigure = getattr(self.stdout, "reconfigure", None)
        if callable(reconfigure):
            reconfigure(encoding="utf-8")
