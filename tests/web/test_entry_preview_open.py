"""The live preview tells a step not reached yet from a real contradiction
(scoring/views/entry.py _refusals): what is still open reads as a neutral hint ("Noch offen:
Reizwert, Ergebnis", class "open"), only a contradiction (an overbid Null, a player who sits
out, card points that do not add up) as a red error (class "errors", role alert). Either
way the deal is not ready: data-valid is false, and Save waits (entry.js)."""

from __future__ import annotations

import re
from typing import TypedDict

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Table

from .factories import deal_form

pytestmark = pytest.mark.django_db


class Shown(TypedDict):
    valid: str
    open: list[str]
    errors: list[str]


def preview(client: Client, table: Table, lang: str = "de", /, **fields: str | None) -> Shown:
    response = client.post(reverse("scoring:deal-preview", args=[table.pk]),
                           deal_form(table, **fields), headers={"accept-language": lang})
    assert response.status_code == 200
    html = response.content.decode()
    valid = re.search(r'data-valid="(\w+)"', html)
    assert valid is not None, "the preview says whether the deal is ready"
    return {
        "valid": valid.group(1),
        "open": re.findall(r"<ul class=\"open\">(.*?)</ul>", html, re.S),
        "errors": re.findall(r"<ul class=\"errors\" role=\"alert\">(.*?)</ul>", html, re.S),
    }


def items(block: list[str]) -> list[str]:
    return [li for b in block for li in re.findall(r"<li>(.*?)</li>", b, re.S)]


GAME_STEPS = ("declarer", "game", "matadors", "bid", "result")


@pytest.mark.parametrize(("given", "still_open"), [
    (0, "Noch offen: Alleinspieler, Spiel, Mit / ohne, Reizwert, Ergebnis"),
    (1, "Noch offen: Spiel, Mit / ohne, Reizwert, Ergebnis"),
    (2, "Noch offen: Mit / ohne, Reizwert, Ergebnis"),
    (3, "Noch offen: Reizwert, Ergebnis"),
    (4, "Noch offen: Ergebnis"),
])
def test_each_tap_leaves_the_rest_open(scorer: Client, table: Table, given: int,
                                       still_open: str) -> None:
    """The five taps of a game in the screen's order: after each, what is still open, in
    that order, and nothing in red."""
    shown = preview(scorer, table, **dict.fromkeys(GAME_STEPS[given:]))
    assert items(shown["open"]) == [still_open]
    assert shown["errors"] == [] and shown["valid"] == "false"


def test_in_english(scorer: Client, table: Table) -> None:
    shown = preview(scorer, table, "en", bid=None, result=None)
    assert items(shown["open"]) == ["Still open: Bid, Result"]


def test_a_null_needs_no_matadors(scorer: Client, table: Table) -> None:
    shown = preview(scorer, table, game="null", matadors=None, bid="23", result=None)
    assert items(shown["open"]) == ["Noch offen: Ergebnis"]  # not its tricks on top of it
    assert shown["errors"] == []


def test_a_contradiction_is_red(scorer: Client, table: Table) -> None:
    shown = preview(scorer, table, game="null", matadors=None, bid="24")
    assert shown["open"] == []
    assert items(shown["errors"]) == [
        "Null (23) reicht nicht für den Reizwert 24; Null Hand (35) würde reichen."]
    assert shown["valid"] == "false"


def test_a_contradiction_beside_open_steps(scorer: Client, table: Table) -> None:
    """Anna deals at a 4-table: tapped as declarer she is wrong, whatever is still open."""
    shown = preview(scorer, table, declarer="0", bid=None)
    assert items(shown["errors"]) == [
        "Anna Altenburg setzt in diesem Spiel aus und kann nicht Alleinspieler sein."]
    assert items(shown["open"]) == ["Noch offen: Reizwert"]


def test_a_wrong_value_of_a_form_field_is_red(scorer: Client, table: Table) -> None:
    shown = preview(scorer, table, bid="19", result=None)
    assert len(items(shown["errors"])) == 1 and "19" in items(shown["errors"])[0]
    assert items(shown["open"]) == ["Noch offen: Ergebnis"]
    shown = preview(scorer, table, bid_more="20")  # two different bids
    assert len(items(shown["errors"])) == 1 and shown["open"] == []


def test_tricks_asked_after_few_card_points_is_a_hint(scorer: Client, table: Table) -> None:
    """20 card points: whether the declarer took a trick decides Schwarz; the engine asks
    for the tricks, which is the next thing to type, not a mistake."""
    shown = preview(scorer, table, result="", declarer_points="20")
    [hint] = items(shown["open"])
    assert "20" in hint and "Stiche" in hint
    assert shown["errors"] == []
    assert preview(scorer, table, result="", declarer_points="20",
                   declarer_tricks="1")["valid"] == "true"


def test_a_ramsch_typed_seat_by_seat(scorer: Client, table: Table) -> None:
    """Card points for some of the three players: still open. All three, not adding up to
    120: wrong."""
    ramsch = {"kind": "ramsch", "result": None}
    shown = preview(scorer, table, **ramsch)
    assert len(items(shown["open"])) == 1 and shown["errors"] == []  # tap the loser
    shown = preview(scorer, table, **ramsch, ramsch_points_1="50", ramsch_points_2="40")
    assert len(items(shown["open"])) == 1 and shown["errors"] == []
    shown = preview(scorer, table, **ramsch, ramsch_points_1="50", ramsch_points_2="40",
                    ramsch_points_3="20", ramsch_tricks_1="4", ramsch_tricks_2="3",
                    ramsch_tricks_3="3")
    assert shown["open"] == [] and items(shown["errors"]) == [
        "Die Augen müssen zusammen 120 ergeben, nicht 110."]
    shown = preview(scorer, table, **ramsch, ramsch_loser="1")  # the loser's points next
    assert len(items(shown["open"])) == 1 and shown["errors"] == []


def test_a_penalty_without_its_player_is_open(scorer: Client, table: Table) -> None:
    shown = preview(scorer, table, kind="penalty", result=None)
    assert len(items(shown["open"])) == 1 and shown["errors"] == []
    assert preview(scorer, table, kind="penalty", result=None,
                   penalty_seat="1")["valid"] == "true"


def test_a_complete_deal_has_neither(scorer: Client, table: Table) -> None:
    shown = preview(scorer, table)
    assert shown == {"valid": "true", "open": [], "errors": []}
