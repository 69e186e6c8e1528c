"""What the page benchmarks share (bench/entry.py, bench/standings.py): Django on a fresh
SQLite file with the project's own settings, and timing helpers. `make bench` runs only the
scripts, not this module (its name starts with an underscore).

Import it before anything of Django's: ``from _support import WORKDIR, report, timed``.
A script that runs on PostgreSQL sets ``BENCH_DATABASE=postgres`` in the environment before
the import: a PostgreSQL DATABASE_URL is then kept, and without one the script runs itself
again under scripts/pg-test-server (a throwaway server, removed afterwards). Likewise
``BENCH_CACHE=redis``: CACHE_URL is kept if it names a Redis server, else the script runs
under scripts/redis-test-server.
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
POSTGRES = os.environ.get("BENCH_DATABASE") == "postgres"
REDIS = os.environ.get("BENCH_CACHE") == "redis"
_servers = []
if POSTGRES and not os.environ.get("DATABASE_URL", "").startswith(("postgres://",
                                                                   "postgresql://")):
    _servers.append(str(ROOT / "scripts" / "pg-test-server"))
if REDIS and not os.environ.get("CACHE_URL", "").startswith("redis://"):
    _servers.append(str(ROOT / "scripts" / "redis-test-server"))
if _servers:  # run again with throwaway servers, which are removed when it ends
    missing = [server for server in _servers if not Path(server).exists()]
    if missing:
        sys.exit(f"{Path(sys.argv[0]).name} needs {', '.join(missing)}")
    os.execv(_servers[0], [*_servers, sys.executable, *sys.argv])
if not POSTGRES:
    os.environ["DATABASE_URL"] = ""  # SQLite here: those targets are stated for SQLite
WORKDIR = tempfile.mkdtemp(prefix=f"skatclub-bench-{Path(sys.argv[0]).stem}-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")

import django  # noqa: E402
from django.conf import settings  # noqa: E402

django.setup()
# The settings' SQLite OPTIONS (WAL, IMMEDIATE transactions) stay as a club runs them.
if not POSTGRES:
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


def split_queries(captured: list[dict[str, Any]]) -> tuple[int, int]:
    """(the page's own SQL queries, those of the shared cache kept in the database):
    ``CaptureQueriesContext.captured_queries`` split, so that a query target counts what
    the page asks of its data, whether the cache is the database table (the default),
    where reading or refreshing an entry is SQL too, or Redis."""
    cache = sum(1 for q in captured
                if "skatclub_cache" in q["sql"] or q["sql"] in ("BEGIN IMMEDIATE", "COMMIT"))
    return len(captured) - cache, cache


def timed(fn: Callable[[], Any]) -> float:
    """Milliseconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


# ---------------------------------------------------------------- gunicorn, as make serve runs it

HOST = "127.0.0.1"  # the only address the benchmarks listen on and talk to


def free_port() -> int:
    """A free loopback port, asked of the kernel."""
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def server_env(**extra: str) -> dict[str, str]:
    """The environment of a gunicorn as `make serve` runs it (DEBUG=0), on this run's
    database: the bench's SQLite file, or the PostgreSQL of DATABASE_URL."""
    env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": HOST, "SECURE_SSL_REDIRECT": "0",
           "SECURE_COOKIES": "0", "SECURE_HSTS_SECONDS": "0",
           "PDF_CACHE_DIR": str(Path(WORKDIR) / "pdf-cache")}
    env.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
    env.setdefault("CONN_MAX_AGE", "60")  # as make serve: a worker keeps its connection
    if not POSTGRES:
        env |= {"DATABASE_URL": "", "SQLITE_PATH": str(settings.DATABASES["default"]["NAME"])}
    return env | extra


def collectstatic(env: dict[str, str]) -> None:
    """DEBUG=0 serves hashed file names, which need collectstatic's manifest. Skipped when
    the manifest is newer than every file under static/ (it post-processes a thousand files,
    minutes on a busy machine)."""
    import subprocess

    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.exists():
        made = manifest.stat().st_mtime
        sources = (ROOT / "static").rglob("*")
        if all(path.stat().st_mtime <= made for path in sources if path.is_file()):
            return
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity",
                    "0"], cwd=ROOT, env=env, check=True)


def worker_pids(process: Any) -> list[int]:
    """The pids of a gunicorn master's workers (its child processes)."""
    path = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    try:
        return [int(p) for p in path.read_text().split()]
    except OSError:
        return []


def answers(port: int, path: str) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def start_gunicorn(port: int, *, workers: int, env: dict[str, str] | None = None,
                   threads: int = 1, preload: bool = False, args: tuple[str, ...] = (),
                   ready: str = "/accounts/login/", log_name: str = "gunicorn.log",
                   static: bool = True) -> Any:
    """gunicorn with ``workers`` workers on HOST:``port``; returns its Popen once ``ready``
    answers 200 and every worker runs (at most 30 s; else it is stopped and the run ends).
    Its output goes to WORKDIR/``log_name``."""
    import subprocess

    env = server_env() if env is None else env
    if static:
        collectstatic(env)
    log = open(Path(WORKDIR) / log_name, "wb")  # noqa: SIM115 (kept open for gunicorn)
    command = [str(Path(sys.executable).parent / "gunicorn"), "skatclub.wsgi",
               "--bind", f"{HOST}:{port}", "--workers", str(workers)]
    if threads > 1:
        command += ["--threads", str(threads)]
    if preload:  # Django is imported once in the master; a new worker is just a fork
        command += ["--preload"]
    command += list(args)
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited; see {log.name}")
        if answers(port, ready) and len(worker_pids(process)) == workers:
            return process
        time.sleep(0.2)
    stop(process)
    raise SystemExit("gunicorn did not come up within 30 s")


def stop(process: Any) -> None:
    """Stop a gunicorn by its pid: SIGTERM (graceful), SIGKILL after 15 s."""
    import subprocess

    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
