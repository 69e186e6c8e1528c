"""The rule-profile form takes each option's default from the engine
(engine.options.option_defaults and bock_defaults), so the two cannot drift apart: a new
profile left as the form shows it is saved with no options at all."""

from __future__ import annotations

import pytest

from scoring.engine import SYSTEMS, bock_defaults, option_defaults, parse_options
from scoring.engine.options import PLAYER_DEPENDENT
from scoring.forms.club import BOCK_DEFAULTS, OPTION_DEFAULTS, OPTION_KEYS, RuleProfileForm
from scoring.models import RuleProfile

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
