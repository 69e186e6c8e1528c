"""A deal's history names the changes in the words of the sheet; Ramsch, penalties and unknown
fields read as words too."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from .factories import make_club, make_table

pytestmark = pytest.mark.django_db


def test_the_deal_history_names_the_changes_in_the_words_of_the_sheet(
        client: Client) -> None:
    from scoring.writes.services import Actor, deal_edit

    from .factories import make_user
    from .test_sheet_pages import play as play_records

    table = make_table(make_club(), players=3)
    (deal,) = play_records(table, [{"kind": "game", "declarer": 1, "game": "clubs",
                                    "matadors": 1, "bid": 18, "result": "lost"}])
    deal_edit(deal=deal, reason="Typo", expected_version=table.version,
              actor=Actor(None, "test"), record={
                  "kind": "game", "declarer": 2, "game": "spades", "matadors": -2,
                  "bid": 20, "result": "won", "hand": True, "kontra": "re"})
    client.force_login(make_user(table.evening.club, role="viewer"))
    url = reverse("scoring:deal-history", args=[table.pk, deal.pk])
    bernd, clara = (s.player.name for s in table.seats.order_by("position")[1:3])

    def changes(lang: str) -> list[str]:
        html = client.get(url, headers={"accept-language": lang}).content.decode()
        block = html.split('<ul class="changes">', 1)[1].split("</ul>", 1)[0]
        return [re.sub(r"<[^>]+>", "", item).strip()
                for item in re.findall(r"<li>(.*?)</li>", block)]

    assert changes("de") == [
        f"Alleinspieler: {bernd} → {clara}", "Spiel: Kreuz → Pik", "Hand: nein → ja",
        "Spitzen: mit 1 → ohne 2", "Reizwert: 18 → 20", "Ergebnis: verloren → gewonnen",
        "Kontra: kein Kontra → Re"]
    assert changes("en") == [
        f"Declarer: {bernd} → {clara}", "Game: Clubs → Spades", "Hand: no → yes",
        "Matadors: with 1 → without 2", "Bid: 18 → 20", "Result: lost → won",
        "Kontra: none → Re"]


def test_ramsch_penalties_and_unknown_fields_read_as_words() -> None:
    from scoring.reads.change_words import changed_fields

    players = ["Anna", "Bernd", "Clara"]
    before = {"kind": "ramsch", "ramsch": {"points": {"0": 50, "1": 40, "2": 30}}}
    after = {"kind": "penalty", "penalty": {"seat": 2, "points": 10, "reason": "misdeal"},
             "house_field": [1, 2]}
    with translation.override("de"):
        words = changed_fields(before, after, "isko", {}, players, "de")
    assert words == [
        ("Art des Spiels", "Ramsch", "Strafe"),
        ("Ramsch", "Augen: Anna 50 / Bernd 40 / Clara 30", "–"),
        ("Strafe", "–", "Clara 10 misdeal"),
        ("house_field", "–", "[1, 2]"),
    ]
    assert changed_fields({"hand": False}, {}, "isko", {}, players, "de") == []
