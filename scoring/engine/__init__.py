"""Skatclub's scoring engine: pure Python, no Django.

Public API (shapes in deal-record.md); everything outside scoring/engine imports from here,
never from a submodule (tests/test_architecture.py checks):
- ``evaluate(deal)``: one deal record -> value, entries and an explanation;
- ``evaluate_table(table)``: an evening at one table -> dealers, rounds, Bock, running totals,
  Seeger-Fabian, settlement;
- ``evaluate_record(obj)``: either, as the ``score`` command reads it;
- ``SkatError``: the one error type, carrying the field and a sentence a scorer understands:
  ``message`` in English (the contract's language), ``message_in("de")`` in German
  (messages_de.py), formatted only when asked for; ``Localized`` is anything that renders
  in a language that way, ``language`` the supported language for a code;
- rule options: ``parse_options``, ``Options``, ``OptionValue``, ``option_defaults``,
  ``bock_defaults``, ``SYSTEMS``;
- games and bids: ``Game``, ``ISKO_GAMES``, ``HISTORIC_GAMES``, ``AMERICAN1898_GAMES``,
  ``QUICK_RESULTS``, ``legal_bids``, ``game_enabled``, ``auction``, ``is_legal_bid``,
  ``card_points``, ``matadors``;
- deal records: ``active_seats`` (who plays at a table of 4 to 6), ``normalised`` and
  ``same_deal`` (a record as the engine reads it);
- money: ``settle``, ``SettlementOptions``, ``SettlementError``, ``parse_settlement_options``,
  ``parse_stake``, ``minor_unit``;
- ``cyclic_gc_paused()``: a context manager that pauses Python's cyclic garbage collector
  while a large result is built (as evaluate_table does), restoring it after;
- the deal record as types (records.py: ``DealRecord``, ``GameRecord`` … ``deal_record``,
  ``record_json``, the enums ``GameType``, ``Kontra``, ``DealKind``, ``Concession``,
  ``QuickResult``) and the engine's answers as types (scores.py: ``DealScore``,
  ``ScoredTable``, ``TableDeal``, ``ScoredEvening``);
- ``generate_deals``, ``random_game``, ``random_ramsch``: realistic played deals (sample.py),
  for demos, benchmarks and tests.

- rule systems: ``ruleset(name)`` answers what the rest of the code asks of a system (its
  options, declarations and what they imply, bids, games, whether Seeger-Fabian applies),
  ``ISKO``, ``AMERICAN1898``, ``HOYLE``, ``DEFAULT``, ``NAMES``, ``rulesets_json`` (the same
  for the browser);
- the table screen's form and a record: ``record_from_form``, ``form_from_record``,
  ``form_values``, ``short_ramsch_given`` (form_record.py; the offline table through jsonapi).
- team leagues (league.py, league-day.md): ``league_standings(teams, days)`` -> a
  ``LeagueResult`` (each match day's ``SeriesRow``s and ``TableRow``s, the league table;
  ``to_json()`` the ``league_day`` command's output) from ``LeagueTeam``s and ``LeagueDay``s,
  ``parse_league(obj)`` the command's JSON read and checked into them; ``LeagueDayResult``.

Rule systems: ``isko`` (International Skat Order), ``american1898`` (St. Louis rules),
``hoyle`` (Foster's Hoyle). The authority on every rule is DECISIONS.md.
"""

from __future__ import annotations

from .bidding import auction, is_legal_bid
from .cards import card_points, matadors
from .deal import QUICK_RESULTS, game_enabled, legal_bids
from .errors import Localized, SkatError, language
from .fields import active_seats, normalised, same_deal
from .form_record import form_from_record, form_values, record_from_form, short_ramsch_given
from .games import AMERICAN1898_GAMES, HISTORIC_GAMES, ISKO_GAMES, Game
from .league import (
    LeagueDay,
    LeagueDayResult,
    LeagueResult,
    LeagueTeam,
    SeriesRow,
    TableRow,
    league_standings,
    parse_league,
)
from .options import OPTION_SPECS, PLAYER_DEPENDENT, Options, OptionSpec, OptionValue, bock_defaults
from .records import (
    Concession,
    DealKind,
    DealRecord,
    GameRecord,
    GameType,
    Kontra,
    MisdealRecord,
    PassedRecord,
    PenaltyOrder,
    PenaltyRecord,
    QuickResult,
    RamschPlay,
    RamschRecord,
    RecordError,
    deal_record,
    is_record,
    record_json,
)
from .rulesets import (
    AMERICAN1898,
    DEFAULT,
    HOYLE,
    ISKO,
    NAMES,
    SYSTEMS,
    Ruleset,
    option_defaults,
    parse_options,
    ruleset,
    rulesets_json,
)
from .sample import generate_deals, random_game, random_ramsch
from .scores import DealScore, ScoredEvening, ScoredTable, TableDeal
from .settlement import (
    SettlementError,
    SettlementOptions,
    minor_unit,
    parse_settlement_options,
    parse_stake,
    settle,
)
from .table import _cyclic_gc_paused as cyclic_gc_paused
from .table import evaluate, evaluate_evening, evaluate_record, evaluate_table
from .tracker import BockStanding, bock_standing

__all__ = [
    "AMERICAN1898",
    "BockStanding",
    "bock_standing",
    "AMERICAN1898_GAMES",
    "DEFAULT",
    "HISTORIC_GAMES",
    "HOYLE",
    "ISKO",
    "ISKO_GAMES",
    "NAMES",
    "QUICK_RESULTS",
    "SYSTEMS",
    "Concession",
    "DealKind",
    "DealRecord",
    "DealScore",
    "Game",
    "GameRecord",
    "GameType",
    "Kontra",
    "LeagueDay",
    "LeagueDayResult",
    "LeagueResult",
    "LeagueTeam",
    "Localized",
    "MisdealRecord",
    "OptionValue",
    "Options",
    "OPTION_SPECS",
    "OptionSpec",
    "PLAYER_DEPENDENT",
    "PassedRecord",
    "PenaltyOrder",
    "PenaltyRecord",
    "QuickResult",
    "RamschPlay",
    "RamschRecord",
    "RecordError",
    "Ruleset",
    "ScoredEvening",
    "ScoredTable",
    "SettlementError",
    "SeriesRow",
    "SettlementOptions",
    "SkatError",
    "TableDeal",
    "TableRow",
    "active_seats",
    "auction",
    "bock_defaults",
    "card_points",
    "cyclic_gc_paused",
    "deal_record",
    "evaluate",
    "evaluate_evening",
    "evaluate_record",
    "evaluate_table",
    "form_from_record",
    "form_values",
    "game_enabled",
    "generate_deals",
    "is_legal_bid",
    "is_record",
    "language",
    "league_standings",
    "legal_bids",
    "matadors",
    "minor_unit",
    "normalised",
    "option_defaults",
    "parse_league",
    "parse_options",
    "parse_settlement_options",
    "parse_stake",
    "random_game",
    "random_ramsch",
    "record_from_form",
    "record_json",
    "ruleset",
    "rulesets_json",
    "same_deal",
    "settle",
    "short_ramsch_given",
]
