"""Capacity, measured (issue 15, item 8): open-loop load of the tablet-and-viewer mix at
fixed arrival rates, and the highest rate at which p99 stays under 250 ms, for one gunicorn
instance and for two, beside a plain Django view in the same run; then viewers looping the
heaviest PDFs while tablets save (deal POST p99 < 250 ms).

Target (the issue): a Preisskat of 250 tables (1,000 players) with 2,000 people following the
live results, on this 2-core machine. Its traffic: each table saves a deal about every 2.5
minutes (a deal POST and the table screen it returns to: 1.7 of each per second), and 2,000
viewers poll as the pages do: three in four a table's sheet (every 10 s), one in five the
evening's live overview (every 5 s), the rest the season table (every 10 s): about 240
requests per second; and every table's open screen asks for its table's version every 2.5 s
(static/js/table-live.js: 100 more per second at 250 tables), about 340 in all. Polls send
the ETag their previous poll got (If-None-Match), as the browser and table-live.js do.
--tables sets the evening's size (250 for the target).

Open loop: requests arrive at fixed times (rate × seconds of them, evenly spaced), whatever
the server's answers; each is timed from when it was due to arrive, so a server that falls
behind shows it in the latency (no coordinated omission). Steps of --step-seconds (and at
least --min-requests requests) at rates rising by --factor; a rate passes with p99 < 250 ms
and no errors; the search stops at the first rate that fails twice in a row, and one step
halfway back refines it. Before the searches, the target rate itself (the search's rates need
not hit it), offered to one instance and to two; the run fails when neither holds it. The
PDF storm comes last. Runs itself under
scripts/pg-test-server and scripts/redis-test-server unless DATABASE_URL and CACHE_URL name
a server already; servers and traffic on 127.0.0.1 only; every loop is bounded and ends by
itself.

Run: .venv/bin/python bench/capacity.py [--tables 60 --step-seconds 6 --workers 3]
     full target: --tables 250 --step-seconds 20 --start 20 --pdf-seconds 60
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import sys
import threading
import time
import uuid
from collections import defaultdict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

os.environ["BENCH_DATABASE"] = "postgres"
os.environ["BENCH_CACHE"] = "redis"

import load  # noqa: E402 (sets Django up through _support, on PostgreSQL and Redis)
from _support import (  # noqa: E402
    HOST,
    free_port,
    percentile,
    server_env,
    start_gunicorn,
    stop,
)
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db.models import F  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.engine import generate_deals  # noqa: E402
from scoring.models import (  # noqa: E402
    Club,
    Deal,
    Membership,
    Player,
    RuleProfile,
    Season,
    Table,
)
from scoring.presets import PRESETS  # noqa: E402
from scoring.writes import scores  # noqa: E402
from scoring.writes.services import evening_create, table_create  # noqa: E402

P99_TARGET_MS = 250.0
SEEDED = 12
# The Preisskat's mix, per request: (kind, share)
MIX = [("deal POST", 1.7), ("sheet fragment", 150.0), ("evening live", 80.0),
       ("season standings", 10.0)]
# Every open table screen asks for its table's version every 2.5 s (static/js/table-live.js),
# with the ETag of its last answer: at a Preisskat every table's tablet is open.
VERSION_POLL_SECONDS = 2.5
# How often a viewer's page polls (templates: every 10 s, every 5 s); the ETag it sends is
# the one its previous poll got, as the browser's cache keeps it.
POLL_SECONDS = {"sheet fragment": 10.0, "evening live": 5.0,
                "table version": VERSION_POLL_SECONDS}
ETAGS_KEPT_SECONDS = 2 * max(POLL_SECONDS.values())


def mix(tables: int) -> list[tuple[str, float]]:
    return [*MIX, ("table version", tables / VERSION_POLL_SECONDS)]
TIMEOUT = 15.0


@dataclass
class Site:
    tables: list[int]
    evening: int
    season: int


def build(tables: int) -> Site:
    """One evening of ``tables`` four-player tables in a season, each with a few deals."""
    call_command("migrate", verbosity=0)
    club = Club.objects.create(slug="preisskat", name="Preisskat")
    preset = PRESETS["club_evening"]
    profile = RuleProfile.objects.create(club=club, name=preset["name"], rules=preset["rules"],
                                         options=preset["options"], scoring=preset["scoring"],
                                         stake="0.05")
    today = timezone.localdate()
    season = Season.objects.create(club=club, name="Preisskat", start=today, end=today,
                                   evaluation="seeger_fabian")
    evening = evening_create(club=club, date=today, profile=profile, season=season,
                             series_rounds=None)
    players = Player.objects.bulk_create(Player(club=club, name=f"Spieler {n:04d}")
                                         for n in range(4 * tables))
    made = []
    for number in range(tables):
        table = table_create(evening=evening, players=players[4 * number:4 * number + 4])
        records = generate_deals(SEEDED, 4, "isko", evening.options, seed=number)
        Deal.objects.bulk_create(Deal(table=table, position=i, record=r)
                                 for i, r in enumerate(records, start=1))
        made.append(table.pk)
    Table.objects.filter(evening=evening).update(version=F("version") + SEEDED)
    scores.rebuild(Table.objects.filter(evening=evening))
    users = get_user_model().objects
    for name, role in (("schreiber", Membership.Role.SCORER),
                       ("zuschauer", Membership.Role.VIEWER)):
        user = users.create_user(name, password=load.PASSWORD)
        Membership.objects.create(user=user, club=club, role=role)
    return Site(made, evening.pk, season.pk)


def login(port: int, username: str) -> dict[str, str]:
    device = load.Http(port)
    device.login(username)
    return dict(device.cookies)


# ---------------------------------------------------------------- one request

def call(port: int, method: str, path: str, cookies: dict[str, str],
         form: dict[str, str] | None = None, extra: dict[str, str] | None = None,
         ) -> tuple[int, str, dict[str, str]]:
    headers = {"Host": HOST, "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
               **(extra or {})}
    body = None
    if form is not None:
        body = urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        return response.status, text, {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


@dataclass
class Results:
    lock: threading.Lock = field(default_factory=threading.Lock)
    ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    stale: int = 0
    pdf: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def add(self, kind: str, due: float, ok: bool) -> None:
        with self.lock:
            self.ms[kind].append((time.perf_counter() - due) * 1000)
            if not ok:
                self.errors[kind] += 1

    def all_ms(self) -> list[float]:
        return [m for samples in self.ms.values() for m in samples]


class Traffic:
    """The requests of the mix; each one is timed from when it was due."""

    def __init__(self, site: Site, ports: list[int], tablet: dict[str, str],
                 viewer: dict[str, str]) -> None:
        self.site, self.ports = site, ports
        self.tablet, self.viewer = tablet, viewer
        self.turn = 0
        self.lock = threading.Lock()
        self.mix = mix(len(site.tables))
        # per path, the ETags it answered with and when: a viewer sends the one its own
        # previous poll (an interval ago) got. Kept by age, not by number: the overview is
        # one path polled 80 times a second, so a count would keep only its last second.
        self.etags: dict[str, deque[tuple[float, str]]] = defaultdict(deque)
        self.conditional = {"sent": 0, "304": 0}

    def etag_for(self, kind: str, path: str) -> str | None:
        """The ETag a viewer polling ``path`` every interval got at its previous poll."""
        before = time.perf_counter() - POLL_SECONDS.get(kind, float("inf"))
        with self.lock:
            return next((etag for at, etag in reversed(self.etags[path]) if at <= before),
                        None)

    def conditional_get(self, kind: str, path: str, cookies: dict[str, str],
                        results: Results, due: float) -> None:
        etag = self.etag_for(kind, path)
        status, _, headers = call(self.port(), "GET", path, cookies,
                                  extra={"If-None-Match": etag} if etag else None)
        with self.lock:
            if etag:
                self.conditional["sent"] += 1
                self.conditional["304"] += status == 304
            if headers.get("etag"):
                answered = self.etags[path]
                answered.append((time.perf_counter(), headers["etag"]))
                while answered[0][0] < answered[-1][0] - ETAGS_KEPT_SECONDS:
                    answered.popleft()
        results.add(kind, due, status in (200, 304))

    def port(self) -> int:
        with self.lock:  # round robin, as a load balancer
            self.turn += 1
            return self.ports[self.turn % len(self.ports)]

    def plain(self, results: Results, due: float) -> None:
        status, _, _ = call(self.port(), "GET", "/accounts/login/", {})
        results.add("plain view", due, status == 200)

    def viewer_get(self, kind: str, results: Results, due: float) -> None:
        """A poll as the page's script sends it (the sheet with its layout, as
        sheet.html asks), with the ETag of the previous poll; the season table is a page
        a viewer loads (no ETag)."""
        site = self.site
        path = {"sheet fragment":
                f"/tables/{random.choice(site.tables)}/sheet/fragment/?layout=standard",
                "evening live": f"/evenings/{site.evening}/live/",
                "season standings": f"/seasons/{site.season}/",
                "table version": f"/tables/{random.choice(site.tables)}/version/"}[kind]
        self.conditional_get(kind, path, self.tablet if kind == "table version"
                             else self.viewer, results, due)

    def deal(self, results: Results, due: float) -> None:
        """A tablet's save: the table screen (for the form's version), then the POST."""
        table = random.choice(self.site.tables)
        port = self.port()
        status, page, _ = call(port, "GET", f"/tables/{table}/", self.tablet)
        fields = load.form_fields(page) if status == 200 else None
        results.add("table screen", due, fields is not None)
        if fields is None:
            return
        token, version, _request_id, seat = fields
        posted = time.perf_counter()
        status, _, headers = call(port, "POST", f"/tables/{table}/deals/", self.tablet, {
            "csrfmiddlewaretoken": token, "version": version, "request_id": str(uuid.uuid4()),
            "kind": "game", "declarer": seat, "game": "grand", "hand": "on",
            "matadors": "1", "bid": "18", "result": "won"})
        if status == 409:
            with results.lock:
                results.stale += 1
        results.add("deal POST", posted, status in (302, 409))

    def mixed(self, results: Results, due: float) -> None:
        kind = random.choices([k for k, _ in self.mix], [w for _, w in self.mix])[0]
        if kind == "deal POST":
            self.deal(results, due)
        else:
            self.viewer_get(kind, results, due)


def open_loop(job: Any, rate: float, seconds: float, pool: ThreadPoolExecutor) -> Results:
    """``rate`` arrivals per second for ``seconds``, evenly spaced; waits for the last."""
    results = Results()
    start = time.perf_counter() + 0.05
    futures = []
    for n in range(max(1, int(rate * seconds))):
        due = start + n / rate
        delay = due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)

        def run(due: float = due) -> None:
            try:
                job(results, due)
            except (OSError, http.client.HTTPException):
                results.add("connection", due, False)

        futures.append(pool.submit(run))
    for future in futures:
        future.result(timeout=TIMEOUT * 4)
    return results


def verdict(results: Results) -> tuple[bool, float]:
    samples = results.all_ms()
    p99 = percentile(samples, 99) if samples else float("inf")
    return p99 < P99_TARGET_MS and not sum(results.errors.values()), p99


def step(job: Any, rate: float, args: argparse.Namespace, pool: ThreadPoolExecutor,
         ) -> tuple[bool, Results]:
    """One rate for --step-seconds, long enough for --min-requests (a p99 needs them)."""
    cpu, wall = os.times(), time.perf_counter()
    results = open_loop(job, rate, max(args.step_seconds, args.min_requests / rate), pool)
    spent = os.times()
    client = ((spent.user - cpu.user + spent.system - cpu.system)
              / (time.perf_counter() - wall))
    ok, p99 = verdict(results)
    samples = results.all_ms()
    print(f"  {rate:7.1f}/s  {len(samples):5d} requests  p50 {percentile(samples, 50):7.1f} "
          f"ms  p99 {p99:8.1f} ms  errors {sum(results.errors.values())}  "
          f"client CPU {client:.2f} core  load {os.getloadavg()[0]:.1f}  "
          f"{'ok' if ok else 'over'}")
    if not ok:  # which kind of request is slow
        print("           p99 by kind: " + ", ".join(
            f"{kind} {percentile(ms, 99):.0f} ms (n {len(ms)})"
            for kind, ms in sorted(results.ms.items())))
    return ok, results


def settle(ports: list[int]) -> None:
    """Waits (at most 60 s) until every instance answers the plain view within 20 ms three
    times in a row: the backlog of a step that saturated them (requests the client gave up
    on, still queued at the server) is not the next step's."""
    until = time.monotonic() + 60
    fast = 0
    time.sleep(1)
    while time.monotonic() < until and fast < 3:
        started = time.perf_counter()
        for port in ports:
            call(port, "GET", "/accounts/login/", {})
        fast = fast + 1 if (time.perf_counter() - started) * 1000 < 20 * len(ports) else 0
        time.sleep(0.5)


