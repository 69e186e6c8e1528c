"""The tournament live board under load, over real HTTP (bench/tournament.py --board).

Set-up: a throwaway database (SQLite in a temp dir with the cache in the database, or
DATABASE_URL / CACHE_URL when they are set, e.g. under scripts/pg-test-server
scripts/redis-test-server) holding a 1,000-player tournament (250 tables of four, series 1
drawn, public board on) and a small second public tournament whose board never changes (the
baseline). The site is started as `make serve` starts it: gunicorn with
skatclub/gunicorn_conf.py, 3 sync workers, DEBUG=0, on a free port of 127.0.0.1
(tests/web/servers.py), and stopped at the end.

Load, open-loop (every request is sent at its scheduled time whether or not earlier ones
were answered; latency counts from the scheduled time, so a late client or a full server
backlog shows in the figures instead of as fewer requests), from one asyncio process talking
raw HTTP/1.1 (a connection is reused when the server keeps it open; gunicorn's sync workers
close it after every answer, as they do for a browser):

- viewers: each polls the board's fragment every 2.5 s with the ETag of the board it shows
  (If-None-Match, as static/js/board.js does): 304 while nothing moved, else the new board;
- tablets: each opened its table with the table code (GET /t/<code>/, as the QR code does)
  and saves a deal every 60-90 s (divided by --time-factor): the table screen's form POSTed
  as the tablet's browser sends it, the redirect to the screen followed.

First a baseline phase: the same viewers polling the board that never changes (the cheapest
Django answer the board has: a 304 from the cache), no tablets. Then the measured phase.
Printed: p50/p95/p99/max per kind, offered and achieved rates, errors, the load generator's
own CPU and the server's, the load average; and an in-process profile of the polling path
(queries and cache round trips per request, the fragment's size and render time).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import resource
import secrets
import time
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

GIVEN = {name: os.environ.get(name, "") for name in ("DATABASE_URL", "CACHE_URL")}

from _support import ROOT, WORKDIR, percentile  # noqa: E402 (sets Django up)
from django.conf import settings  # noqa: E402
from load import form_fields  # noqa: E402

if GIVEN["DATABASE_URL"]:  # _support chose SQLite; the caller named another database
    import environ  # noqa: E402

    _db = environ.Env.db_url_config(GIVEN["DATABASE_URL"])
    _default = settings.DATABASES["default"]  # keeps the defaults Django filled in
    for _key in ("ENGINE", "NAME", "USER", "PASSWORD", "HOST", "PORT", "OPTIONS"):
        _default.pop(_key, None)
    _default.update({"OPTIONS": {}, **_db})
    from django.db import connections  # noqa: E402

    del connections["default"]  # a wrapper made already would still be SQLite

from django.core.cache import caches  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.models import Club, RuleProfile, Table, Tournament  # noqa: E402
from scoring.presets import PRESETS  # noqa: E402
from scoring.views import board  # noqa: E402
from scoring.writes import tournament as tw  # noqa: E402
from tests.web.servers import environment, gunicorn, manage  # noqa: E402

HOST = "127.0.0.1"  # the only address this bench talks to
P99_TARGET_MS = 100.0
POLL_EVERY = 2.5  # static/js/board.js
DEAL_EVERY = (60.0, 90.0)  # seconds between two saves of one table, at real pace
TIMEOUT = 30.0


# ---------------------------------------------------------------- set-up

def _tournament(club: Club, profile: RuleProfile, name: str, players: int) -> Tournament:
    tournament = tw.tournament_create(
        club=club, name=name, date=timezone.localdate(), profile=profile,
        series_count=3, series_rounds=12, entry_fee=Decimal("15.00"),
        settlement=tw.fee_settlement(lost_fee=Decimal("0.50"), lost_fee_high=Decimal("1.00"),
                                     lost_fee_from=4, passed_fee=Decimal("0")),
        categories=[], team_fee=None, tandem_fee=None, reseat="draw", tie_rule="won",
        prizes=["20%", "10%", "5%"], public=True)
    for n in range(1, players + 1):
        tw.entrant_register(tournament=tournament, member=None, name=f"{name[:8]} {n:04d}",
                            paid=True, at_door=True)
    tw.series_draw(tournament=tournament, seed=1)
    return tournament


@dataclass
class Site:
    board: str  # the busy board's key
    still: str  # the key of the board that never changes (the baseline)
    tables: list[tuple[int, str]]  # (pk, table code)


def build_site(players: int) -> Site:
    call_command("migrate", verbosity=0)
    suffix = secrets.token_hex(3)  # a shared PostgreSQL may hold an earlier run's club
    club = Club.objects.create(slug=f"preisskat-{suffix}", name="Preisskat-Verein")
    preset = PRESETS["isko_tournament"]
    profile = RuleProfile.objects.create(club=club, name=preset["name"], rules=preset["rules"],
                                         options=preset["options"], scoring=preset["scoring"])
    busy = _tournament(club, profile, "Großer Preisskat", players)
    still = _tournament(club, profile, "Kleiner Preisskat", 8)
    tables = [(t.pk, t.access_code) for t in
              Table.objects.filter(evening=busy.evening, series=1).order_by("number")]
    return Site(busy.board_key, still.board_key, tables)


def server_env() -> dict[str, str]:
    env = environment(
        DEBUG="0", ALLOWED_HOSTS=HOST, SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0",
        SECURE_HSTS_SECONDS="0", CONN_MAX_AGE="60", SECRET_KEY=secrets.token_urlsafe(50),
        CACHE_KEY_PREFIX=f"board-bench-{secrets.token_hex(4)}",
        PDF_CACHE_DIR=str(Path(WORKDIR) / "pdf-cache"))
    if GIVEN["DATABASE_URL"]:
        env["DATABASE_URL"] = GIVEN["DATABASE_URL"]
    else:
        env["SQLITE_PATH"] = str(settings.DATABASES["default"]["NAME"])
    if GIVEN["CACHE_URL"]:
        env["CACHE_URL"] = GIVEN["CACHE_URL"]
    return env


def static_current() -> bool:
    """Whether collectstatic's manifest is newer than every file under static/ (then the
    minute collectstatic takes here, compressing the vendored Pyodide, is skipped)."""
    manifest = ROOT / "staticfiles" / "staticfiles.json"
    if not manifest.exists():
        return False
    built = manifest.stat().st_mtime
    return all(p.stat().st_mtime < built for p in (ROOT / "static").rglob("*") if p.is_file())


# ---------------------------------------------------------------- HTTP/1.1 over asyncio

@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    cookies: dict[str, str]
    body: bytes


class Http:
    """Raw HTTP/1.1 to one loopback port: idle connections are kept for reuse while the
    server keeps them open (``Connection: close`` or an answer without a length ends one)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.connections = 0
        self.connect_ms: list[float] = []  # TCP connect (a dropped SYN is resent after 1 s)

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"") -> Answer:
        return await asyncio.wait_for(self._request(method, path, headers or {}, body),
                                      TIMEOUT)

    async def _request(self, method: str, path: str, headers: dict[str, str],
                       body: bytes) -> Answer:
        if self.idle:
            reader, writer = self.idle.pop()
        else:
            started = time.perf_counter()
            reader, writer = await asyncio.open_connection(HOST, self.port)
            self.connect_ms.append((time.perf_counter() - started) * 1000)
            self.connections += 1
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}",
                "Accept-Encoding: gzip, deflate, br", "Accept-Language: de-DE,de;q=0.9",
                *(f"{k}: {v}" for k, v in headers.items())]
        if body or method == "POST":
            head.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        keep = False
        try:
            raw = await reader.readuntil(b"\r\n\r\n")
            lines = raw.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ", 2)[1])
            found: dict[str, str] = {}
            cookies: dict[str, str] = {}
            for line in lines[1:]:
                if not line:
                    continue
                name, _, value = line.partition(":")
                name, value = name.strip().lower(), value.strip()
                if name == "set-cookie":
                    cookie, _, _ = value.partition(";")
                    key, _, val = cookie.partition("=")
                    cookies[key.strip()] = val.strip()
                found[name] = value
            if "content-length" in found:
                data = await reader.readexactly(int(found["content-length"]))
                keep = found.get("connection", "").lower() != "close"
            elif status in (204, 304) or method == "HEAD":
                data = b""
                keep = found.get("connection", "").lower() != "close"
            else:
                data = await reader.read()
            return Answer(status, found, cookies, data)
        finally:
            if keep:
                self.idle.append((reader, writer))
            else:
                writer.close()


