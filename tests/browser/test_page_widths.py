"""No page scrolls sideways (issue 14): every page a person sees, at the three sizes the
club uses (a 1024 × 768 tablet in landscape, an 800 × 1280 tablet upright, a 390 × 844
phone), is no wider than the screen. Wide tables scroll inside their own box.

The pages come from walking the URL resolver, as test_access_isolation.py does, so a page
routed later is measured as soon as it exists: every route is either filled in below or
named in NOT_PAGES with the reason it is not a page of its own. The club has a played
evening with long names, a Ramsch, Bock and a stake (so a settlement), a corrected and a
deleted deal (so the audit and history pages have something to show), a season with that
evening in it, a series ranking, a tournament and a team league with a played match day.

The table screen (templates/scoring/entry/) belongs to another part of the work; it is
measured in its own test so that its result is reported on its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from scoring.models import Deal, RuleProfile, Season
from scoring.views.signing import sign_token
from scoring.writes.services import Actor, deal_delete, deal_edit, deal_record
from scoring.writes.tournament import series_draw
from tests.web import seasons
from tests.web.factories import browser_login, make_club, make_user
from tests.web.leagues import make_day, make_league, play_day
from tests.web.seasons import seat_and_play
from tests.web.test_pdf_story import story_table
from tests.web.tournaments import fill_series, make_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SIZES: dict[str, ViewportSize] = {"tablet-landscape": {"width": 1024, "height": 768},
         "tablet-upright": {"width": 800, "height": 1280},
         "phone": {"width": 390, "height": 844}}

SIX = ["Karl-Heinz Schwarzenberger", "Wolfgang", "Marie-Luise", "Friedrich Wilhelm",
       "Gülşen Yıldırım", "Bartholomäus"]

# Routes that are not a page a person looks at, with the reason.
NOT_PAGES = {
    "set_language": "POST only: the language switch",
    "logout": "POST only",
    "password_reset_confirm": "needs a link from a mail: test_onboarding_browser.py measures it",
    "setup": "only while there is no club (404 after): test_onboarding_browser.py measures it",
    "register": "closed by default (404): test_onboarding_browser.py measures it",
    "register-confirm": "needs a link from a mail (test_onboarding.py)",
    "invitation": "needs an invitation link: test_onboarding_browser.py measures it",
    "invitation-create": "POST only: the form is on the members page",
    "invitation-send": "POST only: the form is on the members page",
    "invitation-revoke": "POST only: the form is on the members page",
    "member-remove": "POST only: the form is on the members page",
    "member-password-reset": "POST only: the form is on the members page",
    "member-player": "POST only: the form is on the members page",
    "departed-names": "POST only: the form is on the members page",
    "account-data": "JSON download", "account-delete": "POST only: the form is on the account page",
    "player-create": "POST only: the form is on the members page",
    "deal-save": "POST only", "deal-preview": "htmx fragment of the table screen",
    "deal-delete": "POST only", "deal-restore": "POST only",
    "club-export": "JSON download", "evening-export": "JSON download",
    "sheet-csv": "CSV download", "sheet-pdf": "PDF", "settlement-pdf": "PDF",
    "summary-pdf": "PDF", "season-pdf": "PDF",
    "sheet-fragment": "htmx fragment of the sheet page (measured there)",
    "evening-live": "htmx fragment of the evening page (measured there)",
    "table-version": "JSON for the table screen's polling",
    "code": "redirects to the table screen (measured as 'table')",
    "evening-close": "POST only: the form is on the evening page",
    "evening-reopen": "POST only: the form is on the evening page",
    "engine-bundle": "the engine's code as a zip for the browser, not a page",
    "table-state": "JSON for the offline table", "table-sync": "POST only: JSON sync",
    "held-accept": "POST only: the form is on the held page",
    "held-discard": "POST only: the form is on the held page",
    "held-discard-bulk": "POST only: the form is on the held page",
    "healthz": "JSON for load balancers and monitoring",
    "import-preview": "shows the signed-in admin's own upload: measured at phone width by "
                      "test_import_browser.py",
    "import-confirm": "POST only: the form is on the import preview",
    "tournament-entrant": "POST only: the buttons are on the tournament desk",
    "tournament-settings": "POST only: the form is on the tournament desk",
    "tournament-draw": "POST only: the form is on the tournament desk",
    "profile-preset": "POST only: the button is on the new tournament page",
    "tournament-seats-pdf": "PDF", "tournament-cards-pdf": "PDF",
    "tournament-list-pdf": "PDF", "tournament-results-pdf": "PDF",
    "tournament-results-csv": "CSV download",
    "board-fragment": "fragment of the live board (measured as 'board')",
    "board-tv-fragment": "fragment of the TV board (measured as 'board-tv')",
    "board-version": "JSON: the live board's version, a check without the board",
    "sign-mode": "POST only: the form is on the members page",
    "account-pin": "POST only: the form is on the account page",
    "sign-tablet": "POST only: the buttons are on the table screen",
    "sign-panel": "htmx fragment of the table screen (measured as 'table')",
    "sign-phone-live": "htmx fragment of the phone's signing page (measured as 'sign-phone')",
    "signup": "online registration, open only when switched on: measured at phone width "
              "by test_tournament_signup_browser.py",
    "signup-confirm": "a mailed link's page: measured at phone width by "
                      "test_tournament_signup_browser.py",
    "tournament-signup": "POST only: the form is on the tournament desk",
    "tournament-cockpit-live": "htmx fragment of the cockpit (measured as 'tournament-cockpit')",
    "tournament-cockpit-start": "POST only: the button is on the cockpit",
    "tournament-cockpit-clock": "POST only: the form is on the cockpit",
    "tournament-cockpit-message": "POST only: the form is on the cockpit",
    "match-day-numbers": "htmx fragment of the match day (measured as 'match-day')",
    "match-day-lineup": "POST only: the forms are on the match day's desk",
    "match-day-seat": "POST only: the form is on the match day's desk",
    "match-day-sign": "POST only: the buttons are on the match day",
    "match-day-report-pdf": "PDF", "league-table-pdf": "PDF", "league-players-pdf": "PDF",
    "league-public-table-pdf": "PDF", "league-public-players-pdf": "PDF",
    "claim-create": "POST only: the button is on the members page",
    "claim-revoke": "POST only: the button is on the members page",
    "player-unlink": "POST only: the button is on the members page",
    "player-member-number": "POST only: the form is on the members page",
    "player-merge": "POST only: the form is on the members page",
    "player-unmerge": "POST only: the form is on the members page",
    "me-results-visible": "POST only: the form is on 'me-results'",
    "claim": "needs a claim link: test_people_browser.py measures it at both widths",
    "person-results": "the template of 'me-results' (measured), for another person",
    "tournament-signup-drop": "POST only: the button is in the desk's online registration",
    "seat-key-live": "htmx fragment of the personal seat page (measured as 'seat-key')",
    "my-seat-live": "htmx fragment of the signed-in seat page (measured as 'my-seat')",
}
# The pages that were once too wide: saved as screenshots to look at.
SHOWN = {"sheet", "sheet-six", "evening", "evening-audit", "deal-history", "season-player",
         "members", "account", "my-results", "password_reset",
         "federation-ranking"}
# The table screen: another part of the work owns templates/scoring/entry/.
TABLE_SCREEN = {"table", "deal-edit"}


def all_patterns() -> Iterator[tuple[str, URLPattern]]:
    def walk(patterns: list[Any], namespace: str) -> Iterator[tuple[str, URLPattern]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace == "admin":  # Django's own admin, for the site's operator
                    continue
                yield from walk(p.url_patterns, p.namespace or namespace)
            elif p.name:
                yield (f"{namespace}:{p.name}" if namespace else p.name), p

    yield from walk(get_resolver().url_patterns, "")


def played_club() -> dict[str, Any]:
    club = make_club()
    table = story_table(club)
    evening = table.evening
    season = Season.objects.create(club=club, name="Saison 2026/27", start=evening.date,
                                   end=evening.date, evaluation="classic")
    evening.season = season
    evening.save(update_fields=["season"])
    me = Actor(None, "test")
    deals = list(Deal.objects.filter(table=table).order_by("position"))
    edited = deal_edit(deal=deals[0], record={**deals[0].record, "declarer_points": 91},
                       reason="Augen verzählt, Schneider angesagt und nachgezählt",
                       expected_version=table.version, actor=me)
    table.refresh_from_db()
    extra = deal_record(table=table, record={"kind": "passed"}, expected_version=table.version,
                        actor=me)
    table.refresh_from_db()
    deal_delete(deal=extra, reason="doppelt eingetragen", expected_version=table.version,
                actor=me)
    first_seat = table.seats.order_by("position").first()
    assert first_seat is not None, "the table has seats"
    player = first_seat.player
    # and a 6-table at the same evening: the widest sheet there is
    six = seat_and_play(evening, [seasons.player(club, name) for name in SIX],
                        {0: [(1, True)], 2: [(2, False)], 4: [(3, True)], 5: [(1, False)]})
    # and a tournament of 13 with its first series drawn and played, its board public
    tournament = make_tournament(club, public=True)
    series_draw(tournament=tournament, seed=1)
    fill_series(tournament, 1)
    # and a team league of four teams with a match day played, its page public
    league = make_league(club, public=True)
    day = make_day(league)
    play_day(day)
    return {"club": club, "table": table, "evening": evening, "season": season,
            "deal": edited, "player": player, "six": six, "tournament": tournament,
            "league": league, "day": day}


def page_urls(objects: dict[str, Any]) -> dict[str, str]:
    """Every page, filled in with the played club's objects: {route name: url}."""
    profile = RuleProfile.objects.filter(club=objects["club"]).first()
    assert profile is not None, "the club has its preset profiles"
    by_route = {
        "scoring:club": [objects["club"].slug],
        "scoring:evening-create": [objects["club"].slug],
        "scoring:player-create": [objects["club"].slug],
        "scoring:members": [objects["club"].slug],
        "scoring:my-results": [objects["club"].slug],
        "scoring:profile-create": [objects["club"].slug],
        "scoring:season-create": [objects["club"].slug],
        "scoring:import": [objects["club"].slug],
        "scoring:club-log": [objects["club"].slug],
        "scoring:evening-delete": [objects["evening"].pk],
        "scoring:profile-edit": [profile.pk],
        "scoring:table-create": [objects["evening"].pk],
        "scoring:codes": [objects["evening"].pk],
        "scoring:evening": [objects["evening"].pk],
        "scoring:evening-audit": [objects["evening"].pk],
        "scoring:held": [objects["evening"].pk],
        "scoring:settlement": [objects["evening"].pk],
        "scoring:evening-ranking": [objects["evening"].pk],
        "scoring:series-new": [objects["evening"].pk],
        "scoring:table": [objects["table"].pk],
        "scoring:sheet": [objects["table"].pk],
        "scoring:deal-edit": [objects["table"].pk, objects["deal"].pk],
        "scoring:deal-history": [objects["table"].pk, objects["deal"].pk],
        "scoring:season": [objects["season"].pk],
        "scoring:season-edit": [objects["season"].pk],
        "scoring:season-player": [objects["season"].pk, objects["player"].pk],
        "scoring:tournament-create": [objects["club"].slug],
        "scoring:tournament": [objects["tournament"].pk],
        "scoring:tournament-results": [objects["tournament"].pk],
        "scoring:tournament-seats": [objects["tournament"].pk, 1],
        "scoring:tournament-cockpit": [objects["tournament"].pk],
        "scoring:seat-key": [objects["tournament"].entrants.get(number=1).seat_key],
        "scoring:tournament-entrant-link": [
            objects["tournament"].pk, objects["tournament"].entrants.get(number=1).pk],
        "scoring:board": [objects["tournament"].board_key],
        "scoring:board-tv": [objects["tournament"].board_key],
        "scoring:sign-phone": [objects["table"].pk, sign_token(objects["table"])],
        "scoring:leagues": [objects["club"].slug],
        "scoring:league": [objects["league"].pk],
        "scoring:league-group": [objects["day"].group_id],
        "scoring:league-public": [objects["league"].board_key],
        "scoring:match-day": [objects["day"].pk],
        "scoring:match-day-codes": [objects["day"].pk],
    }
    urls = {}
    unknown = []
    for name, pattern in all_patterns():
        short = name.split(":")[-1]
        if short in NOT_PAGES:
            continue
        if name in by_route:
            urls[short] = reverse(name, args=by_route[name])
        elif not getattr(pattern.pattern, "converters", None):
            urls[short] = reverse(name)
        else:
            unknown.append(name)
    assert not unknown, f"new routes: fill them in or name them in NOT_PAGES: {unknown}"
    urls["federation-ranking"] += (f"?year={objects['evening'].date.year}"
                                   "&min_evenings=1")  # the played club's year, ranked
    urls["sheet-historical"] = urls["sheet"] + "?layout=historical"
    urls["sheet-six"] = reverse("scoring:sheet", args=[objects["six"].pk])
    urls["sheet-six-historical"] = urls["sheet-six"] + "?layout=historical"
    return urls


