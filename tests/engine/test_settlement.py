"""Settlement in money: seed cases S-01…S-06, A-23…A-26, H-14, H-16 and properties.

The seed figures are copied here from /work/shared/rules/seed-cases.md (tests never read that
tree); DECISIONS.md §6 and §8 "Money" are the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.errors import SkatError
from scoring.engine.settlement import (
    SettlementError,
    SettlementOptions,
    minor_unit,
    parse_settlement_options,
    parse_stake,
    settle,
)

D = Decimal
ROUND_FIRST = SettlementOptions(round_totals_first=True)


def result(
    totals: Sequence[int],
    stake: str,
    currency: str = "EUR",
    options: SettlementOptions = SettlementOptions(),  # noqa: B008 - frozen
    **counts: Any,
) -> dict[str, Any]:
    return settle(totals, stake=parse_stake(stake), currency=currency, options=options, **counts)


def seats(*amounts: str) -> dict[str, str]:
    return {str(seat): amount for seat, amount in enumerate(amounts)}


def pair_list(*pairs: tuple[int, int, int, str]) -> list[dict[str, object]]:
    return [
        {"payer": payer, "payee": payee, "points": points, "amount": amount}
        for payer, payee, points, amount in pairs
    ]


# ---------------------------------------------------------------------------------------------
# Seed cases: nets


SEED_NETS = [
    # S-01 (004): 5 Pfennig a point; A 96, B 30, C −8 → A +8.50, B −1.40, C −7.10.
    pytest.param([96, 30, -8], "0.05", "EUR", False, ("8.50", "-1.40", "-7.10"), id="S-01"),
    # S-02 / A-25 (001): ¼ cent; 140 / 85 / 24 → +43 / +1 / −44 cents, pairs rounded to cents.
    pytest.param([140, 85, 24], "0.0025", "USD", False, ("0.43", "0.01", "-0.44"), id="S-02/A-25"),
    # ... and the seed's own policy (totals to cents first, truncated: 35 / 21 / 6) agrees.
    pytest.param(
        [140, 85, 24], "0.0025", "USD", True, ("0.43", "0.01", "-0.44"), id="A-25-round-first"
    ),
    # S-03 / A-26 (001): four-handed at ¼ cent; 60 / 168 / 48 / 80 → −29 / +79 / −41 / −9.
    pytest.param(
        [60, 168, 48, 80], "0.0025", "USD", False, ("-0.29", "0.79", "-0.41", "-0.09"),
        id="S-03/A-26",
    ),
    pytest.param(
        [60, 168, 48, 80], "0.0025", "USD", True, ("-0.29", "0.79", "-0.41", "-0.09"),
        id="A-26-round-first",
    ),
    # S-04 / H-14 (000): points, A −7, B +88, C +19 → −121 / +164 / −43 (stake 1 per point).
    pytest.param([-7, 88, 19], "1", "EUR", False, ("-121.00", "164.00", "-43.00"), id="S-04/H-14"),
    # A-23 (001): a won Club Solo with one (24) at ¼ cent: 6 cents from each other participant.
    pytest.param([24, 0, 0], "0.0025", "USD", False, ("0.12", "-0.06", "-0.06"), id="A-23-3"),
    pytest.param(
        [24, 0, 0, 0], "0.0025", "USD", False, ("0.18", "-0.06", "-0.06", "-0.06"), id="A-23-4"
    ),
    pytest.param([-24, 0, 0], "0.0025", "USD", False, ("-0.12", "0.06", "0.06"), id="A-23-lost"),
    # A-24 (001): 400 below each of three others = 1200 minus: ¼ c → $3.00, 1/20 c → $0.60,
    # 1 c → $12.00.
    pytest.param(
        [0, 400, 400, 400], "0.0025", "USD", False, ("-3.00", "1.00", "1.00", "1.00"),
        id="A-24-quarter",
    ),
    pytest.param(
        [0, 400, 400, 400], "0.0005", "USD", False, ("-0.60", "0.20", "0.20", "0.20"),
        id="A-24-twentieth",
    ),
    pytest.param(
        [0, 400, 400, 400], "0.01", "USD", False, ("-12.00", "4.00", "4.00", "4.00"),
        id="A-24-cent",
    ),
]


@pytest.mark.parametrize(("totals", "stake", "currency", "round_first", "nets"), SEED_NETS)
def test_seed_nets(
    totals: list[int], stake: str, currency: str, round_first: bool, nets: tuple[str, ...]
) -> None:
    options = SettlementOptions(round_totals_first=round_first)
    settled = result(totals, stake, currency, options)
    assert settled["net"] == seats(*nets)
    assert settled["balance"] == seats(*nets)
    assert sum(D(v) for v in settled["net"].values()) == 0
    assert settled["checks"]["agree"] is True


# (payer, payee, points, amount), in score-sheet order A–B, A–C, A–D, B–C, …
SEED_PAIRS = [
    # S-01: B→A 3.30, C→A 5.20, C→B 1.90.
    pytest.param(
        [96, 30, -8], "0.05", [(1, 0, 66, "3.30"), (2, 0, 104, "5.20"), (2, 1, 38, "1.90")],
        id="S-01",
    ),
    # S-02 / A-25: A–B 13.75 → 14, A–C 29, B–C 15.25 → 15 cents.
    pytest.param(
        [140, 85, 24], "0.0025", [(1, 0, 55, "0.14"), (2, 0, 116, "0.29"), (2, 1, 61, "0.15")],
        id="S-02/A-25",
    ),
    # S-03 / A-26: A–B −27, A–C +3, A–D −5, B–C +30, B–D +22, C–D −8.
    pytest.param(
        [60, 168, 48, 80], "0.0025",
        [(0, 1, 108, "0.27"), (2, 0, 12, "0.03"), (0, 3, 20, "0.05"),
         (2, 1, 120, "0.30"), (3, 1, 88, "0.22"), (2, 3, 32, "0.08")],
        id="S-03/A-26",
    ),
    # S-04 / H-14: A→B 95, A→C 26, C→B 69.
    pytest.param(
        [-7, 88, 19], "1", [(0, 1, 95, "95.00"), (0, 2, 26, "26.00"), (2, 1, 69, "69.00")],
        id="S-04/H-14",
    ),
]


@pytest.mark.parametrize(("totals", "stake", "pairs"), SEED_PAIRS)
def test_seed_pairs_in_score_sheet_order(
    totals: list[int], stake: str, pairs: list[tuple[int, int, int, str]]
) -> None:
    assert result(totals, stake, "USD")["pairs"] == pair_list(*pairs)


def test_a25_round_totals_first_pairs_are_35_21_6() -> None:
    # The seed's sheet: 140/4 = 35, 85/4 = 21.25 → 21, 24/4 = 6; pairs 14, 29, 15.
    settled = result([140, 85, 24], "0.0025", "USD", ROUND_FIRST)
    assert [pair["amount"] for pair in settled["pairs"]] == ["0.14", "0.29", "0.15"]


def test_s02_exact_cross_check_is_unrounded() -> None:
    # A +42.75, B +1.50, C −44.25 cents: shown only as the cross-check.
    checks = result([140, 85, 24], "0.0025", "USD")["checks"]
    assert checks["exact"] == seats("0.4275", "0.015", "-0.4425")
    assert checks["lowest_zero"] == checks["exact"]
    assert checks["average"] == checks["exact"]
    assert checks["agree"] is True


def test_s05_shortcut_methods_on_the_four_handed_totals() -> None:
    # Average: mean 89, S − mean = −29, +79, −41, −9 cents (money directly: n × stake = 1 cent).
    # Lowest zero: C = 48 → 12, 120, 0, 32; T = 164; 4a − T = −116, 316, −164, −36 → ÷ 4.
    checks = result([60, 168, 48, 80], "0.0025", "USD")["checks"]
    expected = seats("-0.29", "0.79", "-0.41", "-0.09")
    assert checks["average"] == expected
    assert checks["lowest_zero"] == expected
    assert checks["exact"] == expected


def test_s06_average_method_on_the_three_player_example() -> None:
    # mean 39.333…; 0.05 × 3 × (S − mean) = +8.50, −1.40, −7.10.
    checks = result([96, 30, -8], "0.05")["checks"]
    assert checks["average"] == seats("8.50", "-1.40", "-7.10")


def test_h16_lowest_zero_b_loses_the_sum_of_the_adjusted_scores() -> None:
    # Four players, B lowest; the others' scores less B's add up to 520 = B's loss.
    # (The seed's individual scores are missing; 200 + 150 + 170 = 520 is one reading.)
    settled = result([300, 100, 250, 270], "1")
    lowest_zero = settled["checks"]["lowest_zero"]
    assert lowest_zero["1"] == "-520.00"
    # Each other player: 4 × (S_i − S_B) − 520.
    assert lowest_zero == seats("280.00", "-520.00", "80.00", "160.00")
    assert settled["net"] == lowest_zero


def test_h14_only_the_differences_matter() -> None:
    # Any (x, x + 95, x + 26) gives the same settlement.
    base = result([-7, 88, 19], "1")
    shifted = result([1000, 1095, 1026], "1")
    assert shifted == base


# ---------------------------------------------------------------------------------------------
# Shape, currency, rounding


def test_result_shape() -> None:
    settled = result([96, 30, -8], "0.05")
    assert list(settled) == [
        "currency", "on", "stake", "unit", "pairs", "net", "fees", "pot", "balance",
        "transfers", "checks", "capped",
    ]
    assert settled["currency"] == "EUR"
    assert settled["on"] == "classic"
    assert settled["stake"] == "0.05"
    assert settled["unit"] == "0.01"
    assert settled["pot"] == "0.00"
    assert settled["capped"] == []
    assert settled["transfers"] == [
        {"from": 1, "to": 0, "amount": "1.40"},
        {"from": 2, "to": 0, "amount": "7.10"},
    ]


@pytest.mark.parametrize(
    ("currency", "unit"),
    [("EUR", "0.01"), ("USD", "0.01"), ("CHF", "0.01"), ("GBP", "0.01"), ("XYZ", "0.01"),
     ("JPY", "1"), ("KRW", "1"), ("ISK", "1")],
)
def test_minor_unit(currency: str, unit: str) -> None:
    assert minor_unit(currency) == D(unit)
    assert str(minor_unit(currency)) == unit


def test_jpy_amounts_have_no_decimals() -> None:
    settled = result([96, 30, -8], "5", "JPY")
    assert settled["unit"] == "1"
    assert settled["stake"] == "5"
    assert settled["net"] == seats("850", "-140", "-710")
    assert [pair["amount"] for pair in settled["pairs"]] == ["330", "520", "190"]


def test_jpy_half_yen_pairs_round_half_up() -> None:
    # Each pair owes 0.5 yen → 1 yen; exact figures keep their half yen.
    settled = result([1, 0, 0], "0.5", "JPY")
    assert settled["net"] == seats("2", "-1", "-1")
    assert settled["checks"]["exact"] == seats("1", "-0.5", "-0.5")
    assert settled["checks"]["agree"] is True


def test_half_cent_pair_rounds_up() -> None:
    # 1 point at ½ cent → 0.005 → 0.01 (half up), never banker's rounding to 0.00.
    settled = result([1, 0], "0.005")
    assert settled["pairs"] == pair_list((1, 0, 1, "0.01"))


def test_pair_rounding_to_zero_is_still_listed() -> None:
    # 1 point at ¼ cent is 0.0025 → 0.00: the comparison is shown, nothing changes hands.
    settled = result([1, 0], "0.0025")
    assert settled["pairs"] == pair_list((1, 0, 1, "0.00"))
    assert settled["net"] == seats("0.00", "0.00")
    assert settled["transfers"] == []


def test_pairs_with_no_difference_are_not_listed() -> None:
    settled = result([10, 10, 0], "0.10")
    assert settled["pairs"] == pair_list((2, 0, 10, "1.00"), (2, 1, 10, "1.00"))


def test_round_totals_first_truncates_toward_zero() -> None:
    # −85 × ¼ cent = −21.25 cents → −21 (toward zero; floor would be −22), 85 → 21.
    settled = result([-85, 0, 85], "0.0025", "USD", ROUND_FIRST)
    assert settled["pairs"] == pair_list(
        (0, 1, 85, "0.21"), (0, 2, 170, "0.42"), (1, 2, 85, "0.21")
    )
    assert settled["net"] == seats("-0.63", "0.00", "0.63")
    # Without the option the 170-point pair is 42.5 cents → 43.
    assert result([-85, 0, 85], "0.0025", "USD")["net"] == seats("-0.64", "0.00", "0.64")


def test_round_totals_first_equal_money_totals_are_not_a_pair() -> None:
    # 85 and 84 at ¼ cent are both 21 cents once truncated: no pair between them.
    settled = result([85, 84, 0], "0.0025", "USD", ROUND_FIRST)
    assert settled["pairs"] == pair_list((2, 0, 85, "0.21"), (2, 1, 84, "0.21"))


def test_seeger_fabian_is_echoed() -> None:
    options = parse_settlement_options({"on": "seeger_fabian"})
    assert result([96, 30, -8], "0.05", options=options)["on"] == "seeger_fabian"


def test_more_than_six_players() -> None:
    # An evening-level settlement may have any number of seats.
    settled = result(list(range(10)), "0.01")
    assert sum(D(v) for v in settled["net"].values()) == 0
    assert settled["net"]["9"] == "0.45"  # 0.01 × (10 × 9 − 45)


# ---------------------------------------------------------------------------------------------
# Transfers


def test_two_debtors_matching_two_creditors_need_two_transfers() -> None:
    # Nets +4, +8, −4, −8: two transfers, not three.
    settled = result([1, 2, -1, -2], "1")
    assert settled["net"] == seats("4.00", "8.00", "-4.00", "-8.00")
    assert settled["transfers"] == [
        {"from": 2, "to": 0, "amount": "4.00"},
        {"from": 3, "to": 1, "amount": "8.00"},
    ]


def test_transfers_beat_the_greedy_method() -> None:
    # Nets −15, +15, +10, −20, +10: greedy (largest to largest) needs 4, optimal is 3.
    settled = result([-3, 3, 2, -4, 2], "1")
    assert settled["net"] == seats("-15.00", "15.00", "10.00", "-20.00", "10.00")
    assert settled["transfers"] == [
        {"from": 0, "to": 1, "amount": "15.00"},
        {"from": 3, "to": 2, "amount": "10.00"},
        {"from": 3, "to": 4, "amount": "10.00"},
    ]


def test_many_players_fall_back_to_greedy() -> None:
    totals = [(seat * 37) % 23 - 11 for seat in range(15)]
    settled = result(totals, "0.05")
    assert_transfers_settle(settled)
    assert len(settled["transfers"]) <= len(totals) - 1


def test_all_equal_totals_settle_nothing() -> None:
    settled = result([50, 50, 50], "0.05")
    assert settled["pairs"] == []
    assert settled["transfers"] == []
    assert settled["net"] == seats("0.00", "0.00", "0.00")


# ---------------------------------------------------------------------------------------------
# Fees


def test_flat_lost_game_fee() -> None:
    options = parse_settlement_options({"lost_game_fee": "0.50"})
    settled = result([96, 30, -8], "0.05", options=options, lost_games=[0, 3, 1])
    assert settled["fees"] == seats("0.00", "1.50", "0.50")
    assert settled["pot"] == "2.00"
    assert settled["net"] == seats("8.50", "-1.40", "-7.10")  # fees are not part of net
    assert settled["balance"] == seats("8.50", "-2.90", "-7.60")


@pytest.mark.parametrize(
    ("lost", "fee"),
    [(0, "0.00"), (1, "0.50"), (4, "2.00"), (5, "3.00"), (7, "5.00"), (8, "6.00")],
)
def test_tiered_lost_game_fee(lost: int, fee: str) -> None:
    # Lost games 1–4 cost 0.50 each; from the 5th on, 1.00 each.
    options = parse_settlement_options(
        {"lost_game_fee_tiers": [{"from": 1, "fee": "0.50"}, {"from": 5, "fee": "1.00"}]}
    )
    settled = result([10, 0, 0], "0.01", options=options, lost_games=[lost, 0, 0])
    assert settled["fees"]["0"] == fee
    assert settled["pot"] == fee


def test_three_tiers() -> None:
    options = parse_settlement_options({"lost_game_fee_tiers": [
        {"from": 1, "fee": "0.10"}, {"from": 3, "fee": "0.20"}, {"from": 4, "fee": "1"},
    ]})
    settled = result([0, 0, 0], "0.01", options=options, lost_games=[2, 3, 6])
    assert settled["fees"] == seats("0.20", "0.40", "3.40")


def test_passed_deal_and_entry_fees() -> None:
    options = parse_settlement_options({"passed_deal_fee": "0.10", "entry_fee": "2"})
    settled = result([96, 30, -8], "0.05", options=options, passed_deals=[2, 2, 2])
    assert settled["fees"] == seats("2.20", "2.20", "2.20")
    assert settled["pot"] == "6.60"
    assert settled["balance"] == seats("6.30", "-3.60", "-9.30")


def test_all_fees_together() -> None:
    options = parse_settlement_options(
        {"lost_game_fee": "0.20", "passed_deal_fee": "0.05", "entry_fee": "1.00"}
    )
    settled = result(
        [96, 30, -8], "0.05", options=options, lost_games=[1, 2, 5], passed_deals=[4, 4, 3]
    )
    assert settled["fees"] == seats("1.40", "1.60", "2.15")
    assert settled["pot"] == "5.15"


def test_fees_in_yen() -> None:
    options = parse_settlement_options({"entry_fee": 500, "lost_game_fee": "100"})
    settled = result([96, 30, -8], "5", "JPY", options=options, lost_games=[0, 1, 2])
    assert settled["fees"] == seats("500", "600", "700")
    assert settled["pot"] == "1800"


def test_fee_finer_than_the_currency_unit_is_refused() -> None:
    options = parse_settlement_options({"lost_game_fee": "0.50"})
    with pytest.raises(SettlementError) as caught:
        result([1, 0, 0], "1", "JPY", options=options, lost_games=[0, 0, 0])
    assert caught.value.field == "settlement.lost_game_fee"
    assert "JPY" in caught.value.message


def test_fee_without_the_counts_is_refused() -> None:
    options = parse_settlement_options({"lost_game_fee": "0.50", "passed_deal_fee": "0.10"})
    with pytest.raises(SettlementError) as caught:
        result([1, 0, 0], "0.05", options=options, passed_deals=[0, 0, 0])
    assert caught.value.field == "lost_games"
    with pytest.raises(SettlementError) as caught:
        result([1, 0, 0], "0.05", options=options, lost_games=[0, 0, 0])
    assert caught.value.field == "passed_deals"


def test_counts_without_fees_cost_nothing() -> None:
    settled = result([1, 0, 0], "0.05", lost_games=[3, 0, 0], passed_deals=[1, 1, 1])
    assert settled["pot"] == "0.00"


# ---------------------------------------------------------------------------------------------
# Loss cap


def test_loss_cap_pro_rata_with_largest_remainder() -> None:
    # S-01, cap 5.00: C owes 5.20 + 1.90 = 7.10; ×500/710 → 366.2 and 133.8 cents; the spare
    # cent goes to the larger remainder (B): 3.66 and 1.34.
    options = parse_settlement_options({"loss_cap": "5.00"})
    settled = result([96, 30, -8], "0.05", options=options)
    assert settled["pairs"] == pair_list(
        (1, 0, 66, "3.30"), (2, 0, 104, "3.66"), (2, 1, 38, "1.34")
    )
    assert settled["net"] == seats("6.96", "-1.96", "-5.00")
    assert settled["capped"] == [2]
    assert settled["transfers"] == [
        {"from": 1, "to": 0, "amount": "1.96"},
        {"from": 2, "to": 0, "amount": "5.00"},
    ]
    # The cross-checks still show the uncapped figures.
    assert settled["checks"]["exact"] == seats("8.50", "-1.40", "-7.10")
    assert settled["checks"]["agree"] is True


def test_loss_exactly_at_the_cap_is_not_capped() -> None:
    options = parse_settlement_options({"loss_cap": "7.10"})
    settled = result([96, 30, -8], "0.05", options=options)
    assert settled["net"] == seats("8.50", "-1.40", "-7.10")
    assert settled["capped"] == []


def test_capping_a_debtor_can_push_his_creditor_over_the_cap() -> None:
    # Pairs 1→0 0.60, 0→2 1.50, 1→2 2.10; nets −0.90, −2.70, +3.60; cap 1.00.
    # Seat 1 is cut to 0.22 + 0.78; seat 0 then receives only 0.22 and is over the cap in turn.
    options = parse_settlement_options({"loss_cap": "1.00"})
    settled = result([60, 0, 210], "0.01", options=options)
    assert settled["pairs"] == pair_list(
        (1, 0, 60, "0.22"), (0, 2, 150, "1.22"), (1, 2, 210, "0.78")
    )
    assert settled["net"] == seats("-1.00", "-1.00", "2.00")
    assert settled["capped"] == [0, 1]


def test_zero_cap_means_nobody_loses() -> None:
    options = parse_settlement_options({"loss_cap": "0"})
    settled = result([96, 30, -8], "0.05", options=options)
    assert settled["net"] == seats("0.00", "0.00", "0.00")
    assert settled["capped"] == [1, 2]


def test_cap_finer_than_the_unit_is_refused() -> None:
    options = parse_settlement_options({"loss_cap": "10.005"})
    with pytest.raises(SettlementError) as caught:
        result([1, 0, 0], "0.05", options=options)
    assert caught.value.field == "settlement.loss_cap"


# ---------------------------------------------------------------------------------------------
# Options and validation


def test_default_options() -> None:
    assert parse_settlement_options(None) == SettlementOptions()
    assert parse_settlement_options({}) == SettlementOptions()


def test_full_options_object() -> None:
    options = parse_settlement_options({
        "on": "classic", "round_totals_first": True, "lost_game_fee": "0.00",
        "lost_game_fee_tiers": [{"from": 1, "fee": "0.50"}, {"from": 5, "fee": 1}],
        "passed_deal_fee": "0.10", "entry_fee": 3, "loss_cap": "20.00",
    })
    assert options == SettlementOptions(
        on="classic",
        round_totals_first=True,
        lost_game_fee=D("0"),
        lost_game_fee_tiers=((1, D("0.50")), (5, D("1"))),
        passed_deal_fee=D("0.10"),
        entry_fee=D("3"),
        loss_cap=D("20.00"),
    )


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        pytest.param({"bogus": 1}, "settlement.bogus", id="unknown-key"),
        pytest.param([], "settlement", id="not-an-object"),
        pytest.param({"on": "beer"}, "settlement.on", id="on-beer"),
        pytest.param({"round_totals_first": "yes"}, "settlement.round_totals_first", id="bool"),
        pytest.param({"lost_game_fee": 0.5}, "settlement.lost_game_fee", id="float"),
        pytest.param({"lost_game_fee": True}, "settlement.lost_game_fee", id="bool-amount"),
        pytest.param({"entry_fee": "-1.00"}, "settlement.entry_fee", id="negative"),
        pytest.param({"entry_fee": -1}, "settlement.entry_fee", id="negative-int"),
        pytest.param({"passed_deal_fee": "NaN"}, "settlement.passed_deal_fee", id="nan"),
        pytest.param({"loss_cap": "Infinity"}, "settlement.loss_cap", id="infinity"),
        pytest.param({"loss_cap": "1e3"}, "settlement.loss_cap", id="exponent"),
        pytest.param({"loss_cap": " 5"}, "settlement.loss_cap", id="space"),
        pytest.param({"loss_cap": "0.00001"}, "settlement.loss_cap", id="five-places"),
        pytest.param({"loss_cap": "1" * 20}, "settlement.loss_cap", id="too-large"),
        pytest.param({"loss_cap": [5]}, "settlement.loss_cap", id="list"),
        pytest.param(
            {"lost_game_fee_tiers": [{"from": 2, "fee": "0.50"}]},
            "settlement.lost_game_fee_tiers", id="tiers-not-from-1",
        ),
        pytest.param(
            {"lost_game_fee_tiers": [{"from": 1, "fee": "1"}, {"from": 1, "fee": "2"}]},
            "settlement.lost_game_fee_tiers", id="tiers-repeat",
        ),
        pytest.param(
            {"lost_game_fee_tiers": [
                {"from": 1, "fee": "1"}, {"from": 6, "fee": "2"}, {"from": 4, "fee": "3"},
            ]},
            "settlement.lost_game_fee_tiers", id="tiers-descending",
        ),
        pytest.param(
            {"lost_game_fee_tiers": []}, "settlement.lost_game_fee_tiers", id="tiers-empty"
        ),
        pytest.param(
            {"lost_game_fee_tiers": {"from": 1, "fee": "1"}},
            "settlement.lost_game_fee_tiers", id="tiers-not-a-list",
        ),
        pytest.param(
            {"lost_game_fee_tiers": [{"from": 1, "fee": "1", "to": 4}]},
            "settlement.lost_game_fee_tiers", id="tiers-extra-key",
        ),
        pytest.param(
            {"lost_game_fee_tiers": [{"from": 1.0, "fee": "1"}]},
            "settlement.lost_game_fee_tiers", id="tiers-float-from",
        ),
        pytest.param(
            {"lost_game_fee_tiers": [{"from": 1, "fee": 0.5}]},
            "settlement.lost_game_fee_tiers", id="tiers-float-fee",
        ),
        pytest.param(
            {"lost_game_fee": "0.50", "lost_game_fee_tiers": [{"from": 1, "fee": "1"}]},
            "settlement.lost_game_fee", id="tiers-and-flat",
        ),
    ],
)
def test_bad_options_name_the_field(raw: object, field: str) -> None:
    with pytest.raises(SettlementError) as caught:
        parse_settlement_options(raw)
    assert caught.value.field == field
    assert caught.value.message.endswith(".")


def test_options_built_directly_are_checked_too() -> None:
    with pytest.raises(SettlementError) as caught:
        SettlementOptions(loss_cap=D("-1"))
    assert caught.value.field == "settlement.loss_cap"
    with pytest.raises(SettlementError) as caught:
        SettlementOptions(entry_fee=0.5)  # type: ignore[arg-type]  # a float on purpose: checked at run time
    assert caught.value.field == "settlement.entry_fee"


def test_settlement_error_is_the_engines_error() -> None:
    with pytest.raises(SettlementError) as caught:
        parse_settlement_options({"bogus": 1})
    assert isinstance(caught.value, SkatError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.as_dict() == {
        "field": "settlement.bogus", "message": caught.value.message, "deal": None,
    }


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("0.05", "0.05"), ("0.0025", "0.0025"), ("1", "1"), (1, "1"), ("0", "0"),
     (D("0.25"), "0.25")],
)
def test_parse_stake(raw: object, expected: str) -> None:
    assert parse_stake(raw) == D(expected)


@pytest.mark.parametrize(
    "raw", [0.05, True, "-0.05", "abc", "0.00001", "NaN", None, "", "0,05"]
)
def test_bad_stake(raw: object) -> None:
    with pytest.raises(SettlementError) as caught:
        parse_stake(raw)
    assert caught.value.field == "stake"


@pytest.mark.parametrize("currency", ["eur", "EURO", "", "E1R", 5])
def test_bad_currency(currency: Any) -> None:
    with pytest.raises(SettlementError) as caught:
        minor_unit(currency)
    assert caught.value.field == "currency"
    with pytest.raises(SettlementError) as caught:
        settle([1, 0, 0], stake=D("0.05"), currency=currency)
    assert caught.value.field == "currency"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        pytest.param({"totals": [1]}, "totals", id="one-seat"),
        pytest.param({"totals": []}, "totals", id="no-seats"),
        pytest.param({"totals": [1, True, 2]}, "totals", id="bool-total"),
        pytest.param({"totals": [1.5, 2, 3]}, "totals", id="float-total"),
        pytest.param({"totals": "123"}, "totals", id="string"),
        pytest.param({"stake": 0.05}, "stake", id="float-stake"),
        pytest.param({"stake": D("-0.05")}, "stake", id="negative-stake"),
        pytest.param({"stake": D("NaN")}, "stake", id="nan-stake"),
        pytest.param({"stake": D("0.00001")}, "stake", id="fine-stake"),
        pytest.param({"lost_games": [1, 2]}, "lost_games", id="short-lost"),
        pytest.param({"lost_games": [1, -1, 0]}, "lost_games", id="negative-lost"),
        pytest.param({"lost_games": [1, 1.0, 0]}, "lost_games", id="float-lost"),
        pytest.param({"passed_deals": [0, 0, 0, 0]}, "passed_deals", id="long-passed"),
        pytest.param({"passed_deals": [0, False, 0]}, "passed_deals", id="bool-passed"),
    ],
)
def test_bad_settle_arguments(kwargs: dict[str, Any], field: str) -> None:
    arguments: dict[str, Any] = {"totals": [96, 30, -8], "stake": D("0.05")} | kwargs
    totals = arguments.pop("totals")
    with pytest.raises(SettlementError) as caught:
        settle(totals, **arguments)
    assert caught.value.field == field
    assert caught.value.message


# ---------------------------------------------------------------------------------------------
# Properties


STAKES = st.integers(min_value=0, max_value=2000).map(lambda ticks: D(ticks).scaleb(-4))
CURRENCIES = st.sampled_from(["EUR", "JPY", "KWD"])
TOTALS = st.lists(st.integers(min_value=-3000, max_value=3000), min_size=2, max_size=7)


def money(amount: str) -> Fraction:
    return Fraction(D(amount))


def nets_of(settled: dict[str, Any]) -> list[Fraction]:
    return [money(settled["net"][str(seat)]) for seat in range(len(settled["net"]))]


def assert_transfers_settle(settled: dict[str, Any]) -> None:
    nets = nets_of(settled)
    paid = [Fraction(0)] * len(nets)
    for transfer in settled["transfers"]:
        amount = money(transfer["amount"])
        assert amount > 0
        assert transfer["from"] != transfer["to"]
        paid[transfer["from"]] -= amount
        paid[transfer["to"]] += amount
    assert paid == nets


def most_zero_sum_groups(values: list[Fraction]) -> int:
    """Brute force: the most groups a partition of ``values`` (all nonzero) into zero sums has."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    # The group holding the first value: try every subset of the rest to go with it.
    for mask in range(1 << len(rest)):
        chosen = [rest[i] for i in range(len(rest)) if mask >> i & 1]
        if first + sum(chosen) == 0:
            others = [rest[i] for i in range(len(rest)) if not mask >> i & 1]
            best = max(best, 1 + most_zero_sum_groups(others))
    return best


