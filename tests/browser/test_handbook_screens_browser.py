"""The handbook's pictures (docs/handbuch/), taken while the pages they show are checked.

The demo of ``make run`` (``manage.py demo`` and ``demo_league``: a club evening at a 3- and a
4-table, the club's team in its league with a match day under way) and a Preisskat of 13 at
the demo club with series 1 under way. Signed in as the demo's club admin on a 1024×768
tablet, the test opens the club page, the table screen (and records a deal there in the five
taps of the spoken order), the score sheet, the signing panel, the settlement, the season
table, the Preisskat's desk and its public board, and the league's match day; each page must
show what the handbook says it shows, log no console error and fit the screen's width.

With ``SKATCLUB_HANDBOOK_SHOTS`` naming a folder (``make docs-screens``:
docs/handbuch/bilder) the screenshots are written there, 1024 px wide and reduced to a
palette (Pillow) to keep the committed PNGs small; otherwise into the test's tmp folder, so
that ``make test`` checks the pages without touching the handbook. The names are the ones
docs/handbuch/*.md show (tests/test_docs.py checks that every picture a page shows exists and
every committed picture is shown).
"""

from __future__ import annotations

import io
import os
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from PIL import Image
from playwright.sync_api import Page, expect

from scoring.models import (
    Club,
    Deal,
    Evening,
    League,
    MatchDay,
    RuleProfile,
    Season,
    Table,
    Tournament,
)
from scoring.writes import tournament as tw
from tests.web.factories import browser_login
from tests.web.tournaments import fill_series

from .helpers import fits

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
ENV = "SKATCLUB_HANDBOOK_SHOTS"
WIDTH = 1024


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where the pictures go: the folder $SKATCLUB_HANDBOOK_SHOTS names (relative to the
    checkout), else the test's own tmp folder."""
    named = os.environ.get(ENV)
    folder = (ROOT / named) if named and not Path(named).is_absolute() else (
        Path(named) if named else tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def save(page: Page, folder: Path, name: str, *, locator: Any = None,
         below: str | None = None, height: int = 720) -> Path:
    """The viewport, one element (``locator``) or ``height`` px of the page from the top of
    the element ``below`` names (the page without the site's header) as ``name``.png, at most
    WIDTH px wide, as a 256-colour palette PNG (screens are flat colours and text: a palette
    keeps them sharp at a fraction of the size)."""
    if locator is not None:
        raw = locator.screenshot()
    elif below is not None:
        box = page.locator(below).first.bounding_box()
        assert box is not None, below
        top = box["y"] + page.evaluate("window.scrollY")
        raw = page.screenshot(full_page=True, clip={
            "x": box["x"], "y": top, "width": box["width"], "height": height})
    else:
        raw = page.screenshot()
    image = Image.open(io.BytesIO(raw)).convert("RGB")
    if image.width > WIDTH:
        image = image.resize((WIDTH, round(image.height * WIDTH / image.width)),
                             Image.Resampling.LANCZOS)
    path = folder / f"{name}.png"
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                   dither=Image.Dither.NONE).save(path, optimize=True)
    return path


def page_errors(page: Page) -> list[str]:
    """The page's console errors and uncaught exceptions (helpers.console_errors), but for
    Chromium's own request of /favicon.ico: the board's page names no icon, a 404 nobody
    sees."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and not str(
        m.location.get("url", "")).endswith("/favicon.ico") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def checked(page: Page, url: str, errors: list[str]) -> None:
    """Open ``url``; the page must load, log no error and fit the screen's width."""
    response = page.goto(url)
    assert response is not None and response.status == 200, (url, response)
    page.wait_for_load_state("networkidle")
    fits(page)
    assert errors == [], (url, errors)


def a_preisskat(club: Club) -> Tournament:
    """A Preisskat of 13 (the demo's seven members and six guests) under the club's
    Seeger-Fabian profile, series 1 drawn with seed 42, each table two deals short."""
    profile = RuleProfile.objects.get(club=club, scoring="seeger_fabian")
    tournament = tw.tournament_create(
        club=club, name="Preisskat", date=date.today(), profile=profile, series_count=2,
        series_rounds=3, entry_fee=Decimal("10.00"),
        settlement=tw.fee_settlement(lost_fee=Decimal("0.50"), lost_fee_high=Decimal("1.00"),
                                     lost_fee_from=4, passed_fee=Decimal("0.50")),
        categories=["Damen"], team_fee=Decimal("0"), tandem_fee=Decimal("0"), reseat="draw",
        tie_rule="won", prizes=["50%", "30%", "10.00"], public=True)
    members = list(club.players.filter(guest=False).order_by("name"))
    guests = ["Gustav Gast", "Hilde Heim", "Ida Ivens", "Jens Jahn", "Karl Kurz", "Lena Lang"]
    for member in members:
        tw.entrant_register(tournament=tournament, member=member, paid=True, at_door=True)
    for name in guests:
        tw.entrant_register(tournament=tournament, name=name, home_club="SC Gast", paid=True,
                            at_door=True)
    tw.series_draw(tournament=tournament, seed=42)
    fill_series(tournament, 1, seed=5, leave=2, sign=False)
    return tournament


