"""A correction offers the seats of the deal being corrected, not those of the next deal."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.writes.services import Actor, deal_record

from .factories import make_club, make_table, make_user

pytestmark = pytest.mark.django_db
KONTRA = {"kind": "game", "declarer": 1, "game": "spades", "matadors": 2, "bid": 33,
          "result": "lost", "kontra": "kontra", "kontra_by": 2}


def test_the_edit_form_offers_the_deal_s_own_players(client: Client) -> None:
    # 4 at the table, seat 0 deals first: deal 1 is played by seats 1, 2, 3, deal 2 by 2, 3, 0.
    table = make_table(make_club(), players=4)
    client.force_login(make_user(table.evening.club, "scorer"))
    deal = deal_record(table=table, record=KONTRA, expected_version=0,
                       actor=Actor(None, "tablet"))
    html = client.get(reverse("scoring:deal-edit", args=[table.pk, deal.pk])).content.decode()
    for seat in (1, 2, 3):
        assert f'data-tap="declarer-{seat}"' in html
        assert f'data-tap="kontra-by-{seat}"' in html
    assert 'data-tap="declarer-0"' not in html and 'data-tap="kontra-by-0"' not in html
    assert 'id="declarer-1" name="declarer" value="1" checked' in html
    assert 'id="kontra_by-2" name="kontra_by" value="2" checked' in html
    # The new-deal form on the table screen is for the next deal's players.
    html = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert 'data-tap="declarer-0"' in html and 'data-tap="declarer-1"' not in html
