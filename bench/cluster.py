"""Two instances, proven (issue 15, item 7): two independent gunicorn instances (separate
ports, 3 workers each, as two machines would be) on one PostgreSQL and one Redis, with 12
tablets and 200 viewers spread over both.

Runs itself under scripts/pg-test-server and scripts/redis-test-server (throwaway servers)
unless DATABASE_URL and CACHE_URL name them already. The site is bench/load.py's: one evening
of 12 four-player tables in a season, a scorer account per tablet and a viewer. Each
instance gets its own PDF_INSTANCE name; nothing else tells them apart. A device talks to
its instance and, when that one refuses connections, to the other (as a load balancer
would); a tablet repeats a save that got no answer with the SAME request_id.

Checks:
1. wrong passwords spread over both instances are limited as one: five wrong passwords for
   one account, alternately through A and B, are answered as wrong; the 6th is refused (429,
   Retry-After) through A and through B alike;
2. a deal saved through A is on B's sheet and in B's season standings at the next request
   (and B's equal A's), and the other way round;
3. a PDF is rendered once per change for the whole cluster: viewers on both instances ask for
   the season table's PDF at once; exactly one answer per version was rendered
   (X-PDF-Cache: miss), all others came from the shared cache; after a saved deal, again once;
4. one whole instance killed mid-run (SIGKILL to its master and every worker, as a machine
   dies): no confirmed deal is lost or stored twice, and nothing is stored unconfirmed.

Run: .venv/bin/python bench/cluster.py [--seconds 30] [--workers 3]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import signal
import sys
import threading
import time
from collections import Counter, defaultdict
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
    worker_pids,
)
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import caches  # noqa: E402

from scoring.models import Club, Membership  # noqa: E402

PASSWORD_VICTIM = "kassenwart"


class Balanced(load.Http):
    """A device behind a load balancer: its instance, or the other one when its own refuses
    connections (it is down)."""

    def __init__(self, ports: list[int], prefer: int, down: set[int]) -> None:
        super().__init__(ports[prefer])
        self.ports = ports
        self.down = down

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                ) -> tuple[int, str, str]:
        for _ in range(len(self.ports)):
            if self.port in self.down:
                alive = [p for p in self.ports if p not in self.down]
                if not alive:
                    raise ConnectionRefusedError("every instance is down")
                self.port = alive[0]
            try:
                return super().request(method, path, form)
            except ConnectionRefusedError:
                self.down.add(self.port)
        raise ConnectionRefusedError("every instance is down")


def fetch(port: int, path: str, cookies: dict[str, str]) -> tuple[int, dict[str, str], int]:
    """GET with the device's cookies: the status, the headers and the body's length."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        connection.request("GET", path, headers={
            "Host": HOST, "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
        response = connection.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, len(body)
    finally:
        connection.close()


