"""Content-Security-Policy for every HTML page (Django 5.2 has none built in).

Everything Skatclub's pages run or style comes from its own static files: htmx is vendored,
the scripts and style sheets live under static/, and the templates carry no inline scripts,
event-handler attributes or style attributes (htmx is told not to inject its indicator
style, in base.html). So the policy allows our own origin and nothing else; an injected
<script> or onclick would not run. Only HTML gets the header: a PDF or a JSON answer runs
nothing, and Chrome's PDF viewer refuses to show a PDF served with ``object-src 'none'``.

One static file gets a policy of its own: the Web Worker that runs the scoring engine in the
browser (static/js/skat-engine-worker.js, under Pyodide). A dedicated worker is governed by the
policy its script is served with, not by the page's, so ``static_file_headers`` (WhiteNoise's
add-headers hook) gives that script WORKER_POLICY: scripts from our origin, and
``'wasm-unsafe-eval'``, which lets it compile WebAssembly and nothing more (no ``eval``, no
``new Function``: never ``'unsafe-eval'``). The pages keep ``script-src 'self'``; their
``worker-src`` falls back to it, which admits our own worker script.
"""

from __future__ import annotations

import re
from collections.abc import Callable, MutableMapping

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEFAULT_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

WORKER_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "connect-src 'self'",
])

# The worker's name as collectstatic writes it: plain, or with ManifestStaticFilesStorage's
# 12-hex-digit content hash.
WORKER_SCRIPT = re.compile(r"/js/skat-engine-worker(\.[0-9a-f]{12})?\.js$")
# The vendored Pyodide lives in a folder named after its pinned version (scripts/pyodide.pin)
# and is loaded by its plain file names, which carry no hash; the version in the path does
# that job, so those files are cached for good like hashed ones.
PYODIDE_FILE = re.compile(r"/vendor/pyodide/\d+\.\d+\.\d+[^/]*/[^/]+$")
FOREVER = "max-age=315360000, public, immutable"


def static_file_headers(headers: MutableMapping[str, str], path: str, url: str) -> None:
    """WHITENOISE_ADD_HEADERS_FUNCTION: the worker's own policy, and long caching of the
    versioned runtime."""
    if WORKER_SCRIPT.search(url):
        headers["Content-Security-Policy"] = WORKER_POLICY
    if PYODIDE_FILE.search(url):
        headers["Cache-Control"] = FOREVER


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy: str = getattr(settings, "CONTENT_SECURITY_POLICY", DEFAULT_POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (self.policy and "Content-Security-Policy" not in response
                and response.get("Content-Type", "").startswith("text/html")):
            response["Content-Security-Policy"] = self.policy
        return response
