"""A club evening under load (issue 7): 12 tablets saving deals and 200 viewers polling, over
real HTTP against gunicorn (DEBUG=0, as `make serve` runs it), then the same again while one
gunicorn worker is killed with SIGKILL mid-run.

Set-up (all in a temp dir): a fresh SQLite database, a club with one evening of 12 four-player
tables (seeded with deals through the services), a season holding the evening, one scorer
account per tablet and a viewer account. gunicorn is started on 127.0.0.1 on a free port and
stopped (by its pid) at the end. Traffic goes to that loopback server only, every loop is
bounded in time and count.

- Tablets: log in, open the table screen, read the deal form's version and request_id, and
  every 2 s post a valid deal (a Grand Hand with 1, won, declared by the first active seat:
  valid in a normal deal and inside a Ramsch round), then follow the redirect to the screen
  like a browser. A network error or a 5xx is retried with the SAME request_id, a 409
  (another device was quicker) reloads the screen.
- Viewers: poll a table's sheet fragment every 10 s, the evening's live overview every 5 s or
  the season standings every 10 s, as the pages themselves do (hx-trigger).
- Baseline in the same run: the plain login page on the idle server.

Checks: 0 errors, p99 < 250 ms for every kind of request, and afterwards in the database:
every save a tablet saw confirmed (302 to ?saved=<id>) is stored exactly once under its
request_id and with that id, no request_id twice, and the new deals are exactly the
confirmed ones. A request cut off by the killed worker is retried once by a viewer (the next
poll would do the same) and until confirmed by a tablet; such cut-offs are counted and
printed, and only what still fails after that counts as an error.

Run: make bench  (or .venv/bin/python bench/load.py [--seconds 60] [--workers 4])
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

# Gunicorn and this process share the secret key (sessions made here are valid there).
os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)

from _support import (  # noqa: E402 (sets Django up)
    HOST,
    WORKDIR,
    free_port,
    percentile,
    start_gunicorn,
    stop,
    worker_pids,
)
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.engine import generate_deals  # noqa: E402
from scoring.models import Club, Deal, Membership, Player, RuleProfile, Season  # noqa: E402
from scoring.presets import PRESETS  # noqa: E402
from scoring.writes.services import Actor, deal_record, evening_create, table_create  # noqa: E402

TABLES = 12
SEEDED_DEALS = 24
VIEWERS = 200
SHEET_VIEWERS, LIVE_VIEWERS = 150, 40  # the rest watch the season standings
DEAL_EVERY = 2.0
POLL = {"sheet fragment": 10.0, "evening live": 5.0, "season standings": 10.0}
POOL = 48  # connections open at once, across all clients
TIMEOUT = 15.0
P99_TARGET_MS = 250.0
PASSWORD = "load-bench-only"


# ---------------------------------------------------------------- set-up

@dataclass
class Site:
    tables: list[int]
    evening: int
    season: int
    tablet_users: list[str]
    viewer: str


def build_site() -> Site:
    call_command("migrate", verbosity=0)
    club = Club.objects.create(slug="load", name="Skatfreunde Last")
    preset = PRESETS["club_evening"]
    profile = RuleProfile.objects.create(club=club, name=preset["name"], rules=preset["rules"],
                                         options=preset["options"], scoring=preset["scoring"],
                                         stake="0.05")
    today = timezone.localdate()
    season = Season.objects.create(club=club, name="Saison", start=today, end=today,
                                   evaluation="seeger_fabian")
    # An open list (no series length), so that both runs can keep adding deals.
    evening = evening_create(club=club, date=today, profile=profile, season=season,
                             series_rounds=None)
    users = get_user_model().objects
    tables, tablet_users = [], []
    for number in range(1, TABLES + 1):
        players = [Player.objects.create(club=club, name=f"Spieler {number}-{seat}")
                   for seat in range(1, 5)]
        table = table_create(evening=evening, players=players)
        name = f"tisch{number}"
        user = users.create_user(name, password=PASSWORD)
        Membership.objects.create(user=user, club=club, role=Membership.Role.SCORER)
        actor = Actor(user, name)
        for version, record in enumerate(generate_deals(SEEDED_DEALS, 4, "isko",
                                                        evening.options, seed=number)):
            deal_record(table=table, record=record, expected_version=version, actor=actor)
        tables.append(table.pk)
        tablet_users.append(name)
    viewer = users.create_user("zuschauer", password=PASSWORD)
    Membership.objects.create(user=viewer, club=club, role=Membership.Role.VIEWER)
    return Site(tables, evening.pk, season.pk, tablet_users, "zuschauer")


def sockets(pid: int) -> set[str]:
    found = set()
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:"):
                found.add(target)
    except OSError:
        pass
    return found


def busy_worker(master: int, pids: list[int]) -> tuple[int, bool]:
    """A worker holding a client's connection (a socket the master does not share: it is in
    the middle of a request) if one is found within 2 s, else any; so that the kill cuts off
    a request rather than an idle process."""
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        shared = sockets(master)
        for pid in pids:
            if sockets(pid) - shared:
                return pid, True
        time.sleep(0.001)
    return random.choice(pids), False


# ---------------------------------------------------------------- HTTP over a bounded pool

POOL_SLOTS = threading.BoundedSemaphore(POOL)


class Http:
    """One device: its cookies, one request at a time, a connection per request."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                ) -> tuple[int, str, str]:
        headers = {"Host": HOST}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        with POOL_SLOTS:
            connection = http.client.HTTPConnection(HOST, self.port, timeout=TIMEOUT)
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                text = response.read().decode("utf-8", "replace")
            finally:
                connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, response.headers.get("Location", ""), text

    def get(self, path: str) -> tuple[int, str, str]:
        return self.request("GET", path)

    def login(self, username: str) -> None:
        status, _, page = self.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert status == 200 and token, "no login form"
        status, location, _ = self.request("POST", "/accounts/login/", {
            "csrfmiddlewaretoken": token.group(1), "username": username,
            "password": PASSWORD})
        assert status == 302, f"login of {username} failed ({status})"


