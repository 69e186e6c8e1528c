"""Issue 26, item 6: the polled pages' ETags must not let a viewer find a table's access code
offline. Before, the sheet fragment's ETag was an unkeyed blake2b over fields a viewer can
read plus the code: try each of the 31^8 codes until the digest matches. Now every digest of
reads/live.py is keyed with SECRET_KEY and holds only a keyed mark of the code."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from scoring.models import Seat, Table
from scoring.reads import live
from scoring.views import signing as signing_views

from .factories import login, make_club, make_table, won
from .signing_fixtures import short_table
from .test_sheet_pages import EN, play

pytestmark = pytest.mark.django_db

VIEWS = Path(__file__).resolve().parents[2] / "scoring" / "views"


def clear() -> None:
    for alias in ("default", "results", "pdf"):
        caches[alias].clear()
    live.template_digest.cache_clear()


def unkeyed_sheet_etag(table: Table, lang: str = "en", layout: str = "standard") -> str:
    """What a viewer could compute before: the old formula (FORMAT 1, no key), with every
    field of the table as the site stores it, the right code among them."""
    def old(*parts: object) -> str:
        return hashlib.blake2b(repr((1, *parts)).encode(), digest_size=12).hexdigest()

    table = Table.objects.select_related("evening__club").get(pk=table.pk)
    evening = table.evening
    basis = old(tuple(getattr(evening, f.attname) for f in type(evening)._meta.concrete_fields),
                evening.club.name)
    fields = tuple(getattr(table, f.attname) for f in Table._meta.concrete_fields)
    seats = list(Seat.objects.filter(table=table).order_by("position").values_list(
        "player_id", "player__name"))
    from django.template.loader import get_template
    source = get_template("scoring/sheet/_sheet.html").template.source  # type: ignore[attr-defined]
    state = old(old(basis, fields, seats), lang, layout, old(source))
    return f'"sheet-{table.pk}-{state}"'


def test_the_old_unkeyed_formula_with_the_right_code_does_not_give_the_etag() -> None:
    """The old formula reproduces the old ETag (checked by computing it with the old code in
    place), and no longer the one the site sends."""
    club = make_club()
    table = make_table(club)
    play(table, [won(1)])
    client = Client()
    login(client, club, "viewer")
    etag = client.get(reverse("scoring:sheet-fragment", args=[table.pk]), headers=EN)["ETag"]
    assert etag.startswith(f'"sheet-{table.pk}-')
    assert etag != unkeyed_sheet_etag(table)


def _fetchers(table: Table, evening_pk: int, signing: Table) -> dict[str, Callable[[], str]]:
    viewer, admin, phone = Client(), Client(), Client()
    login(viewer, table.evening.club, "viewer")
    login(admin, table.evening.club, "admin")
    token = signing_views.sign_token(signing)

    def etag(client: Client, url: str, **headers: str) -> str:
        response = client.get(url, headers={**EN, **headers})
        assert response.status_code in (200, 304), (url, response.status_code)
        return str(response["ETag"])

    return {
        "sheet fragment": lambda: etag(viewer, reverse("scoring:sheet-fragment",
                                                       args=[table.pk])),
        "evening overview": lambda: etag(viewer, reverse("scoring:evening-live",
                                                         args=[evening_pk])),
        "signing panel": lambda: etag(admin, reverse("scoring:sign-panel", args=[signing.pk])),
        "phone page": lambda: etag(phone, reverse("scoring:sign-phone-live",
                                                  args=[signing.pk, token])),
        "sheet PDF": lambda: etag(viewer, reverse("scoring:sheet-pdf", args=[table.pk]),
                                  **{"if-none-match": "*"}),
    }


def test_every_polled_etag_is_keyed_with_the_secret_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same data under another key gives other ETags (each one goes through the keyed
    digest), and under the same key the same ones again (still a working ETag). The key is
    swapped in reads/live.py only: another SECRET_KEY would end the test's sessions too."""
    club = make_club()
    table = make_table(club)
    play(table, [won(1)])
    signing = short_table(club)
    fetch = _fetchers(table, table.evening_id, signing)
    clear()
    first = {name: f() for name, f in fetch.items()}
    clear()
    with monkeypatch.context() as patch:
        patch.setattr(live, "_key", lambda secret: hashlib.sha256(b"another").digest())
        other = {name: f() for name, f in fetch.items()}
    clear()
    again = {name: f() for name, f in fetch.items()}
    assert again == first
    for name in fetch:
        assert first[name] != other[name], name


def test_no_access_code_enters_a_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a polled page digests, the table's code is not among it (only its keyed
    mark), on every polled page."""
    club = make_club()
    table = make_table(club)
    play(table, [won(1)])
    signing = short_table(club)
    codes = [table.access_code, signing.access_code]
    seen: list[str] = []
    original = live.digest

    def recording(*parts: object) -> str:
        seen.append(repr(parts))
        return original(*parts)

    monkeypatch.setattr(live, "digest", recording)
    clear()
    for fetch in _fetchers(table, table.evening_id, signing).values():
        fetch()
    from scoring.models import Season
    season = Season.objects.filter(club=club).first()
    if season is not None:
        live.season_state(season)
    assert seen
    assert not [s for s in seen if any(code in s for code in codes)]


def test_a_changed_code_still_changes_the_signing_panel() -> None:
    """The panel shows the phone link, which depends on the code: its ETag follows the code
    (through the keyed mark)."""
    club = make_club()
    signing = short_table(club)
    admin = Client()
    login(admin, club, "admin")
    url = reverse("scoring:sign-panel", args=[signing.pk])
    before = admin.get(url, headers=EN)["ETag"]
    Table.objects.filter(pk=signing.pk).update(access_code="NEWCODE99")
    clear()
    assert admin.get(url, headers=EN)["ETag"] != before


def test_views_digest_nothing_themselves() -> None:
    """An architecture check: a view that sets an ETag takes its digest from reads/live.py
    (keyed) or names plain versions; none hashes anything of its own."""
    offenders = []
    for path in VIEWS.glob("*.py"):
        source = path.read_text()
        if '"ETag"' in source and re.search(r"hashlib|blake2|sha256|md5", source):
            offenders.append(path.name)
    assert offenders == []