@settings(max_examples=200, deadline=None)
@given(totals=TOTALS, stake=STAKES, currency=CURRENCIES, round_first=st.booleans())
def test_property_nets_sum_to_zero_and_agree(
    totals: list[int], stake: Decimal, currency: str, round_first: bool
) -> None:
    options = SettlementOptions(round_totals_first=round_first)
    settled: dict[str, Any] = settle(totals, stake=stake, currency=currency, options=options)
    assert sum(nets_of(settled)) == 0
    assert settled["checks"]["agree"] is True
    assert settled["checks"]["lowest_zero"] == settled["checks"]["exact"]
    assert settled["checks"]["average"] == settled["checks"]["exact"]
    places = {"EUR": 2, "JPY": 0, "KWD": 3}[currency]
    for amount in settled["net"].values():
        assert len(amount.partition(".")[2]) == places


@settings(max_examples=200, deadline=None)
@given(totals=TOTALS, stake=STAKES, currency=CURRENCIES)
def test_property_nets_within_rounding_of_the_exact_formula(
    totals: list[int], stake: Decimal, currency: str
) -> None:
    settled: dict[str, Any] = settle(totals, stake=stake, currency=currency)
    unit = Fraction(minor_unit(currency))
    n, whole = len(totals), sum(totals)
    exact = [Fraction(stake) * (n * total - whole) for total in totals]
    for net, value in zip(nets_of(settled), exact, strict=True):
        assert abs(net - value) <= (n - 1) * unit / 2
    pair_products = [abs(a - b) * Fraction(stake) for a in totals for b in totals]
    if all((product / unit).denominator == 1 for product in pair_products):
        assert nets_of(settled) == exact


