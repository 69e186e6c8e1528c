"""Two server processes, one site (issue 15): what one process saves or counts, the other
knows at the next request. Two gunicorn instances (two workers each, as two machines would
run them) on one SQLite file, started as make serve starts them; the shared cache is the
database's (or, on make test's Redis run, that Redis server under a prefix of their own).
Everything is asked over HTTP, as a tablet or an attacker would."""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .servers import ROOT, Browser, Server, environment, gunicorn, manage, without_tokens

pytestmark = [pytest.mark.slow, pytest.mark.servers]
PASSWORD = "pw-for-tests-only"
LIMIT = 4  # LOGIN_FREE_FAILURES for these servers (then a wait of LOGIN_DELAY)

SETUP = """
import json
from django.urls import reverse
from scoring.writes.services import table_create
from tests.web.factories import make_club, make_user
from tests.web.seasons import make_evening, make_season
club = make_club()
scorer = make_user(club, "scorer")
season = make_season(club, "classic")
evening = make_evening(season, 1)
tables = [table_create(evening=evening, players=list(club.players.all()[:4])) for _ in range(2)]
for name in ("anna", "bernd", "clara"):
    make_user(club, "viewer", username=name)
print(json.dumps({"scorer": scorer.username, "season": reverse("scoring:season", args=[season.pk]),
                  "tables": [{"pk": t.pk, "screen": reverse("scoring:table", args=[t.pk]),
                              "save": reverse("scoring:deal-save", args=[t.pk]),
                              "sheet": reverse("scoring:sheet", args=[t.pk])} for t in tables]}))
"""


@dataclass
class Site:
    a: Server
    b: Server
    data: dict[str, object]
    database: Path

    def table(self, n: int) -> dict[str, str]:
        return self.data["tables"][n]  # type: ignore[index,no-any-return]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("two-servers")
    (folder / "db").mkdir()
    database = folder / "db" / "site.sqlite3"
    settings = {"DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1",
                "LOGIN_FREE_FAILURES": str(LIMIT), "LOGIN_FREE_FAILURES_PER_ADDRESS": "1000",
                "LOGIN_DELAY": "600"}
    prefix = f"skatclub-test-servers-{uuid.uuid4().hex[:12]}"
    # make test's Redis run: the servers share that Redis, under a prefix of their own.
    if os.environ.get("CACHE_URL", "").startswith("redis"):
        settings |= {"CACHE_URL": os.environ["CACHE_URL"], "CACHE_KEY_PREFIX": prefix}
    env = environment(**settings)
    manage(env, "migrate", "--noinput", "-v0")
    data = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    try:
        with gunicorn(env, folder / "a.log") as a, gunicorn(env, folder / "b.log") as b:
            yield Site(a, b, data, database)
    finally:
        if "CACHE_URL" in settings:
            import redis

            client = redis.Redis.from_url(os.environ["CACHE_URL"])
            keys = list(client.scan_iter(match=f"{prefix}*"))
            if keys:
                client.delete(*keys)


def sign_in(browser: Browser, server: Server, username: str, password: str) -> int:
    return browser.post(server.url + "/accounts/login/",
                        {"username": username, "password": password}).status


def test_the_two_servers_are_two_processes_on_one_database(site: Site) -> None:
    assert site.a.process.pid != site.b.process.pid and site.a.url != site.b.url
    for server in (site.a, site.b):
        assert Browser().get(server.url + "/healthz").json() == {
            "status": "ok", "database": "ok", "cache": "ok"}


def test_a_deal_saved_through_one_server_is_on_the_other_s_pages_at_the_next_request(
        site: Site) -> None:
    table = site.table(0)
    scorer = Browser()
    assert sign_in(scorer, site.a, str(site.data["scorer"]), PASSWORD) == 302
    # B has served (and cached) the sheet and the season's standings before the save.
    pages = [table["sheet"], str(site.data["season"])]
    before = [scorer.get(site.b.url + page) for page in pages]
    assert [p.status for p in before] == [200, 200]
    assert scorer.get(site.a.url + table["screen"]).status == 200
    saved = scorer.post(site.a.url + table["save"], {
        "version": "0", "request_id": str(uuid.uuid4()), "kind": "game", "declarer": "1",
        "game": "clubs", "matadors": "1", "bid": "18", "result": "won"})
    assert saved.status == 302 and "saved=" in saved.headers["Location"], saved.text[-2000:]
    for page, old in zip(pages, before, strict=True):
        on_b = scorer.get(site.b.url + page)
        on_a = scorer.get(site.a.url + page)
        assert on_b.status == 200
        assert without_tokens(on_b.text) != without_tokens(old.text), page
        assert without_tokens(on_b.text) == without_tokens(on_a.text), page
    # The sheet B serves holds the deal: 24 for clubs with 1 (12 × 2).
    sheet = scorer.get(site.b.url + table["sheet"]).text
    assert re.search(r">\s*24\s*<", sheet), sheet


def test_wrong_passwords_spread_over_both_servers_are_counted_as_one(site: Site) -> None:
    attacker = Browser()
    for n in range(LIMIT):
        server = (site.a, site.b)[n % 2]
        assert sign_in(attacker, server, "anna", "wrong") == 200, n
    # Each server saw only half of them; the count is one, so the next has to wait (429)
    # on both.
    assert sign_in(attacker, site.a, "anna", "wrong") == 429
    assert sign_in(attacker, site.b, "anna", "wrong") == 429
    # Another account is not touched by anna's count.
    assert sign_in(Browser(), site.b, "bernd", "wrong") == 200


def test_healthz_answers_503_when_the_database_is_gone(site: Site) -> None:
    folder = site.database.parent
    gone = folder.with_name("gone")
    folder.rename(gone)  # the file's folder is not there: SQLite cannot open it
    try:
        answers = [Browser().get(server.url + "/healthz") for server in (site.a, site.b)]
    finally:
        gone.rename(folder)
    for answer in answers:
        assert answer.status == 503
        body = answer.json()
        assert body["status"] == "unavailable" and "database" in body["failed"], body
        assert body["database"] == "failed"
    assert Browser().get(site.a.url + "/healthz").status == 200
    assert "healthz: the database check failed" in site.a.output() + site.b.output()
    assert ROOT.exists()
