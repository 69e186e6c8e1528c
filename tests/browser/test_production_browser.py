"""The production settings in a real browser: the table screen and the live sheet work under
the strict Content Security Policy (tests/web/test_production.py has the settings' side)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import reverse
from playwright.sync_api import Page, Request
from pytest_django.live_server_helper import LiveServer

from tests.web.factories import browser_login, make_club, make_table, make_user


@pytest.fixture
def console(page: Page) -> Iterator[list[str]]:
    """Every console message and page error of ``page`` (CSP violations are reported there)."""
    messages: list[str] = []
    page.on("console", lambda message: messages.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: messages.append(f"pageerror: {error}"))
    yield messages


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_table_screen_works_under_the_policy(page: Page, console: list[str],
                                                 live_server: LiveServer) -> None:
    table = make_table(make_club())
    browser_login(page.context, live_server, make_user(table.evening.club, "scorer"))
    response = page.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
    assert response is not None, "the table screen answered"
    assert "script-src 'self'" in response.headers["content-security-policy"]
    for tap in ("declarer-1", "game-clubs", "matadors-1"):
        page.locator(f'[data-tap="{tap}"]').tap()
    # htmx ran: the live preview came back and marked the game's value in the bid strip
    page.wait_for_selector('[data-tap="bid-24"].at-value')
    for tap in ("bid-24", "result-won"):  # the quick result saves once the preview agrees
        page.locator(f'[data-tap="{tap}"]').tap()
    page.wait_for_url("**/tables/*/?saved=*")
    assert "+24" in page.inner_text(".last-rows")
    page.goto(live_server.url + reverse("scoring:sheet", args=[table.pk]))
    page.wait_for_load_state("load")
    violations = [m for m in console if "Content Security Policy" in m or "pageerror" in m]
    assert not violations, violations


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_live_sheet_pauses_while_a_deal_history_is_open(page: Page, console: list[str],
                                                           live_server: LiveServer) -> None:
    # The polling condition moved from an hx-trigger filter (eval, which the policy forbids)
    # to static/js/live.js: a request of the live element is dropped while a <details> in it
    # is open, and sent again once it is closed.
    table = make_table(make_club())
    browser_login(page.context, live_server, make_user(table.evening.club, "scorer"))
    page.goto(live_server.url + reverse("scoring:sheet", args=[table.pk]))
    fragment = reverse("scoring:sheet-fragment", args=[table.pk])
    asked: list[str] = []

    def note_poll(request: Request) -> None:
        if fragment in request.url:
            asked.append(request.url)

    page.on("request", note_poll)
    poll = """(open) => {
        const live = document.getElementById("sheet-live");
        if (open) {
            live.insertAdjacentHTML("beforeend", "<details open><summary>x</summary></details>");
        }
        return htmx.ajax("GET", live.getAttribute("hx-get"), {source: live, target: live});
    }"""
    page.evaluate(poll, True)  # htmx.ajax's promise settles once the request is dropped
    page.wait_for_timeout(200)
    assert asked == []
    page.evaluate("document.querySelector('#sheet-live details').open = false")
    with page.expect_request(lambda request: fragment in request.url):
        page.evaluate(poll, False)
    assert not [m for m in console if "Content Security Policy" in m or "pageerror" in m]

