"""The registry of rule systems (scoring/engine/rulesets): one answer to every question the
rest of the code asks about a system (issue 27). Pure: no Django."""

from __future__ import annotations

import json

import pytest

from scoring.engine import (
    AMERICAN1898,
    DEFAULT,
    HOYLE,
    ISKO,
    NAMES,
    SYSTEMS,
    Ruleset,
    SkatError,
    option_defaults,
    parse_options,
    ruleset,
    rulesets_json,
)
from scoring.engine.deal import legal_bids


def test_the_names_are_the_spec_s() -> None:
    assert (ISKO, AMERICAN1898, HOYLE) == ("isko", "american1898", "hoyle")
    assert NAMES == SYSTEMS == (ISKO, AMERICAN1898, HOYLE)
    assert DEFAULT == ISKO
    for name in NAMES:
        assert isinstance(ruleset(name), Ruleset)
        assert ruleset(name).name == name


@pytest.mark.parametrize("name", ["", "ISKO", "skat", None, 1, ["isko"]])
def test_an_unknown_system_is_the_engine_s_error(name: object) -> None:
    with pytest.raises(SkatError) as refused:
        ruleset(name)
    assert refused.value.field == "rules"
    assert refused.value.message == ("Unknown rule system: use one of isko, american1898, "
                                     "hoyle.")
    german = refused.value.message_in("de")
    assert german != refused.value.message and "isko, american1898, hoyle" in german


@pytest.mark.parametrize("name", NAMES)
def test_the_options_parsed_are_the_registry_s(name: str) -> None:
    """options.py takes which option belongs to which system from the registry."""
    rules = ruleset(name)
    assert tuple(option_defaults(name)) == rules.option_keys
    assert rules.option_defaults() == option_defaults(name)
    for key, value in rules.option_overrides.items():
        assert getattr(parse_options(name, None, 4), key) == value


def test_which_system_takes_which_option() -> None:
    isko, am98, hoyle = (ruleset(n) for n in NAMES)
    assert {"grand_base", "kontra", "spitze", "schenken", "bock", "schieberamsch"} <= set(
        isko.option_keys)
    assert {"contra", "exceptional", "beer_limit", "forced_ramsch_every"} <= set(
        am98.option_keys)
    assert {"uno_duo", "ramsch_base"} <= set(hoyle.option_keys)
    assert "contra" not in isko.option_keys and "kontra" not in am98.option_keys
    assert isko.bock and not am98.bock and not hoyle.bock
    assert set(isko.ramsch_options) <= set(isko.option_keys)
    assert am98.ramsch_options == hoyle.ramsch_options == ()


# ---------------------------------------------------------------- the table screen's questions

def _ask(name: str, options: dict[str, object] | None = None, players: int = 3
         ) -> dict[str, object]:
    rules = ruleset(name)
    o = parse_options(name, options or {}, players)
    return {"declarations": rules.declarations(o), "kontra": rules.kontra(o),
            "spitze": rules.spitze(o), "schenken": rules.schenken(o),
            "pushes": rules.pushes(o), "skat_to_nobody": rules.skat_to_nobody(o)}


def test_isko_by_default() -> None:
    assert _ask(ISKO) == {
        "declarations": ("hand", "schneider_announced", "schwarz_announced", "ouvert"),
        "kontra": False, "spitze": False, "schenken": False, "pushes": False,
        "skat_to_nobody": False}


def test_isko_with_its_options() -> None:
    asked = _ask(ISKO, {"kontra": True, "spitze": True, "schenken": True,
                        "ramsch": "when_all_pass", "schieberamsch": "mandatory",
                        "ramsch_skat": "nobody"})
    assert asked["kontra"] and asked["spitze"] and asked["schenken"]
    assert asked["pushes"] and asked["skat_to_nobody"]


def test_american1898() -> None:
    assert _ask(AMERICAN1898) == {
        "declarations": ("schneider_announced", "schwarz_announced"), "kontra": False,
        "spitze": False, "schenken": False, "pushes": False, "skat_to_nobody": True}
    assert _ask(AMERICAN1898, {"contra": True})["kontra"] is True


