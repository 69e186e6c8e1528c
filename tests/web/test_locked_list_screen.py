"""A list every player has signed is locked (issue 36, item 5): the table screen offers a
scorer neither the entry form nor a ✎ to correct a deal (before, both were there and asked
for a reason, only for the save to be refused); a club admin keeps the correction path."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.models import Table

from .factories import make_club, make_user
from .signing_fixtures import short_table
from .test_signing_pages import code_client, sign_everybody

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_counts_left() -> None:
    cache.clear()


def page_of(client: Client, table: Table) -> str:
    return client.get(reverse("scoring:table", args=[table.pk])).content.decode()


def member(table: Table, role: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_user(table.evening.club, role))
    return client


def edit_links(page: str) -> int:
    return page.count('class="edit-link"')


@pytest.mark.parametrize("open_list", [False, True], ids=["series", "open-list"])
def test_a_signed_list_offers_the_scorer_neither_form_nor_pencil(open_list: bool) -> None:
    table = short_table(make_club(), rounds=1, play=2 if open_list else None)
    if open_list:  # no series length: the players sign when they stop
        table.evening.series_rounds = None
        table.evening.save(update_fields=["series_rounds"])
    scorer = member(table, "scorer")
    before = page_of(scorer, table)
    assert edit_links(before) == len(table.deals.all())
    assert ('id="deal-form"' in before) is open_list
    sign_everybody(code_client(table), table)

    for client in (scorer, code_client(table)):
        page = page_of(client, table)
        assert edit_links(page) == 0
        assert "/edit/" not in page
        assert 'id="deal-form"' not in page and 'class="misdeal' not in page
        assert "it is locked" in page

    admin = page_of(member(table, "admin"), table)  # the director's correction path
    assert edit_links(admin) == len(table.deals.all())


def test_the_edit_address_of_a_signed_list_sends_a_scorer_to_the_locked_screen() -> None:
    """Typed by hand (or an old bookmark), a correction page of a locked list hands a scorer
    no form: he lands on the table screen that says the list is locked; nothing changes."""
    table = short_table(make_club(), rounds=1)
    deal = table.deals.all()[0]
    edit = reverse("scoring:deal-edit", args=[table.pk, deal.pk])
    scorer = member(table, "scorer")
    assert scorer.get(edit).status_code == 200
    sign_everybody(code_client(table), table)
    version = Table.objects.get(pk=table.pk).version

    for client in (scorer, code_client(table)):
        answer = client.get(edit)
        assert answer.status_code == 302
        assert answer["Location"] == reverse("scoring:table", args=[table.pk])
        # a form opened before the last signature: refused, with the reason said
        # (test_signing_pages checks the message)
        assert client.post(edit, {"reason": "typo"}).status_code == 422
    assert Table.objects.get(pk=table.pk).version == version
    assert member(table, "admin").get(edit).status_code == 200  # the director's path