def search(name: str, job: Any, args: argparse.Namespace, pool: ThreadPoolExecutor,
           ) -> float:
    """The highest rate (requests/s) with p99 < 250 ms and no errors. Rates rise by
    --factor; a rate that fails is tried once more (a shared machine has its moments) and
    ends the search when it fails again; one step halfway back refines the answer."""
    rate, best, failed = args.start, 0.0, None
    settle(job.__self__.ports)
    print(f"{name}:")
    while rate <= args.max_rate:
        ok, _ = step(job, rate, args, pool)
        if not ok:
            print("  (again, to be sure)")
            settle(job.__self__.ports)
            ok, _ = step(job, rate, args, pool)
        if not ok:
            failed = rate
            break
        best = rate
        rate *= args.factor
    if failed is not None and best:
        middle = (best + failed) / 2
        settle(job.__self__.ports)
        ok, _ = step(job, middle, args, pool)
        if ok:
            best = middle
    while failed is not None and not best and failed / 2 >= args.start / 8:
        failed /= 2  # the first rate was too much already: halve down to an eighth of it
        settle(job.__self__.ports)
        ok, _ = step(job, failed, args, pool)
        if ok:
            best = failed
    print(f"  saturation: {best:.1f} requests/s with p99 < {P99_TARGET_MS:.0f} ms"
          + ("" if failed is not None else f" (not reached below {args.max_rate:.0f}/s)"))
    return best


