"""The site's WSGI application with one slow address, for the graceful-shutdown test:
``/slow/`` waits two seconds, then answers what ``/healthz`` answers."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from skatclub.wsgi import application as site


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ.get("PATH_INFO") == "/slow/":
        time.sleep(2)
        environ["PATH_INFO"] = "/healthz"
    return site(environ, start_response)
