"""Every engine error has a German message (messages_de.py), and only errors pay for messages.

The catalogue is checked three ways: statically (every template raised in the engine's source
is a literal with a German entry, the same placeholders and different words), at run time (every
SkatError the fuzz strategies provoke renders in German through the catalogue, never through the
English fallback), and by hand (a few messages a scorer meets, in both languages).
"""

from __future__ import annotations

import ast
import pickle
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import SkatError, errors, evaluate, evaluate_record, evaluate_table
from scoring.engine.errors import Phrase, Term, language
from scoring.engine.games import Game
from scoring.engine.messages_de import MESSAGES
from scoring.engine.settlement import SettlementError, parse_settlement_options

from .strategies import isko_game, isko_null, ramsch
from .test_fuzz import field_names, json_values

ENGINE = Path(__file__).resolve().parents[2] / "scoring" / "engine"
# The callables whose argument at this position is a message template.
TEMPLATE_ARG = {"SkatError": 1, "SettlementError": 1, "Phrase": 0}


# ---------------------------------------------------------------- the source, statically

def _template_calls() -> Iterator[tuple[str, int, ast.expr]]:
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in TEMPLATE_ARG and len(node.args) > TEMPLATE_ARG[name]:
                yield path.name, node.lineno, node.args[TEMPLATE_ARG[name]]


def _passes_a_template_on(arg: ast.expr) -> bool:
    """`SkatError(err.field, err.template, …)`: an error re-raised as another keeps its
    template, which was checked where it was first raised."""
    return isinstance(arg, ast.Attribute) and arg.attr == "template"


def source_templates() -> dict[str, str]:
    """Every template in the engine's source -> where it is first used."""
    found: dict[str, str] = {}
    for name, line, arg in _template_calls():
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.setdefault(arg.value, f"{name}:{line}")
    return found


def placeholders(template: str) -> list[tuple[str, str | None, str | None]]:
    return sorted((name, conversion, spec)
                  for _text, name, spec, conversion in string.Formatter().parse(template)
                  if name is not None)


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def test_the_source_is_scanned() -> None:
    """The scan finds the raise sites (a broken scan would pass every test below)."""
    found = source_templates()
    assert len(found) > 150
    assert "{player} sits out this deal and cannot declare." in found
    assert "The declarer" in found  # a Phrase
    assert "{what} must be a finite amount, not {value}." in found  # a SettlementError


def test_every_template_is_a_literal() -> None:
    """A template built at run time (an f-string, a variable) could not be looked up."""
    computed = [f"{name}:{line}: {ast.unparse(arg)}" for name, line, arg in _template_calls()
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str))
                and not _passes_a_template_on(arg)]
    assert computed == []


def test_every_template_has_a_german_entry() -> None:
    missing = {t: where for t, where in source_templates().items() if t not in MESSAGES}
    assert missing == {}


def test_the_catalogue_has_no_stale_entries() -> None:
    unused = set(MESSAGES) - set(source_templates())
    assert unused == set()


@pytest.mark.parametrize("template", sorted(MESSAGES))
def test_german_has_the_same_placeholders(template: str) -> None:
    assert placeholders(MESSAGES[template]) == placeholders(template)


@pytest.mark.parametrize("template", sorted(MESSAGES))
def test_german_is_german_and_leaves_no_brace(template: str) -> None:
    german = MESSAGES[template]
    assert german != template
    filled = german.format_map(_Blank())  # every field filled; only literal braces remain
    if "{{" not in template:
        assert "{" not in filled and "}" not in filled


# ---------------------------------------------------------------- at run time, strictly

def strict_german(template: str, params: dict[str, object]) -> str:
    """The German message with no fallback: a missing entry or placeholder raises."""
    values: dict[str, object] = {}
    for key, value in params.items():
        if isinstance(value, SkatError | Phrase):  # words from the catalogue
            values[key] = strict_german(value.template, value.params)
        elif isinstance(value, Term | Game):
            values[key] = value.in_lang("de")
        else:
            assert not hasattr(value, "in_lang"), f"{key}: an unknown kind of words"
            values[key] = value
    return MESSAGES[template].format_map(values)


def check_german(err: SkatError) -> None:
    german = err.message_in("de")
    assert german == strict_german(err.template, err.params)  # the catalogue, not a fallback
    assert german != err.message
    assert err.message_in("en") == err.message == str(err)
    assert err.as_dict("de") == {"field": err.field, "message": german, "deal": err.deal}


def _german_if_refused(call: Callable[[Any], object], value: Any) -> None:
    try:
        call(value)
    except SkatError as err:
        check_german(err)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_arbitrary_json_is_refused_in_german(value: Any) -> None:
    _german_if_refused(evaluate_record, value)


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(isko_game(), isko_null(), ramsch()), field_names, json_values,
       st.sampled_from(["isko", "american1898", "hoyle"]))
