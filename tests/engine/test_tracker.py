"""The round tracker's rarer paths: every Bock trigger of DECISIONS.md §8, one_per_deal,
rounds without Bock, forced Ramsch rounds (1898) and the end of a Beer Skat sitting."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import ScoredTable, SkatError, evaluate_table
from scoring.engine.fields import active_seats

PLAIN = {"kind": "game", "game": "clubs", "matadors": 1, "bid": 18, "declarer_points": 70}


def table(deals: list[dict[str, Any]], players: int = 3, **options: Any) -> dict[str, Any]:
    """Seat each game's declarer as Forehand of the dealer the tracker will use."""
    seated, dealer = [], 0
    for deal in deals:
        deal = dict(deal)
        if deal["kind"] == "game" and "declarer" not in deal:
            deal["declarer"] = active_seats(dealer, players)[0]
        if deal["kind"] == "game" and deal.get("kontra", "none") != "none":
            deal["kontra_by"] = active_seats(dealer, players)[1]
        seated.append(deal)
        if deal["kind"] in ("game", "passed", "ramsch"):
            dealer = (dealer + 1) % players
    return {"players": players, "options": options, "deals": seated}


def bock_deals(result: ScoredTable) -> list[int]:
    return [row["number"] for row in result["deals"] if row["bock"]]


@pytest.mark.parametrize("trigger, deal, extra", [
    ("grand_hand", {**PLAIN, "game": "grand", "hand": True}, {}),
    ("null_ouvert_hand", {"kind": "game", "game": "null", "hand": True, "ouvert": True,
                          "bid": 59, "declarer_tricks": 0}, {}),
    ("schneider", {**PLAIN, "declarer_points": 90}, {}),
    ("schneider", {**PLAIN, "declarer_points": 30}, {}),
    ("schwarz", {**PLAIN, "declarer_points": 120, "declarer_tricks": 10}, {}),
    ("all_passed", {"kind": "passed"}, {}),
    ("value_at_least", {**PLAIN, "matadors": 4, "hand": True}, {"value_at_least": 72}),
    ("loss_at_least", {**PLAIN, "declarer_points": 40}, {"loss_at_least": 48}),
    ("sixty_sixty", {**PLAIN, "declarer_points": 60}, {}),
    ("kontra_lost", {**PLAIN, "declarer_points": 50, "kontra": "kontra"}, {}),
    ("re", {**PLAIN, "kontra": "re"}, {}),
])
def test_each_trigger_starts_one_round(trigger: str, deal: dict[str, Any],
                                       extra: dict[str, Any]) -> None:
    result = evaluate_table(table([deal] + [PLAIN] * 4, kontra=True,
                                  bock={"triggers": [trigger], **extra}))
    assert bock_deals(result) == [2, 3, 4]


@pytest.mark.parametrize("trigger, deal, extra", [
    ("schneider", {**PLAIN, "declarer_points": 89}, {}),
    ("schneider", {**PLAIN, "declarer_points": 31}, {}),
    ("schwarz", {**PLAIN, "declarer_points": 120, "declarer_tricks": 9}, {}),
    ("value_at_least", {**PLAIN, "matadors": 4, "hand": True}, {"value_at_least": 73}),
    ("loss_at_least", {**PLAIN, "declarer_points": 40}, {"loss_at_least": 49}),
    ("loss_at_least", {**PLAIN}, {"loss_at_least": 1}),  # won: never a loss
    ("sixty_sixty", {**PLAIN, "declarer_points": 61}, {}),
    ("kontra_lost", {**PLAIN, "kontra": "kontra"}, {}),  # won
    ("grand_hand", {**PLAIN, "game": "grand"}, {}),  # not Hand
])
def test_near_misses_trigger_nothing(trigger: str, deal: dict[str, Any],
                                     extra: dict[str, Any]) -> None:
    result = evaluate_table(table([deal] + [PLAIN] * 4, kontra=True,
                                  bock={"triggers": [trigger], **extra}))
    assert bock_deals(result) == []


def test_a_failed_schneider_announcement_alone_is_no_schneider() -> None:
    deal = {**PLAIN, "hand": True, "schneider_announced": True, "declarer_points": 80}
    result = evaluate_table(table([deal, PLAIN], bock={"triggers": ["schneider"]}))
    assert bock_deals(result) == []


def test_one_per_deal_false_counts_every_trigger() -> None:
    lost_re = {**PLAIN, "declarer_points": 50, "kontra": "re"}
    once = evaluate_table(table([lost_re], kontra=True, bock={}))
    twice = evaluate_table(table([lost_re], kontra=True, bock={"one_per_deal": False}))
    assert once["bock_pending"] == 3 and twice["bock_pending"] == 6


def test_two_quiet_rounds_earn_a_bock_round() -> None:
    result = evaluate_table(table([PLAIN] * 18, bock={"triggers": ["rounds_without_bock"],
                                                     "rounds_without_bock": 2}))
    # rounds 1–2 quiet → round 3 is Bock; rounds 4–5 quiet again → round 6 is Bock
    assert bock_deals(result) == [7, 8, 9, 16, 17, 18]


