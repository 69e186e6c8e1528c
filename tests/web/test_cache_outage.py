"""The shared cache on a Redis server that is gone (issue 26, item 12; skatclub/cache.py):
an empty cache that keeps nothing, quickly, with one warning; and the pieces of the site
that must answer without their database (the board's last render, /sync/'s JSON 503, the
site's 503 page). The whole site with the servers stopped mid-test: test_outages.py."""

from __future__ import annotations

import logging
import socket
import time
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from scoring.views import board as board_view
from skatclub.cache import ResilientRedisCache

from .factories import make_club, make_table, make_user

# Uses the run's database or cache server without pytest-django's database fixtures:
# run again on the PostgreSQL + Redis run (tests/django_fixtures.py).
pytestmark = pytest.mark.servers

GONE = "redis://127.0.0.1:1/0"  # nobody listens on port 1
REPLY = 0.3  # seconds: the hung server's test waits this long for each answer


def gone_cache() -> ResilientRedisCache:
    return ResilientRedisCache(GONE, {"KEY_PREFIX": "t", "TIMEOUT": 60})


def test_a_cache_that_is_gone_is_an_empty_cache_that_keeps_nothing(
        caplog: pytest.LogCaptureFixture) -> None:
    cache = gone_cache()
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="skatclub.cache"):
        for _ in range(50):
            assert cache.get("k") is None and cache.get("k", 7) == 7
            cache.set("k", 1)
            assert cache.add("k", 1) is True  # as on an empty cache
            assert cache.get_many(["a", "b"]) == {}
            assert cache.set_many({"a": 1}) == []
            assert cache.has_key("k") is False and cache.touch("k") is False
            assert cache.delete("k") is False
            cache.delete_many(["a"])
            with pytest.raises(ValueError):
                cache.incr("k")
            assert cache.get_or_set("k", 3) == 3
    assert time.monotonic() - started < 5
    assert not cache.available()
    warnings = [r for r in caplog.records if r.name == "skatclub.cache"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "cannot be reached" in warnings[0].getMessage()
    with pytest.raises(Exception):  # noqa: B017 - /healthz asks the server itself
        cache.ping()


def test_a_hanging_server_costs_one_wait_per_pause_and_the_pause_grows() -> None:
    """A server that takes the connection and never answers (a hung host): the first call
    waits for the reply timeout, the calls during the pause wait for nothing, and each try
    that fails again doubles the pause (up to 30 s). The reply timeout is set short here (the
    default's 2 s made this test wait 14 s for nothing; test_the_connection_waits_are_short_
    unless_configured checks the default)."""
    with socket.socket() as hung:
        hung.bind(("127.0.0.1", 0))
        hung.listen(100)
        cache = ResilientRedisCache(f"redis://127.0.0.1:{hung.getsockname()[1]}/0",
                                    {"OPTIONS": {"socket_timeout": REPLY}})
        started = time.monotonic()
        assert cache.get("k") is None
        assert REPLY * 0.9 <= time.monotonic() - started < REPLY + 2  # one wait for the reply
        started = time.monotonic()
        for _ in range(100):
            assert cache.get("k") is None
            cache.set("k", 1)
        assert time.monotonic() - started < REPLY  # not one wait among the 200 calls
        pauses = []
        for _ in range(6):
            cache._down_until = 0.0  # the pause is over: the next call asks again
            cache.get("k")
            pauses.append(cache._pause)
        assert pauses == [4, 8, 16, 30, 30, 30]


def test_the_connection_waits_are_short_unless_configured() -> None:
    options: dict[str, Any] = gone_cache()._options  # type: ignore[attr-defined]
    assert options["socket_connect_timeout"] <= 1 and options["socket_timeout"] <= 5
    mine = ResilientRedisCache(GONE, {"OPTIONS": {"socket_connect_timeout": 3}})
    assert mine._options["socket_connect_timeout"] == 3  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_the_board_serves_its_last_render_from_the_shared_cache_without_the_database(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from .tournaments import make_tournament

    tournament = make_tournament(make_club(), public=True)
    url = reverse("scoring:board", args=[tournament.board_key])
    first = Client().get(url)
    assert first.status_code == 200
    # Another worker (nothing in its memory) while the database is gone.
    board_view._newest.clear()
    board_view._local.clear()

    def gone(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(board_view, "board_version", gone)
    monkeypatch.setattr(board_view, "_slot", lambda: 10**12)  # a version not yet cached
    for path in (url, reverse("scoring:board-fragment", args=[tournament.board_key])):
        answer = Client().get(path)
        assert answer.status_code == 200, path
        assert tournament.name in answer.content.decode() or path != url
        assert 'class="stamp"' in answer.content.decode()
    # Without a kept board: the site's 503 page, not a traceback.
    board_view._newest.clear()
    from django.core.cache import cache
    cache.clear()
    answer = Client(raise_request_exception=False).get(url)
    assert answer.status_code == 503 and answer["Retry-After"]


@pytest.mark.django_db
def test_sync_and_state_answer_json_503_on_a_failure_they_cannot_carry_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from scoring import access

    table = make_table(make_club())
    client = Client()
    client.force_login(make_user(table.evening.club, "scorer"))

    def gone(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(access, "with_membership", gone)
    for answer in (client.post(reverse("scoring:table-sync", args=[table.pk]), "{}",
                               content_type="application/json"),
                   client.get(reverse("scoring:table-state", args=[table.pk]))):
        assert answer.status_code == 503
        assert answer["Content-Type"] == "application/json"
        assert answer.json()["status"] == "unavailable" and int(answer["Retry-After"]) > 0


@pytest.mark.django_db
def test_a_failure_before_the_sync_view_is_json_and_other_pages_get_the_503_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """handler500: a middleware's failure (the session's database) on /sync/ is its JSON
    503; on any other page a database that is gone is the site's page with 503."""
    from django.contrib.sessions.backends.cached_db import SessionStore

    table = make_table(make_club())
    client = Client(raise_request_exception=False)
    client.force_login(make_user(table.evening.club, "scorer"))

    def gone(self: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(SessionStore, "load", gone)
    sync = client.post(reverse("scoring:table-sync", args=[table.pk]), "{}",
                       content_type="application/json")
    assert sync.status_code == 503 and sync.json()["status"] == "unavailable"
    page = client.get(reverse("scoring:table", args=[table.pk]))
    assert page.status_code == 503 and page["Retry-After"]
    assert "<h1>" in page.content.decode()


def test_what_a_process_changed_while_redis_was_unreachable_is_not_stale_when_it_is_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Redis unreachable but not restarted (a network gone, then back): a session signed out
    and an account changed meanwhile must not come back from Redis as they were."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    from .servers import redis_server

    with redis_server() as server:
        cache = ResilientRedisCache(server.url, {"KEY_PREFIX": "t", "TIMEOUT": 600})
        cache.set("session", "signed in")
        cache.set("account", "old password")
        cache.set("other", "untouched")
        client = cache._cache  # type: ignore[attr-defined]
        reach = client.get_client

        def unreachable(*args: Any, **kwargs: Any) -> Any:
            raise RedisConnectionError("unreachable")

        monkeypatch.setattr(client, "get_client", unreachable)
        cache.delete("session")  # signed out while Redis was away
        cache.set("account", "new password")  # changed meanwhile
        cache.set_many({"fresh": 1})
        assert cache.get("session") is None and not cache.available()
        monkeypatch.setattr(client, "get_client", reach)  # the network is back
        cache._down_until = 0.0  # and the pause is over
        assert cache.get("session") is None
        assert cache.get("account") is None  # a miss: read from the database again
        assert cache.get("other") == "untouched"
        assert cache.available() and not cache._missed


def test_the_pdf_render_slots_still_bound_the_renders_while_redis_is_gone(
        settings: Any) -> None:
    """An empty cache grants every slot: while Redis is gone the slots are locked files of
    the machine, so one render at a time still leaves the other workers to the tablets."""
    from scoring.pdf import documents

    settings.CACHES = {**settings.CACHES, "pdf": {
        "BACKEND": "skatclub.cache.ResilientRedisCache", "LOCATION": GONE}}
    settings.PDF_RENDERS_AT_ONCE = 1
    with (documents.render_slot(time.monotonic()), pytest.raises(documents.PdfBusy),
          documents.render_slot(time.monotonic())):
        pass
    with documents.render_slot(time.monotonic()):  # freed again
        pass
