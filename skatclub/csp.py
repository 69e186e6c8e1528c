"""Content-Security-Policy for every HTML page (Django 5.2 has none built in).

Everything Skatclub's pages run or style comes from its own static files: htmx is vendored,
the scripts and style sheets live under static/, and the templates carry no inline scripts,
event-handler attributes or style attributes (htmx is told not to inject its indicator
style, in base.html). So the policy allows our own origin and nothing else; an injected
<script> or onclick would not run. Only HTML gets the header: a PDF or a JSON answer runs
nothing, and Chrome's PDF viewer refuses to show a PDF served with ``object-src 'none'``.
"""

from __future__ import annotations

from collections.abc import Callable

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
