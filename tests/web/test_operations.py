"""Who asked, and is the site well: the proxy headers believed from trusted proxies only, the
request id, /healthz, and the log that keeps every 500 (skatclub/middleware.py, health.py,
settings.LOGGING)."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings

from .test_production import PRODUCTION, manage

# Uses the run's database or cache server without pytest-django's database fixtures:
# run again on the PostgreSQL + Redis run (tests/django_fixtures.py).
pytestmark = pytest.mark.servers

OPS = pytest.mark.urls("tests.web.ops_urls")
PROXY = "127.0.0.1"
CLIENT = "198.51.100.7"


def proxies(*networks: str) -> Any:
    return override_settings(TRUSTED_PROXIES=[ipaddress.ip_network(n) for n in networks])


def whoami(remote: str, **headers: Any) -> dict[str, Any]:
    response = Client().get("/whoami/", REMOTE_ADDR=remote, **headers)
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


@OPS
@pytest.mark.parametrize("trusted", [(), (PROXY, "10.0.0.0/8")])
def test_a_forged_forwarded_for_from_a_non_proxy_is_ignored(trusted: tuple[str, ...]) -> None:
    with proxies(*trusted):
        seen = whoami(CLIENT, HTTP_X_FORWARDED_FOR="203.0.113.9, 10.0.0.2",
                      HTTP_X_FORWARDED_PROTO="https")
    assert seen == {"address": CLIENT, "scheme": "http", "forwarded_for": None,
                    "forwarded_proto": None}


@OPS
def test_from_a_trusted_proxy_the_client_is_the_right_most_untrusted_hop() -> None:
    with proxies(PROXY, "10.0.0.0/8"):
        # The client wrote "6.6.6.6" itself; the proxies appended the rest.
        seen = whoami(PROXY, HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9, 10.0.0.2",
                      HTTP_X_FORWARDED_PROTO="https")
        assert (seen["address"], seen["scheme"]) == ("203.0.113.9", "https")
        assert whoami(PROXY, HTTP_X_FORWARDED_FOR="2001:db8::7")["address"] == "2001:db8::7"
        # A chain of proxies only: its left-most one.
        assert whoami(PROXY, HTTP_X_FORWARDED_FOR="10.0.0.3, 10.0.0.2")["address"] == "10.0.0.3"
        # Nothing to go by: the proxy's own address, plain HTTP.
        seen = whoami(PROXY, HTTP_X_FORWARDED_FOR="unknown", HTTP_X_FORWARDED_PROTO="gopher")
        assert (seen["address"], seen["scheme"]) == (PROXY, "http")


@OPS
def test_the_https_redirect_believes_only_the_trusted_proxy(settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    with proxies(PROXY):
        assert Client().get("/whoami/", REMOTE_ADDR=PROXY,
                            HTTP_X_FORWARDED_PROTO="https").status_code == 200
        forged = Client().get("/whoami/", REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_PROTO="https")
        assert forged.status_code == 301 and forged["Location"].startswith("https://")


@OPS
def test_every_response_carries_a_request_id_a_client_cannot_choose() -> None:
    with proxies(PROXY):
        own = Client().get("/whoami/", REMOTE_ADDR=CLIENT, HTTP_X_REQUEST_ID="chosen-by-me")
        assert re.fullmatch(r"[0-9a-f]{32}", own["X-Request-ID"])
        assert own["X-Request-ID"] != Client().get("/whoami/")["X-Request-ID"]
        relayed = Client().get("/whoami/", REMOTE_ADDR=PROXY, HTTP_X_REQUEST_ID="lb-4711")
        assert relayed["X-Request-ID"] == "lb-4711"
        odd = Client().get("/whoami/", REMOTE_ADDR=PROXY, HTTP_X_REQUEST_ID="a b\nforged log")
        assert re.fullmatch(r"[0-9a-f]{32}", odd["X-Request-ID"])


@pytest.mark.django_db
def test_healthz_answers_ok_without_a_session(django_assert_max_num_queries: Any) -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "Set-Cookie" not in response and "no-cache" in response["Cache-Control"]
    assert Client().post("/healthz").status_code == 405


@pytest.mark.skipif(connection.vendor != "postgresql", reason=(
    "the in-memory SQLite test database cannot be taken away and brought back; "
    "test_shared_state.py takes a server's SQLite file away"))
@pytest.mark.django_db(transaction=True)
def test_healthz_answers_503_when_the_database_server_is_gone() -> None:
    """The connection settings point at a port nobody listens on: the database check fails
    (and the cache's, when the cache is in the database)."""
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT="1")
    try:
        response = Client().get("/healthz")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and "database" in body["failed"]
    assert body["database"] == "failed"
    assert Client().get("/healthz").status_code == 200


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_cache_when_redis_is_gone(settings: Any) -> None:
    settings.CACHES = {**settings.CACHES, "default": {
        "BACKEND": "skatclub.cache.ResilientRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0"}}
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "failed": ["cache"], "database": "ok",
                               "cache": "failed"}


def test_a_500_with_debug_off_is_logged_with_its_traceback_and_request_id() -> None:
    code = ("from django.test import Client, override_settings\n"
            "with override_settings(ROOT_URLCONF='tests.web.ops_urls'):\n"
            "    c = Client(raise_request_exception=False, HTTP_HOST='skat.example.org')\n"
            "    r = c.get('/boom/', secure=True)\n"
            "    m = c.get('/mail-failed/', secure=True)\n"
            "print('ANSWER', r.status_code, r['X-Request-ID'], m['X-Request-ID'])\n")
    done = manage("shell", "-c", code, **PRODUCTION)
    assert done.returncode == 0, done.stderr
    _, status, boom_id, mail_id = done.stdout.split()[-4:]
    assert status == "500"
    log = done.stderr
    assert re.search(rf"ERROR \[{boom_id}\] django\.request: Internal Server Error: /boom/",
                     log), log
    assert "Traceback (most recent call last)" in log and "ZeroDivisionError" in log, log
    assert re.search(rf"ERROR \[{mail_id}\] skatclub\.mail: invitation to a@b\.example not "
                     "sent", log), log
    assert "ConnectionRefusedError: mail.example.org:587" in log, log
