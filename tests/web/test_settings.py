"""Settings from URLs (django-environ): the database, the shared cache, e-mail; and the
trusted proxies. Each case runs the settings module in a fresh process with its environment,
as a deployment would start it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db.utils import ConnectionHandler

from skatclub.settings import envbool

ROOT = Path(__file__).resolve().parents[2]
KNOBS = {"DATABASE_URL", "CACHE_URL", "EMAIL_URL", "SQLITE_PATH", "CONN_MAX_AGE",
         "CONN_HEALTH_CHECKS", "TRUSTED_PROXIES", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS",
         "CACHE_KEY_PREFIX", "DEFAULT_FROM_EMAIL", "SECURE_PROXY_SSL_HEADER",
         "DJANGO_SETTINGS_MODULE"}


def settings_with(**env: str) -> dict[str, Any]:
    """DATABASES, CACHES and the e-mail settings as the settings module makes them."""
    code = ("import json; from skatclub import settings as s; print(json.dumps({"
            "'db': s.DATABASES['default'], 'caches': s.CACHES, 'email': {k: getattr(s, k, None)"
            " for k in ('EMAIL_BACKEND', 'EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_HOST_USER', "
            "'EMAIL_HOST_PASSWORD', 'EMAIL_USE_TLS', 'EMAIL_USE_SSL', 'DEFAULT_FROM_EMAIL')},"
            "'proxies': [str(n) for n in s.TRUSTED_PROXIES]}, default=str))")
    clean = {k: v for k, v in os.environ.items() if k not in KNOBS}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def refused(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in KNOBS}
    done = subprocess.run([sys.executable, "-c", "import skatclub.settings"], cwd=ROOT,
                          env={**clean, **env}, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    return done.stderr


def connection_params(db: dict[str, Any]) -> dict[str, Any]:
    """What Django's backend hands its driver for this DATABASES entry (nothing connects)."""
    return ConnectionHandler({"default": db})["default"].get_connection_params()


def test_database_url_over_tcp() -> None:
    db = settings_with(DATABASE_URL="postgres://skat:s%40cret@127.0.0.1:54329/skat")["db"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("skat", "skat", "s@cret")
    assert (db["HOST"], str(db["PORT"])) == ("127.0.0.1", "54329")


def test_database_url_over_a_unix_socket() -> None:
    db = settings_with(DATABASE_URL="postgresql://postgres@/skat?host=/work/main/.pg/sock")["db"]
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("skat", "postgres", "")
    params = connection_params(db)
    assert params["host"] == "/work/main/.pg/sock" and params["dbname"] == "skat"
    assert not params.get("port")


def test_database_url_takes_every_backend_and_sqlite_paths(tmp_path: Path) -> None:
    mysql = settings_with(DATABASE_URL="mysql://u:p@h/db")["db"]
    assert (mysql["ENGINE"], mysql["NAME"], mysql["HOST"]) == ("django.db.backends.mysql",
                                                               "db", "h")
    absolute = settings_with(DATABASE_URL=f"sqlite:///{tmp_path}/club.sqlite3")["db"]
    assert absolute["ENGINE"] == "django.db.backends.sqlite3"
    assert absolute["NAME"] == f"{tmp_path}/club.sqlite3"
    # The SQLite tuning (WAL, immediate transactions) holds for any SQLite file.
    assert absolute["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    relative = settings_with(DATABASE_URL="sqlite:///var/club.sqlite3")["db"]
    assert relative["NAME"] == str(ROOT / "var" / "club.sqlite3")


def test_without_database_url_the_checkout_s_sqlite_file() -> None:
    db = settings_with()["db"]
    assert (db["ENGINE"], db["NAME"]) == ("django.db.backends.sqlite3",
                                          str(ROOT / "db.sqlite3"))
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (0, True)


def test_connection_reuse_and_health_checks_come_from_the_environment() -> None:
    db = settings_with(DATABASE_URL="postgres://u@h/d", CONN_MAX_AGE="60",
                       CONN_HEALTH_CHECKS="0")["db"]
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (60, False)


def test_without_cache_url_every_cache_is_a_database_table_of_its_own() -> None:
    caches = settings_with()["caches"]
    assert set(caches) == {"default", "results", "pdf"}
    assert {c["BACKEND"] for c in caches.values()} == {
        "django.core.cache.backends.db.DatabaseCache"}
    assert len({c["LOCATION"] for c in caches.values()}) == 3
    assert len({c["KEY_PREFIX"] for c in caches.values()}) == 3


def test_cache_url_is_redis_through_django_s_own_backend() -> None:
    caches = settings_with(CACHE_URL="redis://:pw@10.0.0.5:6380/2",
                           CACHE_KEY_PREFIX="club7")["caches"]
    for alias, config in caches.items():
        assert config["BACKEND"] == "skatclub.cache.ResilientRedisCache"
        assert config["LOCATION"] == "redis://:pw@10.0.0.5:6380/2"
        assert config["KEY_PREFIX"] == f"club7:{alias}"
        assert "MAX_ENTRIES" not in config.get("OPTIONS", {})  # no such thing on Redis
    assert caches["results"]["TIMEOUT"] is None


@pytest.mark.parametrize(("url", "tls", "ssl", "port"), [
    ("smtp+tls://" + "club%40example.org:geh%21m" + "@mail.example.org:587", True, False, 587),
    ("smtp+ssl://" + "club%40example.org:geh%21m" + "@mail.example.org", False, True, 465),
])
def test_email_url(url: str, tls: bool, ssl: bool, port: int) -> None:
    email = settings_with(EMAIL_URL=url, DEFAULT_FROM_EMAIL="Skatclub <skat@example.org>")[
        "email"]
    assert email["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (email["EMAIL_HOST"], email["EMAIL_PORT"]) == ("mail.example.org", port)
    assert (email["EMAIL_HOST_USER"], email["EMAIL_HOST_PASSWORD"]) == ("club@example.org",
                                                                        "geh!m")
    assert (email["EMAIL_USE_TLS"], email["EMAIL_USE_SSL"]) == (tls, ssl)
    assert email["DEFAULT_FROM_EMAIL"] == "Skatclub <skat@example.org>"


def test_without_email_url_mails_go_to_the_console_while_debugging() -> None:
    assert settings_with(DEBUG="1")["email"]["EMAIL_BACKEND"] == (
        "django.core.mail.backends.console.EmailBackend")


def test_trusted_proxies_are_addresses_or_networks() -> None:
    assert settings_with()["proxies"] == []
    assert settings_with(TRUSTED_PROXIES="127.0.0.1, ::1,10.0.0.0/8")["proxies"] == [
        "127.0.0.1/32", "::1/128", "10.0.0.0/8"]
    assert "'10.0.0.1/8' is not an address or network" in refused(TRUSTED_PROXIES="10.0.0.1/8")
    assert "TRUSTED_PROXIES" in refused(SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto")


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("True", True), ("0", False), ("", False)]
)
def test_envbool(monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool) -> None:
    monkeypatch.setenv("SKATCLUB_FLAG", raw)
    assert envbool("SKATCLUB_FLAG", "1") is expected
