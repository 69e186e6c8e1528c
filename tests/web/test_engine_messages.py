"""The engine's refusals reach the pages in the page's language, and `score --lang` too."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.management.commands.score import run
from scoring.models import Deal, RuleProfile, Table

from .factories import deal_form

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = pytest.mark.django_db

# At a 4-table whose first dealer is seat 0, seat 0 (Anna) sits out the first deal: the
# message names her as the screen does, not by a seat number the screen never shows.
SITTING_OUT = {
    "de": "Anna Altenburg setzt in diesem Spiel aus und kann nicht Alleinspieler sein.",
    "en": "Anna Altenburg sits out this deal and cannot declare.",
}
NULL_AFTER_24 = {
    "de": "Null (23) reicht nicht für den Reizwert 24; Null Hand (35) würde reichen.",
    "en": "Null (23) cannot be declared after a bid of 24; Null Hand (35) can.",
}


def page_text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("fields", "messages"), [
    ({"declarer": "0"}, SITTING_OUT),
    ({"game": "null", "matadors": "", "bid": "24"}, NULL_AFTER_24),
], ids=["sitting-out", "null-after-24"])
def test_saving_an_invalid_deal_says_why_in_the_page_language(
        scorer: Client, table: Table, lang: str, fields: dict[str, str],
        messages: dict[str, str]) -> None:
    response = scorer.post(reverse("scoring:deal-save", args=[table.pk]),
                           deal_form(table, **fields), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 422
    text = page_text(response)
    assert messages[lang] in text
    other = "en" if lang == "de" else "de"
    assert messages[other] not in text
    assert Deal.objects.count() == 0


def test_german_is_the_default_and_the_preview_speaks_it_too(scorer: Client,
                                                              table: Table) -> None:
    response = scorer.post(reverse("scoring:deal-preview", args=[table.pk]),
                           deal_form(table, declarer="0"))
    assert response.status_code == 200
    assert SITTING_OUT["de"] in page_text(response)


def test_a_sheet_whose_deals_no_longer_score_says_why_in_german(scorer: Client,
                                                                 table: Table) -> None:
    # Written behind the engine's back, as a rule change or a bug could leave it.
    Deal.objects.create(table=table, position=1, record={
        "kind": "game", "declarer": 0, "game": "clubs", "matadors": 1, "bid": 18,
        "declarer_points": 70})
    for lang in ("de", "en"):
        response = scorer.get(reverse("scoring:sheet", args=[table.pk]),
                              HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 200
        assert SITTING_OUT[lang] in page_text(response)


def test_a_rule_profile_with_bad_options_is_refused_in_the_active_language(table: Table) -> None:
    profile = RuleProfile.objects.filter(club=table.evening.club).first()
    assert profile is not None
    profile.settlement = {"loss_cap": "-1"}
    for lang, message in (("de", "Die Verlustgrenze darf nicht negativ sein (-1)."),
                          ("en", "The loss cap cannot be negative (-1).")):
        with translation.override(lang), pytest.raises(ValidationError) as caught:
            profile.full_clean()
        assert caught.value.message_dict["options"] == [message]


def test_the_score_command_follows_lang(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({"kind": "game", "declarer": 0, "game": "null", "bid": 24,
                                "declarer_tricks": 0}), encoding="utf-8")
    for lang in ("de", "en"):
        payload, status = run(str(path), lang)
        assert status == 1
        assert payload == {"error": {"field": "bid", "message": NULL_AFTER_24[lang],
                                     "deal": None}}


def test_a_delete_the_later_deals_refuse_is_explained_in_german(scorer: Client,
                                                                table: Table) -> None:
    """Deleting the passed-in first deal makes seat 0 deal the second, where he declared."""
    first = Deal.objects.create(table=table, position=1, record={"kind": "passed"})
    Deal.objects.create(table=table, position=2, record={
        "kind": "game", "declarer": 0, "game": "clubs", "matadors": 1, "bid": 18,
        "declarer_points": 70})
    response = scorer.post(reverse("scoring:deal-delete", args=[table.pk, first.pk]),
                           {"version": str(table.version), "reason": "Vertippt"})
    assert response.status_code == 422
    assert SITTING_OUT["de"] in page_text(response)
    assert not Deal.objects.get(pk=first.pk).deleted
