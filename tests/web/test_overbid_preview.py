"""Issue 23 on the table screen's server side: the overbid told before the deal is stored (the
live preview, as the engine scores it, in German and English, under both overbid rules, with
Kontra and Bock), the list row's "überreizt", a Kontra that needs its sayer, and a new deal's
untouched form marked for entry.js to hold Save."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal, Table
from scoring.writes.services import Actor, deal_record

from .factories import deal_form, make_user

pytestmark = pytest.mark.django_db

DECLARED = {"hand": False, "ouvert": False, "schneider_announced": False,
            "schwarz_announced": False}


def url(name: str, table: Table, *args: int) -> str:
    return reverse(f"scoring:{name}", args=[table.pk, *args])


def preview(client: Client, table: Table, lang: str = "de", **fields: str | None) -> str:
    data = deal_form(table, **{"game": "grand", "matadors": "1", "bid": "50", "result": None,
                               **fields})
    return client.post(url("deal-preview", table), data,
                       HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def seed(table: Table, records: list[dict[str, Any]]) -> None:
    user = make_user(table.evening.club, "admin", username="seeder")
    for record in records:
        table.refresh_from_db()
        deal_record(table=table, record=record, expected_version=table.version,
                    actor=Actor(user, "seeder"))


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&lt;", "<")


# ---------------------------------------------------------------- the overbid preview

@pytest.mark.parametrize(("lang", "words"), [
    ("de", ["überreizt", "mit 1, Spiel 2 × Grand 24 = 48 < Reizwert 50 → überreizt: "
            "72 × 2 = −144", "Bernd Altenburg −144", "Noch offen: Ergebnis",
            "gewonnen Schneider +72"]),
    ("en", ["overbid", "with 1, game 2 × Grand 24 = 48 < bid 50 → overbid: 72 × 2 = −144",
            "Bernd Altenburg −144", "Still open: Result", "won Schneider +72"]),
])
def test_an_overbid_is_told_before_the_result(scorer: Client, table: Table, lang: str,
                                              words: list[str]) -> None:
    """Game, matadors and bid known, no result: the engine's overbid line and what it will
    count (ISkO: the next multiple of 24 that reaches 50 is 72, lost double), the result
    still open, and that Schneider played would lift it to the bid."""
    html = preview(scorer, table, lang)
    said = text(html)
    for word in words:
        assert word in said, (word, said)
    assert 'class="breakdown overbid-preview"' in html
    assert 'data-valid="false"' in html  # the result is still to be tapped
    assert not Deal.objects.exists()


def test_the_preview_counts_what_the_saved_deal_counts(scorer: Client, table: Table) -> None:
    """The value said before the result is the stored deal's entry, whatever result is
    tapped (an overbid game is lost whatever the declarer took)."""
    said = text(preview(scorer, table, kontra="kontra", kontra_by="2"))
    assert "72 × 2 × Kontra 2 = −288" in said
    response = scorer.post(url("deal-save", table), deal_form(
        table, game="grand", matadors="1", bid="50", result="won", kontra="kontra",
        kontra_by="2"))
    assert response.status_code == 302
    assert scorer.get(response["Location"]).content.decode().count("−288") >= 1
    assert Deal.objects.get().record["kontra_by"] == 2


def test_the_older_rule_charges_the_bid(scorer: Client, table: Table) -> None:
    """overbid_charge: bid (DECISIONS.md): a lost overbid costs the bid itself, doubled."""
    evening = table.evening
    evening.options = {**evening.options, "overbid_charge": "bid"}
    evening.save()
    said = text(preview(scorer, table))
    assert "überreizt: 50 × 2 = −100" in said and "Bernd Altenburg −100" in said


def test_a_bock_round_doubles_the_overbid_in_the_preview(scorer: Client,
                                                          table: Table) -> None:
    # A lost Kontra game brings a Bock round (the club evening's trigger).
    seed(table, [{"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
                  "result": "lost", "kontra": "kontra", "kontra_by": 2, **DECLARED}])
    said = text(preview(scorer, table, declarer="2"))
    assert "72 × 2 × Bock 2 = −288" in said and "Clara Altenburg −288" in said


@pytest.mark.parametrize("fields", [
    {"matadors": "2"},                      # with 2: 3 × 24 = 72 ≥ 50
    {"bid": "48"},                          # reached exactly
    {"result": "won"},                      # a result: the row itself is the preview
    {"matadors": None},                     # the level is not known yet
])
def test_no_overbid_line_unless_the_game_is_below_its_bid(
        scorer: Client, table: Table, fields: dict[str, str | None]) -> None:
    html = preview(scorer, table, "de", **fields)
    assert "overbid-preview" not in html


def test_a_null_below_its_bid_is_still_refused(scorer: Client, table: Table) -> None:
    html = preview(scorer, table, game="null", matadors=None, bid="24")
    assert 'class="errors"' in html and "overbid-preview" not in html


# ---------------------------------------------------------------- the list row

def test_the_list_row_says_overbid(scorer: Client, table: Table) -> None:
    seed(table, [{"kind": "game", "declarer": 1, "game": "grand", "matadors": 1, "bid": 50,
                  "result": "won", **DECLARED},
                 {"kind": "game", "declarer": 2, "game": "grand", "matadors": 1, "bid": 48,
                  "result": "won", **DECLARED}])
    html = scorer.get(url("table", table)).content.decode()
    body = html.split('<table class="rows">')[1].split("<tbody>")[1].split("</tbody>")[0]
    rows = re.findall(r"<tr class=\"[^\"]*\">(.*?)</tr>", body, re.S)
    assert len(rows) == 2
    assert '<small class="overbid-mark">überreizt</small>' in rows[0]
    assert "gewonnen" not in text(rows[0])  # an overbid game is not "won"
    assert "overbid-mark" not in rows[1]
    english = scorer.get(url("table", table), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<small class="overbid-mark">overbid</small>' in english


# ---------------------------------------------------------------- Kontra and its sayer

def test_a_kontra_without_its_sayer_is_a_step_still_open(scorer: Client,
                                                        table: Table) -> None:
    html = scorer.post(url("deal-preview", table),
                       deal_form(table, kontra="kontra")).content.decode()
    assert 'data-valid="false"' in html
    assert "Tippen, wer Kontra gesagt hat." in text(html)
    assert 'class="errors"' not in html  # not a refusal: the rest is scored meanwhile
    assert "× Kontra 2 = +48" in text(html)


def test_the_server_refuses_a_kontra_without_its_sayer(scorer: Client, table: Table) -> None:
    response = scorer.post(url("deal-save", table), deal_form(table, kontra="re"))
    assert response.status_code == 422
    assert "Tippen, wer Kontra gesagt hat." in response.content.decode()
    assert not Deal.objects.exists()
    response = scorer.post(url("deal-save", table),
                           deal_form(table, kontra="re", kontra_by="3"))
    assert response.status_code == 302
    assert Deal.objects.get().record["kontra_by"] == 3


def test_nobody_is_no_longer_the_sayer_s_first_choice(scorer: Client, table: Table) -> None:
    """"nobody" stays for a browser without JavaScript (to take a sayer back); entry.js hides
    it, and with no Kontra nothing is asked."""
    html = scorer.get(url("table", table)).content.decode()
    assert 'data-tap="kontra-by-none"' in html
    response = scorer.post(url("deal-save", table), deal_form(table, kontra="none"))
    assert response.status_code == 302


# ---------------------------------------------------------------- Save on an untouched form

def test_only_a_new_deals_untouched_form_is_marked_fresh(scorer: Client,
                                                        table: Table) -> None:
    assert " data-fresh " in scorer.get(url("table", table)).content.decode()
    refused = scorer.post(url("deal-save", table), deal_form(table, kind="ramsch"))
    assert refused.status_code == 422 and " data-fresh " not in refused.content.decode()
    seed(table, [{"kind": "passed"}])
    deal = Deal.objects.get()
    edit = scorer.get(url("deal-edit", table, deal.pk)).content.decode()
    assert " data-fresh " not in edit


def test_hoyle_charges_the_next_game_of_the_kind(client: Client) -> None:
    """Hoyle (DECISIONS.md §4): an overbid is charged at the next game of the declared kind
    that reaches the bid, and a loss is single: Solo Clubs with 1 = 2 × 12 = 24 < 30 → 36,
    −36."""
    from .factories import make_club, make_table

    table = make_table(make_club(), preset="hoyle")
    client.force_login(make_user(table.evening.club, "scorer"))
    said = text(preview(client, table, "en", game="solo_clubs", bid="30"))
    assert "× Clubs Solo 12 = 24 < bid 30 → overbid: −36" in said, said
    assert "Bernd Altenburg −36" in said
