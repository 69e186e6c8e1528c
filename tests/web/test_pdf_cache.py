"""A PDF is rendered once per version of what it prints and then served from the cache: a
second request does not render again, a changed deal, setting or name does; a browser that
has the current version gets 304 Not Modified."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal, Evening, Player
from scoring.pdf import weasy
from scoring.writes.services import deal_delete, evening_settlement

from .factories import login, make_club, won
from .money_fixtures import money_evening
from .test_sheet_pages import ME, play

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Counts WeasyPrint renders (each one's document title)."""
    seen: list[str] = []
    real = weasy.render

    def counting(html: str, **options: Any) -> weasy.Rendered:
        seen.append(html.split("<title>", 1)[1].split("·", 1)[0].strip())
        return real(html, **options)

    monkeypatch.setattr(weasy, "render", counting)
    yield seen


def urls(evening: Evening) -> list[str]:
    table = evening.tables.order_by("number").first()
    assert table is not None
    return [reverse("scoring:sheet-pdf", args=[table.pk]),
            reverse("scoring:settlement-pdf", args=[evening.pk]),
            reverse("scoring:summary-pdf", args=[evening.pk])]


def fetch(client: Client, url: str, **headers: str) -> TestResponse:
    response = client.get(url, headers={"accept-language": "en", **headers})
    assert response.status_code in (200, 304)
    return response


def test_a_second_request_is_served_from_the_cache(client: Client, renders: list[str]) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club)
    for url in urls(evening):
        first = fetch(client, url)
        second = fetch(client, url)
        assert (first["X-PDF-Cache"], second["X-PDF-Cache"]) == ("miss", "hit")
        assert first.content == second.content
    assert len(renders) == 3


def test_a_deal_change_renders_again(client: Client, renders: list[str]) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club)
    table = evening.tables.order_by("number").first()
    assert table is not None
    before = [fetch(client, url).content for url in urls(evening)]
    (deal,) = play(table, [won(2)])
    after = [fetch(client, url) for url in urls(evening)]
    assert [r["X-PDF-Cache"] for r in after] == ["miss", "miss", "miss"]
    assert all(a.content != b for a, b in zip(after, before, strict=True))
    deal_delete(deal=deal, reason="typo", expected_version=table.version, actor=ME)
    assert [fetch(client, url)["X-PDF-Cache"] for url in urls(evening)] == ["miss"] * 3
    assert len(renders) == 9


def test_a_change_at_another_table_leaves_this_sheet_cached(
        client: Client, renders: list[str]) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club)
    first, second = evening.tables.order_by("number")
    sheet = reverse("scoring:sheet-pdf", args=[first.pk])
    fetch(client, sheet)
    play(second, [won(0)])
    assert fetch(client, sheet)["X-PDF-Cache"] == "hit"
    assert fetch(client, urls(evening)[2])["X-PDF-Cache"] == "miss"  # the summary has both


def test_new_settlement_settings_render_again(client: Client, renders: list[str]) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club)
    for url in urls(evening):
        fetch(client, url)
    evening_settlement(evening=evening, stake=Decimal("0.10"), currency="EUR",
                       settlement={"entry_fee": "1.00"}, expected_version=evening.version)
    assert [fetch(client, url)["X-PDF-Cache"] for url in urls(evening)] == ["miss"] * 3


def test_a_renamed_player_or_a_deal_saved_past_the_services_renders_again(
        client: Client, renders: list[str]) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club)
    sheet = urls(evening)[0]
    fetch(client, sheet)
    Player.objects.filter(name="Jürgen Weiß").update(name="Jürgen Weiss")
    assert fetch(client, sheet)["X-PDF-Cache"] == "miss"
    table = evening.tables.order_by("number").first()
    assert table is not None
    last = table.deals.order_by("position").last()
    assert last is not None
    Deal.objects.create(table=table, position=last.position + 1, record=won(2))
    assert fetch(client, sheet)["X-PDF-Cache"] == "miss"


def test_layout_and_language_are_separate_pdfs(client: Client, renders: list[str]) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club)
    sheet = urls(evening)[0]
    fetch(client, sheet)
    assert fetch(client, sheet + "?layout=historical")["X-PDF-Cache"] == "miss"
    assert fetch(client, sheet + "?layout=nonsense")["X-PDF-Cache"] == "hit"  # = standard
    response = client.get(sheet, headers={"accept-language": "de"})
    assert response["X-PDF-Cache"] == "miss"
    assert len(renders) == 3


def test_the_browser_revalidates_with_the_etag(client: Client, renders: list[str]) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club)
    sheet = urls(evening)[0]
    first = fetch(client, sheet)
    assert first["Cache-Control"] == "private, no-cache"
    again = fetch(client, sheet, if_none_match=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    table = evening.tables.order_by("number").first()
    assert table is not None
    play(table, [won(2)])
    changed = fetch(client, sheet, if_none_match=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert len(renders) == 2


def test_the_cache_never_crosses_clubs(client: Client, renders: list[str]) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club)
    sheet = urls(evening)[0]
    fetch(client, sheet)
    other = Client()
    login(other, make_club("zwickau", "Skatclub Zwickau"), "admin")
    assert other.get(sheet).status_code == 404
