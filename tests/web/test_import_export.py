"""Import and export in the interchange format: round trips that give the same bytes, an
all-or-nothing import that names the bad table and deal, fuzzed files, and the sheet as CSV."""

from __future__ import annotations

import copy
import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.access import SESSION_KEY
from scoring.engine import evaluate_record
from scoring.models import Club, Deal, Evening, Membership, Player, RuleProfile, Table
from scoring.writes.import_problems import ImportProblem
from scoring.writes.imports import import_evening
from scoring.writes.services import evening_create, table_create

from .factories import won
from .interchange_data import DAY, build_club, evening_of, play

pytestmark = pytest.mark.django_db


def counts() -> dict[str, int]:
    models = [*apps.get_app_config("scoring").get_models(), get_user_model()]
    return {model.__name__: model._default_manager.count() for model in models}


def run(command: str, *args: str) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def export_evening(evening: Evening) -> str:
    return run("export_evening", str(evening.pk))


def import_file(tmp_path: Path, text: str, command: str = "import_evening") -> str:
    path = tmp_path / "import.json"
    path.write_text(text, encoding="utf-8")
    return run(command, str(path))


# ---------------------------------------------------------------- round trips

def test_an_evening_round_trips_byte_for_byte(tmp_path: Path) -> None:
    club = build_club()
    first = export_evening(evening_of(club))
    doc = json.loads(first)
    assert doc["club"] == "skatfreunde-altenburg" and doc["season"] == "2026/27"
    assert [(t["series"], t["number"]) for t in doc["tables"]] == [(1, 1), (2, 1)]
    table = doc["tables"][0]
    # the contract's table fields, every deal with the tracker's Bock level written in
    assert {"rules", "options", "scoring", "players", "first_dealer", "stake", "currency",
            "settlement", "deals"} <= set(table)
    assert [d["bock"] for d in table["deals"]] == [0, 1, 1, 1, 0, 0, 0, 1, 1]
    assert [d["kind"] for d in table["deals"]].count("ramsch") == 3
    assert {d.get("kontra") for d in table["deals"]} >= {"kontra", "re"}
    assert table["deleted_deals"] == [{"position": 8, "record": {"kind": "passed"}}]
    assert not {"id", "pk", "access_code", "version", "created"} & (set(doc) | set(table))

    new_id = int(import_file(tmp_path, first))
    new = Evening.objects.get(pk=new_id)
    assert new.season is not None and new.season.name == "2026/27"
    assert export_evening(new) == first
    # stored as the scorer would have entered it: Bock left to the tracker, the deleted deal
    # in its place
    stored = list(Deal.objects.filter(table__evening=new, table__series=1).order_by("position"))
    assert [d.deleted for d in stored].index(True) == 7
    assert all(d.record.get("bock") is None for d in stored)


@pytest.mark.parametrize("name", ["Altes Skat", "Hoyle"])
def test_historical_rule_systems_round_trip(tmp_path: Path, name: str) -> None:
    club = build_club()
    first = export_evening(evening_of(club, name))
    assert json.loads(first)["tables"][0]["rules"] in ("american1898", "hoyle")
    assert export_evening(Evening.objects.get(pk=int(import_file(tmp_path, first)))) == first


def test_a_club_round_trips_byte_for_byte(tmp_path: Path) -> None:
    club = build_club()
    first = run("export_club", club.slug)
    doc = json.loads(first)
    assert [p["name"] for p in doc["players"]][:2] == ["Anna", "Bernd"]
    assert {"name": "Gast Zoë", "guest": True} in doc["players"]
    assert [s["name"] for s in doc["seasons"]] == ["2026/27"]
    assert len(doc["rule_profiles"]) == 4 and len(doc["evenings"]) == 3
    Evening.objects.filter(club=club).delete()
    club.delete()
    assert run("import_club", str(_write(tmp_path, first))).startswith("skatfreunde-altenburg")
    again = run("export_club", "skatfreunde-altenburg")
    assert again == first


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "club.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_output_file_option_and_standard_input(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    club = build_club()
    evening = evening_of(club, "Hoyle")
    target = tmp_path / "out.json"
    run("export_evening", str(evening.pk), "-o", str(target))
    text = target.read_text(encoding="utf-8")
    assert text == export_evening(evening)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    new_id = int(run("import_evening", "-"))
    assert export_evening(Evening.objects.get(pk=new_id)) == text


