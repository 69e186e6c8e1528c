"""A consistent snapshot of the whole database, and putting one back.

SQLite: the sqlite3 online backup API (``Connection.backup``) copies the live database page by
page into a new SQLite file; it is consistent and safe while the site runs (a write during
the copy makes SQLite restart the copy). Restoring copies the file back the same way.

PostgreSQL (and ``--json`` on any database): every app as JSON the way ``dumpdata`` writes it
(but with times to the microsecond, which ``dumpdata`` cuts to milliseconds),
read inside one REPEATABLE READ transaction, so that all tables come from the same snapshot
while the site keeps writing. Content types and permissions are left out (migrations make
them) and foreign keys to them are written by natural key, so the file loads into any freshly
migrated database: restoring flushes the database and runs ``loaddata`` in one transaction.
The JSON file is ``{"format": "skatclub-backup", "migrations": [[app, name], …],
"objects": [what dumpdata writes]}``.

A backup fits only the code whose migrations made its tables: ``restore`` compares the
backup's migrations (a SQLite file's ``django_migrations`` table, a JSON file's list) with the
code's and refuses any difference before anything is changed.
"""

from __future__ import annotations

import datetime
import itertools
import json as jsonlib
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core import serializers
from django.core.cache import caches
from django.core.management import call_command
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader

SQLITE_MAGIC = b"SQLite format 3\x00"
JSON_EXCLUDE = ["contenttypes", "auth.permission"]
JSON_FORMAT = "skatclub-backup"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why."""


def method(json: bool = False) -> str:
    """"sqlite" (the online backup API) or "json" (dumpdata)."""
    return "sqlite" if connection.vendor == "sqlite" and not json else "json"


def backup(path: Path, *, json: bool = False) -> str:
    """Write a snapshot of the database to ``path``; returns the method used."""
    how = method(json)
    tmp = path.with_name(path.name + ".partial")
    try:
        if how == "sqlite":
            connection.ensure_connection()
            target = sqlite3.connect(tmp)
            try:
                connection.connection.backup(target)
            finally:
                target.close()
        else:
            fresh = not connection.in_atomic_block  # else the snapshot is the caller's
            with transaction.atomic():
                if connection.vendor == "postgresql" and fresh:
                    with connection.cursor() as cursor:
                        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                _dump_json(tmp)
        tmp.replace(path)  # never a half-written file under the backup's name
    except (OSError, sqlite3.Error) as err:
        tmp.unlink(missing_ok=True)
        raise BackupError(f"Cannot write {path}: {err}") from None
    return how


class _ExactEncoder(DjangoJSONEncoder):
    """Django's encoder cuts times to milliseconds; a backup keeps the microseconds."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def code_migrations() -> set[tuple[str, str]]:
    """Every migration of the code, as (app, name): what a database migrated by it records."""
    return set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)


def check_migrations(path: Path, recorded: set[tuple[str, str]]) -> None:
    """Refuse a backup made at other migrations than the code's."""
    code = code_migrations()
    if recorded == code:
        return
    missing = sorted(code - recorded)
    extra = sorted(recorded - code)
    parts = []
    if missing:
        parts.append("the backup lacks " + ", ".join(f"{a}.{n}" for a, n in missing))
    if extra:
        parts.append("this code lacks " + ", ".join(f"{a}.{n}" for a, n in extra))
    raise BackupError(
        f"{path} was made at other migrations than this code ({'; '.join(parts)}); nothing "
        "was changed. Restore it with the Skatclub version that made it, then update the "
        "code and migrate.")


