"""Issue 23, item 4: the same deal entered on two devices is kept once.

"The same" is the same record as the engine reads it (scoring.engine.fields.normalised): a
field left out and the same field given with its default are the same, and where the deal
stands (its dealer, its number) is no part of it, so a deal both tablets appended as the
next deal is caught although mine would now be appended one further down. Then the conflict
panel says so, its first, highlighted choice keeps the other device's deal, and appending
mine is the explicit second choice: online (scoring/views/table_live.py, _conflict.html) and
in the sync answer the offline tablet draws its panel from (scoring/views/sync.py).
"""

from __future__ import annotations

import json
import uuid
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.engine import evaluate_table, normalised, same_deal
from scoring.models import Deal, Table
from scoring.reads.sheet import table_document
from scoring.writes.services import Actor, deal_record

from .factories import deal_form

OTHER = Actor(None, "Tisch 1, Tablet B")
# Clara's Clubs game as the table screen's form writes it (every flag given) …
FORM_SHAPE = {"kind": "game", "declarer": 2, "game": "clubs", "hand": False, "ouvert": False,
              "schneider_announced": False, "schwarz_announced": False, "matadors": 1,
              "bid": 18, "result": "won"}
# … and the same deal as an import or an older tablet writes it: flags left out, Kontra
# "none" given, the dealer named.
SPARE_SHAPE = {"kind": "game", "declarer": 2, "game": "clubs", "matadors": 1, "bid": 18,
               "result": "won", "kontra": "none", "dealer": 0}


# ---------------------------------------------------------------- what "the same" is

def test_defaults_and_the_place_in_the_list_do_not_make_a_deal_another() -> None:
    assert same_deal(FORM_SHAPE, SPARE_SHAPE)
    assert same_deal(SPARE_SHAPE, {**FORM_SHAPE, "dealer": 3, "number": 12, "bock": None})
    assert normalised(SPARE_SHAPE) == {"kind": "game", "declarer": 2, "game": "clubs",
                                       "matadors": 1, "bid": 18, "result": "won"}
    short = {"kind": "ramsch", "ramsch": {"losers": {"1": 62}, "jungfrau": 0,
                                          "durchmarsch": None}}
    assert same_deal(short, {"kind": "ramsch", "ramsch": {"losers": {"1": 62}}})


@pytest.mark.parametrize("other", [
    {**FORM_SHAPE, "bid": 20},  # another bid
    {**FORM_SHAPE, "declarer": 1},  # another declarer
    {**FORM_SHAPE, "hand": True},  # Hand
    {**FORM_SHAPE, "kontra": "kontra", "kontra_by": 2},  # with Kontra
    {**FORM_SHAPE, "result": "lost"},
    {**FORM_SHAPE, "bock": 1},  # a Bock level set by hand
    {**FORM_SHAPE, "matadors": True},  # true is not 1
])
def test_any_field_that_counts_makes_another_deal(other: dict[str, Any]) -> None:
    assert not same_deal(FORM_SHAPE, other)


def test_ramsch_losers_jungfrau_and_durchmarsch_count() -> None:
    lost = {"kind": "ramsch", "ramsch": {"losers": {"1": 62}, "jungfrau": 0,
                                         "durchmarsch": None}}
    assert not same_deal(lost, {"kind": "ramsch", "ramsch": {"losers": {"2": 62}}})
    assert not same_deal(lost, {"kind": "ramsch", "ramsch": {"losers": {"1": 62},
                                                             "jungfrau": 1}})
    assert not same_deal(lost, {"kind": "ramsch", "ramsch": {"losers": {}, "jungfrau": 2,
                                                             "durchmarsch": 1}})
    assert not same_deal(lost, None) and not same_deal("x", lost)


# ---------------------------------------------------------------- online: the panel

db = pytest.mark.django_db

class Choices(HTMLParser):
    """The conflict panel's choices in page order: (data-tap, class)."""

    def __init__(self) -> None:
        super().__init__()
        self.choices: list[tuple[str, str]] = []
        self.same_text = ""
        self._in_same = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if a.get("data-tap", "").startswith("conflict-"):
            self.choices.append((a["data-tap"], a.get("class", "")))
        if tag == "p" and "conflict-same" in a.get("class", "").split():
            self._in_same = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "p":
            self._in_same = False

    def handle_data(self, data: str) -> None:
        if self._in_same:
            self.same_text += data


def choices(html: str) -> Choices:
    parser = Choices()
    parser.feed(html)
    return parser


def other_saves(table: Table, record: dict[str, Any]) -> Deal:
    table.refresh_from_db()
    return deal_record(table=table, record=record, expected_version=table.version,
                       actor=OTHER)


def save_url(table: Table) -> str:
    return reverse("scoring:deal-save", args=[table.pk])


@db
def test_the_same_deal_from_another_device_is_kept_once(scorer: Client, table: Table) -> None:
    """Tablet B stored Clara's Clubs game in its own way (flags left out, Kontra "none",
    the dealer named); this tablet saves the same deal from the same version: the panel
    says so in German, the first choice keeps theirs, and that leaves one deal."""
    mine = deal_form(table, declarer="2")
    other_saves(table, SPARE_SHAPE)
    response = scorer.post(save_url(table), mine)
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.same and conflict.theirs[0].same
    page = choices(response.content.decode())
    assert "Dasselbe Spiel hat das andere Gerät schon gespeichert" in page.same_text
    assert [tap for tap, _c in page.choices] == [
        "conflict-theirs", "conflict-append", "conflict-edit"]
    first_class, second_class = page.choices[0][1].split(), page.choices[1][1].split()
    assert "conflict-choice-first" in first_class  # the highlighted one
    assert "conflict-choice-plain" in second_class  # appending: plain, and says "anyway"
    assert "Meins trotzdem als weiteres Spiel anhängen" in response.content.decode()
    assert "Einmal behalten" in response.content.decode()
    # The first choice is a link back to the table: nothing of mine is written.
    keep = scorer.get(reverse("scoring:table", args=[table.pk]))
    assert keep.status_code == 200
    assert Deal.objects.filter(table=table).count() == 1


