"""Each page of the capacity mix (bench/capacity.py) timed in-process on the bench's own data:
queries and milliseconds per request, cold (first request) and warm, on PostgreSQL and Redis;
--profile prints cProfile's top functions for the slowest page.

Run: .venv/bin/python bench/pages.py [--tables 60 --repeat 20 --profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

import capacity  # noqa: F401 (sets Django up on PostgreSQL and Redis)
import load
from _support import percentile
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    site = capacity.build(args.tables)
    for alias in ("default", "pdf", "results"):
        caches[alias].clear()
    viewer, tablet = Client(), Client()
    viewer.login(username="zuschauer", password=load.PASSWORD)
    tablet.login(username="schreiber", password=load.PASSWORD)
    table = site.tables[0]
    pages = [("sheet fragment", viewer, f"/tables/{table}/sheet/fragment/"),
             ("evening live", viewer, f"/evenings/{site.evening}/live/"),
             ("season standings", viewer, f"/seasons/{site.season}/"),
             ("table screen", tablet, f"/tables/{table}/")]
    print(f"{args.tables} tables")
    slowest: tuple[float, str, Client, str] = (0.0, "", viewer, "")
    for name, client, path in pages:
        times, queries, etag = [], 0, ""
        for n in range(args.repeat):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                response = client.get(path)
                times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, (path, response.status_code)
            etag = response.get("ETag", "")
            if n == 0:
                cold, cold_q = times[0], len(captured)
            queries = len(captured)
        conditional = ""
        if etag:
            start = time.perf_counter()
            with CaptureQueriesContext(connection) as captured:
                answer = client.get(path, HTTP_IF_NONE_MATCH=etag)
            conditional = (f"; If-None-Match {answer.status_code} in "
                           f"{(time.perf_counter() - start) * 1000:.1f} ms, {len(captured)} q")
        warm = times[1:] or times
        print(f"  {name:18} cold {cold:8.1f} ms {cold_q:3d} q; warm p50 "
              f"{percentile(warm, 50):7.1f} ms {queries:3d} q{conditional}")
        if percentile(warm, 50) > slowest[0]:
            slowest = (percentile(warm, 50), name, client, path)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(5):
            slowest[2].get(slowest[3])
        profiler.disable()
        print(f"profile of {slowest[1]} (5 requests):")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
