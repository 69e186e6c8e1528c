"""The table screen's server side of issue 12: the short Ramsch fields, the value the preview
hands the bid strip, every legal bid as a tap, the whole list to correct, and the
confirmations after a correction, an undo and a restore. (The browser side:
test_table_screen_fits.py.)"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.forms.entry import DealForm, Rules, record_to_initial
from scoring.models import Deal, Table
from scoring.writes.services import Actor, deal_record

from .factories import deal_form, make_table, make_user

pytestmark = pytest.mark.django_db

GAME = {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
        "result": "won", "hand": False, "ouvert": False, "schneider_announced": False,
        "schwarz_announced": False}


def url(name: str, table: Table, *args: int) -> str:
    return reverse(f"scoring:{name}", args=[table.pk, *args])


def ramsch(table: Table, **fields: str) -> dict[str, str]:
    return deal_form(table, kind="ramsch", declarer=None, game=None, matadors=None, bid=None,
                     result=None, **fields)


def seed(table: Table, records: list[dict[str, Any]]) -> list[Deal]:
    user = make_user(table.evening.club, "admin", username="seeder")
    deals = []
    for record in records:
        table.refresh_from_db()
        deals.append(deal_record(table=table, record=record, expected_version=table.version,
                                 actor=Actor(user, "seeder")))
    return deals


# ---------------------------------------------------------------- the short Ramsch

@pytest.mark.parametrize(("fields", "stored"), [
    ({"ramsch_loser": ["1"], "ramsch_loser_points": "50"},
     {"losers": {"1": 50}, "jungfrau": 0, "durchmarsch": None}),
    ({"ramsch_loser": ["1", "3"], "ramsch_loser_points": "60", "ramsch_jungfrau": "1"},
     {"losers": {"1": 60, "3": 60}, "jungfrau": 1, "durchmarsch": None}),
    # a Durchmarsch: the losers tapped before it do not count, the other two took no trick
    ({"ramsch_loser": ["2"], "ramsch_durchmarsch": "2"},
     {"losers": {}, "jungfrau": 2, "durchmarsch": 2}),
])
def test_the_short_ramsch_is_saved_as_the_short_record(
        scorer: Client, table: Table, fields: dict[str, Any], stored: dict[str, Any]) -> None:
    response = scorer.post(url("deal-save", table), ramsch(table, **fields))
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Deal.objects.get().record == {"kind": "ramsch", "ramsch": stored}


def test_the_full_ramsch_still_wins_when_its_points_are_given(scorer: Client,
                                                             table: Table) -> None:
    data = ramsch(table, ramsch_points_1="50", ramsch_points_2="40", ramsch_points_3="30",
                  ramsch_tricks_1="4", ramsch_tricks_2="4", ramsch_tricks_3="2")
    assert scorer.post(url("deal-save", table), data).status_code == 302
    assert set(Deal.objects.get().record["ramsch"]) == {"points", "tricks"}


def test_an_empty_ramsch_says_what_to_tap_and_saves_nothing(scorer: Client,
                                                           table: Table) -> None:
    response = scorer.post(url("deal-save", table), ramsch(table))
    assert response.status_code == 422
    assert "Den Spieler mit den meisten Augen antippen" in response.content.decode()
    assert not Deal.objects.exists()


def test_a_refused_short_ramsch_names_the_player(scorer: Client, table: Table) -> None:
    response = scorer.post(url("deal-preview", table),
                           ramsch(table, ramsch_loser="1", ramsch_loser_points="20"))
    text = response.content.decode()
    assert 'data-valid="false"' in text and "20" in text
    assert not Deal.objects.exists()


def test_a_short_ramsch_opens_for_correction_with_its_taps(scorer: Client,
                                                          table: Table) -> None:
    [deal] = seed(table, [{"kind": "ramsch", "ramsch": {"losers": {"2": 60, "3": 60},
                                                        "jungfrau": 1, "durchmarsch": None}}])
    initial = record_to_initial(deal.record)
    assert initial["ramsch_loser"] == [2, 3] and initial["ramsch_loser_points"] == 60
    html = scorer.get(url("deal-edit", table, deal.pk)).content.decode()
    for checked in ("ramsch_loser-2", "ramsch_loser-3", "ramsch_jungfrau-1", "kind-ramsch"):
        assert re.search(rf'id="{checked}"[^>]* checked', html), checked
    assert not re.search(r'id="ramsch_loser-1"[^>]* checked', html)
    assert 'name="ramsch_loser_points" type="number" inputmode="numeric" min="0" max="120" ' \
           'value="60"' in html


def test_the_loser_taps_are_checkboxes_of_the_players_in_the_deal(scorer: Client,
                                                                 table: Table) -> None:
    html = scorer.get(url("table", table)).content.decode()
    for seat in (1, 2, 3):  # seat 0 deals and sits out
        assert f'<input type="checkbox" id="ramsch_loser-{seat}" name="ramsch_loser"' in html
    assert 'id="ramsch_loser-0"' not in html
    assert 'data-tap="ramsch-durchmarsch-2"' in html and 'data-tap="ramsch-jungfrau-1"' in html


# ---------------------------------------------------------------- the bid strip

@pytest.mark.parametrize(("fields", "value"), [
    ({}, 24),                                   # Clubs with 1: 2 × 12
    ({"matadors": "2", "hand": "on"}, 48),      # with 2, Hand: 4 × 12
    ({"game": "null", "matadors": None}, 23),
    ({"game": "grand", "matadors": "3", "hand": "on"}, 120),
    ({"schwarz_announced": "on", "hand": "on", "schneider_announced": "on"}, 84),
])
def test_the_preview_hands_the_bid_strip_the_declared_value(
        scorer: Client, table: Table, fields: dict[str, str | None], value: int) -> None:
    """The engine's value of the game as declared so far, whatever bid and result are
    tapped (here none): the bid strip marks it."""
    data = deal_form(table, bid=None, result=None, **fields)
    html = scorer.post(url("deal-preview", table), data).content.decode()
    assert f'data-value="{value}"' in html
    assert not Deal.objects.exists()


def test_an_unfinished_game_has_no_value_yet(scorer: Client, table: Table) -> None:
    html = scorer.post(url("deal-preview", table),
                       deal_form(table, matadors=None, bid=None, result=None)).content.decode()
    assert "data-value" not in html


def test_every_legal_bid_is_a_tap(scorer: Client, table: Table) -> None:
    html = scorer.get(url("table", table)).content.decode()
    rules = Rules.of(table.evening.rules, table.evening.options, 4)
    for bid in rules.bids:
        assert f'data-tap="bid-{bid}"' in html, bid
    assert 'name="bid_more"' not in html  # no list to scroll through


def test_a_high_bid_posts_as_a_tap(scorer: Client, table: Table) -> None:
    data = deal_form(table, game="grand", matadors="3", hand="on", bid="120")
    assert scorer.post(url("deal-save", table), data).status_code == 302
    assert Deal.objects.get().record["bid"] == 120


def test_matadors_show_the_count_and_are_named_in_full(scorer: Client, table: Table) -> None:
    html = scorer.get(url("table", table)).content.decode()
    assert re.search(r'id="matadors-minus-2"[^>]*aria-label="ohne 2"', html)
    assert re.search(r'id="matadors-3"[^>]*aria-label="mit 3"', html)


# ---------------------------------------------------------------- the list and corrections

def test_the_whole_list_can_be_corrected_from_the_table_screen(scorer: Client,
                                                               table: Table) -> None:
    deals = seed(table, [{**GAME, "declarer": 1 + i % 3} for i in range(9)])
    html = scorer.get(url("table", table)).content.decode()
    for deal in deals:
        assert f'href="{url("deal-edit", table, deal.pk)}"' in html


def test_a_correction_ends_in_a_confirmation(scorer: Client, table: Table) -> None:
    [deal] = seed(table, [GAME])
    table.refresh_from_db()
    data = deal_form(table, result="lost", reason="Tippfehler")
    response = scorer.post(url("deal-edit", table, deal.pk), data)
    assert response["Location"] == f"{url('table', table)}?corrected={deal.pk}"
    html = scorer.get(response["Location"]).content.decode()
    assert "Spiel 1 korrigiert:" in html and "−48" in html


def test_an_undo_confirms_and_offers_the_deal_back(scorer: Client, table: Table) -> None:
    [deal] = seed(table, [GAME])
    table.refresh_from_db()
    response = scorer.post(url("deal-delete", table, deal.pk),
                           {"version": table.version, "reason": "Direkt rückgängig"})
    assert response["Location"] == f"{url('table', table)}?deleted={deal.pk}"
    html = scorer.get(response["Location"]).content.decode()
    assert "Das Spiel wurde zurückgenommen" in html
    assert f'action="{url("deal-restore", table, deal.pk)}"' in html
    table.refresh_from_db()
    response = scorer.post(url("deal-restore", table, deal.pk),
                           {"version": table.version,
                            "reason": "Direkt nach dem Rückgängigmachen wiederhergestellt"})
    assert response["Location"] == f"{url('table', table)}?restored={deal.pk}"
    html = scorer.get(response["Location"]).content.decode()
    assert "Spiel 1 wiederhergestellt:" in html
    deal.refresh_from_db()
    assert not deal.deleted


def test_a_confirmation_for_a_deal_of_another_table_shows_nothing(
        scorer: Client, table: Table) -> None:
    other = make_table(table.evening.club)
    [deal] = seed(other, [GAME])
    # No confirmation toast (the page's offline words do hold "korrigiert": look at toasts).
    html = scorer.get(f"{url('table', table)}?corrected={deal.pk}").content.decode()
    assert "notice-corrected" not in html and "toast" not in html
    html = scorer.get(f"{url('table', table)}?deleted=abc").content.decode()
    assert "notice-undone" not in html and "toast" not in html


def test_the_form_accepts_the_short_fields_only_as_seats(table: Table) -> None:
    rules = Rules.of(table.evening.rules, table.evening.options, 4)
    form = DealForm({"version": "0", "kind": "ramsch", "ramsch_loser": ["7"],
                     "ramsch_loser_points": "50"}, rules=rules, active=[1, 2, 3])
    assert not form.is_valid() and "ramsch_loser" in form.errors
    form = DealForm({"version": "0", "kind": "ramsch", "ramsch_loser": ["1"],
                     "ramsch_loser_points": "121"}, rules=rules, active=[1, 2, 3])
    assert not form.is_valid() and "ramsch_loser_points" in form.errors




# ---------------------------------------------------------------- Bock by hand

def manual_bock(table: Table) -> Table:
    evening = table.evening
    evening.options = {**evening.options,
                       "bock": {**(evening.options.get("bock") or {}), "manual": True}}
    evening.save()
    table.refresh_from_db()
    return table


def test_bock_by_hand_is_offered_only_under_the_option(scorer: Client, table: Table) -> None:
    html = scorer.get(url("table", table)).content.decode()
    assert 'data-tap="bock-1"' not in html and 'name="bock_round"' not in html
    manual_bock(table)
    html = scorer.get(url("table", table)).content.decode()
    for tap in ("bock-auto", "bock-0", "bock-1", "bock-2", "toggle-bock_round"):
        assert f'data-tap="{tap}"' in html, tap
    assert "Bock von Hand" in html and "Bockrunde" in html


def test_bock_by_hand_goes_into_the_record(scorer: Client, table: Table) -> None:
    manual_bock(table)
    response = scorer.post(url("deal-save", table),
                           deal_form(table, bock="1", bock_round="on"))
    assert response.status_code == 302, response.content.decode()[-1500:]
    record = Deal.objects.get().record
    assert (record["bock"], record["bock_round"]) == (1, True)
    html = scorer.get(response["Location"]).content.decode()
    assert "+48" in html  # 24 doubled
    assert "Bock 1 von 4" in html  # the round queued by hand starts with the next deal
    # A correction shows and keeps it.
    deal = Deal.objects.get()
    html = scorer.get(url("deal-edit", table, deal.pk)).content.decode()
    assert re.search(r'id="bock-1"[^>]* checked', html)
    assert re.search(r'id="toggle-bock_round"[^>]* checked', html)


def test_bock_by_hand_without_the_option_is_not_a_field(scorer: Client, table: Table) -> None:
    response = scorer.post(url("deal-save", table),
                           deal_form(table, bock="2", bock_round="on"))
    assert response.status_code == 302
    record = Deal.objects.get().record
    assert "bock" not in record and "bock_round" not in record


def test_a_bock_level_by_hand_the_engine_refuses_is_shown(scorer: Client,
                                                         table: Table) -> None:
    """A passed-in deal under bock.manual with a Bock round: accepted; a penalty carries
    none (the form leaves it out)."""
    manual_bock(table)
    response = scorer.post(url("deal-save", table),
                           deal_form(table, kind="passed", bock_round="on"))
    assert response.status_code == 302
    assert Deal.objects.get().record == {"kind": "passed", "bock_round": True}
    table.refresh_from_db()
    response = scorer.post(url("deal-save", table),
                           deal_form(table, kind="penalty", penalty_seat="1", bock="1"))
    assert response.status_code == 302
    last = Deal.objects.order_by("-pk").first()
    assert last is not None, "the penalty was saved"
    assert "bock" not in last.record
