"""Importing the same club file or evening twice adds nothing the second time."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from scoring.models import AuditEntry, Club, Deal, Evening, Player, Table

pytestmark = pytest.mark.django_db


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