def pdf_storm(traffic: Traffic, args: argparse.Namespace, pool: ThreadPoolExecutor) -> bool:
    """Viewers loop the heaviest PDFs while tablets save at the Preisskat's rate."""
    site = traffic.site
    paths = [f"/seasons/{site.season}/standings.pdf", f"/evenings/{site.evening}/summary.pdf",
             f"/evenings/{site.evening}/settlement.pdf"]
    results = Results()
    until = 0.0  # set when the storm starts

    def looper(n: int) -> None:
        while time.monotonic() < until:
            try:
                status, _, headers = call(traffic.port(), "GET", paths[n % len(paths)],
                                          traffic.viewer)
            except (OSError, http.client.HTTPException) as err:  # a render past TIMEOUT
                with results.lock:
                    results.pdf[type(err).__name__] += 1
                continue
            with results.lock:
                results.pdf[f"{status} {headers.get('x-pdf-cache', '')}".strip()] += 1
            if status == 503:
                time.sleep(min(1.0, float(headers.get("retry-after", "1") or 1)))

    # The same saves without the PDFs first: on a machine shared with other work, what the
    # storm adds is the difference.
    settle(traffic.ports)
    calm = open_loop(traffic.deal, args.pdf_save_rate, args.pdf_seconds, pool)
    calm_posts = calm.ms.get("deal POST", [])
    print(f"deal POSTs without PDFs: n {len(calm_posts)}  p50 "
          f"{percentile(calm_posts, 50) if calm_posts else 0:.1f} ms  p99 "
          f"{percentile(calm_posts, 99) if calm_posts else 0:.1f} ms  "
          f"(load {os.getloadavg()[0]:.1f})")
    until = time.monotonic() + args.pdf_seconds
    threads = [threading.Thread(target=looper, args=(n,)) for n in range(args.pdf_viewers)]
    for thread in threads:
        thread.start()
    saves = open_loop(traffic.deal, args.pdf_save_rate, args.pdf_seconds, pool)
    for thread in threads:
        thread.join(TIMEOUT * 4)
    posts = saves.ms.get("deal POST", [])
    p99 = percentile(posts, 99) if posts else float("inf")
    ok = p99 < P99_TARGET_MS and not saves.errors.get("deal POST")
    answers = ", ".join(f"{k}: {v}" for k, v in sorted(results.pdf.items()))
    print(f"PDF storm: {args.pdf_viewers} viewers looping {len(paths)} PDFs (season table, "
          f"summary, settlement) for {args.pdf_seconds:.0f} s while tablets save "
          f"{args.pdf_save_rate:.1f} deals/s")
    print(f"  PDF answers: {answers}")
    print(f"  deal POST: n {len(posts)}  load {os.getloadavg()[0]:.1f}  "
          f"p50 {percentile(posts, 50) if posts else 0:.1f} ms  "
          f"p99 {p99:.1f} ms  errors {saves.errors.get('deal POST', 0)}  stale {saves.stale}  "
          f"(target p99 < {P99_TARGET_MS:.0f} ms) {'ok' if ok else 'OVER TARGET'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--workers", type=int, default=3, help="per instance")
    parser.add_argument("--step-seconds", type=float, default=6.0)
    parser.add_argument("--min-requests", type=int, default=100,
                        help="requests per step at least (longer steps at low rates)")
    parser.add_argument("--start", type=float, default=10.0, help="first rate, per second")
    parser.add_argument("--factor", type=float, default=1.5, help="rate step")
    parser.add_argument("--max-rate", type=float, default=2000.0)
    parser.add_argument("--clients", type=int, default=256, help="client threads at most")
    parser.add_argument("--pdf-viewers", type=int, default=20)
    parser.add_argument("--pdf-seconds", type=float, default=15.0)
    parser.add_argument("--pdf-save-rate", type=float, default=1.7)
    parser.add_argument("--pdf-only", action="store_true",
                        help="only the PDF storm (no capacity search)")
    parser.add_argument("--target-only", action="store_true",
                        help="only the target rate on one and two instances (no search, no "
                        "PDF storm)")
    args = parser.parse_args()
    random.seed(8)

    started = time.perf_counter()
    site = build(args.tables)
    for alias in ("default", "pdf", "results"):
        caches[alias].clear()
    print(f"set-up: one evening of {args.tables} tables ({SEEDED} deals each) in "
          f"{time.perf_counter() - started:.1f} s; PostgreSQL and Redis")
    ports = [free_port(), free_port()]
    processes: list[Any] = []
    ok = True
    pool = ThreadPoolExecutor(max_workers=args.clients)
    try:
        for index, name in enumerate("AB"):
            processes.append(start_gunicorn(
                ports[index], workers=args.workers,
                env=server_env(PDF_INSTANCE=f"bench-{name}"),
                log_name=f"gunicorn-{name}.log", static=index == 0))
        tablet = login(ports[0], "schreiber")
        viewer = login(ports[0], "zuschauer")
        one = Traffic(site, ports[:1], tablet, viewer)
        two = Traffic(site, ports, tablet, viewer)
        # a deal is two requests (the table screen, the POST)
        target = sum(share for _kind, share in one.mix) + MIX[0][1]
        for path in ("/accounts/login/", f"/evenings/{site.evening}/live/",
                     f"/seasons/{site.season}/"):
            for port in ports:  # warm every worker a little
                for _ in range(2 * args.workers):
                    call(port, "GET", path, viewer)
        # As during an evening, every table's sheet has been seen once (the shared cache
        # holds it): a cold start would time the first renders, not the steady state.
        for table in site.tables:
            call(ports[0], "GET", f"/tables/{table}/sheet/fragment/?layout=standard", viewer)
        print(f"instances: {args.workers} sync workers each on {HOST}:{ports[0]} and "
              f"{HOST}:{ports[1]}, DEBUG=0; client: open loop, at most {args.clients} "
              f"requests in flight; mix per {target:.0f} requests: "
              + ", ".join(f"{kind} {share:g}" for kind, share in one.mix)
              + " (each deal POST after its table screen; polls send the ETag of the "
              "poll before, as the browser does)")
        if not args.pdf_only:
            # First the target rate itself (the search's rates rise by --factor and need not
            # hit it), offered to one instance and to two, before any step has overloaded them.
            print(f"the Preisskat target: {target:.0f} requests/s of this mix at "
                  f"{args.tables} tables, for --step-seconds:")
            reached = {}
            for name, traffic in (("one instance", one), ("two instances", two)):
                settle(traffic.ports)
                # The viewers are following already: two poll intervals of the mix, not
                # measured, give each its previous poll's ETag (a cold start would time the
                # first polls of 2,000 people arriving in the same second).
                open_loop(traffic.mixed, target, 2 * max(POLL_SECONDS.values()), pool)
                print(f" {name}:")
                passed, _ = step(traffic.mixed, target, args, pool)
                if not passed:
                    print("  (again, to be sure)")
                    settle(traffic.ports)
                    passed, _ = step(traffic.mixed, target, args, pool)
                reached[name] = passed
            if args.target_only:
                print("the Preisskat target: " + ", ".join(
                    f"{'reached' if passed else 'NOT reached'} on {name}"
                    for name, passed in reached.items()))
                return 0 if any(reached.values()) else 1
            plain = search("plain Django view (the sign-in page), one instance", one.plain, args,
                           pool)
            single = search("the mix, one instance", one.mixed, args, pool)
            double = search("the mix, two instances", two.mixed, args, pool)
            print(f"capacity: the mix {single:.1f}/s on one instance, {double:.1f}/s on two "
                  f"({double / single if single else 0:.2f}x); the plain view {plain:.1f}/s "
                  f"(the mix at {single / plain if plain else 0:.2f} of it on one instance)")
            print(f"conditional polls: {one.conditional['sent'] + two.conditional['sent']} sent "
                  f"with an ETag, {one.conditional['304'] + two.conditional['304']} answered 304")
            print("the Preisskat target: " + ", ".join(
                f"{'reached' if passed else 'NOT reached'} on {name}"
                for name, passed in reached.items()))
            ok &= any(reached.values())
        ok &= pdf_storm(one, args, pool)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            stop(process)
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
