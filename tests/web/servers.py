"""Real server processes for the tests that need more than one: gunicorn started the way
make serve starts it (skatclub/gunicorn_conf.py), on a free loopback port, with the settings
given in its environment, and a small HTTP client that keeps cookies (one jar may talk to
several servers: cookies do not care for ports) and reads the CSRF token as a browser
would."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"
# What the tests' own environment must not hand to a server: it gets its settings explicitly.
KNOBS = {"DATABASE_URL", "CACHE_URL", "SQLITE_PATH", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS",
         "TRUSTED_PROXIES", "CACHE_KEY_PREFIX", "DJANGO_SETTINGS_MODULE", "SECURE_SSL_REDIRECT",
         "SECURE_COOKIES", "SECURE_HSTS_SECONDS", "DJANGO_ALLOW_ASYNC_UNSAFE", "CONN_MAX_AGE"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(**settings: str) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k not in KNOBS}, **settings}


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM (a graceful shutdown), then SIGKILL if it is still there."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return self.process.returncode


@contextmanager
def gunicorn(env: dict[str, str], log: Path, workers: int = 2,
             app: str = "skatclub.wsgi") -> Iterator[Server]:
    port = free_port()
    out = log.open("w")
    process = subprocess.Popen(
        [str(GUNICORN), app, "--config", "skatclub/gunicorn_conf.py",
         "--bind", f"127.0.0.1:{port}", "--workers", str(workers)],
        cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, server.output()
            try:
                with urllib.request.urlopen(server.url + "/healthz", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except (OSError, urllib.error.HTTPError):
                pass
            assert time.monotonic() < deadline, server.output()
            time.sleep(0.2)
        yield server
    finally:
        server.stop()
        out.close()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


@dataclass
class Browser:
    """Cookies and the CSRF token, as a browser keeps them."""
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def request(self, url: str, data: dict[str, str] | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                             NoRedirect())
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body, headers=headers or {})
        try:
            with opener.open(request, timeout=60) as answer:
                return Answer(answer.status, dict(answer.headers),
                              answer.read().decode(errors="replace"))
        except urllib.error.HTTPError as err:
            return Answer(err.code, dict(err.headers), err.read().decode(errors="replace"))

    def get(self, url: str, **headers: str) -> Answer:
        return self.request(url, headers=headers)

    def post(self, url: str, data: dict[str, str], **headers: str) -> Answer:
        """Posts a form the way the page that holds it would: with the CSRF cookie's token
        (fetched first with a GET of the same URL when there is no cookie yet) and a
        same-origin Referer."""
        if self.csrf_token() is None:
            self.get(url)
        token = self.csrf_token()
        assert token, "no CSRF cookie"
        origin = "/".join(url.split("/")[:3])
        return self.request(url, {**data, "csrfmiddlewaretoken": token},
                            {"Referer": url, "Origin": origin, **headers})

    def post_json(self, url: str, body: Any) -> Answer:
        """A JSON POST as the offline table sends it (X-CSRFToken from the cookie)."""
        token = self.csrf_token()
        assert token, "no CSRF cookie: GET a page first"
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                             NoRedirect())
        origin = "/".join(url.split("/")[:3])
        request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={
            "Content-Type": "application/json", "Accept": "application/json",
            "X-CSRFToken": token, "Referer": origin + "/", "Origin": origin})
        try:
            with opener.open(request, timeout=60) as answer:
                return Answer(answer.status, dict(answer.headers),
                              answer.read().decode(errors="replace"))
        except urllib.error.HTTPError as err:
            return Answer(err.code, dict(err.headers), err.read().decode(errors="replace"))

    def csrf_token(self) -> str | None:
        return next((c.value for c in self.jar if c.name == "csrftoken"), None)


def without_tokens(html: str) -> str:
    """A page without what differs from one request to the next (CSRF tokens)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", html)


# ---------------------------------------------------------------- throwaway back ends

@dataclass
class Backend:
    """A throwaway Redis or PostgreSQL server that a test can stop mid-test: ``url`` for
    CACHE_URL or DATABASE_URL, ``stop()`` takes it away (at once, as a crash would)."""
    url: str
    stop_command: list[str] | None = None
    process: subprocess.Popen[bytes] | None = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # our own child, by its handle
            self.process.wait(10)
        if self.stop_command is not None:
            subprocess.run(self.stop_command, capture_output=True, timeout=60)
            self.stop_command = None


def _answers(port: int, probe: bytes | None, expect: bytes) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            if probe is None:
                return True
            s.sendall(probe)
            return s.recv(16).startswith(expect)
    except OSError:
        return False


@contextmanager
def redis_server() -> Iterator[Backend]:
    """Debian's redis-server on a free loopback port, no persistence, in a temporary folder
    (as scripts/redis-test-server starts it), stopped and removed afterwards."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="skatclub-redis.")
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--dir", folder,
         "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    backend = Backend(f"redis://127.0.0.1:{port}/0", process=process)
    try:
        deadline = time.monotonic() + 10
        while not _answers(port, b"PING\r\n", b"+PONG"):
            assert process.poll() is None and time.monotonic() < deadline, "no redis-server"
            time.sleep(0.05)
        yield backend
    finally:
        backend.stop()
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def postgres_server() -> Iterator[Backend]:
    """A PostgreSQL cluster made for the test (as scripts/pg-test-server makes one: initdb in
    a temporary folder the postgres user can reach, a free loopback port, fsync off, a role
    and a database ``skat``), stopped (immediate) and removed afterwards."""
    import glob
    import os
    import shutil
    import tempfile

    pgbin = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]
    as_user = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    folder = tempfile.mkdtemp(prefix="skatclub-pg.")
    os.chmod(folder, 0o755)
    if as_user:
        shutil.chown(folder, "postgres", "postgres")
    port = free_port()
    data = f"{folder}/data"
    stop = [*as_user, f"{pgbin}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"]
    backend = Backend(f"postgres://skat:skat@127.0.0.1:{port}/skat", stop_command=None)
    try:
        subprocess.run([*as_user, f"{pgbin}/initdb", "-D", data, "-U", "postgres",
                        "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
                       check=True, capture_output=True, timeout=120)
        backend.stop_command = stop
        subprocess.run([*as_user, f"{pgbin}/pg_ctl", "-D", data, "-l", f"{folder}/server.log",
                        "-w", "-o", f"-k {folder} -p {port} -c listen_addresses=127.0.0.1 "
                        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                        "start"], check=True, capture_output=True, timeout=120)
        for sql in ("CREATE ROLE skat LOGIN PASSWORD 'skat' CREATEDB",
                    "CREATE DATABASE skat OWNER skat"):
            subprocess.run([f"{pgbin}/psql", "-h", folder, "-p", str(port), "-U", "postgres",
                            "-d", "postgres", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql],
                           check=True, capture_output=True, timeout=60)
        yield backend
    finally:
        backend.stop()
        shutil.rmtree(folder, ignore_errors=True)