@settings(max_examples=200, deadline=None)
@given(totals=TOTALS, stake=STAKES, currency=CURRENCIES, round_first=st.booleans())
def test_property_transfers_settle_the_nets_minimally(
    totals: list[int], stake: Decimal, currency: str, round_first: bool
) -> None:
    options = SettlementOptions(round_totals_first=round_first)
    settled: dict[str, Any] = settle(totals, stake=stake, currency=currency, options=options)
    assert_transfers_settle(settled)
    nonzero = [net for net in nets_of(settled) if net]
    assert len(settled["transfers"]) <= max(0, len(totals) - 1)
    assert len(settled["transfers"]) == len(nonzero) - most_zero_sum_groups(nonzero)


@settings(max_examples=150, deadline=None)
@given(
    totals=TOTALS, stake=STAKES, currency=CURRENCIES, round_first=st.booleans(),
    data=st.data(),
)
def test_property_permuting_seats_permutes_the_result(
    totals: list[int], stake: Decimal, currency: str, round_first: bool, data: st.DataObject
) -> None:
    order = data.draw(st.permutations(range(len(totals))))  # new seat k = old seat order[k]
    lost = data.draw(st.lists(st.integers(0, 9), min_size=len(totals), max_size=len(totals)))
    options = SettlementOptions(
        round_totals_first=round_first, lost_game_fee=D("0") if currency == "JPY" else D("0.5"),
        entry_fee=D("1"),
    )
    before: dict[str, Any] = settle(
        totals, stake=stake, currency=currency, options=options, lost_games=lost
    )
    after: dict[str, Any] = settle(
        [totals[old] for old in order], stake=stake, currency=currency, options=options,
        lost_games=[lost[old] for old in order],
    )
    for key in ("net", "fees", "balance"):
        assert after[key] == {str(new): before[key][str(old)] for new, old in enumerate(order)}
    for key in ("exact", "lowest_zero", "average"):
        assert after["checks"][key] == {
            str(new): before["checks"][key][str(old)] for new, old in enumerate(order)
        }
    new_of = {old: new for new, old in enumerate(order)}
    moved = {
        (new_of[pair["payer"]], new_of[pair["payee"]], pair["points"], pair["amount"])
        for pair in before["pairs"]
    }
    assert moved == {
        (pair["payer"], pair["payee"], pair["points"], pair["amount"]) for pair in after["pairs"]
    }
    assert len(after["transfers"]) == len(before["transfers"])


