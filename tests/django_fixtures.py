"""Suite-wide settings and autouse fixtures of the Django tests, loaded by tests/conftest.py
as a plugin whenever pytest-django is on (never for ``pytest -p no:django tests/engine``).

Browser tests (marked ``browser``, in tests/browser) get pytest-playwright's fixtures
configured in tests/browser/conftest.py; what every test needs around them (Playwright's
event loop put aside outside browser tests) is here, as it concerns every test of a session.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from skatclub.settings import REDIS_CACHE

# Playwright's sync API marks its event loop as running in the test thread between its calls
# (playwright/_impl/_greenlets.py, wait_for_future sets it again after every call), and its
# session-scoped `playwright` fixture keeps that loop for the rest of the session. While it is
# marked, Django refuses every ORM call in the test thread (SynchronousOnlyOperation) unless
# DJANGO_ALLOW_ASYNC_UNSAFE is set. So:
# - a browser test (marker `browser`) runs with DJANGO_ALLOW_ASYNC_UNSAFE set, from its setup
#   to the end of its teardown (its own queries, pytest-django's flush after it);
# - after it, the loop is put aside (no longer "running" in this thread), so every other test
#   runs as in a session without browsers: the variable unset and no running loop, so an ORM
#   call from a real async context still raises (tests/browser/test_async_unsafe_scope.py);
# - the loop is put back before anything can call Playwright again: the next browser test's
#   setup, and the `playwright` fixture's teardown at the end of the session.
# Nothing calls Playwright while the loop is put aside: only browser tests use it.
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
_put_aside: list[asyncio.AbstractEventLoop] = []


def _put_loop_aside() -> None:
    loop = asyncio.events._get_running_loop()
    if loop is not None and not _put_aside:
        _put_aside.append(loop)
        asyncio.events._set_running_loop(None)


def _put_loop_back() -> None:
    if _put_aside:
        asyncio.events._set_running_loop(_put_aside.pop())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    if item.get_closest_marker("browser"):
        _put_loop_back()
        os.environ[ASYNC_UNSAFE] = "true"
    else:
        _put_loop_aside()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    try:
        return (yield)
    finally:
        if item.get_closest_marker("browser"):
            os.environ.pop(ASYNC_UNSAFE, None)
            _put_loop_aside()



# ---------------------------------------------------------------- the PostgreSQL run

def uses_the_database(item: pytest.Item) -> bool:
    """Whether a test reaches the run's database or cache server: pytest-django's database
    (the ``django_db`` mark, or a fixture that gives access: ``db``, ``live_server`` …, also
    through a fixture of ours such as ``table``), or the mark ``servers`` (a test that reaches
    them its own way: which database ran, /healthz, two gunicorns on the run's Redis, the
    cache outages)."""
    return bool(item.get_closest_marker("django_db") or item.get_closest_marker("servers")
                or set(DB_FIXTURES_FIRST) & set(getattr(item, "fixturenames", ())))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a database other than SQLite (make test's second run: PostgreSQL and Redis) only
    the tests that use them run: a test that touches neither (the pure engine, the draw, the
    layout, a management command's parsing …) would only repeat what the SQLite run showed.
    ``--all-tests`` runs every one of them anyway."""
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") or config.getoption(
            "all_tests", default=False):
        return
    kept = [item for item in items if uses_the_database(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if not uses_the_database(i)])
        items[:] = kept


# ---------------------------------------------------------------- data built once a module

@contextmanager
def kept_for_the_module(django_db_blocker: Any) -> Iterator[None]:
    """For a module-scoped fixture that builds what several of a module's tests read (a
    1,001-player tournament costs seconds to register through the services): it is built
    inside a transaction that stays open while the module's tests run and is rolled back
    after them. Each test (``django_db``, not transactional) runs in a savepoint inside it,
    so what a test changes is gone for the next, as with data of its own; nothing of it
    outlives the module. Only for modules without ``transactional_db`` or ``live_server``
    tests (their flush would not see the open transaction's rows)."""
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


# ---------------------------------------------------------------- the shared cache

# The tests use the cache the settings name: on the SQLite run the database's cache tables
# (in the test database, made with it), on the PostgreSQL run Redis (CACHE_URL, from
# scripts/redis-test-server). Each test starts with empty caches, so that what it counts (a
# failure, a query, a render) does not depend on the tests before it. On Redis the run uses
# keys of its own (a per-run prefix) and removes only those, so that two runs, or a run
# beside a site, on one Redis server never see nor delete each other's entries.
RUN_PREFIX = f"skatclub-test-{uuid.uuid4().hex[:12]}"
# pytest-django's fixtures that give a test the database, the most thorough first.
DB_FIXTURES_FIRST = ("live_server", "transactional_db", "django_db_reset_sequences",
                     "django_db_serialized_rollback", "db")


def on_redis() -> bool:
    return any(c["BACKEND"] == REDIS_CACHE for c in settings.CACHES.values())


def delete_run_keys(prefix: str = RUN_PREFIX) -> None:
    """Every key of this run (and of the server processes it started) on Redis."""
    seen = set()
    for alias, config in settings.CACHES.items():
        if config["BACKEND"] != REDIS_CACHE or config["LOCATION"] in seen:
            continue
        seen.add(config["LOCATION"])
        client = caches[alias]._cache.get_client(write=True)  # type: ignore[attr-defined]
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)