# ---------------------------------------------------------------- the clients

@dataclass
class Stats:
    ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    offered: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    statuses: dict[str, dict[int, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    late_ms: list[float] = field(default_factory=list)  # scheduled send → actual send
    bytes: int = 0
    overflows: int = 0  # the machine's listen queue overflows meanwhile (every server's)
    connect_ms: list[float] = field(default_factory=list)


class Viewer:
    def __init__(self, etag: str) -> None:
        self.etag = etag  # watching for a while: it has the page's ETag


async def timed(stats: Stats, http: Http, kind: str, scheduled: float, method: str,
                path: str, headers: dict[str, str] | None = None, body: bytes = b"",
                ok: tuple[int, ...] = (200,)) -> Answer | None:
    stats.offered[kind] += 1
    loop = asyncio.get_running_loop()
    stats.late_ms.append((loop.time() - scheduled) * 1000)
    try:
        answer = await http.request(method, path, headers, body)
    except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, IndexError):
        stats.errors[kind] += 1
        return None
    stats.ms[kind].append((loop.time() - scheduled) * 1000)
    stats.statuses[kind][answer.status] += 1
    stats.bytes += len(answer.body)
    if answer.status not in ok:
        stats.errors[kind] += 1
        return None
    return answer


async def poll(stats: Stats, http: Http, viewer: Viewer, key: str, scheduled: float) -> None:
    """static/js/board.js: the fragment with If-None-Match; 304, or the new board."""
    answer = await timed(stats, http, "board poll", scheduled, "GET",
                         f"/board/{key}/fragment/", {"If-None-Match": viewer.etag},
                         ok=(200, 304))
    if answer is None:
        return
    loop = asyncio.get_running_loop()
    kind = "  → 304 (unchanged)" if answer.status == 304 else "  → 200 (a new board)"
    stats.ms[kind].append((loop.time() - scheduled) * 1000)
    if answer.status == 200:
        viewer.etag = answer.headers.get("etag", viewer.etag)


async def viewer_loop(stats: Stats, http: Http, viewer: Viewer, key: str, start: float,
                      until: float, tasks: set[asyncio.Task[None]]) -> None:
    loop = asyncio.get_running_loop()
    at = start + random.uniform(0, POLL_EVERY)
    while at < until:
        await asyncio.sleep(max(0.0, at - loop.time()))
        task = asyncio.create_task(poll(stats, http, viewer, key, at))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        at += POLL_EVERY


@dataclass
class Tablet:
    pk: int
    code: str
    cookies: dict[str, str] = field(default_factory=dict)
    page: str = ""
    saved: int = 0

    def cookie_header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}