@settings(max_examples=150, deadline=None)
@given(
    totals=TOTALS, stake=STAKES, currency=CURRENCIES,
    shift=st.integers(min_value=-5000, max_value=5000),
)
def test_property_shifting_all_totals_changes_nothing(
    totals: list[int], stake: Decimal, currency: str, shift: int
) -> None:
    shifted = [total + shift for total in totals]
    assert settle(shifted, stake=stake, currency=currency) == settle(
        totals, stake=stake, currency=currency
    )


@settings(max_examples=200, deadline=None)
@given(
    totals=TOTALS, stake=STAKES, round_first=st.booleans(),
    cap_cents=st.integers(min_value=0, max_value=3000),
)
def test_property_loss_cap(
    totals: list[int], stake: Decimal, round_first: bool, cap_cents: int
) -> None:
    cap = D(cap_cents).scaleb(-2)
    plain: dict[str, Any] = settle(
        totals, stake=stake, options=SettlementOptions(round_totals_first=round_first)
    )
    capped: dict[str, Any] = settle(
        totals, stake=stake,
        options=SettlementOptions(round_totals_first=round_first, loss_cap=cap),
    )
    nets = nets_of(capped)
    assert sum(nets) == 0
    assert min(nets) >= -Fraction(cap)
    for seat in capped["capped"]:
        assert nets[seat] == -Fraction(cap)  # the cap is hit exactly
    # Everyone over the cap is capped; a creditor of a capped seat may be capped in turn.
    assert capped["capped"] == sorted(set(capped["capped"]))
    assert set(capped["capped"]) >= {
        seat for seat, net in enumerate(nets_of(plain)) if net < -Fraction(cap)
    }
    # Only amounts go down, never up; the pairs themselves stay.
    assert len(capped["pairs"]) == len(plain["pairs"])
    for before, after in zip(plain["pairs"], capped["pairs"], strict=True):
        assert (before["payer"], before["payee"]) == (after["payer"], after["payee"])
        assert 0 <= money(after["amount"]) <= money(before["amount"])
    if not capped["capped"]:
        assert capped["net"] == plain["net"]
    assert_transfers_settle(capped)


