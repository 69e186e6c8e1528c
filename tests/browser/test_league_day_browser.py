"""A league's match day end to end in a real browser (issue 25): four teams, one match day
of three series. The host's admin checks the line-ups in on the match-day page (Pik Dame
starts with three: one 3-table), seats series 1; one table's first deal is recorded
through the real table screen, opened by its table code; the rest of the deals through the
services (tests/web/leagues.py), while the match-day page, never reloaded, shows the
tables' games and the team scores as they come (the polled numbers). Series 2 and 3 are
seated on the page and played; the captains sign on the host's tablet; the Spielbericht and
the league table are fetched from the pages' links and read back (pdftotext) against the
numbers, their first pages kept as PNGs. Screenshots at tablet and phone size."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import MatchDay, ReportSignature, Table
from scoring.reads.league import group_numbers, match_report
from tests.web import pdfs
from tests.web.factories import browser_login, make_club, make_user
from tests.web.leagues import make_day, make_league, play_series, team

from .helpers import console_errors
from .test_round_browser import STANDARD_GAME, Scorer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

WITHIN = 12000  # ms: the page polls every 5 s
PHONE = {"width": 390, "height": 844}


def _pdf(context: Any, url: str) -> bytes:
    """A PDF fetched with the browser's session."""
    response = context.request.get(url)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    body: bytes = response.body()
    return body


def _png(pdf: bytes, stem: Path) -> None:
    """The PDF's first page as a PNG beside the screenshots (pdftoppm, 60 dpi)."""
    subprocess.run(["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", "-singlefile", "-",
                    str(stem)], input=pdf, check=True)


