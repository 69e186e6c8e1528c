"""The typed deal record through the table screen (issue 27, item 1): DealForm.clean() yields a
DealRecord, the views hand it to the services, and the model stores its JSON, the very JSON
the form always wrote."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.engine import (
    DealKind,
    GameRecord,
    GameType,
    Kontra,
    PenaltyRecord,
    RamschRecord,
    deal_record,
)
from scoring.forms.entry import DealForm, EditForm, Rules
from scoring.models import AuditEntry, Deal, Table
from scoring.writes.services import Actor, deal_edit
from scoring.writes.services import deal_record as save_deal

from .factories import deal_form, make_club, make_table, make_user

pytestmark = pytest.mark.django_db
ME = Actor(None, "test")


@pytest.fixture
def a_table() -> Table:
    return make_table(make_club())


@pytest.fixture
def a_scorer(client: Client, a_table: Table) -> Client:
    client.force_login(make_user(a_table.evening.club, "scorer"))
    return client


def _form(table: Table, cls: type[DealForm] = DealForm, /, **extra: str | None) -> DealForm:
    rules = Rules.of(table.evening.rules, table.evening.options, table.seats.count())
    form = cls(deal_form(table, **extra), rules=rules, active=range(rules.players))
    return form


def test_a_valid_form_yields_the_typed_record(a_table: Table) -> None:
    form = _form(a_table)
    assert form.is_valid(), form.errors
    record = form.record
    assert isinstance(record, GameRecord)
    assert record.kind is DealKind.GAME and record.game is GameType.CLUBS
    assert record.declarer == 1 and record.bid == 18 and record.kontra is Kontra.NONE
    # the JSON is the form's own, byte for byte
    assert list(record.to_json().items()) == list(form.to_record().items())


def test_a_form_with_errors_has_no_record(a_table: Table) -> None:
    form = _form(a_table, declarer=None)
    assert not form.is_valid()
    assert form.record is None


@pytest.mark.parametrize(("extra", "kind"), [
    ({"kind": "penalty", "penalty_seat": "2", "penalty_points": "10", "declarer": None,
      "game": None, "matadors": None, "bid": None, "result": None}, PenaltyRecord),
    ({"kind": "ramsch", "ramsch_points_1": "50", "ramsch_points_2": "40",
      "ramsch_points_3": "30", "ramsch_tricks_1": "4", "ramsch_tricks_2": "4",
      "ramsch_tricks_3": "2", "declarer": None, "game": None, "matadors": None, "bid": None,
      "result": None}, RamschRecord),
])
def test_every_kind_has_its_type(a_table: Table, extra: dict[str, str | None],
                                 kind: type) -> None:
    form = _form(a_table, **extra)
    assert form.is_valid(), form.errors
    assert isinstance(form.record, kind) and form.record is not None
    assert form.record.to_json() == form.to_record()


def test_the_screen_stores_the_records_json(a_scorer: Client, a_table: Table) -> None:
    expected = _form(a_table, kontra="kontra", kontra_by="2")
    assert expected.is_valid() and expected.record is not None
    response = a_scorer.post(reverse("scoring:deal-save", args=[a_table.pk]),
                             deal_form(a_table, kontra="kontra", kontra_by="2"))
    assert response.status_code == 302, response.content.decode()[-2000:]
    stored = Deal.objects.get().record
    # Equal as objects, not in key order: PostgreSQL's jsonb keeps keys in its own order.
    assert stored == expected.record.to_json()
    typed = deal_record(stored)
    assert isinstance(typed, GameRecord) and typed.kontra is Kontra.KONTRA
    assert typed.kontra_by == 2
    assert typed.to_json() == stored


def test_a_correction_through_the_screen_stores_the_typed_records_json(
        a_scorer: Client, a_table: Table) -> None:
    save_deal(table=a_table, record=deal_record({"kind": "game", "declarer": 1,
                                                 "game": "clubs", "matadors": 1, "bid": 18,
                                                 "result": "won"}),
              expected_version=0, actor=ME)
    a_table.refresh_from_db()
    deal = Deal.objects.get()
    data = deal_form(a_table, game="spades", reason="wrong suit")
    response = a_scorer.post(reverse("scoring:deal-edit", args=[a_table.pk, deal.pk]), data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    deal.refresh_from_db()
    edited = _form(a_table, EditForm, game="spades", reason="wrong suit")
    assert edited.is_valid() and edited.record is not None
    assert deal.record == edited.record.to_json()
    assert AuditEntry.objects.filter(action="edit").get().after == deal.record


def test_the_services_take_a_typed_record_or_its_json(a_table: Table) -> None:
    typed = deal_record({"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1,
                         "bid": 18, "result": "won"})
    deal = save_deal(table=a_table, record=typed, expected_version=0, actor=ME)
    assert deal.record == typed.to_json()
    # the record's JSON in the deal record's order (what is stored: PostgreSQL's jsonb keeps
    # no key order, and the service hands back the deal as stored)
    assert list(typed.to_json()) == ["kind", "declarer", "game", "matadors", "bid", "result"]
    deal_edit(deal=deal, record={"kind": "passed"}, reason="nobody played",
              expected_version=1, actor=ME)
    deal.refresh_from_db()
    assert deal.record == {"kind": "passed"}
    penalty = deal_record({"kind": "penalty", "penalty": {"seat": 0, "points": 5}})
    deal_edit(deal=deal, record=penalty, reason="a penalty after all", expected_version=2,
              actor=ME)
    deal.refresh_from_db()
    assert deal.record == penalty.to_json() and deal_record(deal.record) == penalty


def test_the_labels_name_every_word_of_the_vocabularies() -> None:
    """The sheet's and the forms' words (reads/deal_labels.py) cover the engine's enums
    exactly: a new Kontra, concession, quick result or kind is found here, not on a page."""
    from scoring.engine import Concession, QuickResult
    from scoring.reads.deal_labels import (
        CONCESSION_CHOICES,
        KONTRA_CHOICES,
        QUICK_LABELS,
        QUICK_SHORT,
        RECORD_NAMES,
    )

    assert [k for k, _ in KONTRA_CHOICES] == [k.value for k in Kontra]
    assert [c for c, _ in CONCESSION_CHOICES] == ["", *(c.value for c in Concession)]
    assert list(QUICK_LABELS) == [q.value for q in QuickResult]
    assert set(QUICK_SHORT) == {q.value for q in QuickResult} - {"sixty"}
    assert set(RECORD_NAMES) == {k.value for k in DealKind} - {"game"}
    # the values the forms and the labels hand on are plain strings, as the engine reads them
    assert all(type(k) is str for k, _ in KONTRA_CHOICES + CONCESSION_CHOICES)
