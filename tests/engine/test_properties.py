"""Properties that must hold for every valid input (hypothesis)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import evaluate, evaluate_table
from scoring.engine.fields import active_seats

from .strategies import isko_game, isko_null, ramsch, table_record


@given(isko_game())
def test_an_isko_loss_costs_twice_the_charged_value(deal: dict[str, Any]) -> None:
    result = evaluate(deal)
    entry = result["entries"][str(deal["declarer"])]
    assert result["charged_value"] is not None  # a game has its values
    if result["won"]:
        assert entry == result["value"]
    else:
        assert entry == -2 * result["charged_value"]


@given(isko_game())
def test_a_won_value_is_at_least_the_bid(deal: dict[str, Any]) -> None:
    result = evaluate(deal)
    assert result["value"] is not None and result["base"] is not None
    if result["won"]:
        assert result["value"] >= deal["bid"]
    assert result["overbid"] == (result["value"] < deal["bid"])
    if result["overbid"]:
        charged = result["charged_value"]
        assert charged is not None
        assert charged >= deal["bid"] and charged % result["base"] == 0
        assert charged - result["base"] < deal["bid"]


@given(isko_game())
def test_value_is_base_times_multiplier(deal: dict[str, Any]) -> None:
    result = evaluate(deal)
    assert result["base"] is not None and result["multiplier"] is not None
    assert result["value"] == result["base"] * result["multiplier"]
    assert result["multiplier"] >= abs(deal["matadors"]) + 1


@given(st.one_of(isko_game(), isko_null()), st.sampled_from(["kontra", "re"]))
def test_kontra_doubles_and_re_quadruples(deal: dict[str, Any], call: str) -> None:
    plain = evaluate(deal)["entries"][str(deal["declarer"])]
    opponent = (deal["declarer"] + 1) % 3
    called = evaluate({**deal, "kontra": call, "kontra_by": opponent,
                       "options": {"kontra": True}})
    assert called["entries"][str(deal["declarer"])] == plain * (2 if call == "kontra" else 4)


@given(st.one_of(isko_game(), isko_null(), ramsch()), st.integers(1, 3))
def test_bock_doubles_exactly(deal: dict[str, Any], level: int) -> None:
    options = {"ramsch": "when_all_pass"}
    plain = evaluate({**deal, "options": options})
    doubled = evaluate({**deal, "options": options, "bock": level})
    assert doubled["entries"] == {k: v * 2**level for k, v in plain["entries"].items()}
    assert doubled["value"] == plain["value"]


@given(ramsch())
def test_ramsch_only_costs(deal: dict[str, Any]) -> None:
    result = evaluate({**deal, "options": {"ramsch": "when_all_pass"}})
    tricks = deal["ramsch"]["tricks"]
    durchmarsch = 10 in tricks.values()
    for seat, entry in result["entries"].items():
        assert entry < 0 or (durchmarsch and entry == 120)
        assert tricks[seat] > 0




@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.data())
def test_every_seat_deals_equally_often_over_full_rounds(players: int, data: st.DataObject) -> None:
    first = data.draw(st.integers(0, players - 1))
    records = data.draw(st.lists(table_record(players), max_size=40))
    deals, dealer = [], first
    for record in records:
        record = dict(record)
        if record["kind"] == "game":
            record["declarer"] = active_seats(dealer, players)[record["declarer"]]
        deals.append(record)
        if record["kind"] in ("game", "passed"):
            dealer = (dealer + 1) % players
    result = evaluate_table({"players": players, "first_dealer": first, "deals": deals})
    counted = [row for row in result["deals"] if row["counts"]]
    full = len(counted) - len(counted) % players
    dealt = Counter(row["dealer"] for row in counted[:full])
    assert all(dealt[p] == full // players for p in range(players))
    for row in result["deals"]:
        assert row["dealer"] not in row["active"] or players == 3
        assert row["round"] == sum(1 for r in counted if r["number"] < row["number"]) // players + 1


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.integers(0, 8), st.booleans())
def test_a_bock_round_is_n_deals(players: int, before: int, includes_trigger: bool) -> None:
    """One 60:60 among plain won games: exactly n counted deals are Bock."""
    deals, dealer = [], 0
    for k in range(before + 1 + 2 * players):
        declarer = active_seats(dealer, players)[0]
        points = 60 if k == before else 70
        deals.append({"kind": "game", "declarer": declarer, "game": "clubs", "matadors": 1,
                      "bid": 18, "declarer_points": points})
        dealer = (dealer + 1) % players
    result = evaluate_table({
        "players": players, "deals": deals,
        "options": {"bock": {"includes_trigger": includes_trigger}},
    })
    bock = [row["number"] for row in result["deals"] if row["bock"]]
    first = before + 1 if includes_trigger else before + 2
    assert bock == list(range(first, first + players))
    assert result["bock_pending"] == 0


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(-500, 500), min_size=3, max_size=6),
       st.sampled_from(["0.01", "0.05", "0.10", "0.0025", "1"]))
def test_table_settlement_sums_to_zero_and_matches_the_formula(
        totals: list[int], stake: str) -> None:
    players = len(totals)
    deals = [{"kind": "penalty", "penalty": {"seat": p, "points": 1000 - t}}
             for p, t in enumerate(totals)]
    result = evaluate_table({"players": players, "stake": stake, "deals": deals})
    assert result["settlement"] is not None
    net = {int(k): Decimal(v) for k, v in result["settlement"]["net"].items()}
    assert sum(net.values()) == 0
    scores = [t - 1000 for t in totals]
    unit = Decimal("0.01")
    for p in range(players):
        exact = Decimal(stake) * (players * scores[p] - sum(scores))
        assert abs(net[p] - exact) <= (players - 1) * unit / 2


@given(isko_game())
def test_explanations_end_with_the_entry(deal: dict[str, Any]) -> None:
    for lang in ("en", "de"):
        result = evaluate(deal, lang)
        entry = result["entries"][str(deal["declarer"])]
        shown = f"+{entry}" if entry > 0 else f"\u2212{-entry}"
        assert result["explanation"].endswith(shown)