@db
def test_the_same_deal_appended_by_both_as_the_next_one(scorer: Client, table: Table) -> None:
    """Both tablets append Dora's Spades as deal 2; B's is stored first. Mine would be deal
    3 (another dealer), and still it is the same deal."""
    other_saves(table, FORM_SHAPE)
    table.refresh_from_db()
    mine = deal_form(table, declarer="3", game="spades", bid="20")
    other_saves(table, {**FORM_SHAPE, "declarer": 3, "game": "spades", "bid": 20,
                        "dealer": 1})
    response = scorer.post(save_url(table), mine)
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.same and conflict.mine is not None and conflict.mine.number == 3
    assert [c.same for c in conflict.theirs] == [True]
    assert choices(response.content.decode()).choices[0][0] == "conflict-theirs"


@db
def test_another_deal_keeps_append_as_the_first_choice(scorer: Client, table: Table) -> None:
    mine = deal_form(table, declarer="2", bid="20")
    other_saves(table, FORM_SHAPE)
    response = scorer.post(save_url(table), mine)
    conflict = response.context["conflict"]
    assert not conflict.same
    page = choices(response.content.decode())
    assert [tap for tap, _c in page.choices] == [
        "conflict-append", "conflict-theirs", "conflict-edit"]
    assert page.same_text == ""


@db
def test_appending_the_same_deal_is_still_possible_on_purpose(scorer: Client,
                                                              table: Table) -> None:
    """Played twice in a row after all: the second choice appends it once."""
    mine = deal_form(table, declarer="3", game="spades", bid="20")
    other_saves(table, {**FORM_SHAPE, "declarer": 3, "game": "spades", "bid": 20})
    response = scorer.post(save_url(table), mine)
    assert response.status_code == 409 and response.context["conflict"].same
    fields = dict(response.context["conflict"].fields)
    data = {**fields, "version": str(response.context["conflict"].version)}
    assert scorer.post(save_url(table), data).status_code == 302
    assert scorer.post(save_url(table), data).status_code == 302  # a double tap: once
    assert Deal.objects.filter(table=table).count() == 2


# ---------------------------------------------------------------- offline: the sync answer

def send(client: Client, table: Table, body: dict[str, Any]) -> Any:
    return client.post(reverse("scoring:table-sync", args=[table.pk]), json.dumps(body),
                       content_type="application/json")


@db
def test_the_sync_answer_says_same_for_the_same_deal_at_another_place(
        scorer: Client, table: Table) -> None:
    """The offline tablet queued Dora's Spades at version 1 (as deal 2); meanwhile B stored
    it, written its own way. The 409 says "same" for B's deal, which the tablet's panel
    shows first; another deal is not "same"."""
    other_saves(table, FORM_SHAPE)
    queued = {"kind": "game", "declarer": 3, "game": "spades", "hand": False,
              "ouvert": False, "schneider_announced": False, "schwarz_announced": False,
              "matadors": 1, "bid": 20, "result": "won"}
    other_saves(table, {"kind": "game", "declarer": 3, "game": "spades", "matadors": 1,
                        "bid": 20, "result": "won", "kontra": "none"})
    body = {"op": "save", "request_id": str(uuid.uuid4()), "base_version": 1,
            "record": queued}
    answer = send(scorer, table, body)
    assert answer.status_code == 409
    data = answer.json()
    assert data["same"] is True and [row["same"] for row in data["theirs"]] == [True]
    assert data["mine"]["row"]["number"] == 3
    other = send(scorer, table, {**body, "request_id": str(uuid.uuid4()),
                                 "record": {**queued, "bid": 22}}).json()
    assert other["same"] is False
    assert Deal.objects.filter(table=table).count() == 2
    # The engine agrees that both records score alike.
    table.refresh_from_db()
    result = evaluate_table(table_document(table, [FORM_SHAPE, queued]))
    assert result["deals"][1]["entries"] == {"3": 22}


@db
def test_the_same_correction_from_another_device_keeps_theirs_first(scorer: Client,
                                                                    table: Table) -> None:
    """Both devices correct Clara's deal to the same thing: the panel says so and "keep the
    other device's version" comes first; nothing more is written by taking it."""
    deal = other_saves(table, FORM_SHAPE)
    url = reverse("scoring:deal-edit", args=[table.pk, deal.pk])
    mine = {"version": "1", "kind": "game", "declarer": "2", "game": "clubs", "matadors": "2",
            "bid": "18", "result": "won", "reason": "Tippfehler"}
    assert scorer.post(url, {**mine, "reason": "mit 2"}).status_code == 302  # the other one
    response = scorer.post(url, mine)
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.edit and conflict.same
    page = choices(response.content.decode())
    assert [tap for tap, _c in page.choices] == [
        "conflict-theirs", "conflict-append", "conflict-edit"]
    assert "conflict-choice-plain" in page.choices[1][1].split()
    assert "Beide Korrekturen sind gleich" in page.same_text
    deal.refresh_from_db()
    assert deal.record["matadors"] == 2 and deal.audit.count() == 2
