"""The offline table screen after the session ended elsewhere (issue 36, item 5), in Debian's
chromium: a deal waits on the tablet; meanwhile the scorer's password is changed on another
device, or the scorer is removed from the club, or the session expires. When the tablet is
online again and the server says the session is gone, the screen says so and no longer
shows the list and the form as if signed in; the waiting deal is kept on the tablet, and
sent once the scorer signs in there again.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.cache import cache
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import Membership, Table
from tests.web.factories import browser_login

from . import test_offline_table_browser as offline_tests
from .test_offline_table_browser import ENGINE, wait_ops
from .test_round_browser import Scorer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser,
              pytest.mark.service_workers]

table_players = offline_tests.table_players  # a table of three
contexts = offline_tests.contexts
tablet = offline_tests.tablet


def end_the_session(how: str, table: Table) -> None:
    user = get_user_model().objects.get(memberships__club=table.evening.club,
                                        memberships__role="scorer")
    if how == "password":  # changed on another device: this session's hash no longer holds
        user.set_password("a-new-password-elsewhere")
        user.save()
    elif how == "removed":
        Membership.objects.filter(user=user, club=table.evening.club).delete()
    else:  # expired
        Session.objects.all().delete()
        cache.clear()


@pytest.mark.parametrize("how", ["password", "removed", "expired"])
def test_a_session_ended_elsewhere_is_said_and_the_queue_kept(
        tablet: Scorer, table: Table, live_server: LiveServer, how: str) -> None:
    page = tablet.page
    page.context.route("**/tables/*/sync/", lambda route: route.abort())
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    tablet.tap("declarer-1", "game-clubs", "matadors-1", "bid-18", "result-won")
    wait_ops(page, 1)
    end_the_session(how, table)

    page.context.unroute("**/tables/*/sync/")
    page.context.set_offline(False)
    notice = page.locator(".session-ended")
    expect(notice).to_be_visible(timeout=30_000)
    # (its words are new: the German comes with the next catalogue, so only the count here)
    expect(notice.locator(".session-ended-kept")).to_contain_text("1")
    expect(notice.locator(".session-ended-login")).to_have_attribute(
        "href", f"/accounts/login/?next=%2Ftables%2F{table.pk}%2F")
    tablet.shot(f"session-ended-{how}", screen=True)
    expect(page.locator("#deal-form")).to_be_hidden()
    expect(page.locator(".last-rows")).to_be_hidden()
    expect(page.locator(".totals-strip")).to_be_hidden()
    assert table.deals.count() == 0
    page.wait_for_timeout(1000)
    assert len(page.evaluate("() => SkatOffline.ops()")) == 1  # kept on the tablet

    # Signed in again (a member again), the table screen sends what waited, once.
    user = get_user_model().objects.get(username=f"scorer-{table.evening.club.slug}")
    if how == "removed":
        Membership.objects.create(user=user, club=table.evening.club, role="scorer")
    browser_login(page.context, live_server, user)
    page.goto(tablet.table_url)
    page.wait_for_function("() => window.SkatEngine && SkatEngine.status === 'ready'",
                           timeout=ENGINE)
    page.wait_for_function("() => window.SkatOffline && SkatOffline.loaded &&"
                           " SkatOffline.ops().length === 0", timeout=30_000)
    assert table.deals.count() == 1
    expect(page.locator(".session-ended")).to_have_count(0)
    page.wait_for_load_state()
