"""The scoring engine for the browser: its files as one zip, and a page that loads it.

``engine/skat-engine.zip?v=<digest>`` serves scoring/offline.py's bundle under its content
hash, cached for good (a new engine has a new hash; an old hash is 404, so a page from before
an update never runs other rules than it was served with). The hash is a query parameter,
not part of the path, because it names no object of a club. ``engine/`` is a small page
that starts the in-browser engine and shows whether this device can score offline; the
browser tests and bench/offline.py drive it."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_safe

from scoring.offline import engine_bundle, pyodide_version

YEAR = 60 * 60 * 24 * 365


@require_safe
def bundle(request: HttpRequest) -> HttpResponse:
    current = engine_bundle()
    if request.GET.get("v") != current.digest:
        raise Http404("no such engine bundle")
    response = HttpResponse(current.data, content_type="application/zip")
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


def bundle_url() -> str:
    return f"{reverse('scoring:engine-bundle')}?v={engine_bundle().digest}"


@require_safe
def check(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/engine/check.html", {"pyodide_version": pyodide_version()})


urlpatterns: list[URLPattern] = [
    path("engine/", check, name="engine-check"),
    path("engine/skat-engine.zip", bundle, name="engine-bundle"),
]
