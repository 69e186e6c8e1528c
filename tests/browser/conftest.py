"""The browser tests (Playwright, marked ``browser``): pytest-playwright's fixtures —
``browser``, ``new_context``, ``page`` — configured once: Debian's chromium (never
Playwright's own download), a 1024×768 landscape tablet with touch and a German locale. A test
picks another viewport with
``@pytest.mark.browser_context_args(viewport={"width": 800, "height": 1280})``.
Screenshots go to ``screenshot_dir`` (tests/conftest.py).

Every test here is marked ``browser`` (an unmarked one is marked here), so that
``-m "not browser"`` leaves the whole folder out; tests/test_layout.py keeps browser tests out of
the other folders. The shared model fixtures (``table``, ``scorer`` …) come from
tests/web/fixtures.py; the helpers (``console_errors``, ``fits``, ``wait_until``) from
tests/browser/helpers.py.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.servers.basehttp import ThreadedWSGIServer
from django.core.signals import request_finished, request_started
from django.test.testcases import LiveServerThread
from playwright.sync_api import Playwright

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, TABLET
from tests.django_fixtures import _put_loop_aside, _put_loop_back
from tests.web.fixtures import club, scorer, table, table_players

__all__ = ["club", "scorer", "table", "table_players"]

class OneRequestAtATime(ThreadedWSGIServer):
    """The live server, serving one request at a time. On SQLite the live server's threads
    share the test's one database connection, so two requests at once (a page's poll beside a
    table screen's save) interleave their savepoints on it: a clean run saw the save answer 500
    with "no such savepoint" while the tournament board polled (test_tournament_browser). A
    browser waits for a request in turn as it would for a busy server; no test here depends on
    two requests being served at once."""

    def set_app(self, application: Any) -> None:
        lock = threading.Lock()

        def one_at_a_time(environ: Any, start_response: Any) -> Any:
            with lock:
                return application(environ, start_response)

        super().set_app(one_at_a_time)


LiveServerThread.server_class = OneRequestAtATime  # type: ignore[attr-defined]  # not in the stubs


def _live(sender: object) -> bool:
    """Whether a request signal comes from the live server (a WSGIHandler, in a thread of this
    process), not from the test client, whose streamed responses finish only when a test
    reads them to the end (an unread PDF would count as in flight for ever)."""
    return isinstance(sender, type) and issubclass(sender, WSGIHandler)


class InFlight:
    """The live server's requests being served now, counted by Django's request signals."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0

    def started(self, sender: object, **_kwargs: Any) -> None:
        if _live(sender):
            with self._lock:
                self._count += 1

    def finished(self, sender: object, **_kwargs: Any) -> None:
        if _live(sender):
            with self._lock:
                self._count -= 1

    @property
    def count(self) -> int:
        with self._lock:
            return self._count


IN_FLIGHT = InFlight()
request_started.connect(IN_FLIGHT.started, dispatch_uid="tests-browser-in-flight")
request_finished.connect(IN_FLIGHT.finished, dispatch_uid="tests-browser-in-flight")
QUIET = 0.2  # seconds without a request in flight that count as quiet
QUIET_WAIT = 10.0  # the most a test's end waits for its requests


@pytest.fixture(autouse=True)
def _requests_done_before_the_flush() -> Iterator[None]:
    """At a browser test's end, wait until the live server serves no request of it any more
    before pytest-django empties the database. The test's pages and contexts are closed by then
    (they are the test's own fixtures, torn down before this autouse one, which pytest-django's
    database fixture outlives), but a request they sent may still be in the server's thread:
    a reload a service worker passed on to the network, a poll. On SQLite that thread shares
    the test's connection, and a page rendered while the flush runs broke the transaction
    state for every later test (seen once in a whole clean run: test_offline_reload_browser's
    teardown, then 241 errors)."""
    yield
    deadline = time.monotonic() + QUIET_WAIT
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        if IN_FLIGHT.count > 0:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= QUIET:
            return
        time.sleep(0.02)
    # Not a failure of this test: the flush goes ahead as it always did, and says why.
    warnings.warn(f"{IN_FLIGHT.count} request(s) still served {QUIET_WAIT:.0f} s after the "
                  "test's end", stacklevel=1)


