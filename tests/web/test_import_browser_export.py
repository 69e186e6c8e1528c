"""Issue 26: a club and an evening exported in the browser (the club's admins only), the same
file the shell's export writes; a round trip through the browser alone; and a rule profile of
the file that the club has under its name with other rules: each setting that differs named,
the file's taken under another name or the club's kept."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scoring.models import Club, Evening, Membership, PendingImport, RuleProfile, Table
from scoring.reads import export
from scoring.reads.standings import season_standings

from .factories import make_club, make_user
from .interchange_data import build_club, evening_of
from .test_import_words import refusal
from .test_imports_web import admin_of, upload, written

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client: Client) -> None:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def shell(*args: str) -> str:
    from io import StringIO
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_the_browser_exports_what_the_shell_exports(client: Client) -> None:
    club = build_club()
    evening = evening_of(club)
    admin_of(club, client)
    got = client.get(reverse("scoring:club-export", args=[club.slug]))
    assert got.status_code == 200 and got["Content-Type"].startswith("application/json")
    assert got["Content-Disposition"] == f'attachment; filename="{club.slug}.json"'
    assert got.content.decode() == shell("export_club", club.slug)
    got = client.get(reverse("scoring:evening-export", args=[evening.pk]))
    assert got.status_code == 200 and "attachment" in got["Content-Disposition"]
    assert got.content.decode() == shell("export_evening", str(evening.pk))
    # linked from the club page, the club log and the evening page
    for page in (reverse("scoring:club", args=[club.slug]),
                 reverse("scoring:club-log", args=[club.slug])):
        assert reverse("scoring:club-export", args=[club.slug]) in client.get(
            page).content.decode()
    assert reverse("scoring:evening-export", args=[evening.pk]) in client.get(
        reverse("scoring:evening", args=[evening.pk])).content.decode()


@pytest.mark.parametrize("who", ["scorer", "viewer", "other-admin", "anonymous",
                                 "table-code"])
def test_only_the_clubs_admins_may_export(client: Client, who: str) -> None:
    from scoring.access import SESSION_KEY
    club = build_club()
    evening = evening_of(club)
    if who == "other-admin":
        client.force_login(make_user(make_club("andere"), "admin"))
    elif who in ("scorer", "viewer"):
        client.force_login(make_user(club, who))
    elif who == "table-code":
        table = Table.objects.filter(evening=evening).first()
        assert table is not None
        session = client.session
        session[SESSION_KEY] = {str(table.pk): table.access_code}
        session.save()
    expected = {"scorer": 403, "viewer": 403, "other-admin": 404, "anonymous": 302,
                "table-code": 302}[who]
    for url in (reverse("scoring:club-export", args=[club.slug]),
                reverse("scoring:evening-export", args=[evening.pk])):
        response = client.get(url)
        assert response.status_code == expected, (url, response.status_code)
        assert b"Anna" not in response.content
        if who in ("scorer", "viewer", "other-admin"):
            link = reverse("scoring:club-export", args=[club.slug])
            assert link not in client.get(reverse("scoring:evening", args=[evening.pk])
                                          ).content.decode()


def _through_the_browser(client: Client, club: Club, content: bytes,
                         choices: dict[str, str] | None = None) -> str:
    page = upload(client, club, content, name="club.json").content.decode()
    assert "Import now" in page, refusal(page)[-1500:]
    pending = PendingImport.objects.get(club=club)
    return client.post(reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
                       {"digest": pending.digest, **(choices or {})},
                       follow=True).content.decode()


def _scores(season: Any) -> list[tuple[str, int, int, int, int, int]]:
    rows = season_standings(season).rows
    assert rows
    return [(r.player.name, r.score, r.total, r.points, r.won, r.lost) for r in rows]


def test_a_club_exported_in_the_browser_comes_back_through_the_browser(client: Client,
                                                                       ) -> None:
    club = build_club()
    admin_of(club, client)
    exported = client.get(reverse("scoring:club-export", args=[club.slug])).content
    season = club.seasons.get()
    before = _scores(season)
    slug, evenings = club.slug, Evening.objects.filter(club=club).count()
    club.delete()
    fresh = Club.objects.create(slug=slug, name="Neu gegründet")
    client.force_login(make_user(fresh, "admin", username="neue-admin"))
    page = _through_the_browser(client, fresh, exported)
    assert f"{evenings} evenings were added." in page
    # the same scores: the same file comes out again, the season's table is the same
    again = client.get(reverse("scoring:club-export", args=[slug])).content
    theirs, ours = json.loads(exported), json.loads(again)
    assert theirs["name"] != ours["name"]  # the fresh club keeps its own name
    theirs.pop("name"), ours.pop("name")
    assert ours == theirs
    assert _scores(fresh.seasons.get()) == before
    assert Membership.objects.filter(club=fresh).count() == 1


def _clashing(club: Club) -> tuple[bytes, RuleProfile]:
    """The club's export with its first profile's stake changed: a file from another site
    whose profile of the same name differs."""
    doc = export.club_export(club)
    ours = RuleProfile.objects.get(club=club, name=doc["rule_profiles"][0]["name"])
    RuleProfile.objects.filter(pk=ours.pk).update(stake=Decimal("0"))
    doc["rule_profiles"][0]["stake"] = "0.01"
    doc["rule_profiles"][0]["currency"] = "CHF"
    for evening in doc["evenings"]:
        evening["name"] += " (neu)"
    return json.dumps(doc).encode(), ours


def test_a_profile_that_differs_is_named_setting_by_setting_in_german(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    content, ours = _clashing(club)
    page = upload(client, club, content, name="club.json").content.decode()
    text = refusal(page)
    assert f"Der Club hat ein Regelprofil „{ours.name}“ mit anderen Regeln" in text
    assert "Einsatz je Punkt 0,00 ≠ 0,01" in text
    assert "Währung EUR ≠ CHF" in text
    assert f'value="{ours.name} (Import)"' in page
    assert "Jetzt übernehmen" in text and "Abend" in text


@pytest.mark.parametrize("choice", ["take", "keep"])
def test_a_clashing_profile_is_taken_under_another_name_or_the_clubs_is_kept(
        client: Client, choice: str) -> None:
    club = build_club()
    admin_of(club, client)
    content, ours = _clashing(club)
    evenings = Evening.objects.filter(club=club).count()
    page = _through_the_browser(client, club, content, {
        "profile_0": choice, "name_0": "Vom Nachbarclub"})
    assert "evenings were added" in page, refusal(page)[-1500:]
    assert Evening.objects.filter(club=club).count() == evenings * 2
    ours.refresh_from_db()
    assert ours.stake == Decimal("0") and ours.currency == "EUR"  # never overwritten
    taken = RuleProfile.objects.filter(club=club, name="Vom Nachbarclub").first()
    if choice == "take":
        assert taken is not None and taken.stake == Decimal("0.01") and taken.currency == "CHF"
        assert taken.options == ours.options
    else:
        assert taken is None


@pytest.mark.parametrize("name", ["", "same", "other"])
def test_a_new_name_that_is_empty_or_taken_is_refused_and_nothing_is_written(
        client: Client, name: str) -> None:
    club = build_club()
    admin_of(club, client)
    content, ours = _clashing(club)
    other = RuleProfile.objects.filter(club=club).exclude(pk=ours.pk).first()
    assert other is not None
    new_name = {"": "", "same": ours.name, "other": other.name}[name]
    upload(client, club, content, name="club.json")
    pending = PendingImport.objects.get(club=club)
    before = written()
    response: Any = client.post(
        reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
        {"digest": pending.digest, "profile_0": "take", "name_0": new_name}, follow=True)
    assert response.status_code == 200
    text = refusal(response.content.decode())
    expected = {"": "Give the file's profile a name.",
                "same": "The club has a profile of this name already; choose another.",
                "other": f"Rule profile '{other.name}' exists in the club with other rules "
                         "too; choose another name."}[name]
    assert expected in text, text[-1500:]
    assert written() == before