@pytest.mark.slow  # over 15 s: started first (tests/conftest.py)
def test_a_match_day_of_four_teams_on_the_page(new_context: Any, live_server: Any,
                                               screenshot_dir: Path) -> None:
    club = make_club()
    host_club = make_club("gastgeber", "SC Gastgeber")
    league = make_league(club, host_club=host_club, rounds=1)  # 4 games at a 4-table
    day = make_day(league)
    MatchDay.objects.filter(pk=day.pk).update(host=team(league, "Herz As"))
    host = make_user(host_club, "admin", "host-admin")
    context = new_context()
    browser_login(context, live_server, host)
    page = context.new_page()
    errors = console_errors(page)
    url = live_server.url + reverse("scoring:match-day", args=[day.pk])
    page.goto(url)

    # The host checks the line-ups of series 1 in: positions 1–4, Pik Dame with three.
    for t in sorted(day.teams.all(), key=lambda t: t.name):
        form = page.locator(f"#lineup-{t.pk}")
        regulars = t.players.filter(position__isnull=False).order_by("position")
        for member in regulars:
            if t.name == "Pik Dame" and member.position == 4:
                continue
            form.locator(f"#id_team{t.pk}-position_{member.position}").select_option(
                label=member.player.name)
        form.locator("button").click()
        page.wait_for_url(f"**/leagues/days/{day.pk}/?series=1#desk")
        expect(page.locator(".messages")).to_contain_text(t.name)
    assert day.lineups.filter(series=1).count() == 15
    page.screenshot(path=str(screenshot_dir / "league-day-01-lineups.png"), full_page=True)

    # Series 1 is seated with a recorded seed: four tables, one of three.
    page.fill("#id_seed", "42")
    page.locator(".seat-form button").click()
    expect(page.locator(".messages")).to_contain_text("42")
    tables = list(Table.objects.filter(evening=day.evening, series=1).order_by("number"))
    assert sorted(t.seats.count() for t in tables) == [3, 4, 4, 4]
    expect(page.locator(".series-tables li")).to_have_count(4)
    for table in tables:
        expect(page.locator(f"#desk-table-{table.pk}")).to_contain_text(
            f"{table.access_code[:4]}-{table.access_code[4:]}")
    expect(page.locator("#series-1-table-1 .games")).to_contain_text("0/")
    page.evaluate("window.sameDocument = true")

    # Table 1's first two deals through the real table screen, opened by its code.
    first = tables[0]
    device_context = new_context()
    device = device_context.new_page()
    device.goto(live_server.url + reverse("scoring:code", args=[first.access_code]))
    device.wait_for_url(f"**/tables/{first.pk}/**")
    scorer = Scorer(device, live_server, first, screenshot_dir, "league-day-table-1")
    scorer.tap(*STANDARD_GAME[:-1])
    scorer.preview()
    scorer.save("result-won")
    assert scorer.taps == 5
    length = day.evening.series_length(first.seats.count())
    # The match-day page follows without a reload.
    expect(page.locator("#series-1-table-1 .games")).to_contain_text(
        f"1/{length}", timeout=WITHIN)
    # The second deal: the next seat declares the same game.
    scorer.tap("declarer-2", *STANDARD_GAME[1:-1])
    scorer.preview()
    scorer.save("result-won")
    assert first.deals.filter(deleted=False).count() == 2
    device_context.close()
    expect(page.locator("#series-1-table-1 .games")).to_contain_text(
        f"2/{length}", timeout=WITHIN)

    # The rest of series 1 through the services: every table done, the team scores shown.
    play_series(day, 1, seed=11)
    expect(page.locator("#series-1 .games.done")).to_have_count(4, timeout=WITHIN)
    report = match_report(day)
    winner = report.series[0].teams[0]
    expect(page.locator("#series-1 .series-teams tbody tr").first).to_contain_text(
        winner.team)
    expect(page.locator("#series-1 .series-teams tbody tr").first).to_contain_text(
        str(winner.points))
    assert page.evaluate("window.sameDocument === true")
    page.screenshot(path=str(screenshot_dir / "league-day-02-series-1.png"), full_page=True)

    # Series 2 and 3 seated on the page and played.
    for series in (2, 3):
        page.goto(url)
        page.locator(".seat-form button").click()
        expect(page.locator(".messages")).to_contain_text(f"{series}")
        assert Table.objects.filter(evening=day.evening, series=series).count() == 4
        play_series(day, series, seed=11)
        expect(page.locator(f"#series-{series} .games.done")).to_have_count(
            4, timeout=WITHIN)
    expect(page.locator(".day-standings tbody tr")).to_have_count(4)

    # The captains sign on the host's tablet.
    page.goto(url + "#signatures")
    for t in day.teams.all():
        page.locator(f"#signature-team-{t.pk} button").click()
        expect(page.locator(f"#signature-team-{t.pk} .signed")).to_be_visible()
    assert ReportSignature.objects.filter(match_day=day, where="tablet").count() == 4
    page.screenshot(path=str(screenshot_dir / "league-day-03-signed.png"), full_page=True)

    # The Spielbericht, fetched from the page's link as the host would print it: read back
    # (pdftotext) against the day's numbers, its first page kept as a PNG to look at.
    report = match_report(MatchDay.objects.get(pk=day.pk))
    href = page.locator("a[href$='/report.pdf']").get_attribute("href")
    assert href is not None
    pdf = _pdf(context, live_server.url + href)
    text = pdfs.text(pdf)
    for row in report.table:  # the day's table: each team with its Wertungspunkte
        # 2.5:0.5 in English, 2,5:0,5 in German
        shown = {f"{row.plus:g}:{row.minus:g}", f"{row.plus:g}:{row.minus:g}".replace(".", ",")}
        line = next(line for line in text.splitlines()
                    if row.team in line and any(s in line.replace(" ", "") for s in shown))
        assert line.split()[0].rstrip(".") == str(row.place), line
    for name in report.captains.values():
        assert name in text
    _png(pdf, screenshot_dir / "league-day-05-report")
    # The league table, from the group page's link.
    page.goto(live_server.url + reverse("scoring:league-group", args=[day.group_id]))
    href = page.locator("a[href$='/table.pdf']").get_attribute("href")
    assert href is not None
    pdf = _pdf(context, live_server.url + href)
    printed = pdfs.text(pdf)
    numbers = group_numbers(day.group)
    order = [printed.index(row.team) for row in numbers.result.table]
    assert order == sorted(order), "the teams in the table's order"
    _png(pdf, screenshot_dir / "league-day-06-table")
    page.set_viewport_size(PHONE)
    page.goto(url)
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(screenshot_dir / "league-day-04-phone.png"), full_page=True)
    assert width <= PHONE["width"], width
    assert errors == []
