"""Production settings and the Content-Security-Policy.

With DEBUG off the settings come from the environment, refuse to start without a secret key
or host names, and pass Django's deployment checklist (``check --deploy``) without a
warning but the two HSTS opt-ins (sub-domains, preload), which are off by default.
Every HTML page carries a strict Content-Security-Policy, which the templates keep
to: no inline script, no event-handler attribute, no style attribute; the table screen is
driven under it in a real browser without a single violation."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, Request
from pytest_django.live_server_helper import LiveServer

from .factories import browser_login, make_club, make_table, make_user

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "k" * 20 + "-test-only-" + "q9Z!x#7v" * 5,
              "ALLOWED_HOSTS": "skat.example.org"}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL",
                          "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_COOKIES",
                          "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
                          "SECURE_PROXY_SSL_HEADER", "DJANGO_SETTINGS_MODULE",
                          "TRUSTED_PROXIES", "CACHE_URL", "EMAIL_URL",
                          "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, text=True,
                          capture_output=True, env={**clean, **env}, timeout=120)


# HSTS for sub-domains and the browsers' preload list are opt-in: a club's site often shares
# its domain with sub-domains it does not run (the club's mail, an old forum on plain HTTP),
# which includeSubDomains would lock out of plain HTTP for a year. The deployment checklist
# says so with exactly these two warnings, and with both opted in it finds nothing.
HSTS_OPT_IN = {"SECURE_HSTS_INCLUDE_SUBDOMAINS": "1", "SECURE_HSTS_PRELOAD": "1"}


def test_the_deployment_checklist_names_only_the_hsts_opt_ins_by_default() -> None:
    done = manage("check", "--deploy", **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    output = done.stdout + done.stderr
    assert sorted(re.findall(r"\(security\.(W\d+)\)", output)) == ["W005", "W021"], output
    assert "System check identified 2 issues (0 silenced)" in output, output


def test_the_deployment_checklist_passes_with_the_hsts_opt_ins() -> None:
    done = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION, **HSTS_OPT_IN)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues (0 silenced)" in done.stdout, done.stdout + done.stderr
    assert "WARNING" not in done.stderr + done.stdout


def test_hsts_covers_the_site_only_unless_opted_in() -> None:
    code = ("from django.conf import settings as s; print(s.SECURE_HSTS_SECONDS, "
            "s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)")
    default = manage("shell", "-c", code, **PRODUCTION)
    opted_in = manage("shell", "-c", code, **PRODUCTION, **HSTS_OPT_IN)
    assert default.stdout.strip().splitlines()[-1] == "31536000 False False", default.stderr
    assert opted_in.stdout.strip().splitlines()[-1] == "31536000 True True", opted_in.stderr


def test_make_serve_leaves_the_hsts_opt_ins_off() -> None:
    serve = (ROOT / "Makefile").read_text().split("\nserve:", 1)[1].split("\n\n", 1)[0]
    assert 'SECURE_HSTS_INCLUDE_SUBDOMAINS="$${SECURE_HSTS_INCLUDE_SUBDOMAINS:-0}"' in serve
    assert 'SECURE_HSTS_PRELOAD="$${SECURE_HSTS_PRELOAD:-0}"' in serve


@pytest.mark.parametrize(("missing", "message"), [
    ("SECRET_KEY", "SECRET_KEY must be set when DEBUG is off"),
    ("ALLOWED_HOSTS", "ALLOWED_HOSTS must be set when DEBUG is off"),
])
def test_production_refuses_to_start_without(missing: str, message: str) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    done = manage("check", **env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and message in done.stderr, done.stderr


def test_production_settings_come_from_the_environment() -> None:
    code = ("from django.conf import settings as s; print(s.DEBUG, s.ALLOWED_HOSTS, "
            "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
            "s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER, s.TRUSTED_PROXIES)")
    done = manage("shell", "-c", code, **{**PRODUCTION, "ALLOWED_HOSTS": "a.example, b.example"},
                  SECURE_SSL_REDIRECT="0", TRUSTED_PROXIES="127.0.0.1")
    assert done.returncode == 0, done.stderr
    # X-Forwarded-Proto is believed from the trusted proxies only (skatclub/middleware.py),
    # never through Django's SECURE_PROXY_SSL_HEADER, which believes it from anybody.
    assert done.stdout.strip().splitlines()[-1] == (
        "False ['a.example', 'b.example'] True True False 31536000 None "
        "[IPv4Network('127.0.0.1/32')]")


@pytest.mark.django_db
def test_every_page_carries_a_strict_content_security_policy(client: Client) -> None:
    response = client.get(reverse("scoring:home"))
    policy = response["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert "unsafe" not in policy
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


# Inline <script> (one without src), on…= handlers and style="…" would be blocked by the
# policy. The PDF templates are rendered by WeasyPrint, never by a browser.
INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|\sstyle\s*=|<style", re.I)


def test_the_templates_have_nothing_inline_that_the_policy_blocks() -> None:
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")) + sorted(
            (ROOT / "scoring").rglob("templates/**/*.html")):
        if "pdf" in path.parts or path.name.endswith("_pdf.html"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if INLINE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


# ---------------------------------------------------------------- in the browser

@pytest.fixture
def console(page: Page) -> Iterator[list[str]]:
    """Every console message and page error of ``page`` (CSP violations are reported there)."""
    messages: list[str] = []
    page.on("console", lambda message: messages.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: messages.append(f"pageerror: {error}"))
    yield messages


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_table_screen_works_under_the_policy(page: Page, console: list[str],
                                                 live_server: LiveServer) -> None:
    table = make_table(make_club())
    browser_login(page.context, live_server, make_user(table.evening.club, "scorer"))
    response = page.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
    assert response is not None, "the table screen answered"
    assert "script-src 'self'" in response.headers["content-security-policy"]
    for tap in ("declarer-1", "game-clubs", "matadors-1"):
        page.locator(f'[data-tap="{tap}"]').tap()
    # htmx ran: the live preview came back and marked the game's value in the bid strip
    page.wait_for_selector('[data-tap="bid-24"].at-value')
    for tap in ("bid-24", "result-won"):  # the quick result saves once the preview agrees
        page.locator(f'[data-tap="{tap}"]').tap()
    page.wait_for_url("**/tables/*/?saved=*")
    assert "+24" in page.inner_text(".last-rows")
    page.goto(live_server.url + reverse("scoring:sheet", args=[table.pk]))
    page.wait_for_load_state("load")
    violations = [m for m in console if "Content Security Policy" in m or "pageerror" in m]
    assert not violations, violations


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_live_sheet_pauses_while_a_deal_history_is_open(page: Page, console: list[str],
                                                           live_server: LiveServer) -> None:
    # The polling condition moved from an hx-trigger filter (eval, which the policy forbids)
    # to static/js/live.js: a request of the live element is dropped while a <details> in it
    # is open, and sent again once it is closed.
    table = make_table(make_club())
    browser_login(page.context, live_server, make_user(table.evening.club, "scorer"))
    page.goto(live_server.url + reverse("scoring:sheet", args=[table.pk]))
    fragment = reverse("scoring:sheet-fragment", args=[table.pk])
    asked: list[str] = []

    def note_poll(request: Request) -> None:
        if fragment in request.url:
            asked.append(request.url)

    page.on("request", note_poll)
    poll = """(open) => {
        const live = document.getElementById("sheet-live");
        if (open) {
            live.insertAdjacentHTML("beforeend", "<details open><summary>x</summary></details>");
        }
        return htmx.ajax("GET", live.getAttribute("hx-get"), {source: live, target: live});
    }"""
    page.evaluate(poll, True)  # htmx.ajax's promise settles once the request is dropped
    page.wait_for_timeout(200)
    assert asked == []
    page.evaluate("document.querySelector('#sheet-live details').open = false")
    with page.expect_request(lambda request: fragment in request.url):
        page.evaluate(poll, False)
    assert not [m for m in console if "Content Security Policy" in m or "pageerror" in m]
