"""The site's URLs and error handlers, plus a view that fails (tests/web/test_error_pages.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from skatclub.urls import handler403, handler404, handler500
from skatclub.urls import urlpatterns as site


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a view")


urlpatterns = [path("boom/", boom), *site]
__all__ = ["handler403", "handler404", "handler500", "urlpatterns"]
