"""The house rules of DECISIONS.md §9: options that other programs' clubs play. Their defaults
keep every rule as it was; each one is refused with a clear error where it cannot apply."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import DealScore, SkatError, evaluate, evaluate_table, parse_options

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


# ---------------------------------------------------------------- semantics, worked by hand

NAMES3 = ["Anna", "Bernd", "Clara"]


def ramsch(short: dict[str, Any], options: dict[str, Any], lang: str = "en",
           **more: Any) -> DealScore:
    return evaluate({"kind": "ramsch", "options": {**RAMSCH, **options}, "players": NAMES3,
                     "ramsch": short, **more}, lang)


def test_all_tied_all_lose() -> None:
    tied = {"losers": {"0": 40, "1": 40, "2": 40}}
    assert ramsch(tied, {})["entries"] == {}
    result = ramsch(tied, {"ramsch_all_tied": "all_lose"})
    assert result["entries"] == {"0": -40, "1": -40, "2": -40}
    assert result["explanation"] == ("Ramsch (all tied: all lose): Anna (40 card points) −40, "
                                     "Bernd (40 card points) −40, Clara (40 card points) −40")
    bock = ramsch(tied, {"ramsch_all_tied": "all_lose"}, "de", bock=1)
    assert bock["entries"] == {"0": -80, "1": -80, "2": -80}
    assert bock["explanation"].startswith("Ramsch (alle gleich: alle verlieren, Bock × 2): "
                                          "Anna (40 Augen) −80")
    # the same from the full record; shared, each tied loser's share rounds away from zero
    full = {"points": {"0": 40, "1": 40, "2": 40}, "tricks": {"0": 4, "1": 3, "2": 3}}
    assert ramsch(full, {"ramsch_all_tied": "all_lose"})["entries"] == result["entries"]
    shared = ramsch(tied, {"ramsch_all_tied": "all_lose", "ramsch_ties": "share"})
    assert shared["entries"] == {"0": -14, "1": -14, "2": -14}
    simple = ramsch(tied, {"ramsch_all_tied": "all_lose", "ramsch_scoring": "simple"})
    assert simple["entries"] == {"0": -10, "1": -10, "2": -10}


def test_kontra_and_re_on_a_ramsch() -> None:
    options = {"kontra": True, "ramsch_kontra": True}
    result = ramsch({"losers": {"1": 83}}, options, kontra="kontra", kontra_by=0)
    assert result["entries"] == {"1": -166}
    assert result["explanation"] == "Ramsch (Kontra × 2): Bernd (83 card points) −166"
    assert ramsch({"losers": {"1": 83}}, options, kontra="re")["entries"] == {"1": -332}
    jungfrau = ramsch({"losers": {"1": 83}, "jungfrau": 1}, options, "de", kontra="kontra")
    assert jungfrau["entries"] == {"1": -332}
    assert jungfrau["explanation"] == "Ramsch (Jungfrau × 2, Kontra × 2): Bernd (83 Augen) −332"
    # a Durchmarsch is an entry too: Kontra doubles his gain
    assert ramsch({"durchmarsch": 2}, options, kontra="kontra")["entries"] == {"2": 240}
    with pytest.raises(SkatError) as caught:
        ramsch({"losers": {"1": 83}}, {"kontra": True}, kontra="kontra")
    assert caught.value.field == "kontra" and "option ramsch_kontra" in caught.value.message
    with pytest.raises(SkatError, match="Nobody said Kontra"):
        ramsch({"losers": {"1": 83}}, options, kontra_by=1)


def test_re_on_a_ramsch_triggers_bock() -> None:
    options = {**RAMSCH, "kontra": True, "ramsch_kontra": True, "bock": {"triggers": ["re"]}}
    result = evaluate_table({"rules": "isko", "options": options, "players": NAMES3, "deals": [
        {"kind": "ramsch", "kontra": "re", "ramsch": {"losers": {"1": 83}}},
        {"kind": "ramsch", "ramsch": {"losers": {"1": 83}}},
    ]})
    assert [row["entries"] for row in result["deals"]] == [{"1": -332}, {"1": -166}]
    assert result["bock_pending"] == 2


def test_the_ramsch_cap_after_every_doubling() -> None:
    options = {"kontra": True, "ramsch_kontra": True, "ramsch_cap": 250}
    result = ramsch({"losers": {"1": 96}}, options, bock=1, kontra="kontra")
    assert result["entries"] == {"1": -250}
    assert result["explanation"] == (
        "Ramsch (Kontra × 2, Bock × 2): Bernd (96 card points) −384 → capped at 250: −250")
    german = ramsch({"losers": {"1": 96}}, options, "de", bock=1, kontra="kontra")
    assert german["explanation"] == (
        "Ramsch (Kontra × 2, Bock × 2): Bernd (96 Augen) −384 → gedeckelt auf 250: −250")
    # below the cap nothing changes; a Durchmarsch gain is never capped
    assert ramsch({"losers": {"1": 96}}, options, kontra="kontra")["entries"] == {"1": -192}
    durchmarsch = ramsch({"durchmarsch": 0}, {**options, "ramsch_cap": 100}, bock=1,
                         kontra="kontra")
    assert durchmarsch["entries"] == {"0": 480}
    # a Durchmarsch that costs (times4) is a Ramsch loss like any other
    times4 = ramsch({"durchmarsch": 0}, {"ramsch_durchmarsch": "times4", "ramsch_cap": 250})
    assert times4["entries"] == {"0": -250}


def test_the_cap_holds_in_a_bock_round_of_a_table() -> None:
    options = {**RAMSCH, "ramsch_cap": 100, "schieberamsch": "optional_double",
               "bock": {"triggers": ["all_passed"]}}
    deals = [{"kind": "passed"}, {"kind": "ramsch", "ramsch": {"losers": {"2": 61},
                                                                "jungfrau": 1, "pushes": 1}}]
    result = evaluate_table({"rules": "isko", "options": options, "players": NAMES3,
                             "deals": deals}, explain=True)
    row = result["deals"][1]
    assert row["bock"] == 1 and row["entries"] == {"2": -100}  # 61 × 2 × 2 × 2 = 488
    assert result["totals"] == {"0": 0, "1": 0, "2": -100}
    assert row["explanation"] == ("Ramsch (Jungfrau × 2, pushed × 2, Bock × 2): "
                                  "Clara (61 card points) −488 → capped at 100: −100")


def test_overbid_charged_at_the_bid() -> None:
    clubs = won(1, bid=30)  # Clubs with 1 = 24 < 30: lost, overbid
    assert evaluate(clubs)["entries"] == {"1": -72}
    result = evaluate({**clubs, "options": {"overbid_charge": "bid"}})
    assert (result["entries"], result["charged_value"]) == ({"1": -60}, 30)
    assert result["explanation"] == ("with 1, game 2 × Clubs 12 = 24 < bid 30 → overbid: "
                                     "30 × 2 = −60")


def grand_hand(declarer: int) -> dict[str, Any]:
    return {"kind": "game", "declarer": declarer, "game": "grand", "hand": True,
            "matadors": 1, "bid": 18, "declarer_points": 70}


@pytest.mark.parametrize("rule", ["deals_again", "counts"])
def test_a_grand_hand_in_a_ramsch_round(rule: str) -> None:
    """60:60 queues a Bock round (deals 2-4), then a Ramsch round follows (deals 5-7); deal 5
    is a Grand Hand instead."""
    options = {**RAMSCH, "bock": {"ramsch_round_after": 1},
               "ramsch_round_grand_hand": rule}
    short = {"kind": "ramsch", "ramsch": {"losers": {"0": 61}}}
    deals = [won(1, declarer_points=60), won(2), won(0), won(1), grand_hand(2), short]
    result = evaluate_table({"rules": "isko", "options": options, "players": NAMES3,
                             "first_dealer": 0, "deals": deals})
    rows = result["deals"]
    assert [r["ramsch_round"] for r in rows] == [False] * 4 + [True, True]
    grand, after = rows[4], rows[5]
    assert grand["dealer"] == 1 and grand["entries"] == {"2": 72}
    if rule == "counts":
        assert grand["counts"] and after["dealer"] == 2
        assert result["next"]["ramsch_deal"] == 3
    else:
        assert not grand["counts"] and after["dealer"] == 1
        assert result["next"]["ramsch_deal"] == 2


def test_bock_by_hand() -> None:
    """Deal 1 at level 1 by hand; deal 2 at level 2 by hand while its 60:60 still queues a
    round (deals 3-5, the tracker's); deal 6 queues a round by hand (deals 7-9)."""
    options = {"bock": {"manual": True}}
    deals = [won(0, bock=1), won(1, declarer_points=60, bock=2), won(2), won(0), won(1),
             won(2, bock_round=True), won(0), won(1), won(2, bock=0), won(0)]
    result = evaluate_table({"rules": "isko", "options": options, "players": NAMES3,
                             "deals": deals}, explain=True)
    rows = result["deals"]
    assert [r["bock"] for r in rows] == [1, 2, 1, 1, 1, 0, 1, 1, 0, 0]
    assert [r.get("bock_manual", False) for r in rows] == [
        True, True, False, False, False, False, False, False, True, False]
    assert [r.get("bock_round", False) for r in rows] == [False] * 5 + [True] + [False] * 4
    assert rows[0]["entries"] == {"0": 48}
    assert rows[1]["entries"] == {"1": -192}  # 60: lost, 24 × 2 × 4 (Doppelbock by hand)
    assert rows[1]["explanation"] == "with 1, game 2 × Clubs 12 = 24 → lost (60 card points): " \
        "24 × 2 × Bock 4 = −192"
    assert result["bock_pending"] == 0
    # the tracker's level may also be written without bock.manual, as exports do
    plain = evaluate_table({"rules": "isko", "options": {"bock": {}}, "players": NAMES3,
                            "deals": [won(0, declarer_points=60), won(1, bock=1)]})
    assert "bock_manual" not in plain["deals"][1] and plain["deals"][1]["bock"] == 1


def test_bock_by_hand_in_parallel() -> None:
    options = {"bock": {"manual": True, "stacking": "parallel", "triggers": []}}
    deals = [won(0, bock_round=True), won(1, bock_round=True), won(2), won(0), won(1)]
    rows = evaluate_table({"rules": "isko", "options": options, "players": NAMES3,
                           "deals": deals})["deals"]
    assert [r["bock"] for r in rows] == [0, 1, 2, 2, 1]


def test_kontra_fields_on_a_ramsch_without_ramsch_kontra() -> None:
    with pytest.raises(SkatError) as caught:
        ramsch({"losers": {"1": 83}}, {}, kontra_by=1)
    assert caught.value.message == "kontra_by does not apply to a ramsch record."
    with pytest.raises(SkatError) as caught:
        ramsch({"losers": {"1": 83}}, {}, kontra="kontra")
    assert caught.value.message == ("Kontra on a Ramsch is not played under these rules "
                                    "(option ramsch_kontra).")
    options = {"kontra": True, "ramsch_kontra": True}
    four = {"kind": "ramsch", "options": {**RAMSCH, **options},
            "players": ["Anna", "Bernd", "Clara", "Dieter"], "dealer": 0,
            "kontra": "kontra", "kontra_by": 2, "ramsch": {"losers": {"1": 83}}}
    assert evaluate(four)["entries"] == {"1": -166}
    with pytest.raises(SkatError) as caught:  # the dealer sits out at a 4-table
        evaluate({**four, "kontra_by": 0})
    assert caught.value.message == "Anna sits out this deal and did not play the Ramsch."
