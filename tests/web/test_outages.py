"""Outages (issue 26, item 12): the site on PostgreSQL + Redis, both throwaway servers started
here, gunicorn as make serve runs it (DEBUG=0); Redis is stopped mid-test, then PostgreSQL.

- Redis gone: signed-in pages and their polls answer 200 from the database (the sessions are
  written through to it), /sync/ answers JSON (stored: the database is there), the board
  200, a new sign-in works, /healthz names the cache.
- PostgreSQL gone too: the board serves the last board it rendered (its "as of" stamp says
  when), /sync/ and the table's state answer their JSON 503 with Retry-After, any other
  page the site's 503 page (no traceback)."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest

from .servers import (
    Browser,
    environment,
    gunicorn,
    manage,
    postgres_server,
    redis_server,
)

pytestmark = pytest.mark.slow
PASSWORD = "pw-for-tests-only"
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "k" * 20 + "-test-only-" + "q9Z!x#7v" * 5,
              "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0",
              "CONN_MAX_AGE": "60"}
WON = {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
       "declarer_points": 70}

SETUP = """
import json
from django.urls import reverse
from scoring.writes import tournament as tw
from tests.web.factories import make_club, make_table, make_user
from tests.web.seasons import make_season
from tests.web.tournaments import fill_series, make_tournament
club = make_club()
scorer = make_user(club, "scorer")
season = make_season(club, "classic")
table = make_table(club)
tournament = make_tournament(make_club("board", "Board"), public=True)
tw.series_draw(tournament=tournament, seed=1)
fill_series(tournament, 1, leave=1)
key = tournament.board_key
print(json.dumps({
    "scorer": scorer.username,
    "pages": [reverse("scoring:table", args=[table.pk]),
              reverse("scoring:table-version", args=[table.pk]),
              reverse("scoring:sheet", args=[table.pk]),
              reverse("scoring:evening", args=[table.evening.pk]),
              reverse("scoring:season", args=[season.pk])],
    "screen": reverse("scoring:table", args=[table.pk]),
    "sync": reverse("scoring:table-sync", args=[table.pk]),
    "state": reverse("scoring:table-state", args=[table.pk]),
    "board": reverse("scoring:board", args=[key]),
    "fragment": reverse("scoring:board-fragment", args=[key]),
    "name": tournament.name,
    # Someone who plays (the dealer of a 4-table sits out): the seat after each dealer.
    "declarers": [(table.first_dealer + n + 1) % 4 for n in range(3)]}))
"""


def save(number: int, declarer: int = 0) -> dict[str, object]:
    return {"op": "save", "request_id": str(uuid.uuid4()), "base_version": number,
            "record": {**WON, "declarer": declarer}}


def is_json(answer_text: str) -> bool:
    try:
        json.loads(answer_text)
    except ValueError:
        return False
    return True


def test_redis_then_postgresql_stopped_mid_test(tmp_path: Path) -> None:
    with redis_server() as redis, postgres_server() as postgres:
        env = environment(DATABASE_URL=postgres.url, CACHE_URL=redis.url, **PRODUCTION)
        manage(env, "migrate", "--noinput", "-v0")
        data = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
        # One worker: the board it rendered is in its memory when both servers are gone.
        with gunicorn(env, tmp_path / "site.log", workers=1) as server:
            url = server.url
            scorer = Browser()
            signed = scorer.post(url + "/accounts/login/",
                                 {"username": data["scorer"], "password": PASSWORD})
            assert signed.status == 302, signed.text[-2000:]
            for page in data["pages"]:
                assert scorer.get(url + page).status == 200, page
            board = Browser().get(url + data["board"])
            assert board.status == 200 and data["name"] in board.text
            stamp = re.search(r'<p class="stamp">[^<]*</p>', board.text)
            assert stamp, board.text
            stored = scorer.post_json(url + data["sync"], save(0, data["declarers"][0]))
            assert stored.status == 200 and stored.json()["status"] == "stored", stored.text

            # ---------------------------------------------------------- Redis gone
            redis.stop()
            for page in data["pages"]:
                answer = scorer.get(url + page)
                assert answer.status == 200, (page, answer.status, server.output()[-3000:])
            assert "Traceback" not in scorer.get(url + data["screen"]).text
            answer = scorer.post_json(url + data["sync"], save(1, data["declarers"][1]))
            assert answer.status in (200, 503) and is_json(answer.text), answer.text
            assert answer.json()["status"] in ("stored", "unavailable")
            assert scorer.get(url + data["state"]).status == 200
            for path in (data["board"], data["fragment"]):
                assert Browser().get(url + path).status == 200, path
            # A new sign-in: its session lives in the database alone.
            other = Browser()
            assert other.post(url + "/accounts/login/", {
                "username": data["scorer"], "password": PASSWORD}).status == 302
            assert other.get(url + data["screen"]).status == 200
            health = Browser().get(url + "/healthz")
            assert health.status == 503 and health.json()["cache"] == "failed"
            assert health.json()["database"] == "ok"
            assert server.output().count("cannot be reached") <= 2, server.output()[-3000:]

            # ---------------------------------------------------------- PostgreSQL gone too
            postgres.stop()
            board = Browser().get(url + data["board"])
            assert board.status == 200, (board.status, server.output()[-3000:])
            assert data["name"] in board.text and stamp.group(0) in board.text
            fragment = Browser().get(url + data["fragment"])
            assert fragment.status == 200 and stamp.group(0) in fragment.text
            for path in (data["sync"], data["state"]):
                answer = (scorer.post_json(url + path, save(2)) if path == data["sync"]
                          else scorer.get(url + path))
                assert answer.status == 503, (path, answer.status, answer.text[:500])
                assert answer.headers["Content-Type"] == "application/json"
                assert answer.json()["status"] == "unavailable"
                assert int(answer.headers["Retry-After"]) > 0
            page = scorer.get(url + data["screen"])
            assert page.status == 503 and "Retry-After" in page.headers, page.status
            assert "<h1>" in page.text and "Traceback" not in page.text
            assert "Etwas ist schiefgegangen" in page.text, page.text[:1000]
