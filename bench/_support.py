"""What the page benchmarks share (bench/entry.py, bench/standings.py): Django on a fresh
SQLite file with the project's own settings, and timing helpers. `make bench` runs only the
scripts, not this module (its name starts with an underscore).

Import it before anything of Django's: ``from _support import WORKDIR, report, timed``.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WORKDIR = tempfile.mkdtemp(prefix=f"skatclub-bench-{Path(sys.argv[0]).stem}-")
os.environ["DATABASE_URL"] = ""  # always SQLite here: the targets are stated for SQLite
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")

import django  # noqa: E402
from django.conf import settings  # noqa: E402

django.setup()
# The settings' SQLite OPTIONS (WAL, IMMEDIATE transactions) stay as a club runs them.
settings.DATABASES["default"]["NAME"] = str(Path(WORKDIR) / "bench.sqlite3")
settings.ALLOWED_HOSTS = ["testserver"]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def report(name: str, samples_ms: list[float], width: int = 52) -> float:
    """Prints p50, p95 and max of a series of milliseconds; returns the p95."""
    p95 = percentile(samples_ms, 95)
    print(f"  {name:<{width}} p50 {statistics.median(samples_ms):7.1f} ms   "
          f"p95 {p95:7.1f} ms   max {max(samples_ms):7.1f} ms")
    return p95


def timed(fn: Callable[[], Any]) -> float:
    """Milliseconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000