# Query counts (django_assert_num_queries, CaptureQueriesContext) are the page's own queries:
# the database cache's reads and writes of its tables are left out, so that a page counts the
# same on the SQLite run (cache in the database) as on the PostgreSQL run (cache in Redis,
# no SQL at all).
_captured = CaptureQueriesContext.captured_queries


def _cache_query(sql: str) -> bool:
    return "skatclub_cache" in sql


def _without_cache_tables(self: CaptureQueriesContext) -> list[dict[str, Any]]:
    queries = _captured.fget(self)  # type: ignore[attr-defined]
    kept, i = [], 0
    while i < len(queries):
        sql = queries[i]["sql"]
        if _cache_query(sql):
            i += 1
            continue
        if sql.startswith("SAVEPOINT "):
            # The cache's own atomic block: a savepoint around cache queries only.
            name = sql.split(" ", 1)[1]
            j = i + 1
            while j < len(queries) and _cache_query(queries[j]["sql"]):
                j += 1
            if j > i + 1 and j < len(queries) and queries[j]["sql"] in (
                    f"RELEASE SAVEPOINT {name}", f"ROLLBACK TO SAVEPOINT {name}"):
                i = j + 1
                continue
        kept.append(queries[i])
        i += 1
    return kept


CaptureQueriesContext.captured_queries = property(_without_cache_tables)  # type: ignore[assignment,method-assign]


def worker_database(location: str) -> str:
    """The Redis URL ``location`` on a database of this pytest-xdist worker's own (gw0: 1,
    gw1: 2 …), as each worker has a test database of its own: a test's cache.clear() is a
    FLUSHDB, which would empty the other worker's cache in the middle of its test. Outside
    xdist, and for the servers a test starts (they take CACHE_URL with a prefix of their
    own), the URL as it is."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return location
    url = urlsplit(location)
    return urlunsplit(url._replace(path=f"/{1 + int(worker[2:])}"))


@pytest.fixture(autouse=True, scope="session")
def _caches_of_this_run() -> Iterator[None]:
    if not on_redis():
        yield
        return
    run = {alias: {**config, "KEY_PREFIX": f"{RUN_PREFIX}:{alias}",
                   "LOCATION": worker_database(config["LOCATION"])}
           for alias, config in settings.CACHES.items()}
    with override_settings(CACHES=run):
        yield
        delete_run_keys()


@pytest.fixture
def threads_share_the_cache() -> Iterator[None]:
    """For a test whose threads use the cache at once. SQLite's in-memory test database
    (shared cache mode) refuses a table to every other connection while one writes it
    ("database table is locked", no waiting), unlike a SQLite file, so on the SQLite run such
    a test gets the caches in memory, which its threads share; on Redis (or PostgreSQL) it
    keeps the real shared cache."""
    from django.db import connection

    if on_redis() or connection.vendor != "sqlite":
        yield
        return
    memory = {alias: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                      "LOCATION": f"threads-{alias}"} for alias in settings.CACHES}
    with override_settings(CACHES=memory):
        for alias in memory:
            caches[alias].clear()
        yield


@pytest.fixture(autouse=True)
def _empty_caches(request: pytest.FixtureRequest, _django_db_marker: None) -> None:
    if on_redis():
        delete_run_keys()
        return
    # The cache tables live in the test database: a test without database access cannot have
    # used them (and may not empty them). A test that asks for database access by fixture
    # rather than by mark gets it here first (it would a moment later).
    wanted = [name for name in DB_FIXTURES_FIRST if name in request.fixturenames]
    if wanted:
        request.getfixturevalue("transactional_db" if wanted[0] == "live_server" else wanted[0])
    if wanted or request.node.get_closest_marker("django_db"):
        for alias in settings.CACHES:
            caches[alias].clear()


@pytest.fixture(autouse=True)
def _states_read_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """reads/live keeps the polled pages' states for STATES_SECONDS for every process. Here
    a page reads them every time, so that query counts and what a page shows right after a
    change made outside the services do not depend on how fast a test runs;
    tests/web/test_polled_pages.py turns keeping on where it tests it."""
    from scoring.reads import live

    monkeypatch.setattr(live, "STATES_SECONDS", 0)


@pytest.fixture(autouse=True)
def _account_read_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """scoring.access.SignedInBackend keeps the signed-in account in the shared cache; here
    every request reads it, so that a page's query count does not depend on whether an
    earlier request of the test kept it. tests/web/test_sessions.py turns keeping on."""
    from scoring import access

    monkeypatch.setattr(access, "SIGNED_IN_SECONDS", 0)


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher() -> Iterator[None]:
    # The default PBKDF2 costs ~0.2 s per hash; tests create users, they don't guard them.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True, scope="session")
def _pdfs_render_in_process() -> Iterator[None]:
    # Tests count and fake WeasyPrint renders in their own process; a render in a niced child
    # (PDF_RENDER_NICE) would do both out of their sight. tests/test_pdf_niced.py tests it.
    with override_settings(PDF_RENDER_NICE=0):
        yield
