"""The score sheet and its PDF after signing, and the marks they print (issue 36, build item
5): a signed list names no next dealer and no waiting Bock round; a correction after signing
is marked on the row and said who, when and why; who said Kontra is shown; the level
columns and the marks each mean one thing, with a legend."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Table
from scoring.writes.signing import sign

from . import pdfs
from .factories import make_club, make_user, won
from .signing_fixtures import SCORER, seated, short_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def open_table(records: list[dict[str, object]]) -> Table:
    """A 4-table of an evening without a series length, with ``records`` played."""
    from scoring.writes.services import deal_record

    table = short_table(make_club(), rounds=1, play=0)
    table.evening.series_rounds = None
    table.evening.save()
    for record in records:
        deal_record(table=table, record=record, expected_version=table.version, actor=SCORER)
        table.refresh_from_db()
    return table


def sign_all(table: Table) -> None:
    for player in seated(table):
        sign(table=table, player_id=player.pk, actor=SCORER)
    table.refresh_from_db()
    assert table.signed_at is not None


def admin_client(table: Table) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_user(table.evening.club, "admin"))
    return client


def sheet_pdf_text(client: Client, table: Table) -> str:
    response = client.get(reverse("scoring:sheet-pdf", args=[table.pk]))
    assert response.status_code == 200
    return " ".join(pdfs.text(response.content).split())


@pdfs.needs_poppler
def test_a_signed_list_names_no_next_dealer_and_no_waiting_bock_round() -> None:
    # deal 1's 60:60 brings a Bock round, deal 2's queues another behind it
    table = open_table([won(1, 60), won(2, 60)])
    client = admin_client(table)
    page = client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert "next dealer" in page and "Bock round waiting" in page  # before signing
    sign_all(table)
    page = client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert "next dealer" not in page and "Bock round waiting" not in page
    assert "Signed by every player" in page
    text = sheet_pdf_text(client, table)
    assert "next dealer" not in text and "Bock round waiting" not in text
    assert "Signed by every player" in text
