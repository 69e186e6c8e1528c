from __future__ import annotations

import pytest

from skatclub.settings import database_from_url, envbool


def test_database_url_over_tcp() -> None:
    db = database_from_url("postgres://skat:s%40cret@127.0.0.1:54329/skat")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("skat", "skat", "s@cret")
    assert (db["HOST"], db["PORT"]) == ("127.0.0.1", "54329")


def test_database_url_over_a_unix_socket() -> None:
    db = database_from_url("postgresql://postgres@/skat?host=/work/main/.pg/sock")
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("skat", "postgres", "")
    assert (db["HOST"], db["PORT"]) == ("/work/main/.pg/sock", "")


def test_database_url_refuses_other_databases() -> None:
    with pytest.raises(ValueError, match="unsupported scheme 'mysql'"):
        database_from_url("mysql://u:p@h/db")


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("True", True), ("0", False), ("", False)]
)
def test_envbool(monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool) -> None:
    monkeypatch.setenv("SKATCLUB_FLAG", raw)
    assert envbool("SKATCLUB_FLAG", "1") is expected
