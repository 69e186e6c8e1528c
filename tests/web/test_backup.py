"""`manage.py backup` and `restore`: a round trip gives the same rows, on SQLite (online
backup API) and on PostgreSQL or with --json (dumpdata); a database with data is only
overwritten with --force."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from scoring.models import Club, Membership

from .interchange_data import build_club

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot() -> dict[str, list[Any]]:
    """Every row of the club's models and the user accounts, in primary-key order."""
    models = [*apps.get_app_config("scoring").get_models(), get_user_model()]
    return {model.__name__: list(model._default_manager.order_by("pk").values())
            for model in models}


def run(command: str, *args: str) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def _data() -> None:
    club = build_club()
    user = get_user_model().objects.create_user(username="kassenwart", password="x")
    Membership.objects.create(user=user, club=club, role="admin")


@pytest.mark.parametrize("json", [False, True])
def test_backup_delete_restore_gives_the_same_rows(tmp_path: Path, json: bool) -> None:
    _data()
    before = snapshot()
    target = tmp_path / "skatclub.backup"
    said = run("backup", str(target), *(["--json"] if json else []))
    sqlite = connection.vendor == "sqlite" and not json
    assert ("SQLite online backup" if sqlite else "JSON like dumpdata") in said
    assert target.read_bytes().startswith(
        b"SQLite format 3\x00" if sqlite else b"{\"format\": \"skatclub-backup\"")
    assert not (tmp_path / "skatclub.backup.partial").exists()

    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    assert snapshot() != before
    run("restore", str(target))
    assert snapshot() == before


def test_restore_refuses_a_database_with_data_unless_forced(tmp_path: Path) -> None:
    _data()
    target = tmp_path / "backup"
    run("backup", str(target))
    Club.objects.create(slug="neu", name="Neu")
    with pytest.raises(CommandError, match="not empty"):
        run("restore", str(target))
    assert Club.objects.filter(slug="neu").exists()
    run("restore", "--force", str(target))
    assert not Club.objects.filter(slug="neu").exists()
    assert Club.objects.filter(slug="skatfreunde-altenburg").exists()


def test_a_file_that_is_no_backup_changes_nothing(tmp_path: Path) -> None:
    _data()
    before = snapshot()
    bad = tmp_path / "bad.json"
    bad.write_text('[{"model": "scoring.nothing", "pk": 1, "fields": {}}]', encoding="utf-8")
    with pytest.raises(CommandError, match="could not be restored, nothing was changed"):
        run("restore", "--force", str(bad))
    assert snapshot() == before
    with pytest.raises(CommandError, match="Cannot read"):
        run("restore", str(tmp_path / "missing"))


# ---------------------------------------------------------------- migrations must match

def _code_migrations() -> set[tuple[str, str]]:
    from django.db.migrations.loader import MigrationLoader
    return set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


def test_a_json_backup_lists_its_migrations(tmp_path: Path) -> None:
    import json
    _data()
    target = tmp_path / "skatclub.json"
    run("backup", "--json", str(target))
    document = json.loads(target.read_text(encoding="utf-8"))
    assert {tuple(m) for m in document["migrations"]} == _code_migrations()
    assert any(o["model"] == "scoring.club" for o in document["objects"])


def _sqlite_backup_with_other_migrations(target: Path) -> None:
    import sqlite3
    con = sqlite3.connect(target)
    with con:
        con.execute("delete from django_migrations where app = 'scoring' and name = "
                    "(select max(name) from django_migrations where app = 'scoring')")
        con.execute("insert into django_migrations (app, name, applied) values "
                    "('scoring', '9999_from_the_future', '2030-01-01')")
    con.close()


@pytest.mark.parametrize("json", [False, True])
def test_restore_refuses_a_backup_made_at_other_migrations(tmp_path: Path, json: bool) -> None:
    import json as json_module
    if connection.vendor != "sqlite" and not json:
        pytest.skip("a SQLite backup is made on SQLite")
    _data()
    target = tmp_path / "skatclub.backup"
    run("backup", str(target), *(["--json"] if json else []))
    latest = max(name for app, name in _code_migrations() if app == "scoring")
    if json:
        document = json_module.loads(target.read_text(encoding="utf-8"))
        document["migrations"] = [m for m in document["migrations"]
                                  if m != ["scoring", latest]]
        document["migrations"].append(["scoring", "9999_from_the_future"])
        target.write_text(json_module.dumps(document), encoding="utf-8")
    else:
        _sqlite_backup_with_other_migrations(target)
    Club.objects.create(slug="neu", name="Neu")
    before = snapshot()
    with pytest.raises(CommandError) as refused:
        run("restore", "--force", str(target))
    message = str(refused.value)
    assert "other migrations" in message and "nothing was changed" in message
    assert f"scoring.{latest}" in message and "scoring.9999_from_the_future" in message
    assert snapshot() == before
    with connection.cursor() as cursor:
        cursor.execute("select count(*) from django_migrations where name = %s",
                       ["9999_from_the_future"])
        assert cursor.fetchone()[0] == 0


def test_a_json_backup_without_its_migrations_is_refused(tmp_path: Path) -> None:
    _data()
    before = snapshot()
    old = tmp_path / "old.json"
    old.write_text('[{"model": "scoring.club", "pk": 99, "fields": {"name": "X", "slug": "x",'
                   ' "language": "de", "created": "2026-01-01T00:00:00Z"}}]', encoding="utf-8")
    with pytest.raises(CommandError, match="does not list the migrations"):
        run("restore", "--force", str(old))
    assert snapshot() == before


@pytest.mark.parametrize("json", [False, True])
def test_a_restore_empties_the_shared_caches_and_keeps_their_tables(tmp_path: Path,
                                                                    json: bool) -> None:
    """What was cached before (results keyed by table and version, PDFs, failure counts)
    would answer for the restored rows, which may reuse those keys; and a SQLite backup made
    before the caches moved into the database has no cache tables."""
    from django.conf import settings
    from django.core.cache import caches

    _data()
    target = tmp_path / "skatclub.backup"
    if json or connection.vendor != "sqlite":
        run("backup", str(target), "--json")
    else:
        run("backup", str(target))
        import sqlite3

        with sqlite3.connect(target) as old:  # as a backup of an older version was
            for config in settings.CACHES.values():
                if config["BACKEND"].endswith("DatabaseCache"):
                    old.execute(f'DROP TABLE "{config["LOCATION"]}"')
    for alias in settings.CACHES:
        caches[alias].set("before-the-restore", alias)
    run("restore", "--force", str(target))
    for alias in settings.CACHES:
        assert caches[alias].get("before-the-restore") is None
        caches[alias].set("after-the-restore", alias)
        assert caches[alias].get("after-the-restore") == alias
