"""Issue 26, item 1: an upload is read and checked once, at its upload; its preview shows what
that check found and reads the file no more; what one upload may make the site do is bounded
(size, objects and lists, evenings, tables, deals, players, CSV lines, seconds), each bound
refused with a message that names it, nothing held or written, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from scoring import access
from scoring.models import Evening, PendingImport
from scoring.reads import export
from scoring.writes import import_checks, import_problems, imports, uploads

from .interchange_data import build_club, evening_of
from .test_import_words import refusal
from .test_imports_web import admin_of, confirm, evening_file, upload, written

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client: Client) -> None:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def _fresh(club: Any, name: str = "Neu") -> bytes:
    doc = json.loads(evening_file(club))
    doc["name"] = name
    return json.dumps(doc).encode()


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the preview read the file again")


def test_the_preview_page_does_not_read_the_file_again(client: Client,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       django_assert_max_num_queries: Any,
                                                       ) -> None:
    club = build_club()
    admin_of(club, client)
    page = upload(client, club, _fresh(club)).content.decode()
    assert "1 evening will be added." in page
    pending = PendingImport.objects.get(club=club)
    # from now on neither the JSON reader nor the checks nor the engine may run
    for name in ("loads", "import_document", "preview_document", "preview_json",
                 "preview_sheet", "preview_totals"):
        monkeypatch.setattr(uploads, name, _refuse, raising=False)
    for name in ("loads", "check_evening", "evaluate_table", "check_nesting"):
        for module in (import_checks, imports, export):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, _refuse)
    url = reverse("scoring:import-preview", args=[club.slug, pending.pk])
    with django_assert_max_num_queries(12):
        again = client.get(url)
    assert again.status_code == 200
    text = again.content.decode()
    assert "1 evening will be added." in text and "Neu" in text and "Import now" in text


def test_confirming_a_file_whose_check_found_problems_reads_nothing(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    club = build_club()
    admin_of(club, client)
    doc = json.loads(_fresh(club))
    doc["tables"][0]["deals"][0]["bid"] = 19
    upload(client, club, json.dumps(doc).encode())
    before = written()
    monkeypatch.setattr(uploads, "import_json", _refuse)
    page = confirm(client, club).content.decode()
    assert "Nothing was imported" in page and "Table 1, deal 1" in refusal(page)
    assert written() == before


def _tables(count: int) -> bytes:
    return json.dumps({"club": "skatfreunde-altenburg", "date": "2026-10-02", "name": "X",
                       "tables": [{}] * count}).encode()


def _deals(club: Any, count: int) -> bytes:
    doc = json.loads(_fresh(club))
    doc["tables"][0]["deals"] = [{"kind": "passed"}] * count
    return json.dumps(doc).encode()


def _club_file(club: Any, evenings: int = 0, players: int = 0) -> bytes:
    doc = export.club_export(club)
    doc["evenings"] = doc["evenings"][:1] * evenings
    doc["players"] = [{"name": f"P{n}", "guest": False} for n in range(players)]
    return json.dumps(doc).encode()


BOUNDS: dict[str, tuple[dict[str, int], Any, str]] = {
    # the upload's size (the form says it, then the check again)
    "bytes": ({"IMPORT_MAX_BYTES": 1000}, lambda club: _fresh(club),
              "at most 1000 bytes can be uploaded"),
    "objects": ({"IMPORT_MAX_OBJECTS": 100}, lambda club: _tables(200),
                "The file holds 202 JSON objects and lists; one upload may hold at most 100."),
    "evenings": ({"IMPORT_MAX_EVENINGS": 3}, lambda club: _club_file(club, evenings=4),
                 "The file holds 4 evenings; one upload may hold at most 3."),
    "tables": ({"IMPORT_MAX_TABLES": 50}, lambda club: _tables(51),
               "The file holds 51 tables; one upload may hold at most 50."),
    "deals": ({"IMPORT_MAX_DEALS": 100}, lambda club: _deals(club, 101),
              "one upload may hold at most 100."),
    "players": ({"IMPORT_MAX_PLAYERS": 10}, lambda club: _club_file(club, players=11),
                "The file holds 11 players; one upload may hold at most 10."),
    "seconds": ({"IMPORT_MAX_SECONDS": 0}, lambda club: _fresh(club),
                "Checking the file took longer than 0 seconds, the most one upload may take; "
                "nothing was saved."),
}


@pytest.mark.parametrize("bound", list(BOUNDS))
def test_an_upload_over_a_bound_is_refused_with_its_message_and_nothing_is_kept(
        client: Client, bound: str) -> None:
    club = build_club()
    admin_of(club, client)
    limits, content, message = BOUNDS[bound]
    file = content(club)
    before = written()
    with override_settings(**limits):
        response = upload(client, club, file)
    assert response.status_code == 200
    page = refusal(response.content.decode())
    assert message in page, page[-2000:]
    assert "Import now" not in page and "Preview of the import" not in page
    assert not PendingImport.objects.filter(club=club).exists()
    assert written() == before
    # within the bound the same file is checked as before
    response = upload(client, club, file)
    assert response.status_code == 200 and PendingImport.objects.filter(club=club).exists()


def test_a_csv_over_the_bound_of_lines_is_refused(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    season = evening_of(club).season
    assert season is not None
    rows = "Spieler;Datum;Punkte;gewonnen;verloren\n" + "".join(
        f"P{n};03.10.2026;10;1;0\n" for n in range(30))
    before = written()
    with override_settings(IMPORT_MAX_LINES=20):
        page = upload(client, club, rows.encode(), name="saison.csv", kind="totals",
                      season=season).content.decode()
    assert "The file has 31 lines; one upload may hold at most 20." in refusal(page)
    assert not PendingImport.objects.exists() and written() == before


def test_the_bound_of_time_stops_a_long_check_between_its_steps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock is looked at between tables and deals: a check that runs past its budget
    stops there (nothing written), whatever step it is in."""
    club = build_club()
    clock = iter(float(n) for n in range(10_000))
    monkeypatch.setattr(import_problems, "monotonic", lambda: next(clock))
    before = written()
    with pytest.raises(import_problems.OverBounds, match="longer than 5 seconds"), \
            override_settings(IMPORT_MAX_SECONDS=5):
        uploads.check(club=club, actor=imports.IMPORT_ACTOR, kind="json", name="x",
                      content=_deals(club, 60), options={})
    assert written() == before
    assert not Evening.objects.filter(name="Neu").exists()