def csrf_login_form(device: load.Http) -> str:
    status, _, page = device.get("/accounts/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert status == 200 and token, "no login form"
    return token.group(1)


# ---------------------------------------------------------------- the checks

def check_passwords(ports: list[int]) -> bool:
    """Five wrong passwords alternately through A and B, then a 6th through each."""
    names = "AB"
    answers = []
    for attempt in range(5):
        device = load.Http(ports[attempt % 2])
        token = csrf_login_form(device)
        status, _, _ = device.request("POST", "/accounts/login/", {
            "csrfmiddlewaretoken": token, "username": PASSWORD_VICTIM,
            "password": f"wrong-{attempt}"})
        answers.append(f"{names[attempt % 2]}:{status}")
    sixth = []
    for index, port in enumerate(ports):
        device = load.Http(port)
        token = csrf_login_form(device)
        connection = http.client.HTTPConnection(HOST, port, timeout=15)
        connection.request("POST", "/accounts/login/", body=urlencode({
            "csrfmiddlewaretoken": token, "username": PASSWORD_VICTIM,
            "password": "wrong-6"}), headers={
            "Host": HOST, "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": "; ".join(f"{k}={v}" for k, v in device.cookies.items())})
        response = connection.getresponse()
        response.read()
        connection.close()
        sixth.append((names[index], response.status, response.getheader("Retry-After")))
    ok = all(a.endswith(":200") for a in answers) and all(
        status == 429 and retry for _n, status, retry in sixth)
    print(f"1. wrong passwords over both instances: attempts 1-5 {' '.join(answers)}; the 6th "
          + ", ".join(f"through {n}: {s} (Retry-After {r})" for n, s, r in sixth)
          + f"  {'ok' if ok else 'FAILED'}")
    return ok


def ranking_table(page: str) -> str:
    found = re.search(r'<table class="ranking".*?</table>', page, re.S)
    return found.group(0) if found else ""


def sheet_rows(page: str) -> str:
    """The sheet without what differs between two renderings of it (nonces, tokens)."""
    page = re.sub(r'nonce="[^"]*"', "", page)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def save_through(device: load.Http, table: int) -> int | None:
    """One deal saved at ``table`` through ``device``'s instance; its id."""
    status, _, page = device.get(f"/tables/{table}/")
    fields = load.form_fields(page) if status == 200 else None
    if fields is None:
        return None
    token, version, request_id, seat = fields
    status, location, _ = device.request("POST", f"/tables/{table}/deals/", {
        "csrfmiddlewaretoken": token, "version": version, "request_id": request_id,
        "kind": "game", "declarer": seat, "game": "grand", "hand": "on", "matadors": "1",
        "bid": "18", "result": "won"})
    if status != 302 or "?saved=" not in location:
        return None
    return int(location.rsplit("=", 1)[1])


def check_shared_state(site: load.Site, ports: list[int], tablet_user: str,
                       viewer: dict[str, str]) -> bool:
    """A deal saved through one instance is on the other's sheet and standings at once."""
    ok = True
    table = site.tables[0]
    tablet = load.Http(ports[0])
    tablet.login(tablet_user)
    for writer, reader, names in ((0, 1, "A → B"), (1, 0, "B → A")):
        tablet.port = ports[writer]
        look = load.Http(ports[reader])
        look.cookies = dict(viewer)
        sheet_url = f"/tables/{table}/sheet/fragment/"
        season_url = f"/seasons/{site.season}/"
        before_sheet = sheet_rows(look.get(sheet_url)[2])
        before_standings = ranking_table(look.get(season_url)[2])
        saved = save_through(tablet, table)
        after_sheet = sheet_rows(look.get(sheet_url)[2])
        after_standings = ranking_table(look.get(season_url)[2])
        look.port = ports[writer]
        writer_sheet = sheet_rows(look.get(sheet_url)[2])
        writer_standings = ranking_table(look.get(season_url)[2])
        fine = (saved is not None and after_sheet != before_sheet
                and after_sheet == writer_sheet and after_standings != before_standings
                and after_standings == writer_standings and bool(after_standings))
        ok &= fine
        print(f"2. deal {saved} saved through {names[0]}: {names[-1]}'s sheet and season "
              f"standings at the next request show it, as {names[0]}'s do  "
              f"{'ok' if fine else 'FAILED'}")
    return ok


def pdf_round(ports: list[int], viewer: dict[str, str], path: str, viewers: int,
              ) -> tuple[Counter[tuple[str, str]], int]:
    """``viewers`` ask for the PDF at once, half through each instance, until each has it
    (a 503 is asked again after its Retry-After); (etag, X-PDF-Cache) → count, 503s."""
    seen: Counter[tuple[str, str]] = Counter()
    busy = 0
    lock = threading.Lock()

    def one(port: int) -> None:
        nonlocal busy
        for _ in range(60):
            status, headers, _length = fetch(port, path, viewer)
            if status == 200:
                with lock:
                    seen[(headers.get("etag", ""), headers.get("x-pdf-cache", "?"))] += 1
                return
            with lock:
                busy += status == 503
            time.sleep(min(2.0, float(headers.get("retry-after", "1") or 1)))

    threads = [threading.Thread(target=one, args=(ports[n % 2],)) for n in range(viewers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(180)
    return seen, busy


def check_pdf_once(site: load.Site, ports: list[int], viewer: dict[str, str],
                   tablet_user: str, viewers: int) -> bool:
    ok = True
    path = f"/seasons/{site.season}/standings.pdf"
    tablet = load.Http(ports[1])
    tablet.login(tablet_user)
    etags: list[str] = []
    for round_ in ("first", "after a deal was saved"):
        seen, busy = pdf_round(ports, viewer, path, viewers)
        by_etag: dict[str, Counter[str]] = defaultdict(Counter)
        for (etag, state), count in seen.items():
            by_etag[etag][state] += count
        got = sum(seen.values())
        fine = (got == viewers and len(by_etag) == 1
                and next(iter(by_etag.values()))["miss"] == 1)
        etags.extend(by_etag)
        ok &= fine
        summary = "; ".join(f"version {etag[1:9]}…: rendered {states['miss']}, from the cache "
                            f"{states['hit']}" for etag, states in by_etag.items())
        print(f"3. season table PDF, {viewers} viewers over both instances ({round_}): "
              f"{got} got it ({summary}); {busy} answers 503 + Retry-After before  "
              f"{'ok' if fine else 'FAILED'}")
        save_through(tablet, site.tables[1])
    fine = len(set(etags)) == 2
    ok &= fine
    print(f"   the saved deal made a new version of the PDF  {'ok' if fine else 'FAILED'}")
    return ok


# ---------------------------------------------------------------- the run with a kill

def load_run(site: load.Site, ports: list[int], processes: list[Any], seconds: float,
             tablets: list[Balanced], viewer: dict[str, str], down: set[int],
             ) -> load.Stats:
    stats = load.Stats()
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=load.tablet, args=(device, table, stats, until,
                                                          random.uniform(0, load.DEAL_EVERY)))
               for table, device in zip(site.tables, tablets, strict=True)]

    def watch(n: int, kind: str, path: str) -> None:
        device = Balanced(ports, n % 2, down)
        device.cookies = dict(viewer)
        every = load.POLL[kind]
        time.sleep(random.uniform(0, every))
        while time.monotonic() < until:
            cycle = time.monotonic()
            status, _, _ = load.retrying(stats, kind, device, "GET", path, until)
            if status != 200:
                stats.error(kind)
            time.sleep(max(0.0, every - (time.monotonic() - cycle)))

    for n in range(load.VIEWERS):
        if n < load.SHEET_VIEWERS:
            kind, path = ("sheet fragment",
                          f"/tables/{site.tables[n % load.TABLES]}/sheet/fragment/")
        elif n < load.SHEET_VIEWERS + load.LIVE_VIEWERS:
            kind, path = "evening live", f"/evenings/{site.evening}/live/"
        else:
            kind, path = "season standings", f"/seasons/{site.season}/"
        threads.append(threading.Thread(target=watch, args=(n, kind, path)))
    for thread in threads:
        thread.start()
    time.sleep(seconds / 2)
    victim = processes[1]
    pids = [*worker_pids(victim), victim.pid]
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    print(f"   killed instance B (gunicorn master {victim.pid} and its workers) with SIGKILL "
          f"after {seconds / 2:.0f} s")
    for thread in threads:
        thread.join(seconds + 120)
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--pdf-viewers", type=int, default=20)
    args = parser.parse_args()
    random.seed(7)

    started = time.perf_counter()
    site = load.build_site()
    victim = get_user_model().objects.create_user(PASSWORD_VICTIM, password=load.PASSWORD)
    Membership.objects.create(user=victim, club=Club.objects.get(slug="load"),
                              role=Membership.Role.ADMIN)
    for alias in ("default", "pdf", "results"):
        caches[alias].clear()
    print(f"set-up: {load.TABLES} tables in {time.perf_counter() - started:.1f} s; "
          f"PostgreSQL and Redis ({os.environ['CACHE_URL']})")
    ports = [free_port(), free_port()]
    processes: list[Any] = []
    ok = True
    try:
        for index, name in enumerate("AB"):
            processes.append(start_gunicorn(
                ports[index], workers=args.workers, env=server_env(PDF_INSTANCE=f"bench-{name}"),
                log_name=f"gunicorn-{name}.log", static=index == 0))
        print(f"instances: A on {HOST}:{ports[0]}, B on {HOST}:{ports[1]}, {args.workers} "
              f"workers each, DEBUG=0, one PostgreSQL, one Redis")
        viewer_device = load.Http(ports[0])
        viewer_device.login(site.viewer)
        viewer = dict(viewer_device.cookies)

        ok &= check_passwords(ports)
        ok &= check_shared_state(site, ports, site.tablet_users[0], viewer)
        ok &= check_pdf_once(site, ports, viewer, site.tablet_users[1], args.pdf_viewers)

        print(f"4. {load.TABLES} tablets and {load.VIEWERS} viewers over both instances for "
              f"{args.seconds:.0f} s; instance B killed halfway")
        down: set[int] = set()
        tablets = [Balanced(ports, n % 2, down) for n in range(load.TABLES)]
        for device, username in zip(tablets, site.tablet_users, strict=True):
            device.login(username)
        before = load.deal_counts(site)
        t0 = time.monotonic()
        stats = load_run(site, ports, processes, args.seconds, tablets, viewer, down)
        elapsed = time.monotonic() - t0
        total = sum(len(v) for v in stats.ms.values())
        errors = sum(stats.errors.values())
        print(f"   {total} requests in {elapsed:.0f} s; "
              f"{sum(len(v) for v in stats.confirmed.values())} deals confirmed; "
              f"{stats.cut_off} requests cut off and retried; errors {errors} (target 0)")
        for kind, samples in sorted(stats.ms.items()):
            print(f"   {kind:<18} n {len(samples):5d}  p50 {percentile(samples, 50):7.1f} ms  "
                  f"p99 {percentile(samples, 99):7.1f} ms  max {max(samples):7.1f} ms")
        ok &= errors == 0
        ok &= load.check_deals(site, stats.confirmed, before)
    finally:
        for process in processes:
            stop(process)
    print("checks passed" if ok else "CHECKS FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
