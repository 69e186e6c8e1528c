"""Bringing old lists in from the browser (issue 16): upload, preview, confirm; a file twice
adds nothing; every broken file refused with its line or deal named and nothing written; a
paper season's totals in the season table; deleting an evening; who may do any of it."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring.access import SESSION_KEY
from scoring.models import (
    AuditEntry,
    Club,
    ClubLogEntry,
    Deal,
    Evening,
    ImportedTotal,
    Membership,
    PendingImport,
    Player,
    Season,
    Table,
)
from scoring.reads.export import evening_export
from scoring.reads.standings import season_standings
from scoring.writes import uploads
from scoring.writes.services import Actor, evening_close

from .factories import make_club, make_user
from .interchange_data import DAY, build_club, evening_of
from .test_import_checks import DEEP_NOTE, with_deep_note
from .test_import_export import counts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client: Client) -> None:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def written() -> dict[str, int]:
    """Every table's rows but the held uploads (a preview holds the file, nothing else) and
    the limits' counts (every upload counts towards the hourly allowance, refused or not)."""
    out = counts()
    out.pop("PendingImport")
    out.pop("FailureCount", None)
    return out


def admin_of(club: Club, client: Client) -> Client:
    client.force_login(make_user(club, "admin", username=f"admin-{club.slug}"))
    return client


def upload(client: Client, club: Club, content: bytes, name: str = "abend.json",
           kind: str = "json", season: Season | None = None) -> Any:
    data: dict[str, Any] = {"kind": kind, "file": SimpleUploadedFile(name, content)}
    if season is not None:
        data["season"] = str(season.pk)
    return client.post(reverse("scoring:import", args=[club.slug]), data, follow=True)


def confirm(client: Client, club: Club) -> Any:
    pending = PendingImport.objects.get(club=club)
    return client.post(reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
                       {"digest": pending.digest}, follow=True)


def evening_file(club: Club, name: str = "Clubabend") -> bytes:
    return json.dumps(evening_export(evening_of(club, name))).encode()


# ---------------------------------------------------------------- JSON files