def test_a_new_club_and_new_players_are_created(tmp_path: Path) -> None:
    club = build_club()
    doc = json.loads(export_evening(evening_of(club, "Hoyle")))
    doc["club"] = "neuer-club"
    doc["tables"][0]["players"][0] = "Jürgen Neu"
    evening = Evening.objects.get(pk=int(import_file(tmp_path, json.dumps(doc))))
    assert evening.club.slug == "neuer-club"
    assert sorted(evening.club.players.values_list("name", flat=True)) == [
        "Dieter", "Jürgen", "Jürgen Neu"]


# ---------------------------------------------------------------- refusals

def test_a_corrupted_deal_changes_nothing_and_is_named(tmp_path: Path) -> None:
    club = build_club()
    doc = json.loads(export_evening(evening_of(club)))
    doc["tables"][1]["deals"][1]["bid"] = 19  # no such bid, in the middle of the file
    before = counts()
    with pytest.raises(CommandError) as info:
        import_file(tmp_path, json.dumps(doc))
    message = str(info.value)
    assert message.startswith("Table 2, deal 2:") and "Nothing was imported" in message
    assert counts() == before


def test_a_refused_import_exits_1_without_a_traceback(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "bad.json"
    path.write_text('{"club": "x", "date": "2026-13-01"', encoding="utf-8")
    done = subprocess.run([sys.executable, "manage.py", "import_evening", str(path)],
                          capture_output=True, text=True, cwd=Path(__file__).parents[2],
                          check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "Invalid JSON at line 1" in done.stderr


@pytest.mark.parametrize(("change", "expected"), [
    (lambda d: d.update(club="Not a slug!"), "club must be a short name"),
    (lambda d: d.update(date="20.11.2026"), "date must be a date"),
    (lambda d: d.update(tables={}), "tables must be a list"),
    (lambda d: d.update(season="1999"), "has no season '1999'"),
    (lambda d: d["tables"][0].update(options={"kontra": False}), "Table 1: options differs"),
    (lambda d: d["tables"][0].update(players=["Anna", "Anna", "Bernd"]),
     "Table 1 (players): Two players have the same name"),
    (lambda d: d["tables"][0]["deals"].append({"kind": "game"}), "Table 1, deal 10:"),
    (lambda d: d["tables"][0]["deals"][2].update(bock=0), "Table 1, deal 3: This deal is "
                                                          "played at Bock level 1"),
    (lambda d: d["tables"][1].update(number=1, series=1), "series 1 has two tables"),
    (lambda d: d["tables"][0]["deleted_deals"][0].update(position=99), "position must be"),
    (lambda d: d.update(surprise=1), "unknown field 'surprise'"),
    (lambda d: (d.update(series_rounds=1), d["tables"][0].update(players=3)),
     "Table 1: players must be a list of names"),
    (lambda d: d.update(series_rounds=1), "Table 1: a series has 3 games here; this table has 9"),
    (lambda d: d.update(settlement={"on": "nothing"}), "rules:"),
])
def test_every_problem_is_named(tmp_path: Path, change: Callable[[dict[str, Any]], object],
                                expected: str) -> None:
    club = build_club()
    doc = json.loads(export_evening(evening_of(club)))
    change(doc)
    before = counts()
    with pytest.raises(ImportProblem) as info:
        import_evening(doc)
    assert expected in str(info.value)
    assert counts() == before


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, sub in value.items():
            out += _paths(sub, (*prefix, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            out += _paths(sub, (*prefix, index))
    return out


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30),
                      st.floats(allow_nan=False), st.text(max_size=12))
json_any = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=6)

FUZZ_CLUB: dict[str, Any] = {}


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_exports_fail_cleanly_or_import(data: st.DataObject) -> None:
    if not Club.objects.filter(slug="skatfreunde-altenburg").exists():
        FUZZ_CLUB["doc"] = json.loads(export_evening(evening_of(build_club())))
    doc = copy.deepcopy(FUZZ_CLUB["doc"])
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = data.draw(st.sampled_from(paths))
        action = data.draw(st.sampled_from(["replace", "delete", "duplicate"]))
        if not path:
            doc = data.draw(json_any) if action == "replace" else doc
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        if action == "replace":
            parent[key] = data.draw(json_any)
        elif action == "delete":
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    before = counts()
    try:
        import_evening(doc)
    except ImportProblem as err:
        assert str(err)
        assert counts() == before


# ---------------------------------------------------------------- the sheet as CSV

def _rows(content: bytes) -> list[list[str]]:
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def test_the_sheet_as_csv_has_the_sheets_columns_and_numbers(client: Client) -> None:
    club = build_club()
    user = get_user_model().objects.create_user(username="v", password="x")
    Membership.objects.create(user=user, club=club, role="viewer")
    client.force_login(user)
    table = Table.objects.get(evening=evening_of(club), series=1)
    response = client.get(reverse("scoring:sheet-csv", args=[table.pk]),
                          headers={"accept-language": "en"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = _rows(response.content)
    assert rows[0] == ["No.", "Dealer", "Declarer", "Game", "Details", "Bid", "Result",
                       "Kontra/Re", "Bock", "Anna", "Anna (Total)", "Bernd", "Bernd (Total)",
                       "Clara", "Clara (Total)"]
    assert len(rows) == 10  # nine live deals; the deleted one is not on the sheet
    assert rows[2][7] == "Kontra" and rows[2][8] == "×2" and rows[8][7] == "Re"
    assert rows[5][3] == "Ramsch"
    # the running totals are the sheet's
    from scoring.reads.sheet import table_sheet, tables_with_everything
    sheet = table_sheet(tables_with_everything(Table.objects.filter(pk=table.pk)).get(), "en")
    assert [int(rows[-1][10 + 2 * p]) for p in range(3)] == sheet.totals
    assert rows[1][1] == "Bernd" and rows[1][2] == "Bernd" and rows[1][6] == "60"
    # German headings on a German page
    german = _rows(client.get(reverse("scoring:sheet-csv", args=[table.pk]),
                              headers={"accept-language": "de"}).content)
    assert german[0][:3] == ["Nr.", "Geber", "Alleinspieler"]


def test_the_csv_has_the_sheets_access_rules(client: Client) -> None:
    club = build_club()
    table = Table.objects.get(evening=evening_of(club), series=1)
    url = reverse("scoring:sheet-csv", args=[table.pk])
    assert client.get(url).status_code == 404  # a stranger
    other = Club.objects.create(slug="other", name="Other")
    user = get_user_model().objects.create_user(username="o", password="x")
    Membership.objects.create(user=user, club=other, role="admin")
    client.force_login(user)
    assert client.get(url).status_code == 404  # another club's member
    client.logout()
    session = client.session
    session[SESSION_KEY] = {str(table.pk): table.access_code}
    session.save()
    # a device with the table's code may read it while the evening's codes are valid
    assert client.get(url).status_code == 404  # the evening was weeks ago
    Evening.objects.filter(pk=table.evening_id).update(date=timezone.localdate())
    response = client.get(url)
    assert response.status_code == 200 and response.content.startswith("\ufeff".encode())


def test_the_csv_command_writes_umlauts_with_a_bom(tmp_path: Path) -> None:
    club = build_club()
    evening = evening_of(club)
    target = tmp_path / "sheet.csv"
    run("export_sheet_csv", "--evening", str(evening.pk), "--table", "1", "--series", "2",
        "--lang", "en", "-o", str(target))
    rows = _rows(target.read_bytes())
    assert "Jürgen" in rows[0] and "Öznur (Total)" in rows[0] and len(rows) == 4
    with pytest.raises(CommandError, match="has no table 7"):
        run("export_sheet_csv", "--evening", str(evening.pk), "--table", "7")


def test_a_club_file_names_the_evening_and_changes_nothing(tmp_path: Path) -> None:
    club = build_club()
    doc = json.loads(run("export_club", club.slug))
    doc["evenings"][2]["tables"][0]["deals"][1]["declarer"] = 7
    before = counts()
    with pytest.raises(CommandError, match=r"^Evening 3: Table 1, deal 2"):
        import_file(tmp_path, json.dumps(doc), "import_club")
    assert counts() == before
    # a profile of the same name with other rules is refused, not overwritten
    doc = json.loads(run("export_club", club.slug))
    doc["rule_profiles"][0]["stake"] = "0.10"
    with pytest.raises(CommandError, match="exists in the club with other rules"):
        import_file(tmp_path, json.dumps(doc), "import_club")
    assert counts() == before


def test_score_reads_an_exported_evening_and_agrees_with_the_sheets() -> None:
    """The export is the interchange format: `score` scores it (the fields the export adds
    are known and not scored) to the same totals the sheets show."""
    from scoring.management.commands.score import score
    from scoring.reads.sheet import table_sheet, tables_with_everything

    evening = evening_of(build_club())
    result, status = score(json.loads(export_evening(evening)))
    assert status == 0, result
    tables = tables_with_everything(evening.tables.all()).order_by("series", "number")
    sheets = [table_sheet(t, "en", explain=False) for t in tables]
    assert [list(t["totals"].values()) for t in result["tables"]] == [s.totals for s in sheets]


def test_a_name_that_looks_like_a_formula_stays_text_in_the_csv() -> None:
    from scoring.models import Player
    from scoring.reads.export import sheet_csv
    from scoring.reads.sheet import table_sheet, tables_with_everything

    evening = evening_of(build_club())
    table = tables_with_everything(evening.tables.all()).order_by("series", "number").first()
    assert table is not None, "the club's evening has tables"
    player = table.seats.get(position=0).player
    Player.objects.filter(pk=player.pk).update(name='=HYPERLINK("http://x","y")')
    table = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    rows = list(csv.reader(io.StringIO(sheet_csv(table_sheet(table, "en", explain=False))[1:])))
    assert rows[0][9] == '\'=HYPERLINK("http://x","y")'
    assert all(not cell.startswith("=") for row in rows for cell in row)
    negative = [cell for row in rows[1:] for cell in row if cell.startswith("-")]
    assert negative, "negative entries stay numbers (a minus sign, no apostrophe)"


def test_a_short_ramsch_record_imports_and_scores_as_the_full_one(tmp_path: Path) -> None:
    """DECISIONS.md §9: an evening whose Ramsch deals are written in the short form imports,
    keeps the form as given, and scores exactly as with every player's points and tricks."""
    club = build_club()
    first = json.loads(export_evening(evening_of(club)))
    doc = copy.deepcopy(first)
    short = {"losers": {"0": 50}, "jungfrau": 0, "durchmarsch": None, "pushes": 0}
    changed = 0
    for deal in doc["tables"][0]["deals"]:
        if deal["kind"] == "ramsch":
            deal["ramsch"] = short
            changed += 1
    assert changed == 3
    doc["date"] = "2026-10-09"
    new = Evening.objects.get(pk=int(import_file(tmp_path, json.dumps(doc))))
    again = json.loads(export_evening(new))
    assert [d["ramsch"] for d in again["tables"][0]["deals"] if d["kind"] == "ramsch"] == [
        short] * 3
    assert call_score(again) == call_score(first)


def call_score(doc: dict[str, Any]) -> list[dict[str, Any]]:
    result: Any = evaluate_record(doc)  # an evening's answer
    return [table["totals"] for table in result["tables"]]


def test_bock_set_by_hand_survives_export_and_import(tmp_path: Path) -> None:
    """DECISIONS.md §9 bock.manual: a level set by hand is exported with bock_manual and
    stored again on import, the tracker's levels go back to null, bock_round stays."""
    club = build_club()
    manual = RuleProfile.objects.create(
        club=club, name="Bock von Hand", rules="isko", stake="0.05", scoring="classic",
        options={"ramsch": "when_all_pass", "ramsch_cap": 100,
                 "bock": {"manual": True, "triggers": ["sixty_sixty"]}})
    evening = evening_create(club=club, date=DAY, profile=manual, season=None,
                             series_rounds=None, name="Bock von Hand")
    people = list(Player.objects.filter(club=club, guest=False).order_by("name")[:3])
    table = table_create(evening=evening, players=people, first_dealer=0)
    short = {"kind": "ramsch", "ramsch": {"losers": {"2": 96}, "jungfrau": 0}}
    play(table, won(0, bock=2), won(1, 60), won(2, bock_round=True), won(0), short,
         won(1, bock=0), won(2))
    first = export_evening(evening)
    deals = json.loads(first)["tables"][0]["deals"]
    assert [d["bock"] for d in deals] == [2, 0, 1, 1, 1, 0, 1]
    assert [d.get("bock_manual", False) for d in deals] == [
        True, False, False, False, False, True, False]
    assert deals[2]["bock_round"] is True and deals[4]["ramsch"] == short["ramsch"]

    new = Evening.objects.get(pk=int(import_file(tmp_path, first)))
    assert export_evening(new) == first
    stored = [d.record for d in Deal.objects.filter(table__evening=new).order_by("position")]
    assert [d.get("bock") for d in stored] == [2, None, None, None, None, 0, None]
    assert not any("bock_manual" in d for d in stored)
    assert stored[2]["bock_round"] is True


def test_bock_set_by_hand_needs_the_option_on_import(tmp_path: Path) -> None:
    club = build_club()
    doc = json.loads(export_evening(evening_of(club)))
    doc["tables"][0]["deals"][0]["bock_manual"] = True
    with pytest.raises(ImportProblem, match="Bock is set by hand only with option bock.manual"):
        import_evening(doc)
