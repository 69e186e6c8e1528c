"""The rule-profile form takes each option's default from the engine
(engine.options.option_defaults and bock_defaults), so the two cannot drift apart: a new
profile left as the form shows it is saved with no options at all."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.engine import (
    OPTION_SPECS,
    PLAYER_DEPENDENT,
    SYSTEMS,
    SkatError,
    bock_defaults,
    option_defaults,
    parse_options,
)
from scoring.forms.rule_profile import BOCK_DEFAULTS, OPTION_DEFAULTS, OPTION_KEYS, RuleProfileForm
from scoring.models import RuleProfile
from scoring.reads.rule_words import (
    OPTION_GROUPS_AFTER_BOCK,
    OPTION_GROUPS_BEFORE_BOCK,
    OPTION_WORDS,
)

from .factories import make_club
from .test_rule_profiles import post_data

pytestmark = pytest.mark.django_db


def test_the_forms_defaults_are_the_engines() -> None:
    for system in SYSTEMS:
        engine = {key: value for key, value in option_defaults(system).items()
                  if key != "bock"}  # bock is the group of bock_* fields
        form = {key: defaults[system] for key, defaults in OPTION_DEFAULTS.items()
                if system in defaults}
        assert form == engine, system
    assert bock_defaults() == BOCK_DEFAULTS


def test_the_form_lists_every_option_of_every_system_once() -> None:
    engine_keys = {key for system in SYSTEMS for key in option_defaults(system)}
    assert len(OPTION_KEYS) == len(set(OPTION_KEYS))
    assert set(OPTION_KEYS) == engine_keys - {"bock"}
    fields = RuleProfileForm.base_fields
    assert set(OPTION_KEYS) <= set(fields)
    assert {f"bock_{key}" for key in BOCK_DEFAULTS} <= set(fields)


def test_a_player_dependent_option_is_not_written_by_default() -> None:
    assert {"beer_limit"} == PLAYER_DEPENDENT
    assert OPTION_DEFAULTS["beer_limit"] == {"american1898": None}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_new_profile_as_the_form_shows_it_has_no_options(system: str) -> None:
    club = make_club()
    initial = RuleProfileForm.initial_from(RuleProfile(club=club, rules=system))
    data = post_data(initial, name=f"Neu {system}", rules=system, scoring="classic")
    form = RuleProfileForm(data, club=club)
    assert form.is_valid(), form.errors
    assert form.options() == {}
    assert parse_options(system, form.options(), 4) == parse_options(system, None, 4)


def test_every_option_has_its_words_and_its_place_on_the_form() -> None:
    """The form builds an option's field from the engine's spec and the rule words: an
    option added to the engine without its words, or its words without a fieldset, fails
    here rather than missing from the page."""
    shown = [key for group in (*OPTION_GROUPS_BEFORE_BOCK, *OPTION_GROUPS_AFTER_BOCK)
             for key in group.keys]
    assert sorted(shown) == sorted(OPTION_KEYS)  # each once
    assert set(OPTION_WORDS) == set(OPTION_KEYS)
    for key in OPTION_KEYS:
        spec, words = OPTION_SPECS[key], OPTION_WORDS[key]
        assert set(words.values) == set(spec.values), key
        field = RuleProfileForm.base_fields[key]
        assert field.label == words.label
        if spec.kind in ("choice", "set"):
            assert [value for value, _label in field.choices] == list(spec.values)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("key", "value", "message"), [
    ("penalty_points", "10001", "less than or equal to 10000"),
    ("ramsch_base", "0", "greater than or equal to 1"),
    ("grand_base", "21", "Select a valid choice"),
    ("exceptional", ["uno", "quattro"], "Select a valid choice"),
])
def test_an_option_field_refuses_what_the_engine_refuses(key: str, value: object,
                                                        message: str) -> None:
    club = make_club()
    system = next(s for s in SYSTEMS if key in option_defaults(s))
    initial = RuleProfileForm.initial_from(RuleProfile(club=club, rules=system))
    data = post_data(initial, name="Neu", rules=system, scoring="classic", **{key: value})
    form = RuleProfileForm(data, club=club)
    with translation.override("en"):
        assert not form.is_valid()
        assert message in str(form.errors[key])
    with pytest.raises(SkatError):
        raw = value if isinstance(value, list) else int(str(value))
        parse_options(system, {key: raw}, 4)
