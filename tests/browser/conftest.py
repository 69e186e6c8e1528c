"""Browser tests: Playwright driving Debian's chromium against live_server.

Tablet viewport with touch (1024×768 landscape by default). Screenshots go to
$SCREENSHOT_DIR (default: screenshots/ in the project) so a person can look at them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM would refuse to
# run there without this (live_server and ORM calls in the test body).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic",
]
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", Path(__file__).parents[2] / "screenshots"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1024, "height": 768},
            "has_touch": True, "locale": "de-DE"}


@pytest.fixture
def screenshot_dir() -> Iterator[Path]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield SCREENSHOTS