def deal_post(page: str) -> dict[str, str] | None:
    """The deal the tablet enters: a Grand Hand with 1, won, declared by the first active
    seat (valid in every deal of an ISkO list), with the form's own hidden fields (read as
    bench/load.py's tablets read them)."""
    fields = form_fields(page)
    if fields is None:
        return None
    token, version, request_id, seat = fields
    return {"csrfmiddlewaretoken": token, "version": version, "request_id": request_id,
            "kind": "game", "declarer": seat, "game": "grand", "hand": "on",
            "matadors": "1", "bid": "18", "result": "won"}


async def tablet_open(stats: Stats, http: Http, tablet: Tablet) -> bool:
    """The QR code: GET /t/<code>/ (the session that holds the grant), then the screen."""
    loop = asyncio.get_running_loop()
    answer = await timed(stats, http, "code + screen (set-up)", loop.time(), "GET",
                         f"/t/{tablet.code}/", ok=(302,))
    if answer is None:
        return False
    tablet.cookies.update(answer.cookies)
    screen = await timed(stats, http, "code + screen (set-up)", loop.time(), "GET",
                         answer.headers.get("location", f"/tables/{tablet.pk}/"),
                         tablet.cookie_header())
    if screen is None:
        return False
    tablet.cookies.update(screen.cookies)
    tablet.page = screen.body.decode("utf-8", "replace")
    return True


