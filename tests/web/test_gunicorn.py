"""gunicorn as make serve runs it (skatclub/gunicorn_conf.py): X-Forwarded-Proto believed
only from TRUSTED_PROXIES (gunicorn's own default believes 127.0.0.1), a graceful shutdown
that finishes the request in hand, and the request id in the access log."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

from .servers import Answer, Browser, environment, gunicorn, manage

pytestmark = pytest.mark.slow
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "k" * 20 + "-test-only-" + "q9Z!x#7v" * 5,
              "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "1"}


def production(tmp_path: Path, **settings: str) -> dict[str, str]:
    env = environment(DATABASE_URL=f"sqlite:///{tmp_path}/site.sqlite3", **PRODUCTION,
                      **settings)
    manage(env, "migrate", "--noinput", "-v0")
    return env


@pytest.mark.parametrize(("trusted", "believed"), [("", False), ("127.0.0.1,::1", True)])
def test_forwarded_proto_from_the_loopback_only_when_it_is_a_trusted_proxy(
        tmp_path: Path, trusted: str, believed: bool) -> None:
    with gunicorn(production(tmp_path, TRUSTED_PROXIES=trusted), tmp_path / "log",
                  workers=1) as server:
        answer = Browser().get(server.url + "/accounts/login/", **{"X-Forwarded-Proto": "https"})
    # Plain HTTP is redirected to HTTPS; a request the proxy says came over HTTPS is not.
    assert (answer.status != 301) is believed, (answer.status, answer.headers)


def test_a_shutdown_finishes_the_request_in_hand_and_logs_request_ids(tmp_path: Path) -> None:
    answers: list[Answer] = []
    with gunicorn(production(tmp_path), tmp_path / "log", workers=1,
                  app="tests.web.slow_wsgi:application") as server:
        slow = threading.Thread(target=lambda: answers.append(
            Browser().get(server.url + "/slow/")))
        slow.start()
        time.sleep(0.7)  # the worker is inside the slow request
        started = time.monotonic()
        status = server.stop()
        slow.join(10)
        log = server.output()
    assert answers and answers[0].status == 200, log
    assert answers[0].json()["status"] == "ok"
    assert status == 0 and time.monotonic() - started < 10, log
    assert "Handling signal: term" in log, log
    request_id = answers[0].headers["X-Request-ID"]
    assert re.search(rf'"GET /slow/ HTTP/1.1" 200 .* request_id={request_id}', log), log