# ---------------------------------------------------------------- the clients

@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    cut_off: int = 0  # connection errors/5xx that a retry then got through
    stale: int = 0
    confirmed: dict[int, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))

    def timed(self, kind: str, device: Http, method: str, path: str,
              form: dict[str, str] | None = None) -> tuple[int, str, str]:
        start = time.perf_counter()
        result = device.request(method, path, form)
        with self.lock:
            self.ms[kind].append((time.perf_counter() - start) * 1000)
        return result

    def error(self, kind: str) -> None:
        with self.lock:
            self.errors[kind] += 1


def form_fields(page: str) -> tuple[str, str, str, str] | None:
    """The deal form's csrf token, version, request_id and first active seat."""
    start = page.find('id="deal-form"')
    if start < 0:
        return None
    form = page[start:]
    found = [re.search(rf'name="{name}" value="([^"]*)"', form)
             for name in ("csrfmiddlewaretoken", "version", "request_id")]
    seat = re.search(r'name="declarer" value="(\d+)"', form) or \
        re.search(r'value="(\d+)"[^>]*name="declarer"', form)
    if not all(found) or seat is None:
        return None
    token, version, request_id = (m.group(1) for m in found if m)
    return token, version, request_id, seat.group(1)


def tablet(device: Http, table: int, stats: Stats, until: float, start_after: float) -> None:
    screen = f"/tables/{table}/"
    time.sleep(start_after)
    page = ""
    while time.monotonic() < until:
        cycle = time.monotonic()
        if not page:
            status, _, page = retrying(stats, "table screen", device, "GET", screen, until)
            if status != 200:
                stats.error("table screen")
                page = ""
                time.sleep(DEAL_EVERY)
                continue
        fields = form_fields(page)
        if fields is None:
            stats.error("table screen")
            page = ""
            time.sleep(DEAL_EVERY)
            continue
        token, version, request_id, seat = fields
        post = {"csrfmiddlewaretoken": token, "version": version, "request_id": request_id,
                "kind": "game", "declarer": seat, "game": "grand", "hand": "on",
                "matadors": "1", "bid": "18", "result": "won"}
        # The same request until the server answers: a tablet never invents a second one.
        status, location, page = retrying(stats, "deal POST", device, "POST",
                                          f"/tables/{table}/deals/", until, post, tablet=True)
        if status == 302 and "?saved=" in location:
            saved = int(location.rsplit("=", 1)[1])
            with stats.lock:
                stats.confirmed[table][request_id] = saved
            target = urlsplit(location)
            status, _, page = retrying(stats, "table screen", device, "GET",
                                       f"{target.path}?{target.query}", until)
            if status != 200:
                stats.error("table screen")
                page = ""
        elif status == 409:
            with stats.lock:
                stats.stale += 1
            page = ""
        else:
            stats.error("deal POST")
            page = ""
        time.sleep(max(0.0, DEAL_EVERY - (time.monotonic() - cycle)))