@pytest.fixture(scope="session")
def _no_loop_left(django_db_setup: None) -> Iterator[None]:
    yield
    _put_loop_aside()  # whatever Playwright left marked, before the database is destroyed


@pytest.fixture(scope="session")
def playwright(_no_loop_left: None, playwright: Playwright) -> Iterator[Playwright]:
    """pytest-playwright's own, started after the test database exists (so that it stops
    before the database is destroyed), with its loop put back before it stops."""
    yield playwright
    _put_loop_back()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed (make system-test-deps)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def browser_context_args(browser_context_args: dict[str, Any],
                         request: pytest.FixtureRequest) -> dict[str, Any]:
    """Service workers are blocked unless a test is marked ``service_workers`` (the offline
    table's tests, whose worker is what they test). Every table screen registers the offline
    table's worker, which precaches the whole Pyodide runtime (some 12 MB) from the one live
    server of the session; in tests that do not test it, that was traffic and CPU beside the
    test's own requests, and a worker still busy when its context closed could go on in the
    shared browser (see ``retire`` in test_offline_table_browser.py): the likely cause of
    the two 30 s timeouts seen only under the whole suite (the audit page of
    test_two_tablets_offline_conflict_then_append, the save of
    test_a_stale_save_from_a_second_device_is_refused), each a request waiting behind that
    traffic on the session's one live server."""
    workers = "allow" if request.node.get_closest_marker("service_workers") else "block"
    return {**browser_context_args, "viewport": TABLET, "has_touch": True, "locale": "de-DE",
            "service_workers": workers}


@pytest.fixture(autouse=True)
def site_url_of_live_server(request: pytest.FixtureRequest) -> None:
    """Links in mails and invitations start with SITE_URL (never the request's Host): for a
    browser test that is the live server, as it would be the site's own address."""
    if "live_server" in request.fixturenames:
        settings = request.getfixturevalue("settings")
        settings.SITE_URL = request.getfixturevalue("live_server").url


# The offline engine's worker script (the Pyodide runtime it starts): every table screen starts
# it as it opens, so that the table can go on without the network.
ENGINE_WORKER = "**/js/skat-engine-worker*.js"


def uses_the_engine(request: pytest.FixtureRequest) -> bool:
    return any(request.node.get_closest_marker(name) for name in ("engine", "service_workers"))


@pytest.fixture
def new_context(new_context: Any, request: pytest.FixtureRequest) -> Any:
    """pytest-playwright's factory (also behind ``context`` and ``page``), whose contexts
    refuse the offline engine's worker unless the test is marked ``engine`` (or
    ``service_workers``: the offline table's tests). Online the table screen needs no engine
    (the server answers every preview and save), so every other test sees it as a tablet that
    cannot run Python in the browser does, which must score as well online; and a fresh
    context starting Pyodide on every table screen it opens was a third of these tests' time
    (the 39 of test_table_screen_fits.py and test_round_browser.py: 110–118 s with the
    engine, 64–75 s without, on two processes)."""
    refuse = not uses_the_engine(request)

    def make(**kwargs: Any) -> Any:
        context = new_context(**kwargs)
        if refuse:
            context.route(ENGINE_WORKER, lambda route: route.abort())
        return context

    return make


@pytest.fixture
def contexts(browser: Any, browser_context_args: dict[str, Any],
             request: pytest.FixtureRequest) -> Iterator[Any]:
    """Browser contexts made on demand (``contexts(locale=…)``, any context argument in
    place of the test's own), each closed at the end and refusing the engine as
    ``new_context``'s do: a browser test with two people at once (an invitation, a
    registration)."""
    made: list[Any] = []
    refuse = not uses_the_engine(request)

    def new(**extra: Any) -> Any:
        context = browser.new_context(**{**browser_context_args, **extra})
        if refuse:
            context.route(ENGINE_WORKER, lambda route: route.abort())
        made.append(context)
        return context

    yield new
    for context in made:
        context.close()
