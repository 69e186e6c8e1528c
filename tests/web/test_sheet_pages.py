"""The score sheet page: rows, totals, round lines, Bock marks, Seeger-Fabian, the historical
layout, constant queries and who may see it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from scoring.access import SESSION_KEY
from scoring.engine import active_seats
from scoring.models import Deal, Table
from scoring.writes.services import Actor, deal_delete, deal_record

from .factories import login, make_club, make_table, won

pytestmark = pytest.mark.django_db
ME = Actor(None, "test")
MINUS = "\u2212"
EN = {"accept-language": "en"}


# ---------------------------------------------------------------- helpers (shared by the
# evening and audit tests)


RAMSCH = {"kind": "ramsch", "ramsch": {"points": {"0": 50, "1": 40, "2": 30},
                                       "tricks": {"0": 4, "1": 4, "2": 2}, "pushes": 0}}


def play(table: Table, records: list[dict[str, Any]]) -> list[Deal]:
    deals = []
    for record in records:
        deals.append(deal_record(table=table, record=record, expected_version=table.version,
                                 actor=ME))
    return deals


def plain_games(table: Table, count: int) -> list[dict[str, Any]]:
    """``count`` won suit games (no Bock triggers), each by an active seat of its dealer."""
    n = table.seats.count()
    return [won(active_seats((table.first_dealer + i) % n, n)[i % 3]) for i in range(count)]


def grant_code(client: Client, table: Table) -> None:
    session = client.session
    session[SESSION_KEY] = {str(table.pk): table.access_code}
    session.save()


def row_cells(html: str, label: str) -> list[str]:
    """The texts of the data cells of the footer row headed ``label``."""
    match = re.search(r"<tr[^>]*>\s*<th[^>]*>\s*" + re.escape(label) + r"\s*</th>(.*?)</tr>",
                      html, re.S)
    assert match, f"no row {label!r}"
    cells = re.findall(r"<td([^>]*)>(.*?)</td>", match.group(1), re.S)
    return [re.sub(r"<[^>]+>", "", c).strip() for attrs, c in cells if "tools" not in attrs]


def body_rows(html: str) -> list[str]:
    tbody = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr\b[^>]*>.*?</tr>", tbody, re.S)


def get_sheet(client: Client, table: Table, **params: str) -> str:
    response = client.get(reverse("scoring:sheet", args=[table.pk]), params, headers=EN)
    assert response.status_code == 200
    return response.content.decode()


# ---------------------------------------------------------------- content

def test_the_sheet_shows_every_deal_with_entries_totals_and_round_lines(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=4)
    login(client, club)
    # dealer 0: Forehand 1 wins 24; dealer 1: seat 2 loses 48; dealers 2 and 3: seat 3 and 0
    play(table, [won(1), won(2, 40), won(3), won(0), won(1)])
    html = get_sheet(client, table)
    rows = body_rows(html)
    assert len(rows) == 5
    assert "<caption>" in html and 'scope="col"' in html and 'scope="row"' in html
    assert 'class="sheet-head"' in html and "Skatfreunde Altenburg" in html
    assert "Anna Altenburg" in html and "Kontra and Re" in html  # the house rules in words
    # a round is four deals at a 4-table: a thick line after deal 4 only
    assert ["round-end" in r.split(">", 1)[0] for r in rows] == [False, False, False, True,
                                                                 False]
    # the lost game in the declarer's column with a real minus sign, in red
    assert f'<span class="entry neg">{MINUS}48</span>' in rows[1]
    assert '<span class="entry">24</span>' in rows[0]
    # the dealer sits out at a 4-table: his column is marked
    assert rows[0].count("player-cell out") == 1
    assert '<span class="suit" aria-hidden="true">♣</span> Clubs' in rows[0]
    assert "with 1" in rows[0] and "lost" in rows[1]
    # running totals and the footer
    assert row_cells(html, "Total") == ["24", "48", f"{MINUS}48", "24"]
    # every row explains itself and links to its history
    assert 'title="with 1, game 2 × Clubs 12 = 24 → +24"' in rows[0]
    deal = Deal.objects.order_by("position").first()
    assert deal is not None, "the sheet has deals"
    assert reverse("scoring:deal-history", args=[table.pk, deal.pk]) in rows[0]
    assert "Round 2 · next dealer: Bernd Altenburg" in html


def test_hearts_are_red_and_bock_rounds_are_marked(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)  # club evening: 60:60 starts a Bock round
    login(client, club)
    play(table, [won(1, 60), {**won(2), "game": "hearts"}, won(0), won(1)])
    html = get_sheet(client, table)
    rows = body_rows(html)
    assert "×2" not in rows[0]  # the triggering deal itself is not doubled
    assert all("×2" in r and " bock" in r.split(">", 1)[0] for r in rows[1:4])
    assert '<span class="suit red" aria-hidden="true">♥</span>' in rows[1]
    assert '<span class="entry">40</span>' in rows[1]  # 20 doubled by Bock


def test_a_ramsch_round_is_marked(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)  # a Ramsch round follows each Bock round
    login(client, club)
    play(table, [won(1, 60), won(2), won(0), won(1), RAMSCH])  # 1 triggers, 2-4 are Bock
    html = get_sheet(client, table)
    rows = body_rows(html)
    assert "ramsch-round" in rows[4] and "ramsch-round" not in "".join(rows[:4])
    assert 'class="ramsch-mark"' in rows[4]
    assert f'<span class="entry neg">{MINUS}50</span>' in rows[4]
    assert "Ramsch round" in html.split('class="sheet-next"', 1)[1]  # two deals to go


def test_seeger_fabian_footer(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3, preset="isko_tournament")
    login(client, club)
    # seat 1 wins 24, seat 2 loses 48, seat 0 wins 24, seat 1 loses 48
    play(table, [won(1), won(2, 40), won(0), won(1, 40)])
    html = get_sheet(client, table)
    assert row_cells(html, "Games won") == ["1", "1", "0"]
    assert row_cells(html, "Games lost") == ["0", "1", "1"]
    assert row_cells(html, "Won games × 50") == ["50", "50", "0"]
    assert row_cells(html, "Lost games × −50") == ["0", f"{MINUS}50", f"{MINUS}50"]
    assert row_cells(html, "Others' lost games × 40") == ["80", "40", "40"]
    assert row_cells(html, "Total") == ["24", f"{MINUS}24", f"{MINUS}48"]
    # 24 + 50 + 80 = 154; −24 + 50 − 50 + 40 = 16; −48 − 50 + 40 = −58
    assert row_cells(html, "Seeger-Fabian points") == ["154", "16", f"{MINUS}58"]


def test_no_seeger_fabian_footer_on_a_classic_evening(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)
    login(client, club)
    play(table, [won(1)])
    assert "Seeger-Fabian points" not in get_sheet(client, table)


def test_historical_layout_underlines_every_nth_entry(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3, preset="isko_tournament")
    login(client, club)
    play(table, plain_games(table, 9))  # seats 1, 0, 2 in turn: three entries each
    html = get_sheet(client, table, layout="historical")
    assert "sheet--book" in html and "Declarer" not in html  # no game columns
    rows = body_rows(html)
    assert len(rows) == 3  # each player's k-th entry on line k
    assert [r.count("player-cell underline") for r in rows] == [0, 0, 3]
    assert "?layout=standard" in html
    assert row_cells(html, "Total") == ["72", "72", "72"]


def test_deleted_deals_are_listed_apart(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)
    login(client, club)
    first, second = play(table, [won(1), won(2)])
    deal_delete(deal=second, reason="typo", expected_version=table.version, actor=ME)
    html = get_sheet(client, table)
    assert len(body_rows(html)) == 1
    deleted = html.split('class="deleted-deals"', 1)[1]
    assert "Deleted deals" in deleted and "<s>" in deleted
    assert reverse("scoring:deal-history", args=[table.pk, second.pk]) in deleted


def test_the_fragment_is_the_partial_alone(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)
    login(client, club)
    play(table, [won(1)])
    response = client.get(reverse("scoring:sheet-fragment", args=[table.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and 'class="score-sheet' in html
    page = client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert f'hx-get="{reverse("scoring:sheet-fragment", args=[table.pk])}' in page
    assert "css/sheet.css" in page


def test_a_quick_lost_result_says_lost_once(client: Client) -> None:
    """A tapped "lost Schneider" already says lost; counted card points get the lost mark."""
    club = make_club()
    table = make_table(club, players=3)
    login(client, club)
    quick = {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
             "result": "lost_schneider"}
    play(table, [quick, won(2, 40)])
    rows = body_rows(get_sheet(client, table))
    assert "lost Schneider" in rows[0] and "lost-mark" not in rows[0]
    assert '<span class="lost-mark">lost</span>' in rows[1]


def test_the_sheet_is_german_by_default(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)
    login(client, club)
    play(table, [won(1)])
    html = client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert '<html lang="de">' in html and "Kreuz" in html


def test_a_150_deal_sheet_renders_in_constant_queries(
        client: Client, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    table = make_table(club, players=4)
    login(client, club)
    Deal.objects.bulk_create(Deal(table=table, position=i + 1, record=record)
                             for i, record in enumerate(plain_games(table, 150)))
    with django_assert_max_num_queries(9):
        response = client.get(reverse("scoring:sheet", args=[table.pk]))
    assert response.status_code == 200
    assert len(body_rows(response.content.decode())) == 150
    with django_assert_max_num_queries(9):
        client.get(reverse("scoring:sheet", args=[table.pk]), {"layout": "historical"})
    with django_assert_max_num_queries(9):
        client.get(reverse("scoring:sheet-fragment", args=[table.pk]))


# ---------------------------------------------------------------- access

def sheet_urls(table: Table, deal: Deal) -> list[str]:
    return [reverse("scoring:sheet", args=[table.pk]),
            reverse("scoring:sheet-fragment", args=[table.pk]),
            reverse("scoring:deal-history", args=[table.pk, deal.pk])]


def test_viewers_of_the_club_see_the_sheet(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)
    (deal,) = play(table, [won(1)])
    login(client, club, "viewer")
    assert [client.get(u).status_code for u in sheet_urls(table, deal)] == [200, 200, 200]


def test_other_clubs_and_strangers_get_404(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)
    (deal,) = play(table, [won(1)])
    assert [client.get(u).status_code for u in sheet_urls(table, deal)] == [404, 404, 404]
    login(client, make_club("zwickau", "Skatclub Zwickau"), "admin")
    assert [client.get(u).status_code for u in sheet_urls(table, deal)] == [404, 404, 404]


def test_a_code_device_sees_its_table_only(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)
    other = make_table(club, players=3)
    (deal,) = play(table, [won(1)])
    (other_deal,) = play(other, [won(1)])
    grant_code(client, table)
    assert [client.get(u).status_code for u in sheet_urls(table, deal)] == [200, 200, 200]
    assert [client.get(u).status_code for u in sheet_urls(other, other_deal)] == [404, 404, 404]
    assert client.get(reverse("scoring:evening", args=[table.evening_id])).status_code == 404
    assert client.get(
        reverse("scoring:evening-audit", args=[table.evening_id])).status_code == 404


def test_a_deal_of_another_table_has_no_history_here(client: Client) -> None:
    club = make_club()
    table = make_table(club, players=3)
    other = make_table(club, players=3)
    (other_deal,) = play(other, [won(1)])
    login(client, club)
    url = reverse("scoring:deal-history", args=[table.pk, other_deal.pk])
    assert client.get(url).status_code == 404
