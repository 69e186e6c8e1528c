"""A standard won suit game takes five taps: declarer, game, matadors, bid and the result,
which saves at once (static/js/entry.js; without JavaScript a sixth tap on save). The
rendered page is parsed like a browser would read it; posting exactly the tapped controls plus
the page's hidden fields must save the deal."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal

from .factories import make_club, make_table, make_user

pytestmark = pytest.mark.django_db

TAPS = ["declarer-1", "game-clubs", "matadors-1", "bid-24", "result-won"]


class DealFormParser(HTMLParser):
    """Reads the deal form: its action, hidden fields, and what each data-tap control sends."""

    def __init__(self) -> None:
        super().__init__()
        self.in_form = False
        self.action = ""
        self.hidden: dict[str, str] = {}
        self.taps: dict[str, tuple[str, str] | None] = {}
        self.labels: dict[str, str] = {}  # input id -> data-tap of its label
        self.inputs: dict[str, tuple[str, str]] = {}  # input id -> (name, value)
        self.open_label: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == "deal-form":
            self.in_form, self.action = True, a["action"]
        if not self.in_form:
            return
        if tag == "label" and "data-tap" in a:
            self.labels[a["for"]] = a["data-tap"]
        if tag == "input":
            if a.get("type") == "hidden":
                self.hidden[a["name"]] = a.get("value", "")
            elif "id" in a:
                self.inputs[a["id"]] = (a["name"], a.get("value", ""))
        if tag == "button" and "data-tap" in a:
            self.taps[a["data-tap"]] = None  # a submit button sends no field of its own

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_form = False

    def tapped(self) -> dict[str, tuple[str, str] | None]:
        out = dict(self.taps)
        for input_id, tap in self.labels.items():
            out[tap] = self.inputs[input_id]
        return out


def test_a_standard_won_suit_game_takes_five_taps(client: Client) -> None:
    table = make_table(make_club())
    client.force_login(make_user(table.evening.club, "scorer"))
    page = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    parser = DealFormParser()
    parser.feed(page)
    controls = parser.tapped()
    assert len(TAPS) == 5
    assert "save" in controls  # the sixth tap without JavaScript
    post = dict(parser.hidden)
    for tap in TAPS:
        assert tap in controls, tap
        control = controls[tap]
        if control is not None:
            name, value = control
            assert name not in post, f"{tap} sets {name} a second time"
            post[name] = value
    assert set(post) - set(parser.hidden) == {"declarer", "game", "matadors", "bid", "result"}
    response = client.post(parser.action, post)
    assert response.status_code == 302
    record = Deal.objects.get().record
    assert {k: record[k] for k in ("declarer", "game", "matadors", "bid", "result")} == {
        "declarer": 1, "game": "clubs", "matadors": 1, "bid": 24, "result": "won"}
    assert not (record["hand"] or record["ouvert"]) and "kontra" not in record


def test_the_tap_targets_are_labelled_radios(client: Client) -> None:
    """Each tap target is a label wrapping a native radio (works without JS, with keys)."""
    table = make_table(make_club())
    client.force_login(make_user(table.evening.club, "scorer"))
    page = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    parser = DealFormParser()
    parser.feed(page)
    for tap in TAPS:
        input_id = next(i for i, t in parser.labels.items() if t == tap)
        assert f'<input type="radio" id="{input_id}"' in page
    assert 'aria-label="Kreuz"' in page  # the ♣ button is named for screen readers
