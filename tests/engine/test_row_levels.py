"""Each row of evaluate_table carries the matadors and the levels that counted, so a printed
sheet can tick Hand, Schneider, angesagt, Schwarz, angesagt and Ouvert without working
out a rule itself; the result counts each seat's passed-in deals (what a fee charges)."""

from __future__ import annotations

from typing import Any

from scoring.engine import TableDeal, evaluate_table


def rows(deals: list[dict[str, Any]], rules: str = "isko", **table: Any) -> list[TableDeal]:
    evaluated: list[TableDeal] = evaluate_table(
        {"rules": rules, "players": 3, "deals": deals, **table})["deals"]
    return evaluated


def test_isko_game_levels_come_from_the_play() -> None:
    (row,) = rows([{"kind": "game", "declarer": 1, "game": "clubs", "hand": True,
                    "matadors": -2, "bid": 18, "declarer_points": 95}])
    assert row["matadors"] == -2
    assert row["levels"] == ("hand", "schneider")


def test_matadors_derived_from_the_cards() -> None:
    (row,) = rows([{"kind": "game", "declarer": 1, "game": "clubs",
                    "cards": ["CJ", "SJ", "HJ", "C10", "CK", "C9", "C8", "SA", "DA", "D10",
                              "D7", "HQ"], "bid": 18, "declarer_points": 70}])
    assert row["matadors"] == 3 and row["levels"] == ()


def test_announced_schwarz_implies_every_level_below() -> None:
    (row,) = rows([{"kind": "game", "declarer": 1, "game": "grand", "hand": True,
                    "schwarz_announced": True, "matadors": 1, "bid": 18,
                    "declarer_points": 120, "declarer_tricks": 10}])
    assert row["levels"] == ("hand", "schneider", "schneider_announced", "schwarz",
                             "schwarz_announced")


def test_null_ticks_its_declarations_and_has_no_matadors() -> None:
    (row,) = rows([{"kind": "game", "declarer": 1, "game": "null", "hand": True,
                    "ouvert": True, "bid": 59, "declarer_tricks": 0}])
    assert row["matadors"] is None and row["levels"] == ("hand", "ouvert")


def test_historic_schneider_and_records_that_are_not_games() -> None:
    deals: list[dict[str, Any]] = [
        {"kind": "game", "declarer": 1, "game": "solo_clubs", "matadors": 1, "bid": 36,
         "declarer_points": 95},
        {"kind": "passed"},
    ]
    solo, passed = rows(deals, rules="american1898")
    assert solo["matadors"] == 1 and solo["levels"] == ("schneider",)
    assert passed["matadors"] is None and passed["levels"] == ()


def test_the_result_counts_the_passed_deals_each_seat_was_in() -> None:
    deals = [{"kind": "passed"}, {"kind": "game", "declarer": 2, "game": "clubs",
                                  "matadors": 1, "bid": 18, "declarer_points": 70},
             {"kind": "passed"}]
    result = evaluate_table({"players": 4, "deals": deals})
    # dealer 0 sits out the first passed deal, dealer 2 the second
    assert result["games"]["passed"] == {"0": 1, "1": 2, "2": 1, "3": 2}