def test_a_file_held_before_previews_were_kept_is_uploaded_again(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    upload(client, club, _fresh(club))
    PendingImport.objects.update(checked={})
    pending = PendingImport.objects.get()
    page = client.get(reverse("scoring:import-preview", args=[club.slug, pending.pk]),
                      follow=True).content.decode()
    assert "upload the file again" in page
    before = written()
    confirm(client, club)
    assert written() == before


def test_the_attack_runs_upload_is_refused_before_it_is_parsed(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 8 MB file of the attack run, {"club": …, "tables": [{}, {}, …]}: refused by its
    count of objects, without the JSON reader (which would make 2.7 million objects)."""
    club = build_club()
    admin_of(club, client)
    content = b'{"club":"skatfreunde-altenburg","tables":[' + b",".join(
        [b"{}"] * 2_700_000) + b"]}"
    assert len(content) <= uploads.UPLOAD_MAX_BYTES
    monkeypatch.setattr(uploads, "loads", _refuse)
    before = written()
    response = upload(client, club, content)
    assert response.status_code == 200
    assert ("The file holds 2,700,002 JSON objects and lists; one upload may hold at most "
            "250,000.") in refusal(response.content.decode())
    assert not PendingImport.objects.exists() and written() == before


# ---------------------------------------------------------------- uploads per hour, at once

@override_settings(IMPORT_UPLOADS_PER_HOUR=3)
def test_an_account_uploads_so_many_files_per_hour_and_no_more(client: Client) -> None:
    club = build_club()
    admin_of(club, client)
    for _n in range(3):
        assert upload(client, club, _fresh(club)).status_code == 200
    held = PendingImport.objects.count()
    refused = upload(client, club, _fresh(club))
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "At most 3 files may be uploaded per hour" in refused.content.decode()
    assert PendingImport.objects.count() == held


def test_while_one_upload_is_checked_another_waits_its_turn(client: Client) -> None:
    """The site checks IMPORT_CHECKS_AT_ONCE uploads at once (1): a second upload, or a
    confirmation, meanwhile is refused with a message, nothing held or written; once the
    place is free the same upload goes through."""
    club = build_club()
    admin_of(club, client)
    with access.one_of("import-check", 1, 60) as mine:
        assert mine
        refused = upload(client, club, _fresh(club))
        assert refused.status_code == 429
        assert "Another file is being checked" in refused.content.decode()
        assert not PendingImport.objects.exists()
    assert "1 evening will be added." in upload(client, club, _fresh(club)).content.decode()
    before = written()
    with access.one_of("import-check", 1, 60) as mine:
        assert mine
        page = confirm(client, club).content.decode()
    assert "Another file is being checked" in page and written() == before
    assert "1 evening was added." in confirm(client, club).content.decode()


def test_a_place_left_by_a_dead_worker_frees_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed during a check never frees its place: its window does."""
    dead = access.one_of("import-check", 1, 60)
    assert dead.__enter__()  # taken, and never given back (no __exit__)
    with access.one_of("import-check", 1, 60) as mine:
        assert not mine
    later = access.now() + 61
    monkeypatch.setattr(access, "now", lambda: later)
    with access.one_of("import-check", 1, 60) as mine:
        assert mine
