"""Issue 12, point 6: the printed documents tell the whole story: overbid games, Ramsch card
points, the sitting-out dealer, names in full, one Bock wording, "Page 1 of 1" everywhere,
captions that do not run into each other, no "w/o"."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.engine import active_seats
from scoring.models import Club, Evening, Player, RuleProfile, Table
from scoring.pdf.standings import standings_pdf
from scoring.presets import PRESETS
from scoring.writes.services import evening_create, table_create

from . import pdfs
from .factories import login, make_club
from .seasons import make_evening, make_season, player, seat_and_play
from .test_sheet_pages import play

pytestmark = [pytest.mark.django_db, pdfs.needs_poppler]
LONG = ["Hans-Jürgen Müller-Lüdenscheid", "Maximilian", "Özlem Kaya", "Änne Schröder"]


def story_table(club: Club, names: list[str] = LONG) -> Table:
    """A 4-table: a won game, an overbid one (bid 30, Clubs with 1 is worth 24, the declarer
    took 80), passed in, a Ramsch with card points 50/40/30, a 60:60 that brings Bock."""
    seated = [Player.objects.get_or_create(club=club, name=n)[0] for n in names]
    profile = RuleProfile.objects.get(club=club, name=PRESETS["club_evening"]["name"])
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile,
                             stake=Decimal("0.05"))
    table = table_create(evening=evening, players=seated)

    def act(i: int) -> tuple[int, ...]:
        return tuple(active_seats(i % 4, 4))

    play(table, [
        {"kind": "game", "declarer": act(0)[0], "game": "clubs", "matadors": 1, "bid": 18,
         "declarer_points": 70},
        {"kind": "game", "declarer": act(1)[1], "game": "clubs", "matadors": 1, "bid": 30,
         "result": "won"},
        {"kind": "passed"},
        {"kind": "ramsch", "ramsch": {"points": {str(act(3)[0]): 50, str(act(3)[1]): 40,
                                                 str(act(3)[2]): 30},
                                      "tricks": {str(act(3)[0]): 4, str(act(3)[1]): 4,
                                                 str(act(3)[2]): 2}, "pushes": 0}},
        {"kind": "game", "declarer": act(4)[0], "game": "hearts", "matadors": 1, "bid": 18,
         "result": "sixty"},
    ])
    table.refresh_from_db()
    return table


def sheet_pdf(client: Client, table: Table, lang: str) -> bytes:
    response = client.get(reverse("scoring:sheet-pdf", args=[table.pk]),
                          headers={"accept-language": lang})
    assert response.status_code == 200
    return response.content


def row(text: str, number: int) -> str:
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == str(number):
            return line
    raise AssertionError(f"no row {number} in\n{text}")


@pytest.mark.parametrize(("lang", "overbid", "won"), [("de", "überreizt", "gew."),
                                                       ("en", "overbid", "won")])
def test_an_overbid_game_is_printed_as_overbid_never_as_won(
        client: Client, lang: str, overbid: str, won: str) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    text = pdfs.text(sheet_pdf(client, table, lang))
    line = row(text, 2)
    assert overbid in line and "30" in line.split()
    assert won not in line.split()
    assert f"{pdfs.MINUS}72" in line  # lost: twice the next multiple of 12 above the bid 30


@pytest.mark.parametrize(("lang", "label", "mark"), [("de", "Augen", "G"), ("en", "Card points",
                                                                             "D")])
def test_ramsch_card_points_and_the_sitting_out_dealer_are_printed(
        client: Client, lang: str, label: str, mark: str) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    text = pdfs.text(sheet_pdf(client, table, lang))
    # The Ramsch's line of card points, after who lost it (issue 23: "Verlierer: … · Augen")
    points = next(line for line in text.splitlines() if f" · {label} " in line)
    ramsch = active_seats(3, 4)  # deal 4: seat 3 deals and sits out
    expected = {ramsch[0]: "50", ramsch[1]: "40", ramsch[2]: "30"}
    assert pdfs.numbers(points) == [expected[p] for p in range(4) if p in expected]
    for number in range(1, 6):  # the dealer's mark on every deal of the 4-table
        assert mark in row(text, number).split(), row(text, number)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_names_are_printed_in_full_where_the_page_has_room(client: Client, lang: str) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    text = pdfs.text(sheet_pdf(client, table, lang))
    assert "…" not in text
    assert "Hans-Jürgen" in row(text, 1) and "Maximilian" in row(text, 1)
    assert "Maximilian" in row(text, 2)
    assert "Hans-Jürgen Müller-Lüdenscheid" in text


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "Bock 3 von 4 · +1 Bockrunde wartet"), ("en", "Bock 3 of 4 · +1 Bock round waiting")])
def test_the_printed_sheet_says_bock_as_the_table_screen_does(
        client: Client, lang: str, words: str) -> None:
    club = make_club()
    table = story_table(club)
    # deal 5's 60:60 brings a Bock round (deals 6-9); deal 7's 60:60 queues another: the
    # tracker owes 6 deals, which is the running round's last two and one whole round
    play(table, [{"kind": "game", "declarer": active_seats(5 % 4, 4)[0], "game": "grand",
                  "matadors": 1, "bid": 18, "declarer_points": 70},
                 {"kind": "game", "declarer": active_seats(6 % 4, 4)[0], "game": "hearts",
                  "matadors": 1, "bid": 18, "result": "sixty"}])
    login(client, club)
    text = " ".join(pdfs.text(sheet_pdf(client, table, lang)).split())
    assert words in text, text[-600:]
    screen = client.get(reverse("scoring:table", args=[table.pk]),
                        headers={"accept-language": lang}).content.decode()
    for part in words.split(" · "):
        assert part in screen


def test_the_matadors_column_is_spelled_out_in_english(client: Client) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    text = pdfs.text(sheet_pdf(client, table, "en"))
    assert "w/o" not in text
    # the title on two lines over the figures ("with/" over "without"), never cut short
    titles = text.splitlines()
    header = next(i for i, line in enumerate(titles) if line.split()[:1] == ["No."])
    assert titles[header - 1].split()[0] == "with/" and "without" in titles[header].split()
    assert "with 1" in row(text, 1)


def _settlement(client: Client, evening: Evening, name: str, lang: str) -> bytes:
    response = client.get(reverse(f"scoring:{name}", args=[evening.pk]),
                          headers={"accept-language": lang})
    assert response.status_code == 200
    return response.content


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_pdf_says_page_1_of_1(client: Client, lang: str) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    page = "Seite 1 von 1" if lang == "de" else "Page 1 of 1"
    assert page in pdfs.text(sheet_pdf(client, table, lang))
    for name in ("settlement-pdf", "summary-pdf"):
        assert page in pdfs.text(_settlement(client, table.evening, name, lang))
    season = make_season(club)
    evening = make_evening(season, 1)
    seat_and_play(evening, [player(club, n) for n in LONG[:3]],
                  {0: [(1, True)], 1: [(2, False)]})
    assert page in pdfs.text(standings_pdf(season, lang))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_side_by_side_captions_do_not_run_together(client: Client, lang: str) -> None:
    club = make_club()
    table = story_table(club, ["Al", "Bo", "Cy", "Di"])
    # a second table of the same evening: the summary sets the tables' transfers side by side
    second = table_create(evening=table.evening, players=[
        Player.objects.get_or_create(club=club, name=n)[0] for n in ["Ed", "Fy", "Gu"]])
    play(second, [{"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
                   "declarer_points": 70}])
    login(client, club)
    for name in ("settlement-pdf", "summary-pdf"):
        pdf = _settlement(client, table.evening, name, lang)
        for page in range(1, pdfs.pages(pdf) + 1):
            assert pdfs.overlapping_words(pdf, page) == [], name


