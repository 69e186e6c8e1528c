"""The table screen stays current and shows conflicts (scoring/views/table_live.py).

- The version poll: the same access rules as the table screen (a member of any role, a
  device holding the table's code; anyone else 404), GET only, one query of its own, an
  ETag with 304 Not Modified, and a new version after every save, correction, deletion and
  restoration.
- The conflict: a save or a correction against a table another device changed is answered
  409 with both versions side by side (theirs: the deals changed since the form's version,
  with their values; mine: scored by the engine as it would be saved now) and the choices.
  "Append mine" stores the deal once, at the next position, whatever happens to the form
  afterwards (the request id); nothing is written without that tap.
"""

from __future__ import annotations

import datetime
import uuid
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from scoring.engine import evaluate_table
from scoring.models import AuditEntry, Deal, Table
from scoring.views.table_live import MAX_CHANGES
from scoring.writes.services import Actor, deal_delete, deal_edit, deal_record

from .factories import deal_form, make_club, make_table, make_user

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = pytest.mark.django_db
OTHER = Actor(None, "other tablet")
WON = {"kind": "game", "declarer": 1, "game": "clubs", "hand": False, "ouvert": False,
       "schneider_announced": False, "schwarz_announced": False, "matadors": 1, "bid": 18,
       "result": "won"}


def version_url(table: Table) -> str:
    return reverse("scoring:table-version", args=[table.pk])


def version_of(client: Client, table: Table) -> int:
    response = client.get(version_url(table))
    assert response.status_code == 200
    return int(response.json()["version"])


def record_other(table: Table, **changes: Any) -> Deal:
    """Another device saves a deal (the service, as its view would)."""
    table.refresh_from_db()
    return deal_record(table=table, record={**WON, **changes},
                       expected_version=table.version, actor=OTHER)


# ---------------------------------------------------------------- the version poll

def test_a_scorer_and_a_viewer_read_the_version(client: Client, table: Table) -> None:
    for role in ("scorer", "viewer", "admin"):
        client.force_login(make_user(table.evening.club, role))
        response = client.get(version_url(table))
        assert response.status_code == 200, role
        assert response.json() == {"version": 0}
        assert response["Content-Type"] == "application/json"
        assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]
        assert "Cookie" in response["Vary"]


def test_anonymous_and_another_club_get_404(client: Client, table: Table) -> None:
    assert client.get(version_url(table)).status_code == 404
    other = make_club("other", "Other Club")
    client.force_login(make_user(other, "admin"))
    assert client.get(version_url(table)).status_code == 404
    assert client.get(reverse("scoring:table-version", args=[table.pk + 1000])).status_code == 404


def test_a_code_holder_reads_its_own_table_only(client: Client, table: Table) -> None:
    cache.clear()
    other = make_table(table.evening.club)
    assert client.get(reverse("scoring:code", args=[table.access_code])).status_code == 302
    assert version_of(client, table) == 0
    assert client.get(version_url(other)).status_code == 404
    # The code ends with its evening: closed, the grant opens nothing any more.
    table.evening.closed = True
    table.evening.save()
    assert client.get(version_url(table)).status_code == 404


def test_a_member_of_another_club_with_the_code_reads_it(client: Client, table: Table) -> None:
    cache.clear()
    client.force_login(make_user(make_club("other", "Other Club"), "scorer"))
    assert client.get(version_url(table)).status_code == 404
    client.get(reverse("scoring:code", args=[table.access_code]))
    assert version_of(client, table) == 0


def test_an_old_code_opens_nothing(client: Client) -> None:
    cache.clear()
    table = make_table(make_club(), date=timezone.localdate() - datetime.timedelta(days=3))
    session = client.session
    session["table_grants"] = {str(table.pk): table.access_code}  # a grant kept too long
    session.save()
    assert client.get(version_url(table)).status_code == 404


def test_the_version_is_read_only(scorer: Client, table: Table) -> None:
    assert scorer.post(version_url(table)).status_code == 405
    assert scorer.head(version_url(table)).status_code == 200
    table.refresh_from_db()
    assert table.version == 0


