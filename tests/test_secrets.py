"""No secrets in the repository: the files git tracks hold no private keys, access tokens,
secret keys or passwords, apart from the documented ones.

Allowed on purpose: the development SECRET_KEY (used only while DEBUG is on; with DEBUG off
the settings refuse to start without one from the environment), the demo password
``skat-demo`` (README, manage.py demo), placeholders in documentation, the throwaway
PostgreSQL cluster's role of scripts/pg-test-server (loopback, deleted after the run), and
passwords of test accounts in tests/ and bench/ (made in throwaway databases).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

DEV_SECRET_KEY = "django-insecure-dev-only-never-use-in-production"
DEMO_PASSWORD = "skat-demo"
URL_PLACEHOLDERS = {"user:pass", "skat:skat", "u:p", "skat:s%40cret"}
THROWAWAY_DIRS = ("tests/", "bench/")

NEVER = {
    "private key": re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    "AWS access key": re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    "GitHub token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
}
SECRET_KEY = re.compile(r"SECRET_KEY\s*[:=]\s*[\"']([^\"']+)[\"']")
# The value starts with a character that is not a space: prose such as
# "choose your password:" followed by a closing quote and the next string is not a password.
PASSWORD = re.compile(r"(?i)\b(?:password|passwd|pwd)\w*[\"']?\s*[:=]\s*"
                      r"[\"']([^\"'\s][^\"'\n]*)[\"']")
URL_CREDENTIALS = re.compile(r"://([^/\s:@\"'`]+:[^/\s@\"'`]+)@")


def tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                         check=True).stdout
    return [ROOT / name for name in out.decode().split("\0") if name]


def findings(name: str, text: str) -> list[str]:
    found = []
    for what, pattern in NEVER.items():
        found += [f"{name}: {what}" for _ in pattern.finditer(text)]
    for match in SECRET_KEY.finditer(text):
        if match.group(1) != DEV_SECRET_KEY and not match.group(1).startswith(("$", "{")):
            found.append(f"{name}: SECRET_KEY {match.group(1)[:6]}…")
    for match in PASSWORD.finditer(text):
        value = match.group(1)
        if value != DEMO_PASSWORD and not name.startswith(THROWAWAY_DIRS):
            found.append(f"{name}: password {value[:3]}…")
    for match in URL_CREDENTIALS.finditer(text):
        if match.group(1) not in URL_PLACEHOLDERS:
            found.append(f"{name}: credentials in a URL ({match.group(1)[:4]}…)")
    return found


def test_tracked_files_hold_no_secrets() -> None:
    problems = []
    for path in tracked_files():
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8000]:
            continue  # binary
        problems += findings(str(path.relative_to(ROOT)), data.decode("utf-8", "replace"))
    assert not problems, "\n".join(problems)


def test_the_scan_finds_what_it_looks_for() -> None:
    """The patterns are live: each kind of secret in a made-up file is found."""
    key = "-----BEGIN " + "OPENSSH PRIVATE KEY-----"
    text = "\n".join([
        key, "AKIA" + "ABCDEFGHIJKLMNOP", "gh" + "p_" + "a1" * 18,
        'SECRET_KEY = "' + "x7" * 20 + '"', 'PASSWORD = "hunter2-but-longer"',
        "DATABASE_URL=postgres://skat:" + "geheim@db/skat",
    ])
    found = findings("scoring/example.py", text)
    assert len(found) == 6, found
    assert findings("tests/web/example.py", 'password="pw-for-tests-only"') == []
    # Prose that ends in "password:" before a quote is no password; one with spaces still is.
    assert findings("x.po", 'msgid "choose your user name and password:"\nmsgstr "…"') == []
    assert findings("x.py", 'raise CommandError("The password: " + reason)') == []
    assert len(findings("x.py", 'password = "correct horse battery"')) == 1
    assert findings("skatclub/settings.py", f'SECRET_KEY = "{DEV_SECRET_KEY}"') == []
    assert findings("Makefile", 'SECRET_KEY="$${SECRET_KEY:-x}"') == []
