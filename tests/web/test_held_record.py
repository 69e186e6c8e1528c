"""A held new deal or correction is read through HeldOperation.deal_record(): the sync view
holds only records that are JSON objects, and anything else in the row (a record damaged in
the database) is refused with the engine's own message, on the page and when accepted,
changing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import SkatError
from scoring.models import Deal, HeldOperation, Table
from scoring.writes.services import Actor, held_accept

from .test_held import hold, site  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def test_a_held_record_is_the_object_it_was_sent_as(site: dict[str, Any]) -> None:  # noqa: F811
    held = hold(site)
    record = held.deal_record()
    assert record == held.record and isinstance(record, dict)


@pytest.mark.parametrize("damaged", [None, ["kind", "game"], "game"])
def test_a_damaged_held_record_is_refused_and_changes_nothing(
        site: dict[str, Any], damaged: object) -> None:  # noqa: F811
    held = hold(site)
    HeldOperation.objects.filter(pk=held.pk).update(record=damaged)
    held.refresh_from_db()
    with pytest.raises(SkatError) as refused:
        held.deal_record()
    assert refused.value.message == "A deal must be a JSON object."
    assert refused.value.message_in("de") == "Ein Spiel muss ein JSON-Objekt sein."

    page = site["admin"].get(site["url"])
    assert page.status_code == 200
    [view] = page.context["waiting"]
    assert view.row is None and view.error == "Ein Spiel muss ein JSON-Objekt sein."

    version = Table.objects.get(pk=site["table"].pk).version
    with pytest.raises(SkatError):
        held_accept(held=held, actor=Actor(None, "admin"), note="damaged")
    held.refresh_from_db()
    assert held.state == HeldOperation.State.WAITING
    assert not Deal.objects.exists()
    assert Table.objects.get(pk=site["table"].pk).version == version