def test_one_query_of_its_own(client: Client, table: Table,
                              django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    """Signed in: the user, and one query for the table and the role. With a table code: the
    table. The session comes from the shared cache (cached_db), not from the database."""
    for _ in range(3):
        record_other(table, declarer=3)  # Dieter plays in each of the first three deals
    client.force_login(make_user(table.evening.club, "scorer"))
    with django_assert_max_num_queries(2):
        assert client.get(version_url(table)).json() == {"version": 3}
    device = Client()
    device.get(reverse("scoring:code", args=[table.access_code]))
    with django_assert_max_num_queries(1):
        assert device.get(version_url(table)).json() == {"version": 3}


def test_not_modified_until_the_table_changes(scorer: Client, table: Table) -> None:
    first = scorer.get(version_url(table))
    etag = first["ETag"]
    again = scorer.get(version_url(table), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    record_other(table)
    changed = scorer.get(version_url(table), headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.json() == {"version": 1}
    assert changed["ETag"] != etag
    # A 304 never answers anybody who may not see the table.
    assert Client().get(version_url(table), headers={"If-None-Match": etag}).status_code == 404


def test_every_change_moves_the_version(scorer: Client, table: Table) -> None:
    seen = [version_of(scorer, table)]
    response = scorer.post(reverse("scoring:deal-save", args=[table.pk]), deal_form(table))
    assert response.status_code == 302
    seen.append(version_of(scorer, table))
    deal = Deal.objects.get(table=table)
    table.refresh_from_db()
    edit = {**deal_form(table), "matadors": "2", "reason": "Tippfehler"}
    assert scorer.post(reverse("scoring:deal-edit", args=[table.pk, deal.pk]),
                       edit).status_code == 302
    seen.append(version_of(scorer, table))
    for action in ("delete", "restore"):
        table.refresh_from_db()
        response = scorer.post(reverse(f"scoring:deal-{action}", args=[table.pk, deal.pk]),
                               {"version": str(table.version), "reason": "Tippfehler"})
        assert response.status_code == 302, action
        seen.append(version_of(scorer, table))
    assert seen == [0, 1, 2, 3, 4]


def test_the_table_screen_carries_the_poll(scorer: Client, table: Table) -> None:
    html = scorer.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert f'data-version-url="{version_url(table)}"' in html
    assert 'data-version="0"' in html and 'data-refresh-form="true"' in html
    assert "js/table-live" in html and "css/table-live" in html
    # A correction's form is never refreshed under the scorer's fingers.
    deal = record_other(table)
    html = scorer.get(reverse("scoring:deal-edit", args=[table.pk, deal.pk])).content.decode()
    assert 'data-refresh-form="false"' in html and 'data-version="1"' in html


# ---------------------------------------------------------------- the conflict

class ConflictParser(HTMLParser):
    """The conflict screen's form for doing mine (append, correct, delete, restore): its
    action and fields; and the data-tap names of every choice."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.action: str | None = None
        self.fields: list[tuple[str, str]] = []
        self.choices: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "conflict-mine-form" in a.get("class", ""):
            self.inside, self.action = True, a["action"]
        elif tag == "input" and self.inside:
            self.fields.append((a["name"], a.get("value", "")))
        if a.get("data-tap", "").startswith("conflict-"):
            self.choices.append(a["data-tap"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def parse(response: TestResponse) -> ConflictParser:
    parser = ConflictParser()
    parser.feed(response.content.decode())
    return parser


def post_fields(client: Client, url: str | None, fields: list[tuple[str, str]],
                ) -> TestResponse:
    assert url is not None, "the page has the form to post"
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    return client.post(url, data)


def deleted_now(deal: Deal) -> bool:
    """Whether the deal is deleted in the database now."""
    deal.refresh_from_db()
    return deal.deleted


def test_a_stale_save_shows_both_versions_and_appends_mine_once(
        scorer: Client, table: Table) -> None:
    mine = deal_form(table, declarer="2", game="spades", bid="22")  # shown at version 0
    theirs = record_other(table)  # Bernd's Clubs game, +24 … and the dealer moves on
    response = scorer.post(reverse("scoring:deal-save", args=[table.pk]), mine)
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert not conflict.edit and conflict.version == 1
    [change] = conflict.theirs
    assert change.deal_id == theirs.pk and change.row.number == 1
    assert [e for _n, e in change.entries] == [24] and change.actor == "other tablet"
    assert conflict.mine.number == 2 and conflict.mine.entries == [None, None, 22, None]
    assert [t for _n, t in conflict.theirs_totals] == [0, 24, 0, 0]
    assert [t for _n, t in conflict.mine_totals] == [0, 24, 22, 0]
    assert not conflict.same and not conflict.mine_errors
    html = response.content.decode()
    assert 'id="conflict"' in html and "+24" in html and "+22" in html
    # Nothing of mine is written until the scorer chooses.
    assert Deal.objects.filter(table=table).count() == 1

    form = parse(response)
    assert form.choices == ["conflict-append", "conflict-theirs", "conflict-edit"]
    assert form.action == reverse("scoring:deal-save", args=[table.pk])
    fields = dict(form.fields)
    assert fields["version"] == "1" and fields["request_id"] == mine["request_id"]
    assert (fields["declarer"], fields["game"], fields["bid"]) == ("2", "spades", "22")
    assert "csrfmiddlewaretoken" in fields  # its own, fresh
    appended = post_fields(scorer, form.action, form.fields)
    assert appended.status_code == 302
    saved = Deal.objects.get(table=table, position=2)
    assert appended["Location"].endswith(f"?saved={saved.pk}")
    assert (saved.record["declarer"], saved.record["game"]) == (2, "spades")
    # Tapped again, or the first (refused) save sent again: still the one deal.
    assert post_fields(scorer, form.action, form.fields)["Location"].endswith(
        f"?saved={saved.pk}")
    again = scorer.post(reverse("scoring:deal-save", args=[table.pk]), mine)
    assert again.status_code == 302 and again["Location"].endswith(f"?saved={saved.pk}")
    assert Deal.objects.filter(table=table).count() == 2
    assert list(AuditEntry.objects.filter(table=table).values_list("action", flat=True)) == [
        "create", "create"]
    # Its value is the engine's, from the stored records.
    result = evaluate_table({**table.evening.rules_dict(),
                             "players": [s.player.name for s in table.seats.all()],
                             "first_dealer": table.first_dealer,
                             "deals": [d.record for d in table.deals.order_by("position")]})
    assert result["deals"][1]["entries"] == {"2": 22}


def test_the_same_deal_twice_is_pointed_out(scorer: Client, table: Table) -> None:
    mine = deal_form(table, declarer="2")
    record_other(table, declarer=2)
    response = scorer.post(reverse("scoring:deal-save", args=[table.pk]), mine)
    conflict = response.context["conflict"]
    assert conflict.same and conflict.theirs[0].same
    html = response.content.decode()
    assert 'class="conflict-same"' in html and "conflict-row-same" in html
    assert Deal.objects.filter(table=table).count() == 1


def test_mine_that_no_longer_fits_cannot_be_appended(scorer: Client, table: Table) -> None:
    """Bernd (seat 1) deals the second deal at this 4-table: he sits out and cannot play."""
    mine = deal_form(table, declarer="1")
    record_other(table, declarer=2)
    response = scorer.post(reverse("scoring:deal-save", args=[table.pk]), mine)
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.mine is None and conflict.mine_errors
    form = parse(response)
    assert form.action is None  # no "append mine"
    assert form.choices == ["conflict-theirs", "conflict-edit"]
    assert Deal.objects.filter(table=table).count() == 1


def test_several_changes_are_listed_in_order(scorer: Client, table: Table) -> None:
    mine = deal_form(table, declarer="3")
    first = record_other(table)
    second = record_other(table, declarer=2, game="spades")
    table.refresh_from_db()
    deal_delete(deal=first, reason="Tippfehler", expected_version=table.version, actor=OTHER)
    conflict = scorer.post(reverse("scoring:deal-save", args=[table.pk]), mine).context[
        "conflict"]
    assert [(c.deal_id, c.actions) for c in conflict.theirs] == [
        (first.pk, ["eingetragen", "gelöscht"]), (second.pk, ["eingetragen"])]
    assert conflict.theirs[0].row is None  # deleted: shown struck through, no values
    assert conflict.theirs[1].row.number == 1
    assert conflict.version == 3


def test_a_stale_correction_shows_their_version_of_the_deal(scorer: Client,
                                                            table: Table) -> None:
    deal = record_other(table)
    url = reverse("scoring:deal-edit", args=[table.pk, deal.pk])
    mine = {"version": "1", "kind": "game", "declarer": "1", "game": "clubs", "matadors": "1",
            "bid": "18", "result": "lost", "reason": "Tippfehler"}
    # The other device corrects it first: with 2 (+36).
    edit = {**mine, "result": "won", "matadors": "2", "reason": "Augen falsch gezählt"}
    assert scorer.post(url, edit).status_code == 302
    response = scorer.post(url, mine)
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.edit
    [change] = conflict.theirs
    assert change.deal_id == deal.pk and change.actions == ["korrigiert"]
    assert [e for _n, e in change.entries] == [36]
    assert conflict.mine.entries == [None, -48, None, None]  # lost with 1: −2 × 24
    form = parse(response)
    assert form.action == url
    assert dict(form.fields)["version"] == "2" and dict(form.fields)["reason"] == "Tippfehler"
    assert form.choices == ["conflict-append", "conflict-theirs", "conflict-edit"]
    deal.refresh_from_db()
    assert deal.record["result"] == "won"  # theirs stands until mine is chosen
    chosen = post_fields(scorer, url, form.fields)
    assert chosen.status_code == 302
    deal.refresh_from_db()
    assert (deal.record["result"], deal.record["matadors"]) == ("lost", 1)
    assert list(AuditEntry.objects.filter(deal=deal).values_list("action", "reason")) == [
        ("create", ""), ("edit", "Augen falsch gezählt"), ("edit", "Tippfehler")]
    # The same choice sent again finds it done: the same confirmation, nothing written.
    again = post_fields(scorer, url, form.fields)
    assert again.status_code == 302 and again["Location"] == chosen["Location"] == reverse(
        "scoring:table", args=[table.pk]) + f"?corrected={deal.pk}"
    assert AuditEntry.objects.filter(deal=deal).count() == 3
    # The first entry, sent again at its old version, is not the last change: a conflict.
    assert scorer.post(url, edit).status_code == 409


def test_a_correction_of_a_deal_deleted_elsewhere(scorer: Client, table: Table) -> None:
    """Refused before any version is compared (the service wants it restored first): the
    screen says the deal is deleted, and nothing is written."""
    deal = record_other(table)
    mine = {"version": "1", "kind": "game", "declarer": "1", "game": "clubs", "matadors": "2",
            "bid": "18", "result": "won", "reason": "Tippfehler"}
    deal_delete(deal=deal, reason="doppelt", expected_version=1, actor=OTHER)
    response = scorer.post(reverse("scoring:deal-edit", args=[table.pk, deal.pk]), mine)
    assert response.status_code == 422
    assert response.context["deal"].deleted
    assert deleted_now(deal) and deal.record["matadors"] == 1
    assert AuditEntry.objects.filter(deal=deal).count() == 2


# ---------------------------------------------------------------- a stale deletion or restoration

class ToastParser(HTMLParser):
    """The "Undo" form of the saved toast: its action and fields."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.action: str | None = None
        self.fields: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "/delete/" in a.get("action", "") and self.action is None:
            self.inside, self.action = True, a["action"]
        elif tag == "input" and self.inside:
            self.fields.append((a["name"], a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def save_and_get_undo(scorer: Client, table: Table) -> tuple[Deal, ToastParser]:
    """This tablet saves Bernd's Clubs game (+24) and shows the toast with "Undo"."""
    saved = scorer.post(reverse("scoring:deal-save", args=[table.pk]), deal_form(table))
    assert saved.status_code == 302
    deal = Deal.objects.get(table=table, position=1)
    toast = ToastParser()
    toast.feed(scorer.get(saved["Location"]).content.decode())
    assert toast.action == reverse("scoring:deal-delete", args=[table.pk, deal.pk])
    return deal, toast


def test_a_stale_undo_shows_both_versions_and_deletes_anyway_once(
        scorer: Client, table: Table) -> None:
    deal, toast = save_and_get_undo(scorer, table)
    assert dict(toast.fields)["version"] == "1"
    theirs = record_other(table, declarer=2)  # meanwhile: Clara's Clubs game, +24
    response = post_fields(scorer, toast.action, toast.fields)  # "Rückgängig", too late
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.kind == "delete" and not conflict.edit and conflict.version == 2
    [change] = conflict.theirs
    assert change.deal_id == theirs.pk and change.actions == ["eingetragen"]
    assert [e for _n, e in change.entries] == [24]
    # Mine: the deal I wanted to delete, as it counts now, and the totals without it.
    assert conflict.mine.deal_id == deal.pk and conflict.mine.number == 1
    assert conflict.mine.entries == [None, 24, None, None]
    assert [t for _n, t in conflict.theirs_totals] == [0, 24, 24, 0]
    assert [t for _n, t in conflict.mine_totals] == [0, 0, 24, 0]
    assert not conflict.mine_errors
    html = response.content.decode()
    assert "notice-stale" not in html  # said once, by the panel
    for text in ("Anderes Gerät", "Dieses Gerät", "das Spiel, das Sie löschen wollten",
                 "Trotzdem löschen", "Liste so lassen, wie sie ist", "Stand nach dem Löschen"):
        assert text in html, text
    form = parse(response)
    assert form.choices == ["conflict-delete", "conflict-theirs"]
    assert form.action == toast.action
    fields = dict(form.fields)
    assert fields["version"] == "2" and fields["reason"] == dict(toast.fields)["reason"]
    assert not deleted_now(deal)  # nothing without the tap

    assert post_fields(scorer, form.action, form.fields).status_code == 302
    assert deleted_now(deal)
    # Tapped again, or the old "Undo" sent again: done already, never deleted twice.
    again = post_fields(scorer, form.action, form.fields)
    assert again.status_code == 302 and again["Location"] == reverse(
        "scoring:table", args=[table.pk]) + f"?deleted={deal.pk}"  # as the first tap
    assert post_fields(scorer, toast.action, toast.fields).status_code == 302
    assert list(AuditEntry.objects.filter(table=table).values_list(
        "deal_id", "action", "reason")) == [
        (deal.pk, "create", ""), (theirs.pk, "create", ""),
        (deal.pk, "delete", "Gleich nach dem Speichern rückgängig gemacht")]
    table.refresh_from_db()
    assert table.version == 3


def test_undo_tapped_twice_deletes_once(scorer: Client, table: Table) -> None:
    deal, toast = save_and_get_undo(scorer, table)
    first = post_fields(scorer, toast.action, toast.fields)
    second = post_fields(scorer, toast.action, toast.fields)
    assert first.status_code == second.status_code == 302
    # The repeat lands where the first tap did: the same confirmation, with "Restore".
    assert first["Location"] == second["Location"] == reverse(
        "scoring:table", args=[table.pk]) + f"?deleted={deal.pk}"
    assert "notice-undone" in scorer.get(second["Location"]).content.decode()
    assert AuditEntry.objects.filter(deal=deal, action="delete").count() == 1
    table.refresh_from_db()
    assert table.version == 2


def test_a_deal_changed_elsewhere_is_not_deleted_anyway(scorer: Client, table: Table) -> None:
    deal, toast = save_and_get_undo(scorer, table)
    url = reverse("scoring:deal-edit", args=[table.pk, deal.pk])
    other = Client()
    other.force_login(make_user(table.evening.club, "scorer", "other"))
    table.refresh_from_db()
    corrected = {**deal_form(table), "matadors": "2", "reason": "Tippfehler"}
    assert other.post(url, corrected).status_code == 302  # with 2 now: +36
    response = post_fields(scorer, toast.action, toast.fields)
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.mine is None and not conflict.mine_totals
    assert conflict.mine_errors == [
        "Das andere Gerät hat dieses Spiel geändert, seit Sie es gesehen haben: Sehen Sie es "
        "sich noch einmal an, bevor Sie es löschen."]
    [change] = conflict.theirs
    assert change.deal_id == deal.pk and change.actions == ["korrigiert"]
    assert [e for _n, e in change.entries] == [36]
    assert parse(response).choices == ["conflict-theirs"]
    assert not deleted_now(deal)
    assert AuditEntry.objects.filter(deal=deal).count() == 2


def test_a_deal_deleted_elsewhere_is_said_so(scorer: Client, table: Table) -> None:
    """The other device deleted it first (for its own reason): not done by this request,
    so no "done already"; the screen says so, nothing more is written."""
    deal, toast = save_and_get_undo(scorer, table)
    deal_delete(deal=deal, reason="doppelt", expected_version=1, actor=OTHER)
    response = post_fields(scorer, toast.action, toast.fields)
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.mine_errors == ["Das andere Gerät hat dieses Spiel schon gelöscht."]
    assert [(c.deal_id, c.actions, c.row) for c in conflict.theirs] == [
        (deal.pk, ["gelöscht"], None)]
    assert parse(response).choices == ["conflict-theirs"]
    assert AuditEntry.objects.filter(deal=deal, action="delete").count() == 1


def test_a_stale_restore_shows_the_deal_restored_and_restores_anyway(
        scorer: Client, table: Table) -> None:
    deal = record_other(table)  # Bernd +24, Clara deals next …
    deal_delete(deal=deal, reason="doppelt", expected_version=1, actor=OTHER)
    url = reverse("scoring:deal-restore", args=[table.pk, deal.pk])
    assert f'action="{url}"' in scorer.get(
        reverse("scoring:deal-edit", args=[table.pk, deal.pk])).content.decode()
    theirs = record_other(table, declarer=3)  # … Dieter +24 meanwhile, Anna dealing
    response = scorer.post(url, {"version": "2", "reason": "doch gespielt"})
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.kind == "restore" and conflict.version == 3
    assert [c.deal_id for c in conflict.theirs] == [theirs.pk]
    # Restored, it is deal 1 again, before Dieter's, which Bernd then deals.
    assert conflict.mine.number == 1 and conflict.mine.entries == [None, 24, None, None]
    assert [t for _n, t in conflict.theirs_totals] == [0, 0, 0, 24]
    assert [t for _n, t in conflict.mine_totals] == [0, 24, 0, 24]
    html = response.content.decode()
    for text in ("das Spiel, das Sie wiederherstellen wollten", "Trotzdem wiederherstellen",
                 "Stand nach dem Wiederherstellen"):
        assert text in html, text
    form = parse(response)
    assert form.choices == ["conflict-restore", "conflict-theirs"]
    fields = dict(form.fields)  # "anyway" carries a request ID of its own (issue 36)
    assert fields == {"csrfmiddlewaretoken": fields["csrfmiddlewaretoken"], "version": "3",
                      "reason": "doch gespielt", "request_id": str(uuid.UUID(
                          fields["request_id"]))}
    assert deleted_now(deal)
    first = post_fields(scorer, form.action, form.fields)
    again = post_fields(scorer, form.action, form.fields)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == reverse(
        "scoring:table", args=[table.pk]) + f"?restored={deal.pk}"
    assert not deleted_now(deal)
    assert list(AuditEntry.objects.filter(deal=deal).values_list("action", "reason")) == [
        ("create", ""), ("delete", "doppelt"), ("restore", "doch gespielt")]


def test_a_restore_the_table_no_longer_takes_is_not_offered(scorer: Client,
                                                            table: Table) -> None:
    """Restoring Bernd's deal would make him deal the next one, which he played himself."""
    deal = record_other(table)
    deal_delete(deal=deal, reason="doppelt", expected_version=1, actor=OTHER)
    record_other(table, declarer=1)  # Anna deals again, so Bernd may play
    url = reverse("scoring:deal-restore", args=[table.pk, deal.pk])
    response = scorer.post(url, {"version": "2", "reason": "doch gespielt"})
    assert response.status_code == 409
    conflict = response.context["conflict"]
    assert conflict.mine is None and len(conflict.mine_errors) == 1
    assert conflict.mine_errors == [
        "Spiel 2: Bernd Altenburg setzt in diesem Spiel aus und kann nicht Alleinspieler sein."]
    assert parse(response).choices == ["conflict-theirs"]
    assert deleted_now(deal)


def test_a_refusal_on_a_current_table_keeps_its_notice(scorer: Client, table: Table) -> None:
    """Not every stale form meets a conflict: an incomplete entry at an old version is
    answered 422 with the old notice and the form's messages, and no conflict panel."""
    mine = deal_form(table, game=None)
    record_other(table)
    response = scorer.post(reverse("scoring:deal-save", args=[table.pk]), mine)
    assert response.status_code == 422
    html = response.content.decode()
    assert "notice-stale" in html and 'id="conflict"' not in html


def test_the_conflict_of_a_deletion_costs_the_same_however_many_changes(
        scorer: Client, table: Table) -> None:
    """Queries per page stay constant: 2 changes since the version shown, or 30."""
    counts = []
    deal = record_other(table, declarer=1)
    for more in (2, 28):
        for _ in range(more):
            table.refresh_from_db()
            deal_record(table=table, record={"kind": "passed"},
                        expected_version=table.version, actor=OTHER)
        url = reverse("scoring:deal-delete", args=[table.pk, deal.pk])
        with CaptureQueriesContext(connection) as queries:
            response = scorer.post(url, {"version": "1", "reason": "doppelt"})
        assert response.status_code == 409
        counts.append(len(queries.captured_queries))
    assert response.context["conflict"].more == 30 - MAX_CHANGES
    assert counts[0] == counts[1], counts


def test_the_conflict_names_the_devices(scorer: Client, table: Table) -> None:
    """"Ihres" reads as "yours" to a German reader: the sides are the devices."""
    mine = deal_form(table, declarer="2", game="spades", bid="22")
    record_other(table)
    url = reverse("scoring:deal-save", args=[table.pk])
    german = scorer.post(url, mine).content.decode()
    for text in ("Anderes Gerät", "Dieses Gerät", "Stand des anderen Geräts behalten",
                 "Meins danach anhängen", "Meins bearbeiten"):
        assert text in german, text
    assert "Ihres" not in german
    english = scorer.post(url, mine, headers={"accept-language": "en"}).content.decode()
    for text in ("Other device", "This device", "Keep the other device's version",
                 "Append mine after theirs", "Edit mine"):
        assert text in english, text
    assert Deal.objects.filter(table=table).count() == 1


def test_delete_anyway_is_checked_again_when_tapped(scorer: Client, table: Table) -> None:
    """"Anyway" is at the version the conflict showed: another save after that shows the
    conflict again (still offered, the deal untouched); a correction of the deal after that
    withdraws the offer. Nothing is deleted on the way."""
    deal, toast = save_and_get_undo(scorer, table)
    record_other(table, declarer=2)
    first = parse(post_fields(scorer, toast.action, toast.fields))
    assert dict(first.fields)["version"] == "2"
    record_other(table, declarer=3)
    response = post_fields(scorer, first.action, first.fields)
    assert response.status_code == 409
    second = parse(response)
    assert second.choices == ["conflict-delete", "conflict-theirs"]
    assert dict(second.fields)["version"] == "3"
    assert [c.actions for c in response.context["conflict"].theirs] == [["eingetragen"]]
    table.refresh_from_db()
    deal_edit(deal=deal, record={**WON, "matadors": 2}, reason="Tippfehler",
              expected_version=table.version, actor=OTHER)
    response = post_fields(scorer, second.action, second.fields)
    assert response.status_code == 409
    assert parse(response).choices == ["conflict-theirs"]
    assert response.context["conflict"].theirs[0].deal_id == deal.pk
    assert not deleted_now(deal)
    assert not AuditEntry.objects.filter(action="delete").exists()


def test_a_correction_sent_twice_is_confirmed_twice_and_written_once(
        scorer: Client, table: Table) -> None:
    """The answer to a correction got lost and the form is sent again (or tapped twice
    without script): the second request carries the same request ID, the operation
    service answers it as it answered the first ("replayed"), and it lands on the same
    confirmation, not on a conflict with itself. Another form's correction (another
    request ID) sent at that old version is a conflict as before."""
    deal = record_other(table)
    url = reverse("scoring:deal-edit", args=[table.pk, deal.pk])
    corrected = {**deal_form(table), "version": "1", "matadors": "2", "reason": "Tippfehler"}
    first = scorer.post(url, corrected)
    again = scorer.post(url, corrected)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == reverse(
        "scoring:table", args=[table.pk]) + f"?corrected={deal.pk}"
    assert "notice-corrected" in scorer.get(again["Location"]).content.decode()
    assert AuditEntry.objects.filter(deal=deal, action="edit").count() == 1
    table.refresh_from_db()
    assert table.version == 2
    # Another reason or another record at the old version: not this request's, a conflict.
    for other in ({**corrected, "reason": "falscher Spieler"}, {**corrected, "matadors": "3"},
                  corrected):
        assert scorer.post(url, {**other, "request_id": str(uuid.uuid4())}).status_code == 409
    # Another user's identical correction is not this device's either.
    someone = Client()
    someone.force_login(make_user(table.evening.club, "scorer", "someone"))
    assert someone.post(url, {**corrected, "request_id": str(uuid.uuid4())}).status_code == 409
    assert AuditEntry.objects.filter(deal=deal, action="edit").count() == 1
