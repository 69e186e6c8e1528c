"""A URL configuration for the operations tests: the site's own, plus a page that tells who
asked (address, scheme, request id) and one that fails."""

from __future__ import annotations

import logging

from django.http import HttpRequest, JsonResponse
from django.urls import include, path


def whoami(request: HttpRequest) -> JsonResponse:
    logging.getLogger("skatclub.tests").warning("whoami asked")
    return JsonResponse({"address": request.META.get("REMOTE_ADDR"), "scheme": request.scheme,
                         "forwarded_for": request.META.get("HTTP_X_FORWARDED_FOR"),
                         "forwarded_proto": request.META.get("HTTP_X_FORWARDED_PROTO")})


def boom(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ratio": 1 // 0})


def mail_failed(request: HttpRequest) -> JsonResponse:
    try:
        raise ConnectionRefusedError("mail.example.org:587")
    except ConnectionRefusedError:
        logging.getLogger("skatclub.mail").exception("invitation to %s not sent", "a@b.example")
    return JsonResponse({"sent": False})


urlpatterns = [
    path("whoami/", whoami),
    path("boom/", boom),
    path("mail-failed/", mail_failed),
    path("", include("skatclub.urls")),
]
