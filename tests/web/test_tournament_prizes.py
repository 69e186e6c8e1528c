"""The prize table: shares of the pot and fixed amounts, ties split, the rest carried; the
payouts and the carried rest add up to the pot to the cent."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.reads.tournament import prize_amounts, split_prizes

cents = st.integers(min_value=0, max_value=10_000_00).map(lambda c: Decimal(c) / 100)
shares = st.lists(st.integers(min_value=0, max_value=100_00), max_size=8).filter(
    lambda xs: sum(xs) <= 100_00).map(lambda xs: [f"{Decimal(x) / 100}%" for x in xs])
fixed = st.lists(cents.map(lambda c: f"{c:.2f}"), max_size=5)


@st.composite
def ranks(draw: st.DrawFn) -> list[int]:
    """Places of a ranking, best first, equal places shared: 1, 1, 3, 4, 4, 4, 7 …"""
    n = draw(st.integers(min_value=0, max_value=30))
    result: list[int] = []
    for index in range(1, n + 1):
        tie = bool(result) and draw(st.booleans())
        result.append(result[-1] if tie else index)
    return result


@settings(max_examples=300, deadline=None)
@given(pot=cents, prizes=shares, places=ranks())
def test_shares_and_the_carried_rest_add_up_to_the_pot(pot: Decimal, prizes: list[str],
                                                      places: list[int]) -> None:
    payouts, carried = split_prizes(pot, prizes, places)
    assert sum(payouts, Decimal(0)) + carried == pot
    assert carried >= 0
    assert all(p >= 0 and p == p.quantize(Decimal("0.01")) for p in payouts)
    # tied players get the same
    for i in range(1, len(places)):
        if places[i] == places[i - 1]:
            assert payouts[i] == payouts[i - 1]


@settings(max_examples=200, deadline=None)
@given(pot=cents, prizes=st.lists(st.one_of(
    cents.map(lambda c: f"{c:.2f}"),
    st.integers(min_value=0, max_value=20_00).map(lambda x: f"{Decimal(x) / 100}%")),
    max_size=6), places=ranks())
def test_mixed_prizes_add_up_to_the_pot(pot: Decimal, prizes: list[str],
                                        places: list[int]) -> None:
    payouts, carried = split_prizes(pot, prizes, places)
    assert sum(payouts, Decimal(0)) + carried == pot


def test_a_tie_shares_the_prizes_of_the_places_it_covers() -> None:
    payouts, carried = split_prizes(Decimal("100.00"), ["50%", "30%", "20%"], [1, 2, 2, 4])
    assert payouts == [Decimal("50.00"), Decimal("25.00"), Decimal("25.00"), Decimal("0.00")]
    assert carried == Decimal("0.00")


def test_a_split_that_does_not_go_into_cents_carries_the_rest() -> None:
    payouts, carried = split_prizes(Decimal("100.00"), ["100%"], [1, 1, 1])
    assert payouts == [Decimal("33.33")] * 3
    assert carried == Decimal("0.01")


def test_fixed_amounts_and_shares() -> None:
    assert prize_amounts(Decimal("130.00"), ["50%", "30%", "10.00", "33.33%"]) == [
        Decimal("65.00"), Decimal("39.00"), Decimal("10.00"), Decimal("43.32")]
    payouts, carried = split_prizes(Decimal("130.00"), ["50%", "30%", "10.00"], [1, 2, 3, 4])
    assert carried == Decimal("16.00") and payouts[3] == 0
