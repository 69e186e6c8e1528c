"""The score sheet and its PDF after signing, and the marks they print (issue 36, build item
5): a signed list names no next dealer and no waiting Bock round; a correction after signing
is marked on the row and said who, when and why; who said Kontra is shown; the level
columns and the marks each mean one thing, with a legend."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

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


@pdfs.needs_poppler
def test_who_said_kontra_is_shown_on_the_sheet_its_pdf_and_the_deal_s_history() -> None:
    # Clara (seat 2) says Kontra against Bernd; later Anna against Clara, who answers Re
    table = open_table([won(1, kontra="kontra", kontra_by=2),
                        won(2, kontra="re", kontra_by=0)])
    client = admin_client(table)
    page = client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert '<abbr title="Kontra: Clara Altenburg">K Clara</abbr>' in page
    assert '<abbr title="Kontra: Anna Altenburg, Re">K Anna/Re</abbr>' in page
    text = sheet_pdf_text(client, table)  # the printed K/R column says it in few letters
    assert " K C " in text and " K A/Re " in text and "K A Kontra said by Anna" in text
    first = table.deals.order_by("position").first()
    assert first is not None
    history = client.get(reverse("scoring:deal-history", args=[table.pk, first.pk]))
    assert "Kontra: Clara Altenburg" in history.content.decode()
    screen = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "Kontra: Clara Altenburg" in screen and "Kontra: Anna Altenburg, Re" in screen


@pdfs.needs_poppler
def test_the_level_titles_and_the_marks_mean_one_thing_each() -> None:
    # Bernd's Hand game made Schneider; Clara's Kontra, and Bernd's Re, against Dieter
    table = open_table([won(1, 95, hand=True), won(3, kontra="re", kontra_by=2)])
    client = admin_client(table)
    text = sheet_pdf_text(client, table)
    assert "H S A S A O" not in text  # six one-letter titles said S and A twice
    assert "Levels: H Hand" in text and " H Sn " in text  # the row's levels in letters
    for said in ("H Hand", "Sn Schneider", "SnA Schneider announced", "Sw Schwarz",
                 "SwA Schwarz announced", "O Ouvert", "Ra a deal of a Ramsch round",
                 "K A Kontra said by Anna", " K C/Re "):
        assert said in text, said
    page = client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert "Ra a deal of a Ramsch round" in page and "K Anna Kontra said by Anna" in page


def test_a_ramsch_round_is_marked_ra_never_r() -> None:
    from scoring.notation import kontra_mark, ramsch_mark
    from scoring.reads.sheet import table_sheet, tables_with_everything

    from .test_pdf_sheet import umlaut_table

    table = umlaut_table(make_club(), deals=60)  # generated: Bock and Ramsch rounds, Re
    full = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    sheet = table_sheet(full, "en", explain=False)
    ramsch = [row for row in sheet.rows if row.ramsch_round]
    assert ramsch and any(row.kontra == "re" for row in sheet.rows)
    assert {ramsch_mark(row) for row in ramsch} == {"Ra"}
    assert all(kontra_mark(row) not in ("", "R") for row in sheet.rows if row.kontra != "none")
    page = admin_client(table).get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert 'class="ramsch-mark" title="Ramsch round">Ra</abbr>' in page


@pdfs.needs_poppler
def test_a_correction_after_signing_is_marked_with_who_when_and_why() -> None:
    table = short_table(make_club())  # one round: 4 games, then everybody signs
    sign_all(table)
    second = table.deals.order_by("position")[1]
    client = admin_client(table)
    answer = client.post(reverse("scoring:deal-edit", args=[table.pk, second.pk]), {
        "version": str(table.version), "kind": "game", "declarer": "3", "game": "clubs",
        "matadors": "1", "bid": "18", "declarer_points": "80",
        "reason": "Augen falsch gezählt"})
    assert answer.status_code == 302
    table.refresh_from_db()
    sign_all(table)  # signed again: the correction stays marked
    page = client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    row = page.split(f'id="deal-{second.pk}"', 1)[1].split("</tr>", 1)[0]
    assert 'class="corrected-mark"' in row
    assert page.count('class="corrected-mark"') == 1
    note = page.split('class="sheet-corrections">', 1)[1].split("</p>", 1)[0]
    assert note.startswith("* Deal 2 corrected after signing by admin-")
    assert note.endswith(": Augen falsch gezählt")
    text = sheet_pdf_text(client, table)
    assert " 2* " in text and " 1* " not in text
    assert "* Deal 2 corrected after signing by admin-" in text
    assert "Augen falsch gezählt" in text


def test_a_list_nobody_signed_asks_nothing_of_the_audit_log(
        django_assert_num_queries: DjangoAssertNumQueries) -> None:
    from scoring.reads.audit import corrections_after_signing

    table = short_table(make_club(), play=2)
    assert table.signing == 0
    with django_assert_num_queries(0):
        assert corrections_after_signing(table) == []
