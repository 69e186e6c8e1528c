"""The engine's public list of each rule system's options with their defaults
(options.option_defaults, options.bock_defaults): what the rule-profile form builds on."""

from __future__ import annotations

import pytest

from scoring.engine import SYSTEMS, SkatError, bock_defaults, option_defaults, parse_options
from scoring.engine.options import PLAYER_DEPENDENT


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("players", [3, 4])
def test_every_default_written_out_changes_nothing(system: str, players: int) -> None:
    """Each listed option is accepted by the system, and its default, written into the
    options object, parses to the same options as leaving it out."""
    written = {key: value for key, value in option_defaults(system).items()
               if key not in PLAYER_DEPENDENT}
    assert parse_options(system, written, players) == parse_options(system, None, players)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_list_is_every_option_the_system_accepts(system: str) -> None:
    listed = option_defaults(system)
    for other in SYSTEMS:
        for key, value in option_defaults(other).items():
            if key in listed:
                continue
            with pytest.raises(SkatError) as refused:
                parse_options(system, {key: value}, 4)
            assert refused.value.field == f"options.{key}"


def test_a_player_dependent_default_is_left_to_the_table() -> None:
    assert option_defaults("american1898")["beer_limit"] is None
    assert {"beer_limit"} == PLAYER_DEPENDENT
    assert parse_options("american1898", None, 3).beer_limit == 151
    assert parse_options("american1898", None, 4).beer_limit == 201


def test_sets_are_lists_in_their_canonical_order() -> None:
    assert option_defaults("american1898")["exceptional"] == []
    assert option_defaults("isko")["bock"] is None  # null: no Bock rounds
    triggers = bock_defaults()["triggers"]
    assert triggers == ["sixty_sixty", "kontra_lost", "re"]


def test_the_bock_defaults_written_out_change_nothing() -> None:
    written = parse_options("isko", {"bock": bock_defaults()}, 4)
    assert written.bock == parse_options("isko", {"bock": {}}, 4).bock


def test_system_defaults_differ_where_the_spec_says() -> None:
    assert option_defaults("isko")["ramsch"] == "off"
    assert option_defaults("american1898")["ramsch"] == "when_all_pass"
    assert option_defaults("hoyle")["frage"] is False
    assert option_defaults("american1898")["frage"] is True


def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(SkatError) as refused:
        option_defaults("skat2000")
    assert refused.value.field == "rules"
