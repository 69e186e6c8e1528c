"""Quick results: the scorer taps "won", "lost schneider" … instead of counting card points.

A quick result must score exactly like any card points inside its range, in every system,
and the explanation must never show card points nobody counted."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import SkatError, evaluate

# (result, card points inside its range for ISkO, for the historical systems, tricks)
RANGES = {
    "won": (range(61, 90), range(61, 91)),
    "won_schneider": (range(90, 120), range(91, 120)),
    "lost": (range(31, 60), range(31, 60)),
    "lost_schneider": (range(23, 31), range(1, 31)),
    "sixty": (range(60, 61), range(60, 61)),
}


def game(**kw: Any) -> dict[str, Any]:
    return {"kind": "game", "declarer": 0, "game": "clubs", "matadors": 1, "bid": 18, **kw}


@given(st.sampled_from(sorted(RANGES)), st.data(), st.booleans(), st.integers(1, 4))
def test_isko_quick_result_scores_like_points_in_its_range(
        result: str, data: st.DataObject, hand: bool, matadors: int) -> None:
    points = data.draw(st.sampled_from(RANGES[result][0]))
    base = game(hand=hand, matadors=matadors)
    counted = evaluate({**base, "declarer_points": points})
    quick = evaluate({**base, "result": result})
    assert quick["entries"] == counted["entries"] and quick["value"] == counted["value"]


@given(st.sampled_from(sorted(RANGES)), st.data())
def test_historic_quick_result_scores_like_points_in_its_range(result: str,
                                                               data: st.DataObject) -> None:
    points = data.draw(st.sampled_from(RANGES[result][1]))
    base = {"rules": "american1898", **game(game="solo_hearts", bid=20)}
    tricks = {"declarer_tricks": 1} if points <= 22 else {}
    counted = evaluate({**base, "declarer_points": points, **tricks})
    quick = evaluate({**base, "result": result})
    assert quick["entries"] == counted["entries"]


@pytest.mark.parametrize("result, points, tricks", [
    ("won_schwarz", 120, 10), ("lost_schwarz", 0, 0)])
def test_schwarz_quick_results(result: str, points: int, tricks: int) -> None:
    counted = evaluate(game(declarer_points=points, declarer_tricks=tricks))
    assert evaluate(game(result=result))["entries"] == counted["entries"]


def test_won_with_an_announcement_means_it_was_made() -> None:
    announced = game(hand=True, schneider_announced=True, bid=60)
    assert evaluate({**announced, "result": "won"})["entries"] == {"0": 60}
    schwarz = game(hand=True, schneider_announced=True, schwarz_announced=True, bid=18)
    assert evaluate({**schwarz, "result": "won"})["entries"] == {"0": 84}


@pytest.mark.parametrize("deal", [
    game(result="lost"), game(result="lost_schneider"),
    game(game="null", matadors=None, bid=23, result="lost"),
    {"rules": "hoyle", **game(game="gucki_nullo", matadors=None, bid=15, result="lost")},
])
def test_explanations_show_no_invented_numbers(deal: dict[str, Any]) -> None:
    text = evaluate(deal)["explanation"]
    assert "card points" not in text and "trick" not in text


@pytest.mark.parametrize("deal, field", [
    (game(result="won", declarer_points=70), "result"),
    (game(result="maybe"), "result"),
    (game(game="null", matadors=None, bid=23, result="won_schneider"), "result"),
    (game(concession="declarer", result="lost"), "result"),
    ({"rules": "american1898", "options": {"exceptional": ["nullo_tricks"]},
      **game(game="nullo_tricks", matadors=None, bid=20, result="lost")},
     "declarer_tricks"),
])
def test_bad_quick_results_are_refused(deal: dict[str, Any], field: str) -> None:
    with pytest.raises(SkatError) as refused:
        evaluate(deal)
    assert refused.value.field == field


def test_sixty_triggers_bock() -> None:
    from scoring.engine import evaluate_table
    deals = [game(declarer=1, result="sixty"), game(declarer=2, result="won")]
    result = evaluate_table({"players": 3, "options": {"bock": {}}, "deals": deals})
    assert [row["bock"] for row in result["deals"]] == [0, 1]
