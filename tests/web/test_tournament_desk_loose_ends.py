"""Loose ends of the tournament desk (issue 36, build item 5): a withdrawn player is not
counted as present, the draw's refusal says how many tables still play and which, a toggle
on a found entrant keeps the desk's search, a lower prize above a higher one is warned of."""

from __future__ import annotations

import re
from decimal import Decimal
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import Entrant
from scoring.reads.tournament import prize_inversions, prize_warnings
from scoring.views import board
from scoring.writes import league as lw
from scoring.writes import tournament as tw

from .factories import make_club, make_user
from .leagues import check_in, make_day, make_league, play_series
from .tournaments import fill_series, make_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_the_desk_header_does_not_count_a_withdrawn_player_as_present(
        client: Client) -> None:
    t = make_tournament(make_club(), players=8)
    tw.series_draw(tournament=t, seed=1)
    tw.entrant_withdraw(entrant=t.entrants.get(number=2))
    client.force_login(make_user(t.club, "admin"))
    page = client.get(reverse("scoring:tournament", args=[t.pk])).content.decode()
    header = re.sub(r"\s+", " ", page.split('class="facts"')[1].split("</dl>")[0])
    assert "7 checked in" in header and "1 withdrawn" in header


def test_the_draw_refusal_counts_and_names_every_unfinished_table() -> None:
    t = make_tournament(make_club(), players=13)  # tables of 4, 3, 3, 3
    tw.series_draw(tournament=t, seed=1)
    fill_series(t, 1, leave=1)
    with pytest.raises(ValidationError) as refused:
        tw.series_draw(tournament=t, seed=2)
    message = refused.value.messages[0]
    assert "4 tables have not played all their games" in message
    for number in (1, 2, 3, 4):
        assert f"table {number} (" in message
    # many tables: the first few by number, and how many more
    with mock.patch.object(tw, "UNFINISHED_NAMED", 2), \
            pytest.raises(ValidationError) as refused:
        tw.series_draw(tournament=t, seed=2)
    message = refused.value.messages[0]
    assert "table 1 (" in message and "table 2 (" in message
    assert "table 3 (" not in message and "and 2 more tables" in message


def test_toggling_a_found_entrant_keeps_the_search(client: Client) -> None:
    t = make_tournament(make_club(), players=8)
    client.force_login(make_user(t.club, "admin"))
    who = t.entrants.select_related("player").get(number=3)
    query = who.player.name
    desk = reverse("scoring:tournament", args=[t.pk])
    page = client.get(desk, {"q": query}).content.decode()
    assert 'name="q" value="' in page.split(f'id="entrant-{who.pk}"')[1].split("</tr>")[0]
    response = client.post(reverse("scoring:tournament-entrant", args=[t.pk, who.pk]),
                           {"action": "unpaid", "q": query})
    assert response.status_code == 302
    assert not Entrant.objects.get(pk=who.pk).paid
    found = client.get(response["Location"]).content.decode()
    assert f'value="{query}"' in found and "1 entrant found." in found


def test_a_lower_prize_above_a_higher_one_is_warned_of_and_saved(client: Client) -> None:
    t = make_tournament(make_club(), players=8, prizes=["50%", "30%", "10.00"])
    client.force_login(make_user(t.club, "admin"))
    desk = reverse("scoring:tournament", args=[t.pk])
    assert "pays more than" not in client.get(desk).content.decode()
    response = client.post(reverse("scoring:tournament-settings", args=[t.pk]),
                           {"reseat": "draw", "tie_rule": "won", "public": "",
                            "prizes": "20.00\n30.00\n5%\n10%"}, follow=True)
    t.refresh_from_db()
    assert t.prizes == ["20.00", "30.00", "5%", "10%"]  # a warning, not a refusal
    page = response.content.decode()
    for text in ("place 2 (30.00 EUR) pays more than place 1 (20.00 EUR)",
                 "place 4 (10% = 8.00 EUR) pays more than place 3 (5% = 4.00 EUR)"):
        assert page.count(text) == 2  # the message after saving and the desk's standing note
    assert "place 3" not in page.replace("than place 3", "")


def test_shares_and_amounts_are_compared_only_with_a_pot() -> None:
    assert prize_inversions(Decimal("0"), ["10%", "5.00"]) == []
    assert prize_inversions(Decimal("100"), ["10%", "15.00"]) == [2]
    assert prize_inversions(Decimal("0"), ["10%", "15%", "20.00", "30.00"]) == [2, 4]


def test_the_prize_warning_writes_numbers_as_the_page_does() -> None:
    t = make_tournament(make_club(), players=8, prizes=["20.00", "30.00", "5%", "12.5%"])
    with translation.override("de"):
        warnings = prize_warnings(t, paid=8)
    assert len(warnings) == 2
    assert "(30,00 EUR)" in warnings[0] and "(20,00 EUR)" in warnings[0]
    assert "(12,5% = 10,00 EUR)" in warnings[1] and "(5% = 4,00 EUR)" in warnings[1]


def test_the_boards_speak_the_clubs_language_not_the_visitors(client: Client) -> None:
    t = make_tournament(make_club(), players=8, public=True)
    tw.series_draw(tournament=t, seed=1)
    urls = [reverse(name, args=[t.board_key]) for name in (
        "scoring:board", "scoring:board-tv", "scoring:board-fragment",
        "scoring:board-tv-fragment")]
    for url in urls:  # the club's default: German, for an English visitor too
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200 and response["Content-Language"] == "de", url
        assert ">Platz</th>" in response.content.decode()
    t.club.language = "en"
    t.club.save(update_fields=["language"])
    board.forget(t)
    for url in urls:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 200 and response["Content-Language"] == "en", url
        assert ">Place</th>" in response.content.decode()
    page = client.get(urls[0], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="en"' in page and "Live board" in page


def test_the_public_league_page_speaks_the_clubs_language(client: Client) -> None:
    league = make_league(make_club(), public=True, rounds=2)
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day, seed=3)
    play_series(day, 1)
    url = reverse("scoring:league-public", args=[league.board_key])
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="en")  # the club's default: German
    assert german["Content-Language"] == "de"
    assert '<html lang="de"' in german.content.decode() and "Tabelle" in german.content.decode()
    league.club.language = "en"
    league.club.save(update_fields=["language"])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="en"' in english and "League table" in english