def test_an_export_uploaded_twice_adds_nothing_the_second_time(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    doc = json.loads(evening_file(club))
    doc["name"] = "Herbstabend"  # the same evening, under another name: new to the club
    content = json.dumps(doc).encode()
    before = written()
    page = upload(client, club, content).content.decode()
    assert "1 evening will be added." in page and "Herbstabend" in page
    assert "will be added" in page and "Import now" in page
    assert written() == before  # the preview wrote nothing
    done = confirm(client, club).content.decode()
    assert "1 evening was added." in done
    added = Evening.objects.get(club=club, name="Herbstabend")
    assert Table.objects.filter(evening=added).count() == 2
    assert Deal.objects.filter(table__evening=added).count() == 13
    entry = AuditEntry.objects.get(evening=added, action=AuditEntry.Action.IMPORT)
    assert entry.actor == "admin-skatfreunde-altenburg" and "abend.json" in entry.reason
    assert not PendingImport.objects.exists()
    after_first = written()
    # the same file again: the preview says so, and confirming adds nothing
    page = upload(client, club, content).content.decode()
    assert "Nothing new" in page and "there already: skipped" in page
    assert "Import now" not in page
    assert written() == after_first
    pending = PendingImport.objects.get(club=club)
    done = client.post(reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
                       {"digest": pending.digest}, follow=True).content.decode()
    assert "Nothing was added" in done
    after_second = written()
    assert after_second.pop("AuditEntry") == after_first.pop("AuditEntry") + 1  # said so
    assert after_second == after_first


def test_a_club_file_previews_each_evening_and_imports_them(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    from scoring.reads.export import club_export
    doc = club_export(club)
    doc["evenings"][0]["name"] = "Neu"
    page = upload(client, club, json.dumps(doc).encode(), "club.json").content.decode()
    assert "1 evening will be added." in page and "2 are there already" in page
    confirm(client, club)
    assert Evening.objects.filter(club=club, name="Neu").exists()
    assert Evening.objects.filter(club=club).count() == 4


def _broken(club: Club) -> dict[str, tuple[bytes, str]]:
    doc = json.loads(evening_file(club))
    doc["name"] = "Kaputt"

    def changed(change: Any) -> bytes:
        copy = json.loads(json.dumps(doc))
        change(copy)
        text = json.dumps(copy)
        return (with_deep_note(text) if json.dumps(DEEP_NOTE) in text else text).encode()

    return {
        "bad JSON": (b'{"club": "skatfreunde-altenburg",\n "date": }', "line 2"),
        "wrong club": (changed(lambda d: d.update(club="other-club")),
                       "belongs to club 'other-club'"),
        "impossible deal": (changed(lambda d: d["tables"][1]["deals"][1].update(bid=19)),
                            "Table 2, deal 2"),
        "invalid deleted deal": (changed(lambda d: d["tables"][0]["deleted_deals"][0].update(
            record={"kind": "ramsch", "ramsch": "zzz"})), "Table 1, deleted deal 1"),
        "invalid note": (changed(lambda d: d["tables"][0]["deals"][3].update(note={"x": 1})),
                         "Table 1, deal 4: note must be"),
        "note nested too deep": (changed(lambda d: d["tables"][0]["deals"][2].update(
            note=DEEP_NOTE)), "Table 1, deal 3"),
        "too large": (b" " * (uploads.UPLOAD_MAX_BYTES + 1), "too large"),
    }


@pytest.mark.parametrize("case", ["bad JSON", "wrong club", "impossible deal",
                                  "invalid deleted deal", "invalid note",
                                  "note nested too deep", "too large"])
def test_a_broken_file_is_refused_naming_where_and_nothing_is_written(
        client: Client, case: str) -> None:
    club = build_club()
    admin_of(club, client)
    content, where = _broken(club)[case]
    before = written()
    page = upload(client, club, content).content.decode()
    assert where in page.replace("&#x27;", "'"), page[-3000:]
    assert "Import now" not in page
    assert written() == before
    pending = PendingImport.objects.filter(club=club).first()
    if pending is not None:  # confirming it all the same changes nothing either
        client.post(reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
                    {"digest": pending.digest})
    assert written() == before
    assert not Evening.objects.filter(name="Kaputt").exists()


def test_a_held_file_that_changed_since_its_preview_is_not_imported(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    doc = json.loads(evening_file(club))
    doc["name"] = "Geändert"
    upload(client, club, json.dumps(doc).encode())
    pending = PendingImport.objects.get(club=club)
    digest = pending.digest
    doc["tables"][0]["deals"].pop()
    pending.content = json.dumps(doc).encode()
    pending.save()
    before = written()
    page = client.post(reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
                       {"digest": digest}, follow=True).content.decode()
    assert "changed since its preview" in page
    assert written() == before
    # a made-up digest neither
    page = client.post(reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
                       {"digest": "0" * 64}, follow=True).content.decode()
    assert "changed since its preview" in page and written() == before


def test_an_expired_upload_is_not_imported(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    doc = json.loads(evening_file(club))
    doc["name"] = "Spät"
    upload(client, club, json.dumps(doc).encode())
    pending = PendingImport.objects.get(club=club)
    PendingImport.objects.filter(pk=pending.pk).update(
        created=pending.created - uploads.PENDING_FOR - datetime.timedelta(minutes=1))
    page = confirm(client, club).content.decode()
    assert "expired" in page and not Evening.objects.filter(name="Spät").exists()


# ---------------------------------------------------------------- a season on paper

def paper_club() -> tuple[Club, Season]:
    club = build_club()
    season = Season.objects.create(club=club, name="2025/26", start=datetime.date(2025, 9, 1),
                                   end=datetime.date(2026, 8, 31), evaluation="classic")
    return club, season


GERMAN = ("Spieler;Datum;Abend;Punkte;gewonnen;verloren;Geld\r\n"
          "Anna;05.09.2025;Clubabend;412;7;1;2,50\r\n"
          "Bernd;05.09.2025;Clubabend;\u221296;2;3;\u22121,25\r\n"
          "Neu Nadine;05.09.2025;Clubabend;1.020;9;0;\r\n"
          "Anna;12.09.2025;;-30;1;2;\r\n")
ENGLISH = ("player,date,points,won,lost\n"
           "Anna,2025-09-19,100,3,1\n"
           "Clara,2025-09-19,250,4,0\n")


def test_paper_totals_show_in_the_season_table_marked_and_twice_adds_nothing(
        client: Client) -> None:
    club, season = paper_club()
    admin_of(club, client)
    before = written()
    page = upload(client, club, GERMAN.encode(), "saison.csv", "totals", season)
    text = page.content.decode()
    assert "2 evenings will be added." in text and "New players for the club: Neu Nadine" in text
    assert written() == before
    assert "2 evenings were added." in confirm(client, club).content.decode()
    evenings = list(Evening.objects.filter(season=season).order_by("date"))
    assert [(e.date.day, e.name, e.closed, e.tables.count()) for e in evenings] == [
        (5, "Clubabend", True, 0), (12, "Clubabend", True, 0)]
    anna = Player.objects.get(club=club, name="Anna")
    assert ImportedTotal.objects.get(evening=evenings[0], player=anna).money == Decimal("2.50")
    assert AuditEntry.objects.filter(evening__in=evenings,
                                     action=AuditEntry.Action.IMPORT).count() == 2
    # the English file with , adds a third evening
    upload(client, club, ENGLISH.encode(), "more.csv", "totals", season)
    confirm(client, club)
    standings = season_standings(season)
    rows = {row.player.name: row for row in standings.rows}
    assert (rows["Anna"].score, rows["Anna"].won, rows["Anna"].lost,
            rows["Anna"].evenings) == (482, 11, 4, 3)
    assert rows["Neu Nadine"].score == 1020 and rows["Neu Nadine"].rank == 1
    assert rows["Bernd"].score == -96 and rows["Bernd"].money == {"EUR": Decimal("-1.25")}
    assert all(line.paper for row in standings.rows for line in row.lines)
    # shown, and marked as from paper, on the season table, the player's page, the evening
    season_page = client.get(reverse("scoring:season", args=[season.pk])).content.decode()
    assert "Neu Nadine" in season_page and ("1,020" in season_page or "1020" in season_page)
    assert "from paper" in season_page and "3*" in season_page
    player_page = client.get(reverse("scoring:season-player",
                                     args=[season.pk, anna.pk])).content.decode()
    assert "from paper" in player_page and "482" in player_page
    from .pdfs import text as pdf_text
    pdf = client.get(reverse("scoring:season-pdf", args=[season.pk]))
    assert "imported from a list" in " ".join(pdf_text(b"".join(pdf)).split())
    evening_page = client.get(reverse("scoring:evening", args=[evenings[0].pk])).content.decode()
    assert "Totals from paper" in evening_page and "Neu Nadine" in evening_page
    ranking = client.get(reverse("scoring:evening-ranking",
                                 args=[evenings[0].pk])).content.decode()
    assert "From paper" in ranking and "Anna" in ranking
    # twice: nothing added, and the page says so
    after = written()
    page = upload(client, club, GERMAN.encode(), "saison.csv", "totals", season)
    assert "Nothing new" in page.content.decode()
    done = confirm(client, club).content.decode()
    assert "Nothing was added" in done
    again = written()
    assert again.pop("AuditEntry") == after.pop("AuditEntry") + 2
    assert again == after


def test_every_page_of_a_paper_evening_answers(client: Client) -> None:
    club, season = paper_club()
    admin_of(club, client)
    upload(client, club, GERMAN.encode(), "saison.csv", "totals", season)
    confirm(client, club)
    evening = Evening.objects.filter(season=season).first()
    assert evening is not None
    for name in ("evening", "evening-audit", "evening-ranking", "settlement", "summary-pdf",
                 "evening-delete", "held"):
        response = client.get(reverse(f"scoring:{name}", args=[evening.pk]))
        assert response.status_code == 200, name
    anna = Player.objects.get(club=club, name="Anna")
    page = client.get(reverse("scoring:season-player", args=[season.pk, anna.pk]),
                      {"evening": evening.pk})
    assert page.status_code == 200 and "from paper" in page.content.decode()
    audit = client.get(reverse("scoring:evening-audit", args=[evening.pk])).content.decode()
    assert "saison.csv" in audit


def test_paper_totals_join_the_evenings_played_here() -> None:
    club, season = paper_club()
    from scoring.writes.paper import import_totals
    from scoring.writes.services import evening_create, table_create

    from .factories import won
    from .interchange_data import play, profile
    evening = evening_create(club=club, date=datetime.date(2025, 10, 3),
                             profile=profile(club, "club_evening"), season=season)
    people = [Player.objects.get(club=club, name=n) for n in ("Anna", "Bernd", "Clara")]
    table = table_create(evening=evening, players=people)
    play(table, won(0, 70))  # Anna wins Clubs with 1, game 2: +24
    import_totals(GERMAN.encode(), season, actor=Actor(None, "t"), source="s.csv")
    rows = {row.player.name: row for row in season_standings(season).rows}
    assert rows["Anna"].score == 412 - 30 + 24 and rows["Anna"].evenings == 3
    assert rows["Anna"].paper == 2


@pytest.mark.parametrize(("text", "expected"), [
    ("Spieler;Datum;Punkte;gewonnen\nAnna;05.09.2025;1;2\n", "the column lost is missing"),
    ("Spieler;Datum;Punkte;gewonnen;verloren;Lieblingsfarbe\n", "unknown column"),
    ("Spieler;Datum;Punkte;gewonnen;verloren\nAnna;31.02.2025;1;1;1\n", "Line 2:"),
    ("Spieler;Datum;Punkte;gewonnen;verloren\nAnna;05.09.2025;1;1;1\n"
     "Bernd;05.09.2025;12,5;1;1\n", "Line 3: points must be a whole number"),
    ("Spieler;Datum;Punkte;gewonnen;verloren\nAnna;05.09.2024;1;1;1\n",
     "is not within the season 2025/26"),
    ("Spieler;Datum;Punkte;gewonnen;verloren\nAnna;05.09.2025;1;1;1\nAnna;05.09.2025;2;1;1\n",
     "is given twice (also in line 2)"),
    ("Spieler;Datum;Punkte;gewonnen;verloren\n;05.09.2025;1;1;-1\n", "Line 2: the player"),
    ("Spieler;Datum;Punkte;gewonnen;verloren;Geld\nAnna;05.09.2025;1;1;1;viel\n",
     "Line 2: 'viel' is not an amount"),
    ("Spieler;Datum;Punkte;gewonnen;verloren\n", "no lines of totals"),
    ("Spieler;Datum;Punkte;gewonnen;verloren\nAnna;05.09.2025;1;1;1;7\n",
     "more cells than columns"),
])
def test_a_broken_csv_is_refused_line_by_line(client: Client, text: str, expected: str) -> None:
    club, season = paper_club()
    admin_of(club, client)
    before = written()
    page = upload(client, club, text.encode(), "s.csv", "totals", season).content.decode()
    assert expected in page.replace("&#x27;", "'"), page[-2500:]
    assert "Import now" not in page
    confirm(client, club)
    assert written() == before


def test_a_seeger_fabian_season_needs_its_points_and_counts_them(client: Client) -> None:
    club, season = paper_club()
    season.evaluation = "seeger_fabian"
    season.save()
    admin_of(club, client)
    page = upload(client, club, ENGLISH.encode(), "s.csv", "totals", season).content.decode()
    assert "Line 2: the season is evaluated by Seeger-Fabian" in page
    text = "Spieler;Datum;Punkte;gewonnen;verloren;Seeger-Fabian\nAnna;19.09.2025;100;3;1;250\n"
    upload(client, club, text.encode(), "s.csv", "totals", season)
    confirm(client, club)
    row = season_standings(season).rows[0]
    assert (row.player.name, row.score, row.points) == ("Anna", 250, 100)


def test_an_evening_of_that_name_with_other_results_is_refused(client: Client) -> None:
    club, season = paper_club()
    admin_of(club, client)
    upload(client, club, ENGLISH.encode(), "s.csv", "totals", season)
    confirm(client, club)
    before = written()
    other = ENGLISH.replace("250", "260")
    page = upload(client, club, other.encode(), "s.csv", "totals", season).content.decode()
    assert "Lines 2, 3: the club has an evening Clubabend" in page
    confirm(client, club)
    assert written() == before


# ---------------------------------------------------------------- a score sheet as CSV

def test_a_score_sheet_csv_is_added_to_an_evening_once(client: Client) -> None:
    from django.utils import translation

    from scoring.reads.export import sheet_csv
    from scoring.reads.sheet import table_sheet, tables_with_everything
    from scoring.writes.services import evening_create

    from .interchange_data import profile
    club = build_club()
    admin_of(club, client)
    table = tables_with_everything(Table.objects.filter(evening__name="Clubabend",
                                                        series=1)).get()
    with translation.override("en"):
        content = sheet_csv(table_sheet(table, "en", explain=False)).encode()
    target = evening_create(club=club, date=DAY, profile=profile(club, "club_evening"),
                            name="Nachgetragen")
    data = {"kind": "sheet", "evening": str(target.pk),
            "file": SimpleUploadedFile("sheet.csv", content)}
    page = client.post(reverse("scoring:import", args=[club.slug]), data,
                       follow=True).content.decode()
    assert "added to this evening as a table" in page and "will be added" in page
    confirm(client, club)
    made = Table.objects.get(evening=target)
    assert made.deals.count() == 9
    assert AuditEntry.objects.filter(evening=target, action=AuditEntry.Action.IMPORT).exists()
    data["file"] = SimpleUploadedFile("sheet.csv", content)
    page = client.post(reverse("scoring:import", args=[club.slug]), data,
                       follow=True).content.decode()
    assert "Nothing new" in page
    confirm(client, club)
    assert Table.objects.filter(evening=target).count() == 1
    # a broken line: refused by its number, nothing written
    broken = content.decode().replace('"Clubs"', '"Skat"', 1).encode()
    data["file"] = SimpleUploadedFile("sheet.csv", broken)
    before = written()
    page = client.post(reverse("scoring:import", args=[club.slug]), data,
                       follow=True).content.decode()
    assert "Line 2: &#x27;Skat&#x27; is no game of these rules." in page
    confirm(client, club)
    assert written() == before


# ---------------------------------------------------------------- deleting an evening

def test_an_admin_deletes_an_evening_after_a_confirmation_page(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    evening = evening_of(club)
    url = reverse("scoring:evening-delete", args=[evening.pk])
    page = client.get(url).content.decode()
    assert "2 tables" in page and "12 deals and 1 deleted deal" in page
    assert "Anna" in page and "its results in the season table 2026/27" in page
    assert client.post(url, {"reason": "doppelt"}).status_code == 200  # not ticked: kept
    assert Evening.objects.filter(pk=evening.pk).exists()
    response = client.post(url, {"reason": "doppelt angelegt", "sure": "on"})
    assert response.status_code == 302
    assert not Evening.objects.filter(pk=evening.pk).exists()
    assert not Table.objects.filter(evening_id=evening.pk).exists()
    entry = ClubLogEntry.objects.get(club=club)
    assert entry.reason == "doppelt angelegt" and entry.actor == "admin-skatfreunde-altenburg"
    assert "2 tables and 12 deals" in entry.summary
    assert entry.before is not None and len(entry.before["tables"]) == 2
    log = client.get(reverse("scoring:club-log", args=[club.slug])).content.decode()
    assert "doppelt angelegt" in log and "2 tables and 12 deals" in log


def test_a_closed_evening_is_reopened_before_it_is_deleted(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    evening = evening_close(evening=evening_of(club), actor=Actor(None, "t"))
    url = reverse("scoring:evening-delete", args=[evening.pk])
    assert "reopen it first" in client.get(url).content.decode()
    page = client.post(url, {"sure": "on"}).content.decode()
    assert "reopen it first" in page and Evening.objects.filter(pk=evening.pk).exists()
    assert not ClubLogEntry.objects.exists()


def test_the_import_pages_speak_german(client: Client) -> None:
    club, season = paper_club()
    admin_of(club, client)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    page = client.get(reverse("scoring:import", args=[club.slug])).content.decode()
    assert "Alte Listen übernehmen" in page and "Datei prüfen" in page
    preview = upload(client, club, GERMAN.encode(), "s.csv", "totals", season).content.decode()
    assert "Vorschau der Übernahme" in preview and "wird hinzugefügt" in preview
    broken = upload(client, club, b"Spieler;Datum\n", "s.csv", "totals", season)
    assert "Zeile 1: die Spalte Punkte fehlt." in broken.content.decode()
    for english in ("Bring old lists in", "Check the file", "Preview of the import",
                    "will be added", "Import now", "Line 1"):
        assert english not in page + preview + broken.content.decode()
    evening = evening_of(club)
    delete = client.get(reverse("scoring:evening-delete", args=[evening.pk])).content.decode()
    assert "Abend löschen" in delete and "2 Tische" in delete


# ---------------------------------------------------------------- who may

def _urls(club: Club, evening: Evening, pending: PendingImport) -> list[tuple[str, str]]:
    return [
        ("get", reverse("scoring:import", args=[club.slug])),
        ("post", reverse("scoring:import", args=[club.slug])),
        ("get", reverse("scoring:import-preview", args=[club.slug, pending.pk])),
        ("post", reverse("scoring:import-confirm", args=[club.slug, pending.pk])),
        ("get", reverse("scoring:club-log", args=[club.slug])),
        ("get", reverse("scoring:evening-delete", args=[evening.pk])),
        ("post", reverse("scoring:evening-delete", args=[evening.pk])),
    ]


@pytest.mark.parametrize("who", ["other-admin", "scorer", "viewer", "anonymous", "table-code"])
def test_only_the_clubs_admins_may_import_or_delete(client: Client, who: str) -> None:
    club = build_club()
    evening = evening_of(club)
    owner = make_user(club, "admin", username="owner")
    doc = json.loads(evening_file(club))
    doc["name"] = "Fremd"
    pending = uploads.hold(club=club, user=owner, kind="evening", name="x.json",
                           content=json.dumps(doc).encode())
    expected = {"other-admin": 404, "scorer": 403, "viewer": 403, "anonymous": 302,
                "table-code": 302}[who]
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
    before = counts()
    for method, url in _urls(club, evening, pending):
        data = {"digest": pending.digest, "sure": "on", "kind": "json"}
        response = client.post(url, data) if method == "post" else client.get(url)
        assert response.status_code == expected, (method, url, response.status_code)
        if expected == 302:
            assert response["Location"].startswith(reverse("login"))
    assert counts() == before


def test_an_admin_cannot_confirm_another_admins_upload(client: Client) -> None:
    club = build_club()
    owner = make_user(club, "admin", username="owner")
    doc = json.loads(evening_file(club))
    doc["name"] = "Fremd"
    pending = uploads.hold(club=club, user=owner, kind="evening", name="x.json",
                           content=json.dumps(doc).encode())
    admin_of(club, client)
    before = written()
    page = client.post(reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
                       {"digest": pending.digest}, follow=True).content.decode()
    assert "upload the file again" in page and written() == before
    assert client.get(reverse("scoring:import-preview",
                              args=[club.slug, pending.pk])).status_code == 302
    assert Membership.objects.filter(club=club).count() == 2
    assert DAY.year == 2026