@settings(max_examples=150, deadline=None)
@given(
    totals=TOTALS,
    fees=st.tuples(*[st.integers(min_value=0, max_value=500)] * 3),
    tiered=st.booleans(),
    data=st.data(),
)
def test_property_fees_and_pot(
    totals: list[int], fees: tuple[int, int, int], tiered: bool, data: st.DataObject
) -> None:
    lost_fee, passed_fee, entry_fee = (D(cents).scaleb(-2) for cents in fees)
    n = len(totals)
    lost = data.draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    passed = data.draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    tiers = ((1, lost_fee), (5, lost_fee * 2)) if tiered else None
    options = SettlementOptions(
        lost_game_fee=D("0") if tiered else lost_fee,
        lost_game_fee_tiers=tiers,
        passed_deal_fee=passed_fee,
        entry_fee=entry_fee,
    )
    settled: dict[str, Any] = settle(totals, stake=D("0.01"), options=options, lost_games=lost,
                     passed_deals=passed)
    charged = [money(settled["fees"][str(seat)]) for seat in range(n)]
    assert all(fee >= 0 for fee in charged)
    assert money(settled["pot"]) == sum(charged)
    for seat in range(n):
        lost_cost = (
            Fraction(lost_fee) * (min(lost[seat], 4) + 2 * max(0, lost[seat] - 4))
            if tiered else Fraction(lost_fee) * lost[seat]
        )
        expected = Fraction(entry_fee) + lost_cost + Fraction(passed_fee) * passed[seat]
        assert charged[seat] == expected
        assert money(settled["balance"][str(seat)]) == nets_of(settled)[seat] - charged[seat]