async def tablet_loop(stats: Stats, http: Http, tablet: Tablet, start: float, until: float,
                      factor: float) -> None:
    loop = asyncio.get_running_loop()
    every = random.uniform(*DEAL_EVERY) / factor
    at = start + random.uniform(0, every)
    while at < until:
        await asyncio.sleep(max(0.0, at - loop.time()))
        post = deal_post(tablet.page)
        if post is None:
            stats.errors["deal save"] += 1
            stats.offered["deal save"] += 1
            return
        body = "&".join(f"{k}={v}" for k, v in post.items()).encode()
        headers = {**tablet.cookie_header(),
                   "Content-Type": "application/x-www-form-urlencoded",
                   "Origin": f"http://{HOST}:{http.port}",
                   "Referer": f"http://{HOST}:{http.port}/tables/{tablet.pk}/"}
        answer = await timed(stats, http, "deal save", at, "POST",
                             f"/tables/{tablet.pk}/deals/", headers, body.replace(b" ", b"+"),
                             ok=(302,))
        if answer is not None and "?saved=" in answer.headers.get("location", ""):
            tablet.saved += 1
            screen = await timed(stats, http, "table screen after save", loop.time(), "GET",
                                 answer.headers["location"], tablet.cookie_header())
            if screen is not None:
                tablet.page = screen.body.decode("utf-8", "replace")
        elif answer is not None:
            stats.errors["deal save"] += 1
        at += every


