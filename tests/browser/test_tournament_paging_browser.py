"""The desk's and the ranking's search and pager in a browser (issue 24, item 2) at 1024×768
and on a phone (390×844): no sideways scroll, the search field and its button on one line
with the label above, the pager's links at least 44 px high; "my place" scrolls to the
member's own row. Screenshots: tournament-paging-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.web.factories import browser_login, make_club, make_user
from tests.web.test_tournament_scale import big_tournament
from tests.web.tournaments import fill_series

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SIZES = {"desktop": (1024, 768), "phone": (390, 844)}


def test_search_and_pages_fit_the_desk_and_the_phone(
        new_context: Any, live_server: Any, screenshot_dir: Path) -> None:
    club = make_club()
    admin = make_user(club, "admin")
    t = big_tournament(club, 130)
    fill_series(t, 1)
    entrant = t.entrants.get(number=120)
    entrant.player.user = admin
    entrant.player.save(update_fields=["user"])
    context = new_context()
    browser_login(context, live_server, admin)
    page = context.new_page()
    desk = live_server.url + reverse("scoring:tournament", args=[t.pk])
    results = live_server.url + reverse("scoring:tournament-results", args=[t.pk])
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        for kind, url in (("desk", desk), ("results", results)):
            page.goto(url + "?page=2#" + ("entrants-heading" if kind == "desk"
                                          else "ranking-heading"))
            search = page.locator("form.entrant-search")
            field = search.locator("input[type=search]")
            button = search.get_by_role("button")
            expect(field).to_be_visible()
            box, button_box = field.bounding_box(), button.bounding_box()
            assert box is not None and button_box is not None
            assert abs(box["y"] - button_box["y"]) < 8, (name, kind)  # one line
            assert box["height"] >= 40
            for link in page.locator("nav.pager a").all():
                link_box = link.bounding_box()
                assert link_box is not None and link_box["height"] >= 44, (name, kind)
            assert page.evaluate(
                "document.documentElement.scrollWidth <= window.innerWidth"), (name, kind)
            search.screenshot(path=str(screenshot_dir / f"tournament-paging-{kind}-{name}"
                                                          "-search.png"))
            page.locator("nav.pager").screenshot(
                path=str(screenshot_dir / f"tournament-paging-{kind}-{name}-pager.png"))
        page.screenshot(path=str(screenshot_dir / f"tournament-paging-results-{name}.png"))
    page.goto(results)
    page.get_by_role("link", name="Mein Platz").click()
    mine = page.locator(f"#place-{entrant.number}")
    expect(mine).to_have_class("me")
    expect(mine).to_be_in_viewport()
    page.screenshot(path=str(screenshot_dir / "tournament-paging-my-place.png"))