def test_a_garbled_deal_is_refused_in_german(deal: dict[str, Any], key: str, value: Any,
                                             rules: str) -> None:
    _german_if_refused(evaluate, {**deal, "rules": rules, key: value})


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(isko_game(), isko_null(), ramsch()), min_size=1, max_size=6),
       st.integers(0, 5), field_names, json_values,
       st.dictionaries(st.sampled_from(["kontra", "ramsch", "bock", "spitze", "schenken",
                                        "grand_base", "rum", "schieberamsch"]),
                       json_values, max_size=2),
       st.dictionaries(st.sampled_from(["stake", "currency", "settlement", "scoring",
                                        "first_dealer"]), json_values, max_size=1))
def test_a_garbled_table_is_refused_in_german(deals: list[dict[str, Any]], index: int,
                                              key: str, value: Any, options: dict[str, Any],
                                              extra: dict[str, Any]) -> None:
    deals = [dict(d) for d in deals]
    deals[index % len(deals)][key] = value
    table = {"players": ["A", "B", "C"], "options": options, "deals": deals, **extra}
    _german_if_refused(evaluate_table, table)
    _german_if_refused(evaluate_record, {"tables": [table]})


# ---------------------------------------------------------------- by hand

GAME = {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
        "declarer_points": 70}


def refusal(call: Callable[[Any], object], value: Any) -> SkatError:
    with pytest.raises(SkatError) as caught:
        call(value)
    return caught.value


@pytest.mark.parametrize(("deal", "field", "english", "german"), [
    pytest.param(
        {"kind": "game", "declarer": 0, "game": "null", "bid": 24, "declarer_tricks": 0},
        "bid", "Null (23) cannot be declared after a bid of 24; Null Hand (35) can.",
        "Null (23) reicht nicht für den Reizwert 24; Null Hand (35) würde reichen.",
        id="null-bid-too-high"),
    pytest.param(
        {"kind": "game", "declarer": 0, "game": "null", "hand": True, "ouvert": True, "bid": 60,
         "declarer_tricks": 0},
        "bid", "Null Ouvert Hand (59) cannot be declared after a bid of 60.",
        "Null ouvert Hand (59) reicht nicht für den Reizwert 60.",
        id="null-ouvert-hand-bid-too-high"),
    pytest.param(
        {**GAME, "players": 4, "dealer": 2, "declarer": 2},
        "declarer", "Seat 2 sits out this deal and cannot declare.",
        "Platz 2 setzt in diesem Spiel aus und kann nicht Alleinspieler sein.",
        id="seat-sitting-out"),
    pytest.param(
        {**GAME, "players": ["Anna", "Bernd", "Clara", "Dieter"], "dealer": 2, "declarer": 2},
        "declarer", "Clara sits out this deal and cannot declare.",
        "Clara setzt in diesem Spiel aus und kann nicht Alleinspieler sein.",
        id="named-player-sitting-out"),
    pytest.param(
        {"kind": "ramsch", "players": ["Anna", "Bernd", "Clara"],
         "options": {"ramsch": "when_all_pass"},
         "ramsch": {"points": {"0": 60, "1": 40, "2": 20}, "tricks": {"0": 6, "1": 4, "2": 0}}},
        "ramsch.points", "Clara took no trick but has 20 card points.",
        "Clara hat keinen Stich gemacht, aber 20 Augen.", id="ramsch-points-without-trick"),
    pytest.param(
        {**GAME, "declarer_points": 100, "declarer_tricks": 10},
        "declarer_points", "All ten tricks make 120 card points.",
        "Alle zehn Stiche ergeben 120 Augen.", id="ten-tricks-not-120"),
    pytest.param(
        {**GAME, "declarer_points": 30, "declarer_tricks": 0},
        "declarer_points", "Without a trick the declarer can have at most 22 card points, "
        "not 30.", "Ohne Stich hat der Alleinspieler höchstens 22 Augen, nicht 30.",
        id="no-trick-but-points"),
    pytest.param(
        {**GAME, "result": "won"},
        "result", "Give the card points or a quick result, not both.",
        "Bitte entweder die Augen oder das Ergebnis (gewonnen, verloren …) angeben, "
        "nicht beides.", id="points-and-quick-result"),
    pytest.param(
        {**GAME, "bid": 19},
        "bid", "19 cannot be bid under the International Skat Order; the nearest bids are "
        "18 or 20.", "19 kann nach der Internationalen Skatordnung nicht gereizt werden; die "
        "nächsten Reizwerte sind 18 oder 20.", id="system-name"),
    pytest.param(
        {**GAME, "game": "grand", "matadors": 5, "bid": 24},
        "matadors", "In Grand the matadors are with or without 1 to 4 (+n with, −n without), "
        "not 5.", "Bei Grand heißt es mit oder ohne 1 bis 4 (+n mit, −n ohne), nicht 5.",
        id="grand-with-5"),
    pytest.param(
        {**GAME, "game": "hearts", "hand": False, "ouvert": True, "bid": 18},
        "ouvert", "Hearts ouvert must be played Hand.", "Herz ouvert muss Hand gespielt werden.",
        id="game-name"),
    pytest.param(
        {**GAME, "rules": "hoyle", "game": "solo_clubs", "concession": "declarer", "bid": 36,
         "declarer_points": None},
        "concession", "A Clubs Solo cannot be abandoned.",
        "Ein Kreuz-Solo kann nicht aufgegeben werden.", id="historic-game-name"),
    pytest.param(
        {**GAME, "cards": ["CJ", "SJ", "CA", "C10", "CK", "CQ", "C9", "C8", "C7", "SA", "S10",
                           "SK"], "matadors": -1},
        "matadors", "The cards give with 2, not without 1.",
        "Die Karten ergeben mit 2, nicht ohne 1.", id="with-and-without"),
    pytest.param(
        {"kind": "ramsch", "options": {"ramsch": "when_all_pass"}, "ramsch": {"points": 1}},
        "ramsch.points", "Give the card points of each player in the Ramsch.",
        "Bitte die Augen jedes Spielers im Ramsch angeben.", id="ramsch-words"),
    pytest.param(
        {"kind": "passed", "kontra": "re"},
        "kontra", "Kontra does not apply to a passed record.",
        "Kontra passt nicht zu einem Eintrag „Eingepasst“.", id="kind-name"),
])
def test_a_scorer_reads(deal: dict[str, Any], field: str, english: str, german: str) -> None:
    err = refusal(evaluate, deal)
    assert err.field == field
    assert err.message == english
    assert err.message_in("de") == german


