"""Bringing an old list in, in a real browser (Debian chromium via Playwright): the club
admin uploads an exported evening and a paper season's CSV, reads the preview, confirms, and
finds them on the club page and in the season table; the same file again adds nothing. The
preview does not scroll sideways at phone width."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from scoring.models import Evening, ImportedTotal, Season
from scoring.reads.export import evening_export
from tests.web.factories import browser_login, make_user
from tests.web.interchange_data import build_club, evening_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

# LOADED: after a button's POST the preview's elements are in the page before its style sheet
# may be: a width measured then is the unstyled table's (463 px on a 390 px phone, seen once in
# a clean run under load), so each test waits for the page's load event before it measures.

CSV = ("Spieler;Datum;Punkte;gewonnen;verloren;Geld\n"
       "Anna;05.09.2025;412;7;1;2,50\n"
       "Bernd;05.09.2025;\u221296;2;3;\u22121,25\n"
       "Clara;05.09.2025;1.020;9;0;\n")


@pytest.mark.browser_context_args(viewport={"width": 390, "height": 844})
def test_upload_preview_confirm_an_evening_and_a_paper_season(
        page: Any, live_server: Any, screenshot_dir: Path, tmp_path: Path) -> None:
    club = build_club()
    season = Season.objects.create(club=club, name="2025/26", start=datetime.date(2025, 9, 1),
                                   end=datetime.date(2026, 8, 31), evaluation="classic")
    doc = evening_export(evening_of(club))
    doc["name"] = "Herbstabend"
    export = tmp_path / "herbstabend.json"
    export.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    browser_login(page.context, live_server, make_user(club, "admin"))

    page.goto(live_server.url + reverse("scoring:club", args=[club.slug]))
    page.get_by_role("link", name="Alte Listen übernehmen").click()
    page.locator("input[type=file]").set_input_files(str(export))
    page.get_by_role("button", name="Datei prüfen").click()
    page.wait_for_selector("table.import-preview")
    page.wait_for_load_state()  # see LOADED
    assert "1 Abend wird hinzugefügt." in page.content()
    assert page.locator("table.import-preview tbody tr").count() == 1
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"the preview is {scroll} px wide on a {inner} px screen"
    page.screenshot(path=str(screenshot_dir / "import-preview.png"), full_page=True)
    page.get_by_role("button", name="Jetzt übernehmen").click()
    page.wait_for_url(f"**/clubs/{club.slug}/")
    assert "1 Abend wurde hinzugefügt." in page.locator(".messages").inner_text()
    assert Evening.objects.filter(club=club, name="Herbstabend").count() == 1
    page.screenshot(path=str(screenshot_dir / "import-done.png"), full_page=True)

    # the same file again: the preview says nothing is new and offers no import
    page.get_by_role("link", name="Alte Listen übernehmen").click()
    page.locator("input[type=file]").set_input_files(str(export))
    page.get_by_role("button", name="Datei prüfen").click()
    page.wait_for_selector("table.import-preview")
    page.wait_for_load_state()  # see LOADED
    assert "Nichts Neues" in page.content()
    assert page.get_by_role("button", name="Jetzt übernehmen").count() == 0
    page.screenshot(path=str(screenshot_dir / "import-twice.png"), full_page=True)

    # a paper season
    totals = tmp_path / "saison.csv"
    totals.write_text(CSV, encoding="utf-8")
    page.goto(live_server.url + reverse("scoring:import", args=[club.slug]))
    page.get_by_label("Eine auf Papier gespielte Saison", exact=False).check()
    page.locator("input[type=file]").set_input_files(str(totals))
    page.get_by_label("Saison", exact=True).select_option(label="2025/26")
    page.get_by_role("button", name="Datei prüfen").click()
    page.wait_for_selector("table.import-preview")
    page.wait_for_load_state()  # see LOADED
    page.screenshot(path=str(screenshot_dir / "import-paper-preview.png"), full_page=True)
    page.get_by_role("button", name="Jetzt übernehmen").click()
    page.wait_for_url(f"**/clubs/{club.slug}/")
    assert ImportedTotal.objects.filter(evening__season=season).count() == 3
    page.goto(live_server.url + reverse("scoring:season", args=[season.pk]))
    table = page.locator("table.ranking").inner_text()
    assert "Clara" in table and "1.020" in table
    assert "von Papier" in page.content()
    page.screenshot(path=str(screenshot_dir / "import-paper-season.png"), full_page=True)


def test_delete_an_evening_from_its_page(page: Any, live_server: Any,
                                         screenshot_dir: Path) -> None:
    club = build_club()
    evening = evening_of(club)
    browser_login(page.context, live_server, make_user(club, "admin"))
    page.goto(live_server.url + reverse("scoring:evening", args=[evening.pk]))
    page.get_by_role("link", name="Abend löschen").click()
    page.wait_for_selector("ul.delete-list")
    assert "2 Tische" in page.locator("ul.delete-list").inner_text()
    page.screenshot(path=str(screenshot_dir / "evening-delete.png"), full_page=True)
    page.get_by_label("Warum (für das Vereinsprotokoll)").fill("doppelt angelegt")
    page.get_by_label("Ja, diesen Abend mit allem Aufgeführten löschen").check()
    page.get_by_role("button", name="Abend löschen").click()
    page.wait_for_url(f"**/clubs/{club.slug}/")
    assert not Evening.objects.filter(pk=evening.pk).exists()
    page.get_by_role("link", name="Vereinsprotokoll").click()
    assert "doppelt angelegt" in page.locator("table").inner_text()
    page.screenshot(path=str(screenshot_dir / "club-log.png"), full_page=True)


def deep_note(text: str, placeholder: str, depth: int) -> str:
    """``text`` (JSON written with indent=2) with ``placeholder`` replaced by "tief" nested
    ``depth`` lists deep, indented as json.dumps(indent=2) would: written without recursion,
    which at 950 levels reaches Python's recursion limit sooner or later depending on the
    stack below the test (deeper in a pytest-xdist worker)."""
    at = text.index(placeholder)
    line = text[text.rindex("\n", 0, at) + 1:at]  # '    "note": '
    base = len(line) - len(line.lstrip())
    opened = "[" + "".join("\n" + " " * (base + 2 * k) + "[" for k in range(1, depth))
    leaf = "\n" + " " * (base + 2 * depth) + '"tief"'
    closed = "".join("\n" + " " * (base + 2 * k) + "]" for k in range(depth - 1, -1, -1))
    return text[:at] + opened + leaf + closed + text[at + len(placeholder):]


@pytest.mark.browser_context_args(viewport={"width": 390, "height": 844})
def test_a_refused_file_is_named_in_german_at_phone_width(
        page: Any, live_server: Any, screenshot_dir: Path, tmp_path: Path) -> None:
    """An export written with indentation, a note nested 950 deep in table 1's third deal:
    the German preview names table, deal, line and column in German and does not scroll
    sideways."""
    club = build_club()
    doc = evening_export(evening_of(club))
    doc["name"] = "Tiefe Notiz"
    doc["tables"][0]["deals"][2]["note"] = "__NOTE__"
    text = deep_note(json.dumps(doc, ensure_ascii=False, indent=2), '"__NOTE__"', 950)
    note_at = text[:text.index('"note"')].count("\n") + 1  # the line of the note's key
    broken = tmp_path / "tiefe-notiz.json"
    broken.write_text(text, encoding="utf-8")
    browser_login(page.context, live_server, make_user(club, "admin"))
    page.goto(live_server.url + reverse("scoring:import", args=[club.slug]))
    page.locator("input[type=file]").set_input_files(str(broken))
    page.get_by_role("button", name="Datei prüfen").click()
    page.wait_for_selector("ul.import-problems")
    page.wait_for_load_state()  # see LOADED
    problem = page.locator("ul.import-problems").inner_text()
    assert problem.startswith("Tisch 1, Spiel 3: zu tief verschachtelt in Zeile "), problem
    # the line where the note first nests deeper than 16 levels: a few lines below its key
    line = int(problem.split("Zeile ")[1].split(",")[0])
    assert note_at < line < note_at + 20, (note_at, line)
    assert "nested" not in problem and "Table" not in problem and "deal" not in problem
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"the refusal is {scroll} px wide on a {inner} px screen"
    page.screenshot(path=str(screenshot_dir / "import-refused-de.png"), full_page=True)
    assert not Evening.objects.filter(name="Tiefe Notiz").exists()


@pytest.mark.browser_context_args(viewport={"width": 390, "height": 844})
def test_a_club_file_whose_profile_differs_names_the_settings_and_takes_it_renamed(
        page: Any, live_server: Any, screenshot_dir: Path, tmp_path: Path) -> None:
    """Issue 26: a club file from another site brings a rule profile the club has under the
    same name with another stake: the preview names what differs and the admin takes the
    file's profile under another name; the club's own is not touched."""
    from tests.web.test_import_browser_export import _clashing

    club = build_club()
    content, ours = _clashing(club)
    upload = tmp_path / "nachbarclub.json"
    upload.write_bytes(content)
    browser_login(page.context, live_server, make_user(club, "admin"))
    page.goto(live_server.url + reverse("scoring:import", args=[club.slug]))
    page.locator("input[type=file]").set_input_files(str(upload))
    page.get_by_role("button", name="Datei prüfen").click()
    page.wait_for_selector("table.import-preview")
    page.wait_for_load_state()  # see LOADED
    text = page.locator("main").inner_text()
    assert "Einsatz je Punkt 0,00 ≠ 0,01" in text and "Währung EUR ≠ CHF" in text
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"the preview is {scroll} px wide on a {inner} px screen"
    page.screenshot(path=str(screenshot_dir / "import-profile-clash.png"), full_page=True)
    page.locator("input[name=name_0]").fill("Vom Nachbarclub")
    page.get_by_role("button", name="Jetzt übernehmen").click()
    page.wait_for_url(f"**/clubs/{club.slug}/")
    assert "hinzugefügt" in page.locator(".messages").inner_text()
    ours.refresh_from_db()
    assert ours.stake == 0 and club.rule_profiles.filter(name="Vom Nachbarclub").exists()
