"""The scoring engine for the browser: its files as one zip, and a page that loads it.

``engine/<digest>.zip`` serves scoring/offline.py's bundle under its content hash, cached for
good (a new engine has a new hash). ``engine/`` is a small page that starts the in-browser
engine and shows whether this device can score offline; the browser tests and
bench/offline.py drive it."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.views.decorators.http import require_safe

from scoring.offline import engine_bundle, pyodide_version

YEAR = 60 * 60 * 24 * 365


@require_safe
def bundle(request: HttpRequest, digest: str) -> HttpResponse:
    current = engine_bundle()
    if digest != current.digest:
        raise Http404("no such engine bundle")
    response = HttpResponse(current.data, content_type="application/zip")
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


@require_safe
def check(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/engine/check.html", {"pyodide_version": pyodide_version()})


urlpatterns: list[URLPattern] = [
    path("engine/", check, name="engine-check"),
    path("engine/<str:digest>.zip", bundle, name="engine-bundle"),
]