def test_parallel_rounds_multiply() -> None:
    re_game = {**PLAIN, "kontra": "re"}
    result = evaluate_table(table([re_game, re_game, PLAIN, PLAIN, PLAIN], kontra=True,
                                  bock={"triggers": ["re"], "stacking": "parallel"}))
    assert [row["bock"] for row in result["deals"]] == [0, 1, 2, 2, 1]
    assert result["deals"][2]["entries"] == {"0": 24 * 4}  # Doppelbock: ×4


def test_forced_ramsch_rounds_in_1898() -> None:
    ramsch = {"kind": "ramsch", "ramsch": {"points": {"0": 60, "1": 30, "2": 20},
                                           "tricks": {"0": 5, "1": 3, "2": 2},
                                           "skat_points": 10}}
    tourne = {"kind": "game", "game": "tourne_hearts", "matadors": 1, "bid": 12,
              "declarer_points": 70}
    rules = {"forced_ramsch_every": 2}
    ok = evaluate_table({**table([tourne] * 3 + [ramsch] * 3 + [tourne] * 3, **rules),
                         "rules": "american1898"})
    assert [row["ramsch_round"] for row in ok["deals"]] == [False] * 3 + [True] * 3 + [False] * 3
    with pytest.raises(SkatError) as refused:
        evaluate_table({**table([tourne] * 4, **rules), "rules": "american1898"})
    assert (refused.value.field, refused.value.deal) == ("kind", 4)


def test_ramsch_is_refused_when_the_option_is_off() -> None:
    ramsch = {"kind": "ramsch", "ramsch": {"points": {"0": 60, "1": 40, "2": 20},
                                           "tricks": {"0": 5, "1": 3, "2": 2}}}
    with pytest.raises(SkatError) as refused:
        evaluate_table(table([PLAIN, ramsch]))
    assert (refused.value.field, refused.value.deal) == ("kind", 2)


def test_beer_skat_ends_when_the_limit_is_reached() -> None:
    lost = {"kind": "game", "game": "solo_clubs", "matadors": 4, "bid": 18,
            "declarer_points": 40}  # 60, lost single: charged 60 × 2 = 120 at 3 players
    base = {"rules": "american1898", "scoring": "beer", "players": ["A", "B", "C"]}
    first = {**lost, "declarer": 1}
    done = evaluate_table({**base, "deals": [first, {**lost, "declarer": 1}]})
    assert done["totals"]["1"] == 240 and done["beer_loser"] == 1
    with pytest.raises(SkatError) as refused:
        evaluate_table({**base, "deals": [first, {**lost, "declarer": 1},
                                          {**lost, "declarer": 0}]})
    assert refused.value.deal == 3


@pytest.mark.parametrize("stacking", ["queue", "parallel"])
def test_next_reports_a_bock_round_that_starts_with_the_next_deal(stacking: str) -> None:
    """Right after a trigger the waiting round has not begun, but the next deal is Bock:
    the table screen shows "Bock" from this answer."""
    bock = {"triggers": ["sixty_sixty"], "stacking": stacking}
    before = evaluate_table(table([PLAIN], bock=bock))
    assert (before["next"]["bock"], before["bock_pending"]) == (0, 0)
    after = evaluate_table(table([PLAIN, {**PLAIN, "declarer_points": 60}], bock=bock))
    assert (after["next"]["bock"], after["bock_pending"]) == (1, 3)
    played = evaluate_table(table([{**PLAIN, "declarer_points": 60}, PLAIN], bock=bock))
    assert played["deals"][1]["bock"] == after["next"]["bock"] == 1


def test_next_reports_the_ramsch_round_owed_after_a_bock_round() -> None:
    bock = {"triggers": ["sixty_sixty"], "ramsch_round_after": 1}
    deals = [{**PLAIN, "declarer_points": 60}, PLAIN, PLAIN, PLAIN]  # trigger + Bock round
    result = evaluate_table(table(deals, bock=bock, ramsch="when_all_pass"))
    assert [row["bock"] for row in result["deals"]] == [0, 1, 1, 1]
    assert result["next"] == {**result["next"], "bock": 0, "ramsch_round": True,
                              "round": 2, "deal_in_round": 2, "ramsch_deal": 1}
    ramsch = {"kind": "ramsch", "ramsch": {"points": {"0": 60, "1": 40, "2": 20},
                                           "tricks": {"0": 5, "1": 3, "2": 2}}}
    result = evaluate_table(table([*deals, ramsch], bock=bock, ramsch="when_all_pass"))
    assert result["next"] == {**result["next"], "ramsch_round": True, "round": 2,
                              "deal_in_round": 3, "ramsch_deal": 2}
    result = evaluate_table(table([*deals, ramsch, ramsch, ramsch], bock=bock,
                                  ramsch="when_all_pass"))
    assert result["next"] == {**result["next"], "ramsch_round": False, "round": 3,
                              "deal_in_round": 2, "ramsch_deal": 0}