def test_an_evening_names_the_table_in_both_languages() -> None:
    table = {"players": ["Anna", "Bernd", "Clara"], "deals": [{**GAME, "bid": 19}]}
    err = refusal(evaluate_record, {"tables": [{"players": ["A", "B", "C"], "deals": []},
                                              table]})
    assert (err.field, err.deal) == ("bid", 1)
    assert err.message.startswith("Table 2: 19 cannot be bid under the International")
    assert err.message_in("de").startswith("Tisch 2: 19 kann nach der Internationalen")


def test_a_settlement_error_is_german_too() -> None:
    err = refusal(parse_settlement_options, {"loss_cap": "-1"})
    assert isinstance(err, SettlementError)
    assert err.message == "The loss cap cannot be negative (-1)."
    assert err.message_in("de") == "Die Verlustgrenze darf nicht negativ sein (-1)."
    table = {"players": ["A", "B", "C"], "stake": "0.001", "currency": "EUR", "deals": [],
             "settlement": {"entry_fee": "0.005"}}
    err = refusal(evaluate_table, table)
    assert err.field == "settlement.entry_fee"
    assert err.message_in("de") == ("Das Startgeld 0.005 ist feiner als die kleinste Einheit "
                                    "von EUR (0.01).")


@pytest.mark.parametrize(("lang", "expected"), [
    ("de", "de"), ("de-at", "de"), ("de_DE", "de"), ("DE", "de"), ("en", "en"), ("en-gb", "en"),
    ("fr", "en"), (None, "en"), ("", "en"), ("dex", "en"),
])
def test_the_language_is_read_like_a_page_gives_it(lang: str | None, expected: str) -> None:
    assert language(lang) == expected
    err = refusal(evaluate, {**GAME, "bid": None})
    assert err.message_in(lang) == {"de": "Der Reizwert fehlt.",
                                    "en": "The bid is missing."}[expected]


def test_an_error_survives_pickling() -> None:
    table = {"players": ["A", "B", "C"], "deals": [GAME, {**GAME, "bid": 19}]}
    err = refusal(evaluate_table, table)
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.field, copy.deal, copy.message) == (err.field, err.deal, err.message)
    assert copy.message_in("de") == err.message_in("de")


def test_a_missing_entry_falls_back_to_english_not_to_an_error() -> None:
    err = SkatError("bid", "A message nobody translated ({n}).", n=3)
    assert err.message_in("de") == "A message nobody translated (3)."


# ---------------------------------------------------------------- the success path

def test_scoring_formats_no_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A valid deal or table never renders a message: errors are formatted when asked for."""

    def refuse(*_args: object) -> str:
        raise AssertionError("a message was formatted on the success path")

    monkeypatch.setattr(errors, "render", refuse)
    deals = [GAME, {**GAME, "declarer": 2, "game": "null", "matadors": None, "bid": 23,
                    "declarer_points": None, "declarer_tricks": 0},
             {"kind": "passed"}, {**GAME, "declarer": 0, "kontra": "kontra", "kontra_by": 1}]
    for lang in ("en", "de"):
        evaluate(GAME, lang)
        evaluate_table({"players": ["A", "B", "C"], "options": {"kontra": True},
                        "stake": "0.05", "deals": deals}, lang, explain=True)
    err = SkatError("bid", "The bid is missing.")  # raising formats nothing either
    with pytest.raises(AssertionError):
        _ = err.message
