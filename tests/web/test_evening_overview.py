"""The organiser's evening overview: every table side by side, polled live."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from scoring.models import Club, Deal, Evening, Table
from scoring.writes.services import table_create

from .factories import login, make_club, make_table, won
from .test_sheet_pages import EN, MINUS, plain_games, play

pytestmark = pytest.mark.django_db


def evening_with_tables(club: Club, tables: int = 3) -> Evening:
    first = make_table(club, players=4)
    evening = first.evening
    players = list(club.players.all())
    for k in range(1, tables):
        table_create(evening=evening, players=players[k:k + 3] + players[:1])
    return evening


def test_the_overview_shows_every_table_with_totals_and_next_dealer(client: Client) -> None:
    club = make_club()
    evening = evening_with_tables(club)
    first, second, third = evening.tables.order_by("number")
    play(first, [won(1), won(2, 40)])
    play(second, plain_games(second, 7))
    login(client, club, "viewer")
    response = client.get(reverse("scoring:evening", args=[evening.pk]), headers=EN)
    assert response.status_code == 200
    html = response.content.decode()
    for table in (first, second, third):
        assert f"Table {table.number}" in html
        assert reverse("scoring:sheet", args=[table.pk]) in html
        assert reverse("scoring:table", args=[table.pk]) in html  # the entry screen
    assert f'<span class="entry neg">{MINUS}48</span>' in html
    assert "Round 1 · next dealer: Clara Altenburg" in html  # table 1 after two deals
    assert "No deals yet." in html  # table 3
    # only the last five rows of a table
    part = html.split(f'id="table-{second.pk}-title"', 1)[1].split("</article>", 1)[0]
    assert part.count('<th scope="row" class="num">') == 5
    assert "7 games" in part  # the series' words for what counts (issue 23)
    # polled every 5 s, plus the audit log
    live = reverse("scoring:evening-live", args=[evening.pk])
    assert f'hx-get="{live}"' in html and 'hx-trigger="every 5s' in html
    assert reverse("scoring:evening-audit", args=[evening.pk]) in html


def test_the_codes_link_is_for_club_admins_only(client: Client) -> None:
    club = make_club()
    evening = evening_with_tables(club, 1)
    codes = reverse("scoring:codes", args=[evening.pk])
    login(client, club, "viewer")
    assert codes not in client.get(reverse("scoring:evening", args=[evening.pk])).content.decode()
    client.logout()
    login(client, club, "admin")
    assert codes in client.get(reverse("scoring:evening", args=[evening.pk])).content.decode()


def test_the_live_fragment_has_all_tables_in_constant_queries(
        client: Client, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    evening = evening_with_tables(club, 3)
    for table in evening.tables.all():
        Deal.objects.bulk_create(Deal(table=table, position=i + 1, record=record)
                                 for i, record in enumerate(plain_games(table, 40)))
    login(client, club)
    url = reverse("scoring:evening-live", args=[evening.pk])
    with django_assert_max_num_queries(9):
        response = client.get(url, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.count('class="compact-sheet"') == 3
    with django_assert_max_num_queries(9):
        assert client.get(reverse("scoring:evening", args=[evening.pk])).status_code == 200


def test_the_overview_is_for_members_of_the_club(client: Client) -> None:
    club = make_club()
    evening = evening_with_tables(club, 1)
    urls = [reverse(name, args=[evening.pk])
            for name in ("scoring:evening", "scoring:evening-live", "scoring:evening-audit")]
    assert [client.get(u).status_code for u in urls] == [404, 404, 404]
    login(client, make_club("zwickau", "Skatclub Zwickau"), "admin")
    assert [client.get(u).status_code for u in urls] == [404, 404, 404]
    client.logout()
    login(client, club, "viewer")
    assert [client.get(u).status_code for u in urls] == [200, 200, 200]


def test_the_overview_builds_only_the_rows_it_shows() -> None:
    """The overview is polled every few seconds: it builds the last five rows of each table,
    while the deal count and the totals still come from every deal."""
    from scoring.reads.sheet import table_sheet, tables_with_everything

    club = make_club()
    table = make_table(club, players=4)
    Deal.objects.bulk_create(Deal(table=table, position=i + 1, record=record)
                             for i, record in enumerate(plain_games(table, 12)))
    table = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    full = table_sheet(table, "de", explain=False)
    tail = table_sheet(table, "de", explain=False, last_rows=5)
    assert [r.number for r in tail.rows] == [8, 9, 10, 11, 12] and tail.deals == 12
    assert tail.rows == full.rows[-5:] and tail.totals == full.totals
