"""Skatclub's scoring engine: pure Python, no Django.

Public API (shapes in deal-record.md):
- ``evaluate(deal)``: one deal record -> value, entries and an explanation;
- ``evaluate_table(table)``: an evening at one table -> dealers, rounds, Bock, running totals,
  Seeger-Fabian, settlement;
- ``evaluate_record(obj)``: either, as the ``score`` command reads it;
- ``SkatError``: the one error type, carrying the field and a sentence a scorer understands:
  ``message`` in English (the contract's language), ``message_in("de")`` in German
  (messages_de.py), formatted only when asked for.

Rule systems: ``isko`` (International Skat Order), ``american1898`` (St. Louis rules),
``hoyle`` (Foster's Hoyle). The authority on every rule is DECISIONS.md.
"""

from __future__ import annotations

from .bidding import auction, is_legal_bid
from .cards import card_points, matadors
from .errors import SkatError
from .form_record import form_from_record, form_values, record_from_form, short_ramsch_given
from .rulesets import AMERICAN1898, DEFAULT, HOYLE, ISKO, NAMES, Ruleset, ruleset, rulesets_json
from .table import evaluate, evaluate_evening, evaluate_record, evaluate_table

__all__ = [
    "AMERICAN1898", "DEFAULT", "HOYLE", "ISKO", "NAMES", "Ruleset", "ruleset", "rulesets_json",
    "form_from_record", "form_values", "record_from_form", "short_ramsch_given",
    "SkatError", "auction", "card_points", "evaluate", "evaluate_evening", "evaluate_record",
    "evaluate_table",
    "is_legal_bid", "matadors",
]
