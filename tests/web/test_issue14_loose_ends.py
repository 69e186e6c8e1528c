"""Issue 14's loose ends: each test failed before its fix."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from scoring.demo.season import build_season
from scoring.models import AuditEntry, Club, Deal, Evening, Player, Table
from scoring.reads.export import sheet_csv
from scoring.reads.sheet import table_sheet, tables_with_everything
from scoring.reads.standings import evening_ranking
from scoring.views.tables import evening_table

from .factories import make_club, make_table
from .seasons import game, play

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- tables2 accessors

def test_the_evening_table_with_series_columns_warns_nothing() -> None:
    build_season(evenings=1, tables=2, series=2, seed=5)
    evening = Evening.objects.get()
    ranking = evening_ranking(evening)
    assert len(ranking.series_numbers) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        table = evening_table(ranking, None)
    row = table.rows[0]
    series = ranking.rows[0].series
    assert [row.get_cell(f"series_{n}") for n in (1, 2)] == [series[1], series[2]]


# ---------------------------------------------------------------- the sheet as CSV

FORMULA = ("=", "+", "-", "@")
NUMBER = re.compile(r"^-?\d+$")


def _dangerous(cell: str) -> bool:
    """A cell a spreadsheet would take for a formula: after the quotes and blanks a reader
    may leave in front, it starts like one and is not simply a (negative) number."""
    text = cell.lstrip(' "\t')
    return text.startswith(FORMULA) and not NUMBER.match(text.rstrip('"'))


def test_every_text_cell_is_quoted_and_no_separator_opens_a_formula() -> None:
    table = make_table(make_club(), players=3)
    names = ["Anna;=1+1", "Bernd,+SUM(A1)", "Clara; @x"]
    for seat, name in zip(table.seats.order_by("position"), names, strict=True):
        Player.objects.filter(pk=seat.player_id).update(name=name)
    play(table, game(1, 1), game(2, 2, won=False))
    table = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    with translation.override("en"):
        text = sheet_csv(table_sheet(table, "en", explain=False))[1:]
    lines = text.split("\r\n")
    # every text cell is in quotes; the numbers are not
    assert lines[0].startswith('"No.","Dealer","Declarer"')
    assert re.search(r',-?\d+$', lines[1]) and '"Anna;' in lines[1]
    for delimiter in (";", ","):
        cells = [c for row in csv.reader(io.StringIO(text), delimiter=delimiter) for c in row]
        cells += [c for line in lines for c in line.split(delimiter)]
        assert not [c for c in cells if _dangerous(c)], delimiter
    # read as it is written (comma), the names are there, kept as text
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][9:15:2] == ["Anna;'=1+1", "Bernd,'+SUM(A1)", "Clara; '@x"]
    assert rows[1][1] == "Anna;'=1+1" and rows[2][-2:] == ["-72", "-72"]


# ---------------------------------------------------------------- Beer Skat in a season

def _beer_evening_with_a_table(club: Club) -> tuple[Evening, Table]:
    """A Beer Skat evening (in no season) where Bernd won a Solo worth 24: Anna and Clara are
    charged 24 each, Bernd nothing (DECISIONS §3)."""
    from scoring.models import RuleProfile
    from scoring.writes.services import Actor, deal_record, evening_create, table_create

    from .seasons import START

    profile = RuleProfile.objects.create(club=club, name="Bierskat", rules="american1898",
                                         scoring="beer", stake="0")
    evening = evening_create(club=club, date=START + datetime.timedelta(days=3),
                             profile=profile)
    table = table_create(evening=evening, players=list(club.players.order_by("name")[:3]))
    deal_record(table=table, expected_version=0, actor=Actor(None, "test"), record={
        "kind": "game", "declarer": 1, "game": "solo_clubs", "matadors": 1, "bid": 18,
        "declarer_points": 70})
    return evening, table


def test_a_beer_skat_evening_cannot_be_put_into_a_season_by_any_form() -> None:
    """DECISIONS §3: Beer Skat counts up and the lowest count wins, a season ranks the
    highest score first; the two cannot be added up, so a Beer Skat evening stays out of
    seasons. The model says so, so that every form (the admin's too) refuses it."""
    from django.core.exceptions import ValidationError

    from .seasons import make_season

    club = make_club()
    evening, _table = _beer_evening_with_a_table(club)
    evening.season = make_season(club, "classic")
    with pytest.raises(ValidationError) as refused:
        evening.full_clean()
    assert "season" in refused.value.message_dict
    with translation.override("de"):
        assert "Bierskat-Abend" in str(ValidationError(refused.value.message_dict["season"]))


def test_a_beer_skat_evening_found_in_a_classic_season_is_not_counted_as_classic() -> None:
    """One put there before the model refused it (or by hand in the database): the season
    table leaves it out and says why; its own ranking still puts the lowest count first."""
    from scoring.reads.standings import season_standings

    from .seasons import make_season, seat_and_play

    club = make_club()
    season = make_season(club, "classic")
    evening, table = _beer_evening_with_a_table(club)
    Evening.objects.filter(pk=evening.pk).update(season=season)
    anna, bernd, clara = (s.player for s in table.seats.order_by("position"))
    classic = Evening.objects.create(club=club, date=evening.date, rules="isko",
                                     scoring="classic", season=season)
    seat_and_play(classic, [anna, bernd, clara], {0: [(1, True)]})  # Anna +24
    standings = season_standings(season)
    assert [(r.player.name, r.score) for r in standings.rows] == [
        (anna.name, 24), (bernd.name, 0), (clara.name, 0)]
    assert [e.pk for e in standings.evenings] == [classic.pk]
    with translation.override("en"):
        messages = [str(p.message) for p in season_standings(season).problems]
    assert messages == ["A Beer Skat evening: its lowest count wins, so it does not count "
                        "toward the season."]
    evening.refresh_from_db()
    ranking = evening_ranking(evening)
    assert [(r.player.name, r.score, r.rank) for r in ranking.rows] == [
        (bernd.name, 0, 1), (anna.name, 24, 2), (clara.name, 24, 2)]


# ---------------------------------------------------------------- a closed evening

def _closed_table() -> tuple[Table, Deal, Deal]:
    from .test_sheet_pages import play as play_records
    from .test_sheet_pages import won

    table = make_table(make_club(), players=3)
    first, second = play_records(table, [won(1, 60), won(2)])
    Deal.objects.filter(pk=second.pk).update(deleted=True)
    Evening.objects.filter(pk=table.evening_id).update(closed=True)
    table.refresh_from_db()
    return table, first, second


def _state(table: Table) -> tuple[list[tuple[Any, bool]], int, int]:
    return (list(Deal.objects.filter(table=table).order_by("pk").values_list(
        "record", "deleted")), AuditEntry.objects.count(),
        Table.objects.get(pk=table.pk).version)


@pytest.mark.parametrize("role", ["scorer", "admin"])
def test_a_closed_evening_is_read_only_for_everybody(client: Client, role: str) -> None:
    from .factories import deal_form, make_user

    table, first, second = _closed_table()
    client.force_login(make_user(table.evening.club, role=role))
    before = _state(table)
    posts = [
        (reverse("scoring:deal-save", args=[table.pk]), deal_form(table)),
        (reverse("scoring:deal-preview", args=[table.pk]), deal_form(table)),
        (reverse("scoring:deal-edit", args=[table.pk, first.pk]),
         deal_form(table, declarer="2", reason="Typo")),
        (reverse("scoring:deal-delete", args=[table.pk, first.pk]),
         {"version": str(table.version), "reason": "Typo"}),
        (reverse("scoring:deal-restore", args=[table.pk, second.pk]),
         {"version": str(table.version), "reason": "Typo"}),
    ]
    for url, data in posts:
        response = client.post(url, data, headers={"accept-language": "en"})
        assert response.status_code == 403, url
        assert "This evening is closed" in response.content.decode(), url
    edit = client.get(reverse("scoring:deal-edit", args=[table.pk, first.pk]))
    assert edit.status_code == 403
    assert _state(table) == before
    screen = client.get(reverse("scoring:table", args=[table.pk]),
                        headers={"accept-language": "en"}).content.decode()
    assert "This evening is closed" in screen and 'name="declarer"' not in screen
    with translation.override("de"):
        german = client.post(posts[0][0], posts[0][1]).content.decode()
    assert "Dieser Abend ist abgeschlossen" in german


def test_the_services_refuse_a_closed_evening_too() -> None:
    from scoring.engine import SkatError
    from scoring.writes.services import Actor, deal_delete, deal_record

    from .test_sheet_pages import won

    table, first, _second = _closed_table()
    before = _state(table)
    actor = Actor(None, "test")
    with pytest.raises(SkatError, match="closed"):
        deal_record(table=table, record=won(1), expected_version=table.version, actor=actor)
    with pytest.raises(SkatError, match="closed"):
        deal_delete(deal=first, reason="x", expected_version=table.version, actor=actor)
    assert _state(table) == before


def test_only_an_admin_reopens_a_closed_evening_and_the_audit_log_says_so(
        client: Client) -> None:
    from .factories import deal_form, make_user

    table, _first, _second = _closed_table()
    club = table.evening.club
    reopen = reverse("scoring:evening-reopen", args=[table.evening_id])
    close = reverse("scoring:evening-close", args=[table.evening_id])
    for role in ("viewer", "scorer"):
        client.force_login(make_user(club, role=role))
        assert client.post(reopen, {"reason": "x"}).status_code == 403
        assert Evening.objects.get(pk=table.evening_id).closed
    admin = make_user(club, role="admin")
    client.force_login(admin)
    evening_page = client.get(reverse("scoring:evening", args=[table.evening_id]),
                              headers={"accept-language": "en"}).content.decode()
    assert reopen in evening_page
    response = client.post(reopen, {"reason": "Tisch 1 nachtragen"})
    assert response.status_code == 302
    assert not Evening.objects.get(pk=table.evening_id).closed
    entry = AuditEntry.objects.filter(evening_id=table.evening_id).latest("id")
    assert (entry.action, entry.user, entry.reason, entry.table_id, entry.deal_id) == (
        "reopen", admin, "Tisch 1 nachtragen", None, None)
    # open again: scorers record deals as before
    scorer = make_user(club, role="scorer", username="scorer-2")
    client.force_login(scorer)
    table.refresh_from_db()
    assert client.post(reverse("scoring:deal-save", args=[table.pk]),
                       deal_form(table)).status_code == 302
    assert client.post(close, {}).status_code == 403
    client.force_login(admin)
    assert client.post(close, {}).status_code == 302
    assert Evening.objects.get(pk=table.evening_id).closed
    assert AuditEntry.objects.filter(evening_id=table.evening_id).latest("id").action == "close"
    log = client.get(reverse("scoring:evening-audit", args=[table.evening_id]),
                     headers={"accept-language": "en"})
    assert log.status_code == 200
    body = log.content.decode()
    assert "reopened" in body and "closed" in body and "Tisch 1 nachtragen" in body


def test_closing_in_the_site_administration_is_in_the_audit_log_too(
        rf: RequestFactory) -> None:
    from types import SimpleNamespace

    from django.contrib.admin.sites import site

    from .factories import make_user

    table = make_table(make_club(), players=3)
    evening = table.evening
    request = rf.post("/")
    request.user = make_user(evening.club, role="admin")
    evening.closed = True
    site._registry[Evening].save_model(request, evening, SimpleNamespace(
        changed_data=["closed"]), change=True)
    entry = AuditEntry.objects.get(evening=evening)
    assert (entry.action, entry.user, entry.table_id) == ("close", request.user, None)


# ---------------------------------------------------------------- imports: audit, twice

def _run(command: str, *args: str) -> tuple[str, str]:
    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    call_command(command, *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_importing_the_same_club_file_twice_adds_nothing_the_second_time(
        tmp_path: Path) -> None:
    from .interchange_data import build_club

    club = build_club()
    path = tmp_path / "verein.json"
    path.write_text(_run("export_club", club.slug)[0], encoding="utf-8")
    AuditEntry.objects.all().delete()
    evenings = Evening.objects.filter(club=club).count()
    before = {m: m.objects.count() for m in (Evening, Table, Deal, Player)}

    said, _err = _run("import_club", str(path))
    assert {m: m.objects.count() for m in (Evening, Table, Deal, Player)} == before
    assert said.strip() == (f"{club.slug}: 0 evenings added, {evenings} already there "
                            f"(same date, name and content); {evenings} in the club")
    # every import is in the audit log: who, what (the file), when
    entries = list(AuditEntry.objects.filter(action="import"))
    assert len(entries) == evenings
    assert all(e.table_id is None and e.deal_id is None and "import_club" in e.actor
               and "verein.json" in e.reason and e.after == {"file": "verein.json",
                                                              "added": False}
               for e in entries)

    # a changed evening (another rule profile named in the file) is another evening: added
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["evenings"][0]["profile_name"] += " (Kopie)"
    path.write_text(json.dumps(doc), encoding="utf-8")
    said, _err = _run("import_club", str(path))
    assert said.startswith(f"{club.slug}: 1 evening added, {evenings - 1} already there")
    assert Evening.objects.filter(club=club).count() == evenings + 1
    added = AuditEntry.objects.filter(action="import", after__added=True).get()
    assert "verein.json" in added.reason
    assert added.after is not None, "an import's audit entry records what was added"
    assert added.after["file"] == "verein.json" and added.after["tables"] >= 1


def test_an_evening_imported_twice_is_there_once(tmp_path: Path) -> None:
    from .interchange_data import build_club, evening_of

    club = build_club()
    path = tmp_path / "abend.json"
    path.write_text(_run("export_evening", str(evening_of(club).pk))[0], encoding="utf-8")
    Club.objects.exclude(pk=club.pk).delete()
    count = Evening.objects.count()
    first, _err = _run("import_evening", str(path))
    assert Evening.objects.count() == count  # it came from this club: already there
    assert int(first) == evening_of(club).pk
    assert "already there" in _err and "nothing was added" in _err
    entry = AuditEntry.objects.filter(action="import").get()
    assert entry.evening_id == int(first) and "abend.json" in entry.reason
    # into another club it is new, and its audit entry says who and what
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["club"], doc["season"] = "andere", None
    path.write_text(json.dumps(doc), encoding="utf-8")
    new, err = _run("import_evening", str(path))
    assert err == "" and Evening.objects.count() == count + 1
    entry = AuditEntry.objects.filter(action="import").latest("id")
    assert entry.evening_id == int(new) and "import_evening" in entry.actor
    assert entry.after is not None, "an import's audit entry records what was added"
    assert entry.after["deals"] == Deal.objects.filter(table__evening_id=int(new)).count()


# ---------------------------------------------------------------- a deal's history in words

def test_the_deal_history_names_the_changes_in_the_words_of_the_sheet(
        client: Client) -> None:
    from scoring.writes.services import Actor, deal_edit

    from .factories import make_user
    from .test_sheet_pages import play as play_records

    table = make_table(make_club(), players=3)
    (deal,) = play_records(table, [{"kind": "game", "declarer": 1, "game": "clubs",
                                    "matadors": 1, "bid": 18, "result": "lost"}])
    deal_edit(deal=deal, reason="Typo", expected_version=table.version,
              actor=Actor(None, "test"), record={
                  "kind": "game", "declarer": 2, "game": "spades", "matadors": -2,
                  "bid": 20, "result": "won", "hand": True, "kontra": "re"})
    client.force_login(make_user(table.evening.club, role="viewer"))
    url = reverse("scoring:deal-history", args=[table.pk, deal.pk])
    bernd, clara = (s.player.name for s in table.seats.order_by("position")[1:3])

    def changes(lang: str) -> list[str]:
        html = client.get(url, headers={"accept-language": lang}).content.decode()
        block = html.split('<ul class="changes">', 1)[1].split("</ul>", 1)[0]
        return [re.sub(r"<[^>]+>", "", item).strip()
                for item in re.findall(r"<li>(.*?)</li>", block)]

    assert changes("de") == [
        f"Alleinspieler: {bernd} → {clara}", "Spiel: Kreuz → Pik", "Hand: nein → ja",
        "Spitzen: mit 1 → ohne 2", "Reizwert: 18 → 20", "Ergebnis: verloren → gewonnen",
        "Kontra: kein Kontra → Re"]
    assert changes("en") == [
        f"Declarer: {bernd} → {clara}", "Game: Clubs → Spades", "Hand: no → yes",
        "Matadors: with 1 → without 2", "Bid: 18 → 20", "Result: lost → won",
        "Kontra: none → Re"]


def test_ramsch_penalties_and_unknown_fields_read_as_words() -> None:
    from scoring.reads.change_words import changed_fields

    players = ["Anna", "Bernd", "Clara"]
    before = {"kind": "ramsch", "ramsch": {"points": {"0": 50, "1": 40, "2": 30}}}
    after = {"kind": "penalty", "penalty": {"seat": 2, "points": 10, "reason": "misdeal"},
             "house_field": [1, 2]}
    with translation.override("de"):
        words = changed_fields(before, after, "isko", {}, players, "de")
    assert words == [
        ("Art des Spiels", "Ramsch", "Strafe"),
        ("Ramsch", "Augen: Anna 50 / Bernd 40 / Clara 30", "–"),
        ("Strafe", "–", "Clara 10 misdeal"),
        ("house_field", "–", "[1, 2]"),
    ]
    assert changed_fields({"hand": False}, {}, "isko", {}, players, "de") == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_screenshots_of_a_closed_evening_and_a_deal_history(
        page: Page, live_server: LiveServer, screenshot_dir: Path) -> None:
    from scoring.writes.services import Actor, deal_edit

    from .factories import browser_login, make_user
    from .test_sheet_pages import play as play_records

    table = make_table(make_club(), players=3)
    (deal,) = play_records(table, [{"kind": "game", "declarer": 1, "game": "clubs",
                                    "matadors": 1, "bid": 18, "result": "lost"}])
    deal_edit(deal=deal, reason="Vertippt", expected_version=table.version,
              actor=Actor(None, "test"), record={
                  "kind": "game", "declarer": 1, "game": "spades", "matadors": 1,
                  "bid": 18, "result": "won"})
    Evening.objects.filter(pk=table.evening_id).update(closed=True)
    browser_login(page.context, live_server, make_user(table.evening.club, "admin"))
    page.set_viewport_size({"width": 1000, "height": 800})
    page.goto(live_server.url + reverse("scoring:evening", args=[table.evening_id]))
    assert page.locator("form.evening-state button").inner_text() == "Abend wieder öffnen"
    page.screenshot(path=str(screenshot_dir / "issue14-closed-evening.png"), full_page=True)
    page.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
    assert "Dieser Abend ist abgeschlossen" in page.inner_text(".entry-panel")
    page.screenshot(path=str(screenshot_dir / "issue14-closed-table.png"), full_page=True)
    page.goto(live_server.url + reverse("scoring:deal-history", args=[table.pk, deal.pk]))
    assert "Ergebnis: verloren → gewonnen" in page.inner_text(".changes")
    page.screenshot(path=str(screenshot_dir / "issue14-deal-history.png"), full_page=True)
    page.goto(live_server.url + reverse("scoring:evening", args=[table.evening_id]))
    page.fill("#reopen-reason", "Nachtrag Tisch 1")
    page.locator("form.evening-state button").click()
    page.wait_for_load_state("load")
    page.goto(live_server.url + reverse("scoring:evening-audit", args=[table.evening_id]))
    assert "wieder geöffnet" in page.inner_text("table.audit")
    page.screenshot(path=str(screenshot_dir / "issue14-audit-reopened.png"), full_page=True)