def _dump_json(path: Path) -> None:
    """What ``dumpdata --natural-foreign -e contenttypes -e auth.permission`` writes, with
    times to the microsecond: every model of every app, in dependency order, under
    "objects", and the migrations the database is at under "migrations"."""
    app_list = [(config, None) for config in apps.get_app_configs()
                if config.models_module is not None and config.label not in JSON_EXCLUDE]
    models = [model for model in serializers.sort_dependencies(app_list, allow_cycles=True)
              if model._meta.managed and not model._meta.proxy
              and model._meta.label_lower not in JSON_EXCLUDE]
    rows = itertools.chain.from_iterable(
        model._default_manager.order_by(model._meta.pk.name).iterator() for model in models)
    with connection.cursor() as cursor:
        cursor.execute("SELECT app, name FROM django_migrations ORDER BY app, name")
        migrations = [[app, name] for app, name in cursor.fetchall()]
    with path.open("w", encoding="utf-8") as f:
        f.write(f'{{"format": "{JSON_FORMAT}", "migrations": {jsonlib.dumps(migrations)}, '
                '"objects": ')
        serializers.serialize("json", rows, stream=f, cls=_ExactEncoder,
                              use_natural_foreign_keys=True)
        f.write("}\n")


def has_data() -> bool:
    """Any club data or user account: what a restore would overwrite."""
    models = [*apps.get_app_config("scoring").get_models(),
              apps.get_model("auth", "User")]
    return any(model.objects.exists() for model in models)


def restore(path: Path, *, force: bool = False) -> str:
    """Replace the database's contents by the backup at ``path``; returns the method. The
    shared caches are emptied afterwards (their tables made again if the backup had none)."""
    method = _restore(path, force=force)
    call_command("createcachetable", verbosity=0)
    empty_caches()
    return method


def empty_caches() -> None:
    """Every entry of the site's caches: results keyed by table and version, PDFs and failure
    counts could otherwise answer for restored rows that reuse those keys. On Redis only the
    site's own keys (its prefixes) go, not those of other sites on the same server."""
    for alias, config in settings.CACHES.items():
        cache = caches[alias]
        if config["BACKEND"] == settings.REDIS_CACHE:
            client = cache._cache.get_client(write=True)  # type: ignore[attr-defined]
            keys = list(client.scan_iter(match=f"{cache.key_prefix}:*", count=1000))
            if keys:
                client.delete(*keys)
        else:
            cache.clear()


def _restore(path: Path, *, force: bool) -> str:
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as err:
        raise BackupError(f"Cannot read {path}: {err.strerror or err}") from None
    if not force and has_data():
        raise BackupError("The database is not empty; restore --force replaces everything "
                          "in it by the backup.")
    if head == SQLITE_MAGIC:
        if connection.vendor != "sqlite":
            raise BackupError("This is a SQLite backup; the database is "
                              f"{connection.vendor}. Make a JSON backup (backup --json) on "
                              "the SQLite site to move between databases.")
        connection.ensure_connection()
        try:
            source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                recorded = {(app, name) for app, name in source.execute(
                    "select app, name from django_migrations").fetchall()}
                check_migrations(path, recorded)
                source.backup(connection.connection)
            finally:
                source.close()
        except sqlite3.Error as err:
            raise BackupError(f"{path} is not a Skatclub backup: {err}") from None
        return "sqlite"
    try:
        document = jsonlib.loads(path.read_bytes())
    except (OSError, ValueError) as err:
        raise BackupError(f"{path} could not be restored, nothing was changed: {err}") from None
    if not (isinstance(document, dict) and document.get("format") == JSON_FORMAT
            and isinstance(document.get("migrations"), list)
            and isinstance(document.get("objects"), list)):
        raise BackupError(
            f"{path} could not be restored, nothing was changed: it does not list the "
            "migrations it was made at (a backup by `manage.py backup` does), so it cannot be "
            "checked against this code.")
    try:
        recorded = {(str(app), str(name)) for app, name in document["migrations"]}
    except (TypeError, ValueError):
        raise BackupError(f"{path} could not be restored, nothing was changed: its list of "
                          "migrations is not [app, name] pairs.") from None
    check_migrations(path, recorded)
    with tempfile.TemporaryDirectory() as folder:
        fixture = Path(folder) / "backup.json"  # loaddata knows the format by the suffix
        with fixture.open("w", encoding="utf-8") as f:
            jsonlib.dump(document["objects"], f)
        try:
            with transaction.atomic():
                call_command("flush", interactive=False, verbosity=0)
                call_command("loaddata", str(fixture), verbosity=0)
        except Exception as err:
            raise BackupError(f"{path} could not be restored, nothing was changed: "
                              f"{err}") from None
    return "json"