def _cpu_of(pids: list[int]) -> float:
    """Seconds of CPU (user + system) these processes have used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _server_pids(master: int) -> list[int]:
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        children = []
    return [master, *(int(p) for p in children)]


def listen_overflows() -> int:
    """The kernel's count of connections dropped from a full listen queue (a dropped SYN is
    sent again after 1 s, 3 s, ...: seconds of latency although the server is idle)."""
    lines = Path("/proc/net/netstat").read_text().splitlines()
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names.startswith("TcpExt:"):
            found = dict(zip(names.split()[1:], values.split()[1:], strict=False))
            return int(found.get("ListenOverflows", 0))
    return 0


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def phase(port: int, master: int, key: str, etag: str, viewers: int,
                tablets: list[Tablet], seconds: float, factor: float) -> tuple[Stats, float,
                                                                                  float, float]:
    """One open-loop run: returns the stats, the wall time, and the CPU seconds of this
    process and of the server."""
    stats = Stats()
    http = Http(port)
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()
    pids = _server_pids(master)
    overflows = listen_overflows()
    cpu0, server0, wall0 = _own_cpu(), _cpu_of(pids), loop.time()
    start = loop.time() + 0.2
    until = start + seconds
    loops = [viewer_loop(stats, http, Viewer(etag), key, start, until, tasks)
             for _ in range(viewers)]
    loops += [tablet_loop(stats, http, t, start, until, factor) for t in tablets]
    await asyncio.gather(*loops)
    if tasks:
        await asyncio.wait(set(tasks), timeout=TIMEOUT + 5)
    wall = loop.time() - wall0
    stats.overflows = listen_overflows() - overflows
    stats.connect_ms = http.connect_ms
    return stats, wall, _own_cpu() - cpu0, _cpu_of(pids) - server0


def show(title: str, seconds: float, stats: Stats, wall: float, own: float, server: float,
         expected: dict[str, float]) -> None:
    """Rates are per second of the phase's schedule (``seconds``); CPU per second of wall
    time (which includes waiting for the last answers)."""
    print(f"{title}: {wall:.1f} s wall, load average {os.getloadavg()[0]:.2f}; load "
          f"generator CPU {own:.1f} s ({own / wall * 100:.0f} % of one core), gunicorn "
          f"(master + workers) CPU {server:.1f} s ({server / wall * 100:.0f} % of one core); "
          f"{stats.bytes / wall / 1e6:.1f} MB/s received")
    late = sorted(stats.late_ms)
    if late:
        print(f"  client lag (scheduled → sent): p50 {percentile(late, 50):.1f} ms  p99 "
              f"{percentile(late, 99):.1f} ms  max {late[-1]:.1f} ms; listen queue "
              f"overflows on this machine meanwhile: {stats.overflows}")
    if stats.connect_ms:
        print(f"  TCP connect: p50 {percentile(stats.connect_ms, 50):.1f} ms  p99 "
              f"{percentile(stats.connect_ms, 99):.1f} ms  max {max(stats.connect_ms):.1f} ms "
              f"({len(stats.connect_ms)} connections: gunicorn's sync workers close each)")
    for kind in sorted(set(stats.offered) | set(stats.ms), key=lambda k: (k.strip() != k, k)):
        samples = stats.ms.get(kind, [])
        rate = f"offered {stats.offered[kind] / seconds:6.1f}/s" if kind in stats.offered \
            else " " * 16
        if kind in expected:
            rate += f" (schedule {expected[kind]:6.1f}/s)"
        codes = " ".join(f"{code}×{n}" for code, n in sorted(stats.statuses[kind].items()))
        if not samples:
            print(f"  {kind:<24} {rate}  no answers  errors {stats.errors[kind]}")
            continue
        print(f"  {kind:<24} {rate}  answered {len(samples) / seconds:6.1f}/s  "
              f"p50 {percentile(samples, 50):6.1f}  p95 {percentile(samples, 95):6.1f}  "
              f"p99 {percentile(samples, 99):6.1f}  max {max(samples):7.1f} ms  "
              f"errors {stats.errors[kind]}  [{codes}]")


# ---------------------------------------------------------------- in-process profile

def profile(key: str) -> None:
    """What one request of the polling path costs inside Django: queries (the database
    cache's round trips among them), time, size; and what a new version costs to render."""
    client = Client()
    urls = {"version": reverse("scoring:board-version", args=[key]),
            "fragment": reverse("scoring:board-fragment", args=[key])}
    etag = client.get(urls["fragment"])["ETag"]
    print("In-process profile of the busy board (django.test.Client, no network; the "
          "queries include the database cache's):")
    for name, url, headers in (("poll, 304", urls["fragment"], {"If-None-Match": etag}),
                               ("poll, new board", urls["fragment"],
                                {"Accept-Encoding": "gzip"}),
                               ("version check, 304", urls["version"],
                                {"If-None-Match": client.get(urls["version"])["ETag"]})):
        reset_queries()  # the log holds 9,000 at most: the set-up's would hide these
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(url, headers=headers)
        t0 = time.perf_counter()
        for _ in range(50):
            client.get(url, headers=headers)
        ms = (time.perf_counter() - t0) * 1000 / 50
        print(f"  {name:<20} {answer.status_code}  {len(queries)} queries  "
              f"{len(answer.content):7d} bytes  {ms:6.2f} ms per request")
    caches["default"].clear()
    board._local.clear()
    board._newest.clear()  # this process's kept boards: a render as after a saved deal
    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        t0 = time.perf_counter()
        client.get(urls["fragment"])
        ms = (time.perf_counter() - t0) * 1000
    print(f"  fragment, new version (render): {len(queries)} queries  {ms:6.1f} ms")


# ---------------------------------------------------------------- the run

def bench_board(players: int = 1000, viewers: int = 2000, seconds: float = 45.0,
                baseline_seconds: float = 15.0, factor: float = 1.0,
                workers: int = 3) -> bool:
    started = time.perf_counter()
    site = build_site(players)
    db = "PostgreSQL (DATABASE_URL)" if GIVEN["DATABASE_URL"] else f"SQLite in {WORKDIR}"
    cache = "Redis (CACHE_URL)" if GIVEN["CACHE_URL"] else "the database"
    print(f"Live board over HTTP: {players} players at {len(site.tables)} tables, set-up "
          f"{time.perf_counter() - started:.1f} s; {db}, cache in {cache}")
    profile(site.board)
    env = server_env()
    if not static_current():  # DEBUG=0 serves hashed names: collectstatic's manifest
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    log = Path(WORKDIR) / "gunicorn.log"
    with gunicorn(env, log, workers=workers) as server:
        port = int(server.url.rsplit(":", 1)[1])
        print(f"gunicorn: {workers} sync workers (skatclub/gunicorn_conf.py, DEBUG=0) on "
              f"{server.url}; access log {log}")
        ok = asyncio.run(_load(port, server.process.pid, site, viewers, seconds,
                               baseline_seconds, factor))
    return ok


async def _load(port: int, master: int, site: Site, viewers: int, seconds: float,
                baseline_seconds: float, factor: float) -> bool:
    random.seed(17)
    http = Http(port)
    etags = {}
    for key in (site.board, site.still):
        for _ in range(6):  # every worker renders the page once before the clock runs
            answer = await http.request("GET", f"/board/{key}/")
            assert answer.status == 200, answer.status
        found = re.search(r'data-etag="([^"]+)"', answer.body.decode())
        assert found is not None, "no data-etag on the board"
        etags[key] = found.group(1).replace("&quot;", '"')
    setup = Stats()
    tablets = [Tablet(pk, code) for pk, code in site.tables]
    for start in range(0, len(tablets), 10):  # ten at a time: the hall fills up
        await asyncio.gather(*(tablet_open(setup, http, t) for t in tablets[start:start + 10]))
    opened = sum(1 for t in tablets if deal_post(t.page) is not None)
    print(f"tablets: {opened} of {len(tablets)} opened their table with its code "
          f"(errors {sum(setup.errors.values())})")
    polls = viewers / POLL_EVERY
    saves = len(tablets) * factor / ((DEAL_EVERY[0] + DEAL_EVERY[1]) / 2)
    print(f"load: {viewers} viewers polling every {POLL_EVERY} s ({polls:.0f} polls/s), "
          f"{len(tablets)} tablets saving a deal every {DEAL_EVERY[0]:.0f}-"
          f"{DEAL_EVERY[1]:.0f} s" + (f" / {factor:g} (time compressed {factor:g}x)"
                                      if factor != 1 else "")
          + f" (~{saves:.1f} saves/s); open loop, latency from the scheduled time")
    result = await phase(port, master, site.still, etags[site.still], viewers, [],
                         baseline_seconds, factor)
    show(f"baseline ({baseline_seconds:.0f} s): a board that never changes, no tablets",
         baseline_seconds, *result, {"board poll": polls})
    result = await phase(port, master, site.board, etags[site.board], viewers, tablets,
                         seconds, factor)
    stats = result[0]
    show(f"measured ({seconds:.0f} s): the busy board while the tablets save", seconds,
         *result,
         {"board poll": polls, "deal save": saves})
    print(f"  deals saved {sum(t.saved for t in tablets)}")
    viewer_ms = stats.ms["board poll"]
    errors = sum(stats.errors.values())
    p99 = percentile(viewer_ms, 99) if viewer_ms else float("inf")
    ok = p99 < P99_TARGET_MS and errors == 0
    print(f"  target: viewers' p99 (every poll, 304 or a new board) {p99:.1f} ms < "
          f"{P99_TARGET_MS:.0f} ms, 0 errors ({errors}): {'met' if ok else 'MISSED'}")
    return ok