@pytest.mark.slow  # over 15 s: started first (tests/conftest.py)
def test_the_handbook_pages_as_a_club_sees_them(new_context: Any, live_server: Any,
                                                shots: Path) -> None:
    call_command("demo", stdout=io.StringIO())
    call_command("demo_league", stdout=io.StringIO())
    club = Club.objects.get(slug="demo")
    tournament = a_preisskat(club)
    evening = Evening.objects.get(club=club, name="Clubabend")
    table = Table.objects.get(evening=evening, number=1)
    admin = club.memberships.get(role="admin").user
    context = new_context()
    browser_login(context, live_server, admin)
    page = context.new_page()
    errors = page_errors(page)
    url = live_server.url

    # Setting up: the club page with its evenings, seasons, tournaments and rule profiles.
    checked(page, url + reverse("scoring:club", args=[club.slug]), errors)
    for link in ("Neuer Abend", "Mitglieder und Konten", "Alte Listen übernehmen",
                 "Neue Saison", "Neues Turnier"):
        expect(page.get_by_role("link", name=link)).to_be_visible()
    save(page, shots, "verein", below="main")

    # An evening at the table: the table screen, a game in the five taps of the spoken order.
    checked(page, url + reverse("scoring:table", args=[table.pk]), errors)
    expect(page.locator("h1, .table-status").first).to_contain_text("Tisch 1")
    deals = table.deals.filter(deleted=False).count()
    page.locator('[data-tap="kind-game"]').tap()
    for tap in ("declarer-1", "game-clubs", "matadors-1", "bid-24"):
        page.locator(f'[data-tap="{tap}"]').tap()
    page.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")
    expect(page.locator("#preview")).to_contain_text("Noch offen: Ergebnis")
    save(page, shots, "tischbildschirm")
    page.locator('[data-tap="result-won"]').tap()
    page.wait_for_url("**saved=*")
    assert table.deals.filter(deleted=False).count() == deals + 1
    saved = Deal.objects.filter(table=table, deleted=False).order_by("-pk").first()
    assert saved is not None and saved.record["game"] == "clubs"
    assert saved.record["declarer"] == 1 and saved.record["bid"] == 24
    page.wait_for_load_state("networkidle")
    assert errors == []
    save(page, shots, "tischbildschirm-gespeichert")

    # Signing: the panel under the table screen, opened.
    page.locator("details:has-text('Liste unterschreiben') > summary").first.click()
    panel = page.locator("details:has-text('Liste unterschreiben')").first
    expect(panel).to_contain_text("Käthe")
    expect(panel).to_contain_text("Code fürs Handy")
    # The players' rows; the phone link below them names the live server's changing port.
    save(page, shots, "unterschreiben", below="details:has-text('Liste unterschreiben')",
         height=450)

    # The score sheet of the 4-table: Bock and Ramsch rounds marked.
    four = Table.objects.get(evening=evening, number=2)
    checked(page, url + reverse("scoring:sheet", args=[four.pk]), errors)
    expect(page.locator("body")).to_contain_text("Spielliste von Tisch 2")
    expect(page.locator("body")).to_contain_text("Bock")
    save(page, shots, "spielliste", below="main")

    # Settlement: differences times the stake, who pays whom.
    checked(page, url + reverse("scoring:settlement", args=[evening.pk]), errors)
    expect(page.locator("body")).to_contain_text("Einsatz: 0,05 EUR je Punkt")
    expect(page.locator("body")).to_contain_text("Wer zahlt wem")
    save(page, shots, "abrechnung", below="main", height=900)

    # Season: the season table of the demo's one evening.
    season = Season.objects.get(club=club)
    checked(page, url + reverse("scoring:season", args=[season.pk]), errors)
    expect(page.locator("body")).to_contain_text("Saisontabelle")
    expect(page.locator("table").first).to_contain_text("Jürgen")
    save(page, shots, "saisontabelle", below="main", height=600)

    # Preisskat: the desk with series 1 drawn, then the public board.
    checked(page, url + reverse("scoring:tournament", args=[tournament.pk]), errors)
    expect(page.locator("body")).to_contain_text("13 anwesend")
    save(page, shots, "preisskat-turniertisch", below="main")
    series = page.locator("section", has_text="Serien und Auslosung").first
    expect(series).to_contain_text("Startwert 42")
    save(page, shots, "preisskat-auslosung", locator=series)
    checked(page, url + reverse("scoring:board", args=[tournament.board_key]), errors)
    expect(page.locator("body")).to_contain_text("Serie 1: 0 von 4 Tischen fertig")
    save(page, shots, "preisskat-anzeige")

    # League day: the match day under way, its tables and the teams' scores.
    league = League.objects.get(club=club)
    day = MatchDay.objects.filter(group__league=league).order_by("-number").first()
    assert day is not None
    checked(page, url + reverse("scoring:match-day", args=[day.pk]), errors)
    expect(page.locator("body")).to_contain_text("Ergebnisse der Mannschaften")
    save(page, shots, "spieltag", below="main")
    numbers = page.locator(".day-numbers").first
    expect(numbers).to_contain_text("Tabelle des Spieltags")
    save(page, shots, "spieltag-ergebnisse", locator=numbers)
    context.close()

    for png in shots.glob("*.png"):
        with Image.open(png) as image:
            assert image.width <= WIDTH, png
