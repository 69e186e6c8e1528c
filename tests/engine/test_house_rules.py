"""The house rules of DECISIONS.md §9: options that other programs' clubs play. Their defaults
keep every rule as it was; each one is refused with a clear error where it cannot apply."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import SkatError, evaluate, evaluate_table
from scoring.engine.options import parse_options

RAMSCH = {"ramsch": "when_all_pass"}


def test_the_new_options_default_to_the_old_rules() -> None:
    o = parse_options("isko", None, 3)
    assert (o.ramsch_all_tied, o.ramsch_kontra, o.ramsch_cap, o.ramsch_round_grand_hand,
            o.overbid_charge) == ("none", False, None, "deals_again", "next_multiple")
    bock = parse_options("isko", {"bock": {}}, 3).bock
    assert bock is not None and bock.manual is False


def test_the_new_options_are_read() -> None:
    o = parse_options("isko", {
        **RAMSCH, "kontra": True, "ramsch_all_tied": "all_lose", "ramsch_kontra": True,
        "ramsch_cap": 250, "overbid_charge": "bid",
        "bock": {"manual": True, "ramsch_round_after": 1},
        "ramsch_round_grand_hand": "counts"}, 3)
    assert (o.ramsch_all_tied, o.ramsch_kontra, o.ramsch_cap, o.ramsch_round_grand_hand,
            o.overbid_charge) == ("all_lose", True, 250, "counts", "bid")
    assert o.bock is not None and o.bock.manual


def test_defaults_are_accepted_where_the_option_cannot_apply() -> None:
    """A form may send every key: a default never refuses anything."""
    o = parse_options("isko", {"ramsch_all_tied": "none", "ramsch_kontra": False,
                               "ramsch_cap": None, "ramsch_round_grand_hand": "deals_again",
                               "overbid_charge": "next_multiple", "bock": {"manual": False}},
                      3)
    assert o.ramsch == "off"


@pytest.mark.parametrize(("options", "field", "message"), [
    ({"ramsch_all_tied": "all_lose"}, "options.ramsch_all_tied",
     "Option ramsch_all_tied needs option ramsch on."),
    ({"kontra": True, "ramsch_kontra": True}, "options.ramsch_kontra",
     "Option ramsch_kontra needs option ramsch on."),
    ({"ramsch_cap": 250}, "options.ramsch_cap", "Option ramsch_cap needs option ramsch on."),
    ({**RAMSCH, "ramsch_kontra": True}, "options.ramsch_kontra",
     "Kontra on a Ramsch needs option kontra."),
    ({**RAMSCH, "ramsch_round_grand_hand": "counts"}, "options.ramsch_round_grand_hand",
     "Option ramsch_round_grand_hand applies to Ramsch rounds after Bock: it needs "
     "bock.ramsch_round_after."),
    ({**RAMSCH, "ramsch_round_grand_hand": "counts", "bock": {}},
     "options.ramsch_round_grand_hand",
     "Option ramsch_round_grand_hand applies to Ramsch rounds after Bock: it needs "
     "bock.ramsch_round_after."),
    ({**RAMSCH, "ramsch_cap": 0}, "options.ramsch_cap",
     "Option ramsch_cap must be null (no cap) or a whole number from 1 to 100000."),
    ({**RAMSCH, "ramsch_cap": "250"}, "options.ramsch_cap",
     "Option ramsch_cap must be null (no cap) or a whole number from 1 to 100000."),
    ({**RAMSCH, "ramsch_all_tied": "share"}, "options.ramsch_all_tied",
     "Option ramsch_all_tied must be one of 'none', 'all_lose'."),
    ({"overbid_charge": "half"}, "options.overbid_charge",
     "Option overbid_charge must be one of 'next_multiple', 'bid'."),
    ({"bock": {"manual": 1}}, "options.bock.manual", "Option bock.manual must be true or false."),
])
def test_options_that_cannot_apply_are_refused(options: dict[str, Any], field: str,
                                               message: str) -> None:
    with pytest.raises(SkatError) as caught:
        parse_options("isko", options, 3)
    assert (caught.value.field, caught.value.message) == (field, message)
    assert caught.value.message_in("de") != message


@pytest.mark.parametrize("system", ["american1898", "hoyle"])
def test_the_isko_house_rules_belong_to_isko(system: str) -> None:
    with pytest.raises(SkatError, match="Unknown option 'ramsch_cap'"):
        parse_options(system, {"ramsch_cap": 100}, 3)


def table(options: dict[str, Any], *deals: dict[str, Any]) -> dict[str, Any]:
    return {"rules": "isko", "options": options, "players": ["Anna", "Bernd", "Clara"],
            "deals": list(deals)}


def won(declarer: int = 0, **more: Any) -> dict[str, Any]:
    return {"kind": "game", "declarer": declarer, "game": "clubs", "matadors": 1, "bid": 18,
            "declarer_points": 70, **more}


@pytest.mark.parametrize(("options", "deal", "field", "message"), [
    ({"bock": {}}, won(bock=1), "bock",
     "This deal is played at Bock level 0, not 1; a table sets Bock by hand only with option "
     "bock.manual."),
    ({}, won(bock=1), "bock",
     "This deal is played at Bock level 0, not 1; a table sets Bock by hand only with option "
     "bock.manual."),
    ({"bock": {}}, won(bock_round=True), "bock_round",
     "A Bock round is queued by hand only with option bock.manual."),
    ({}, won(bock_round=True), "bock_round",
     "A Bock round is queued by hand only with option bock.manual."),
    ({"bock": {"manual": True}}, {"kind": "misdeal", "bock_round": True}, "bock_round",
     "A misdeal record does not count, so it starts no Bock round."),
    ({"bock": {"manual": True}}, {"kind": "penalty", "penalty": {"seat": 1}, "bock": 1},
     "bock", "A penalty record is never doubled by Bock."),
    ({"bock": {"manual": True}}, won(bock_round="yes"), "bock_round",
     "bock_round must be true or false."),
    ({"bock": {}}, won(bock=0, bock_manual=True), "bock_manual",
     "Bock is set by hand only with option bock.manual."),
    ({"bock": {"manual": True}}, won(bock_manual=True), "bock_manual",
     "bock_manual marks a Bock level set by hand: give the level (bock)."),
])
def test_bock_by_hand_needs_bock_manual(options: dict[str, Any], deal: dict[str, Any],
                                        field: str, message: str) -> None:
    with pytest.raises(SkatError) as caught:
        evaluate_table(table(options, won(), deal))
    assert (caught.value.field, caught.value.message, caught.value.deal) == (field, message, 2)
    assert caught.value.message_in("de") != message


def test_a_lone_deal_takes_bock_round_only_under_bock_manual() -> None:
    with pytest.raises(SkatError, match="only with option bock.manual"):
        evaluate(won(bock_round=True))
    manual = {"bock": {"manual": True}}
    assert evaluate({**won(bock_round=True, bock=1), "options": manual})["entries"] == {
        "0": 48}
