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
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

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
