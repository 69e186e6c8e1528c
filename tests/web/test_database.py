"""Which database ran, and the concurrent save paths on a real server.

`make test` runs the suite twice: on SQLite, and with DATABASE_URL on a PostgreSQL server
that scripts/pg-test-server starts. The first test makes sure that a run meant for
PostgreSQL cannot pass on SQLite because the URL was lost on the way. The others race two
connections against one table; SQLite's test database lives in one connection's memory, so
they need the server."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction

from scoring.models import Deal, Table
from scoring.writes import table_ops
from scoring.writes.services import Actor, StaleTable, deal_record

from .factories import make_club, make_table, won

# Uses the run's database or cache server without pytest-django's database fixtures:
# run again on the PostgreSQL + Redis run (tests/django_fixtures.py).
pytestmark = pytest.mark.servers

ME = Actor(None, "test")
on_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs two connections to one database server")


def test_the_database_is_the_one_asked_for() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        assert connection.vendor == "postgresql"
    elif not url or url.startswith("sqlite:"):
        assert connection.vendor == "sqlite"


def in_thread(work: Callable[[], Any], name: str | None = None,
              ) -> tuple[threading.Thread, dict[str, Any]]:
    """Run ``work`` on its own connection; its result or exception lands in the dict."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["result"] = work()
        except Exception as err:  # handed to the test thread
            out["error"] = err
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread, out


def race(table: Table, first: dict[str, Any], second: dict[str, Any]) -> tuple[Any, Any]:
    """``first`` saves and holds its transaction open until ``second`` is waiting on the
    table's row; then it commits. Returns what each save returned (or raised)."""
    saved = threading.Event()
    release = threading.Event()

    def hold() -> Deal:
        with transaction.atomic():
            deal = deal_record(table=Table.objects.get(pk=table.pk), actor=ME, **first)
            saved.set()
            assert release.wait(10)
        return deal

    t1, out1 = in_thread(hold)
    assert saved.wait(10)
    t2, out2 = in_thread(lambda: deal_record(table=Table.objects.get(pk=table.pk), actor=ME,
                                             **second))
    # The second save blocks on the table's row, which the first holds: give it time to
    # get there, then let the first commit.
    t2.join(0.5)
    assert t2.is_alive(), out2
    release.set()
    t1.join(10)
    t2.join(10)
    return out1.get("result", out1.get("error")), out2.get("result", out2.get("error"))


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_a_retry_during_the_first_save_returns_its_deal() -> None:
    table = make_table(make_club())
    key = uuid.uuid4()
    request = {"record": won(1), "expected_version": 0, "request_id": key}
    first, again = race(table, request, request)
    assert isinstance(first, Deal) and isinstance(again, Deal), (first, again)
    assert first.pk == again.pk
    assert Deal.objects.filter(table=table).count() == 1


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_a_retry_that_claims_the_table_after_the_first_save_returns_its_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The retry looks for its deal before the first save has committed, then (held here
    # until that commit) claims the table with the version the first save made. Inside its
    # transaction it must find the saved deal, roll back and hand that deal back, not score
    # the record again as the next deal (which refuses it or, worse, the unique request id
    # would be all that stops a second copy).
    table = make_table(make_club())
    key = uuid.uuid4()
    at_claim, committed = threading.Event(), threading.Event()
    claim = table_ops._lock

    def held_claim(table: Table) -> dict[str, Any]:
        if threading.current_thread().name == "retry":
            at_claim.set()
            assert committed.wait(10)
        return claim(table)

    monkeypatch.setattr(table_ops, "_lock", held_claim)
    saved, release = threading.Event(), threading.Event()

    def first() -> Deal:
        with transaction.atomic():
            deal = deal_record(table=Table.objects.get(pk=table.pk), actor=ME, record=won(1),
                               expected_version=0, request_id=key)
            saved.set()
            assert release.wait(10)
        return deal

    t1, out1 = in_thread(first)
    assert saved.wait(10)
    t2, out2 = in_thread(lambda: deal_record(
        table=Table.objects.get(pk=table.pk), actor=ME, record=won(1), expected_version=1,
        request_id=key), name="retry")
    assert at_claim.wait(10)
    release.set()
    t1.join(10)
    committed.set()
    t2.join(10)
    assert isinstance(out1.get("result"), Deal), out1
    assert isinstance(out2.get("result"), Deal), out2
    assert out1["result"].pk == out2["result"].pk
    assert Deal.objects.filter(table=table).count() == 1
    assert Table.objects.get(pk=table.pk).version == 1


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_two_tablets_saving_against_one_version_save_one_deal() -> None:
    table = make_table(make_club())
    first, second = race(
        table, {"record": won(1), "expected_version": 0, "request_id": uuid.uuid4()},
        {"record": won(2), "expected_version": 0, "request_id": uuid.uuid4()})
    assert isinstance(first, Deal), first
    assert isinstance(second, StaleTable), second
    assert list(Deal.objects.filter(table=table).values_list("record__declarer", flat=True)) \
        == [1]


@pytest.mark.django_db
def test_the_cache_is_the_one_asked_for() -> None:
    """make test's second run has CACHE_URL (scripts/redis-test-server): every cache is then
    Redis, through Django's own backend; the first run keeps them in the database."""
    from django.conf import settings
    from django.core.cache import caches

    expected = ("skatclub.cache.ResilientRedisCache" if os.environ.get("CACHE_URL")
                else "django.core.cache.backends.db.DatabaseCache")
    for alias in ("default", "results", "pdf"):
        assert settings.CACHES[alias]["BACKEND"] == expected
        caches[alias].set("asked-for", alias)
        assert caches[alias].get("asked-for") == alias