def retrying(stats: Stats, kind: str, device: Http, method: str, path: str, until: float,
             form: dict[str, str] | None = None, *, tablet: bool = False,
             ) -> tuple[int, str, str]:
    """A viewer retries a cut-off request once; a tablet retries its save (same
    request_id) until the server answers, for at most 30 s past the end of the run."""
    attempts = 0
    give_up = until + 30
    while True:
        attempts += 1
        try:
            status, location, text = stats.timed(kind, device, method, path, form)
            if status < 500:
                return status, location, text
        except (OSError, http.client.HTTPException):
            status, location, text = 599, "", ""
        with stats.lock:
            stats.cut_off += 1
        if (not tablet and attempts >= 2) or time.monotonic() > give_up or attempts >= 50:
            with stats.lock:
                stats.cut_off -= 1  # not got through: an error, counted by the caller
            return status, location, text
        time.sleep(0.2)


def viewer(port: int, cookies: dict[str, str], kind: str, path: str, stats: Stats,
           until: float) -> None:
    device = Http(port)
    device.cookies = dict(cookies)
    every = POLL[kind]
    time.sleep(random.uniform(0, every))  # devices open their pages at different times
    while time.monotonic() < until:
        cycle = time.monotonic()
        status, _, _ = retrying(stats, kind, device, "GET", path, until)
        if status != 200:
            stats.error(kind)
        time.sleep(max(0.0, every - (time.monotonic() - cycle)))


# ---------------------------------------------------------------- a run

def run(port: int, site: Site, seconds: float, tablets: list[Http],
        viewer_cookies: dict[str, str], process: subprocess.Popen[bytes] | None = None,
        ) -> Stats:
    """One load run; with ``process``, one of its workers is killed halfway through."""
    stats = Stats()
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=tablet, args=(device, table, stats, until,
                                                     random.uniform(0, DEAL_EVERY)))
               for table, device in zip(site.tables, tablets, strict=True)]
    for n in range(VIEWERS):
        if n < SHEET_VIEWERS:
            kind, path = "sheet fragment", f"/tables/{site.tables[n % TABLES]}/sheet/fragment/"
        elif n < SHEET_VIEWERS + LIVE_VIEWERS:
            kind, path = "evening live", f"/evenings/{site.evening}/live/"
        else:
            kind, path = "season standings", f"/seasons/{site.season}/"
        threads.append(threading.Thread(target=viewer, args=(port, viewer_cookies, kind, path,
                                                             stats, until)))
    for t in threads:
        t.start()
    if process is not None:
        time.sleep(seconds / 2)
        victims = worker_pids(process)
        victim, busy = busy_worker(process.pid, victims)
        os.kill(victim, signal.SIGKILL)
        print(f"  killed worker pid {victim} with SIGKILL after {seconds / 2:.0f} s "
              f"({'while it held a client connection' if busy else 'idle'})")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            pids = worker_pids(process)
            if len(pids) == len(victims) and victim not in pids:
                print("  gunicorn started a new worker: pid "
                      f"{', '.join(str(p) for p in set(pids) - set(victims))}")
                break
            time.sleep(0.1)
        else:
            print("  gunicorn did not replace the worker within 30 s")
    for t in threads:
        t.join(seconds + 120)
    return stats


def report(stats: Stats, seconds: float, baseline_p99: float) -> bool:
    total = sum(len(v) for v in stats.ms.values())
    print(f"  {total} requests in {seconds:.0f} s: {total / seconds:.1f} requests/s; "
          f"{sum(len(v) for v in stats.confirmed.values())} deals saved; "
          f"{stats.stale} stale answers (409); {stats.cut_off} cut-off requests retried")
    ok = True
    for kind in ("deal POST", "table screen", "sheet fragment", "evening live",
                 "season standings"):
        samples = stats.ms.get(kind, [])
        if not samples:
            continue
        p99 = percentile(samples, 99)
        verdict = "ok" if p99 < P99_TARGET_MS and not stats.errors[kind] else "OVER TARGET"
        ok &= verdict == "ok"
        print(f"  {kind:<18} n {len(samples):5d}  p50 {percentile(samples, 50):7.1f} ms  "
              f"p99 {p99:7.1f} ms  max {max(samples):7.1f} ms  "
              f"({p99 / baseline_p99:4.1f}x baseline p99)  errors {stats.errors[kind]}  "
              f"{verdict}")
    errors = sum(stats.errors.values())
    ok &= errors == 0
    print(f"  errors: {errors} (target 0)")
    return ok