def measure(page: Page, live_server: LiveServer, urls: dict[str, str], size: str,
            screenshot_dir: Path) -> dict[str, str]:
    """{page: problem} for every page wider than the screen or not answering 200."""
    problems = {}
    for name, url in urls.items():
        try:
            response = page.goto(live_server.url + url)
        except PlaywrightError as err:
            problems[name] = f"{url}: {err.message.splitlines()[0]}"
            continue
        if response is None or response.status != 200:
            problems[name] = f"{url}: status {response and response.status}"
            continue
        scroll, inner = page.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            problems[name] = f"{url}: {scroll} px wide on a {inner} px screen"
        if scroll > inner or name in SHOWN:
            prefix = "too-wide" if scroll > inner else "width"
            page.screenshot(path=str(screenshot_dir / f"{prefix}-{size}-{name}.png"),
                            full_page=True)
    return problems


@pytest.mark.parametrize("size", list(SIZES))
def test_no_page_scrolls_sideways(page: Page, live_server: LiveServer, screenshot_dir: Path,
                                  size: str) -> None:
    objects = played_club()
    urls = {k: v for k, v in page_urls(objects).items() if k not in TABLE_SCREEN}
    assert {"login", "home", "club", "members", "profile-edit", "evening", "sheet",
            "settlement", "evening-audit", "deal-history", "season", "season-player",
            "evening-ranking", "password_change"} <= set(urls)
    page.set_viewport_size(SIZES[size])
    # Signed out first: the sign-in page as a person sees it before signing in.
    anonymous = {"login": urls.pop("login"), "code-entry": urls["code-entry"]}
    problems = measure(page, live_server, anonymous, size, screenshot_dir)
    browser_login(page.context, live_server, make_user(objects["club"], "admin"))
    problems |= measure(page, live_server, urls, size, screenshot_dir)
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_screen_does_not_scroll_sideways(page: Page, live_server: LiveServer,
                                                   screenshot_dir: Path, size: str) -> None:
    objects = played_club()
    urls = {k: v for k, v in page_urls(objects).items() if k in TABLE_SCREEN}
    assert set(urls) == TABLE_SCREEN
    page.set_viewport_size(SIZES[size])
    browser_login(page.context, live_server, make_user(objects["club"], "admin"))
    problems = measure(page, live_server, urls, size, screenshot_dir)
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_a_sheet_that_fits_keeps_its_header_row_sticking(page: Page,
                                                          live_server: LiveServer) -> None:
    """Short names at 1024 px: the sheet fits, so it gets no scroll box (its header row
    sticks to the top of the screen); the long names' sheet of the same evening does not fit
    and gets one. Turning the tablet re-checks."""
    objects = played_club()
    short = story_table(objects["club"], ["Anna", "Bernd", "Clara", "Dieter"])
    browser_login(page.context, live_server, make_user(objects["club"], "admin"))
    page.set_viewport_size(SIZES["tablet-landscape"])
    box = page.locator(".score-sheet")
    page.goto(live_server.url + reverse("scoring:sheet", args=[short.pk]))
    assert box.get_attribute("class") == "score-sheet"
    assert page.evaluate("getComputedStyle(document.querySelector('.sheet thead th'))"
                         ".position") == "sticky"
    page.goto(live_server.url + reverse("scoring:sheet", args=[objects["table"].pk]))
    assert "too-wide" in (box.get_attribute("class") or "").split()
    # The sheet refreshes itself (htmx swaps in a new one): the new sheet is checked too.
    page.evaluate("document.querySelector('.score-sheet').setAttribute('data-old', '')")
    page.evaluate("() => { const live = document.getElementById('sheet-live');"
                  " htmx.ajax('GET', live.getAttribute('hx-get'),"
                  " {target: live, swap: 'innerHTML'}); }")
    page.locator(".score-sheet[data-old]").wait_for(state="detached")
    page.locator(".score-sheet.too-wide").wait_for(state="attached")
    # On paper nothing scrolls.
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('.score-sheet'))"
                         ".overflowX") == "visible"
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 1600, "height": 900})
    page.locator(".score-sheet.too-wide").wait_for(state="detached")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1600