def test_hoyle() -> None:
    assert _ask(HOYLE) == {
        "declarations": ("schneider_announced", "schwarz_announced", "ouvert",
                         "passt_mir_nicht"),
        "kontra": False, "spitze": False, "schenken": False, "pushes": False,
        "skat_to_nobody": False}
    # Ouvert is offered while a game can be played open (Uno and Duo).
    rules = ruleset(HOYLE)
    assert "ouvert" not in rules.declarations(parse_options(HOYLE, {"uno_duo": False}, 3))


def test_the_games_offered() -> None:
    isko = ruleset(ISKO)
    o = parse_options(ISKO, {"grand_base": 20}, 3)
    assert [g.key for g in isko.games(o)] == ["clubs", "spades", "hearts", "diamonds",
                                              "grand", "null"]
    assert isko.all_games(o)["grand"].base == 20
    hoyle = ruleset(HOYLE)
    o = parse_options(HOYLE, {}, 3)
    keys = [g.key for g in hoyle.games(o)]
    assert "uno" in keys and not any(k.startswith("frage") for k in keys)  # frage off
    assert set(keys) < set(hoyle.all_games(o))


@pytest.mark.parametrize("name", NAMES)
def test_the_bids_offered(name: str) -> None:
    rules = ruleset(name)
    o = parse_options(name, {}, 3)
    assert rules.bids(o) == sorted(legal_bids(name, o))
    common = rules.common_bids(o)
    assert common == rules.bids(o)[:len(common)]
    if name == ISKO:
        assert common[0] == 18 and common[-1] == 60
    else:
        assert len(common) == 18


def test_what_a_declaration_implies() -> None:
    for name in NAMES:
        implies = ruleset(name).implies
        assert implies["schwarz_announced"] == ("hand", "schneider_announced")
        assert implies["ouvert"] == ("hand", "schneider_announced", "schwarz_announced")
        assert implies["hand"] == ()


# ---------------------------------------------------------------- Seeger-Fabian

@pytest.mark.parametrize(("name", "players", "scoring", "kept", "scored_as"), [
    (ISKO, 3, "classic", True, "seeger_fabian"),
    (ISKO, 4, "classic", True, "seeger_fabian"),
    (ISKO, 4, "seeger_fabian", True, "seeger_fabian"),
    (ISKO, 5, "classic", False, "classic"),
    (ISKO, 2, "classic", False, "classic"),
    (ISKO, 4, "beer", False, "beer"),
    (AMERICAN1898, 3, "classic", False, "classic"),
    (AMERICAN1898, 3, "beer", False, "beer"),
    (HOYLE, 4, "classic", False, "classic"),
])
def test_seeger_fabian_once(name: str, players: int, scoring: str, kept: bool,
                            scored_as: str) -> None:
    rules = ruleset(name)
    assert rules.keeps_seeger_fabian(scoring, players) is kept
    assert rules.scoring_for(scoring, players) == scored_as
    assert rules.seeger_fabian(players) is (name == ISKO and players in (3, 4))


def test_the_scorings_of_each_system() -> None:
    assert ruleset(ISKO).scorings == ("classic", "seeger_fabian")
    assert ruleset(AMERICAN1898).scorings == ("classic", "beer")
    assert ruleset(HOYLE).scorings == ("classic",)


def test_the_browser_s_json() -> None:
    data = rulesets_json()
    assert list(data) == list(NAMES)
    assert json.loads(json.dumps(data)) == data
    assert data[ISKO]["options"] == list(ruleset(ISKO).option_keys)
    assert data[HOYLE]["implies"] == {k: list(v) for k, v in ruleset(HOYLE).implies.items()}


def test_the_game_table_for_labels_reads_stored_options() -> None:
    assert ruleset(ISKO).game_table({})["grand"].base == 24
    assert ruleset(ISKO).game_table({"grand_base": 20})["grand"].base == 20
    assert "tourne_hearts" in ruleset(HOYLE).game_table({})
    assert "solo_clubs" in ruleset(AMERICAN1898).game_table({"contra": True})
    for name in NAMES:
        o = parse_options(name, {}, 3)
        assert ruleset(name).all_games(o) == ruleset(name).game_table({})
