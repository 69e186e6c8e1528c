"""The live preview scores the deal being entered, in its place at the table."""

from __future__ import annotations

import pytest

from scoring.models import Table
from scoring.reads.sheet import deal_preview, tables_with_everything
from scoring.writes.services import Actor, deal_record

from .factories import make_club, make_table, make_user

pytestmark = pytest.mark.django_db

WON = {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 24,
       "result": "won"}
OVERBID = {"kind": "game", "declarer": 2, "game": "clubs", "matadors": 1, "hand": True,
           "bid": 46, "declarer_points": 74}


def test_the_preview_after_saved_deals_shows_the_new_deal() -> None:
    table = make_table(make_club(), players=4)
    user = make_user(table.evening.club)
    deal_record(table=table, record=WON, expected_version=0,
                actor=Actor(user, user.get_username()))
    full = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    preview = deal_preview(full, OVERBID, "en")
    assert preview.error is None and preview.row is not None
    assert preview.row.number == 2
    assert preview.row.entries == [None, None, -96, None]
    assert preview.row.totals == [0, 24, -96, 0]
    assert preview.row.dealer == 1 and preview.row.active == (2, 3, 0)
