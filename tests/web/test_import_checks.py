"""Every field of every record in an import is checked before anything is written: deleted
deals and free-text notes too, with limits on size and nesting (issue 16). A record that
imported and then made its pages answer 500 is refused by the reader, naming the deal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Club, Deal, Evening, Table
from scoring.reads.export import evening_export
from scoring.writes.import_checks import loads
from scoring.writes.import_problems import ImportProblem
from scoring.writes.imports import import_evening

from .factories import make_user
from .interchange_data import build_club, evening_of
from .test_import_export import counts

pytestmark = pytest.mark.django_db


def nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    return value


# A note nested near Python's recursion limit, for a test that writes the file as text: put
# DEEP_NOTE where the note goes, then with_deep_note() on the JSON. json.dumps recurses once
# per level, so dumping the note itself fails or not by how deep the test already runs (a
# pytest-xdist worker runs it deeper); the reader's own scan does not recurse.
DEEP_NOTE_LEVELS = 950
DEEP_NOTE = "a note nested DEEP_NOTE_LEVELS lists deep"


def with_deep_note(text: str) -> str:
    deep = "[" * DEEP_NOTE_LEVELS + '"deep"' + "]" * DEEP_NOTE_LEVELS
    assert text.count(json.dumps(DEEP_NOTE)) == 1
    return text.replace(json.dumps(DEEP_NOTE), deep)


def exported(club: Club) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(json.dumps(evening_export(evening_of(club))))
    return doc


def pages_of(evening: Evening) -> list[str]:
    urls = [reverse("scoring:evening", args=[evening.pk]),
            reverse("scoring:evening-audit", args=[evening.pk])]
    for table in Table.objects.filter(evening=evening):
        urls += [reverse("scoring:sheet", args=[table.pk]),
                 reverse("scoring:table", args=[table.pk])]
        for deal in Deal.objects.filter(table=table):
            urls += [reverse("scoring:deal-edit", args=[table.pk, deal.pk]),
                     reverse("scoring:deal-history", args=[table.pk, deal.pk])]
    if evening.season_id:
        urls.append(reverse("scoring:season", args=[evening.season_id]))
    return urls


def refused(doc: dict[str, Any], expected: str) -> str:
    before = counts()
    with pytest.raises(ImportProblem) as info:
        import_evening(doc)
    assert expected in str(info.value)
    assert counts() == before
    return str(info.value)


def test_a_deeply_nested_note_is_refused_naming_the_deal() -> None:
    club = build_club()
    doc = exported(club)
    doc["name"] = "Tiefe Notiz"
    doc["tables"][0]["deals"][2]["note"] = nested(950)
    refused(doc, "Table 1, deal 3")


def test_a_note_must_be_short_text() -> None:
    club = build_club()
    doc = exported(club)
    doc["name"] = "Notiz"
    doc["tables"][0]["deals"][1]["note"] = {"a": 1}
    refused(doc, "Table 1, deal 2: note must be")
    doc["tables"][0]["deals"][1]["note"] = "x" * 5000
    refused(doc, "Table 1, deal 2: note must be")
    doc["tables"][0]["deals"][1]["note"] = "Karten neu gemischt"
    evening = import_evening(doc)
    assert Deal.objects.filter(table__evening=evening, record__note="Karten neu gemischt")


@pytest.mark.parametrize("record", [
    {"kind": "ramsch", "ramsch": "zzz"},
    {"kind": "game", "declarer": 7, "game": "clubs"},
    {"kind": "nonsense"},
    {"kind": "passed", "note": [[["x"]]]},
    {"kind": "passed", "surprise": 1},
])
def test_an_invalid_deleted_deal_is_refused_naming_it(record: dict[str, Any]) -> None:
    club = build_club()
    doc = exported(club)
    doc["name"] = "Gelöscht"
    doc["tables"][0]["deleted_deals"][0]["record"] = record
    refused(doc, "Table 1, deleted deal 1")


def test_loads_refuses_deep_nesting_and_size() -> None:
    with pytest.raises(ImportProblem, match="nested"):
        loads(json.dumps(nested(200)).encode())
    with pytest.raises(ImportProblem, match="nested"):
        loads(b"[" * 100000)


@pytest.mark.parametrize("case", ["note", "deleted"])
def test_before_the_fix_these_imported_and_answered_500(client: Client, case: str) -> None:
    """The records of the issue, had they been stored: the reader refuses them, and every
    page of a valid import answers."""
    club = build_club()
    doc = exported(club)
    doc["name"] = "Probe"
    if case == "note":
        doc["tables"][0]["deals"][0]["note"] = nested(950)
    else:
        doc["tables"][0]["deleted_deals"][0]["record"] = {"kind": "ramsch", "ramsch": "zzz"}
    with pytest.raises(ImportProblem):
        import_evening(doc)
    assert not Evening.objects.filter(name="Probe").exists()
    doc = exported(club)
    doc["name"] = "Probe"
    evening = import_evening(doc)
    client.force_login(make_user(club, "admin"))
    for url in pages_of(evening):
        assert client.get(url).status_code == 200, url


def test_a_bad_deleted_deal_stored_before_the_fix_opens_its_edit_page(client: Client) -> None:
    """A deleted deal that an older import let in: its edit page shows, never a 500."""
    club = build_club()
    evening = evening_of(club)
    deal = Deal.objects.get(table__evening=evening, deleted=True)
    for record in ({"kind": "ramsch", "ramsch": "zzz"},
                   {"kind": "ramsch", "ramsch": {"losers": {"x": 1}, "jungfrau": 0}},
                   {"kind": "ramsch", "ramsch": {"points": [1, 2]}},
                   {"kind": "penalty", "penalty": 7}):
        Deal.objects.filter(pk=deal.pk).update(record=record)
        client.force_login(make_user(club, "admin", username=f"a{len(str(record))}"))
        url = reverse("scoring:deal-edit", args=[deal.table_id, deal.pk])
        assert client.get(url).status_code == 200, record


def test_the_command_refuses_the_deep_note_and_the_bad_deleted_deal(tmp_path: Any) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    def deep_note(doc: dict[str, Any]) -> None:
        doc["tables"][0]["deals"][2]["note"] = DEEP_NOTE

    def bad_deleted(doc: dict[str, Any]) -> None:
        doc["tables"][0]["deleted_deals"][0]["record"] = {"kind": "ramsch", "ramsch": "zzz"}

    club = build_club()
    for change in (deep_note, bad_deleted):
        doc = exported(club)
        doc["name"] = "Befehl"
        change(doc)
        path = tmp_path / "evening.json"
        text = json.dumps(doc, indent=2)
        path.write_text(with_deep_note(text) if change is deep_note else text, encoding="utf-8")
        before = counts()
        with pytest.raises(CommandError) as info:
            call_command("import_evening", str(path))
        assert "Table 1, " in str(info.value) and "Nothing was imported" in str(info.value)
        assert counts() == before