def check_deals(site: Site, confirmed: dict[int, dict[str, int]],
                before: dict[int, int]) -> bool:
    """Every confirmed save stored exactly once, nothing else stored, nothing twice."""
    lost = duplicated = wrong_id = 0
    for table, saves in confirmed.items():
        for request_id, deal_id in saves.items():
            rows = list(Deal.objects.filter(table_id=table, request_id=uuid.UUID(request_id))
                        .values_list("pk", flat=True))
            lost += not rows
            duplicated += max(0, len(rows) - 1)
            wrong_id += bool(rows) and rows[0] != deal_id
    twice = (Deal.objects.exclude(request_id=None).values("table_id", "request_id")
             .annotate(n=Count("pk")).filter(n__gt=1).count())
    unconfirmed = 0
    for table in site.tables:
        now = Deal.objects.filter(table_id=table).count()
        unconfirmed += (now - before[table]) - len(confirmed.get(table, {}))
    ok = not (lost or duplicated or wrong_id or twice or unconfirmed)
    print(f"  database: confirmed saves lost {lost}, stored twice {duplicated + twice}, "
          f"under another id {wrong_id}, stored but never confirmed {unconfirmed} "
          f"(target 0 each) {'ok' if ok else 'FAILED'}")
    return ok


def deal_counts(site: Site) -> dict[int, int]:
    return {t: Deal.objects.filter(table_id=t).count() for t in site.tables}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1,
                        help="gunicorn threads per worker (1: sync workers)")
    parser.add_argument("--no-preload", action="store_true",
                        help="each worker imports Django itself (gunicorn's default)")
    args = parser.parse_args()
    random.seed(7)

    started = time.perf_counter()
    site = build_site()
    print(f"set-up: {TABLES} tables with {SEEDED_DEALS} deals each in "
          f"{time.perf_counter() - started:.1f} s (SQLite in {WORKDIR})")
    port = free_port()
    process = start_gunicorn(port, workers=args.workers, threads=args.threads,
                             preload=not args.no_preload)
    kind = f"{args.threads} threads each" if args.threads > 1 else "sync"
    preload = "" if args.no_preload else ", --preload"
    print(f"gunicorn: {args.workers} workers ({kind}{preload}) on {HOST}:{port}, DEBUG=0")
    ok = True
    try:
        viewer_device = Http(port)
        viewer_device.login(site.viewer)
        tablets = [Http(port) for _ in site.tables]  # logged in once, like a tablet
        for device, username in zip(tablets, site.tablet_users, strict=True):
            device.login(username)
        for _ in range(20):  # warm every worker's templates and caches
            viewer_device.get(f"/evenings/{site.evening}/live/")
            viewer_device.get(f"/seasons/{site.season}/")
        baseline = Http(port)
        login_ms = []
        for _ in range(100):
            t0 = time.perf_counter()
            assert baseline.get("/accounts/login/")[0] == 200
            login_ms.append((time.perf_counter() - t0) * 1000)
        base_p99 = percentile(login_ms, 99)
        print(f"baseline, idle server: the login page  p50 {percentile(login_ms, 50):.1f} ms"
              f"  p99 {base_p99:.1f} ms")
        print(f"load: {TABLES} tablets (a deal every {DEAL_EVERY:.0f} s), {VIEWERS} viewers "
              f"({SHEET_VIEWERS} sheets every 10 s, {LIVE_VIEWERS} evening overviews every "
              f"5 s, {VIEWERS - SHEET_VIEWERS - LIVE_VIEWERS} season standings every 10 s), "
              f"at most {POOL} connections open, p99 target < {P99_TARGET_MS:.0f} ms")

        for title, victim in (("run 1: normal", None), ("run 2: one worker killed", process)):
            print(title)
            before = deal_counts(site)
            t0 = time.monotonic()
            stats = run(port, site, args.seconds, tablets, viewer_device.cookies, victim)
            ok &= report(stats, time.monotonic() - t0, base_p99)
            ok &= check_deals(site, stats.confirmed, before)
    finally:
        stop(process)
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
