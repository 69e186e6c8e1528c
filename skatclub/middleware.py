"""The first two steps of every request: its id, and who sent it.

RequestIdMiddleware gives each request an id (a trusted proxy's ``X-Request-ID``, or a new
one) for its log records and its response. ProxyHeadersMiddleware believes ``X-Forwarded-For``
and ``X-Forwarded-Proto`` from the addresses in settings.TRUSTED_PROXIES only: from such a peer
the client's address becomes ``REMOTE_ADDR`` (which every limit reads) and the scheme the
proxy names becomes the request's; from anyone else both headers are removed, so nothing
further down (Django's ``SECURE_PROXY_SSL_HEADER`` included) can be told a made-up address
or scheme.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from skatclub.logs import current_request_id
from skatclub.proxies import forwarded_client, is_trusted

GetResponse = Callable[[HttpRequest], HttpResponse]
REQUEST_ID = "skatclub.request_id"  # request.META key
# What a proxy's id may look like: it goes into log lines and a response header.
_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")


def from_trusted_proxy(request: HttpRequest) -> bool:
    peer = request.META.get("skatclub.peer", request.META.get("REMOTE_ADDR", ""))
    return bool(settings.TRUSTED_PROXIES) and is_trusted(str(peer), settings.TRUSTED_PROXIES)


class RequestIdMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.META.get("HTTP_X_REQUEST_ID", "")
        if given and from_trusted_proxy(request) and _ID.fullmatch(given):
            request_id = given
        else:
            request_id = uuid.uuid4().hex
        request.META[REQUEST_ID] = request_id
        token = current_request_id.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            current_request_id.reset(token)
        response["X-Request-ID"] = request_id
        return response


class ProxyHeadersMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        if from_trusted_proxy(request):
            meta["skatclub.peer"] = meta.get("REMOTE_ADDR", "")
            client = forwarded_client(meta.get("HTTP_X_FORWARDED_FOR", ""),
                                      settings.TRUSTED_PROXIES)
            if client:
                meta["REMOTE_ADDR"] = client
            proto = meta.get("HTTP_X_FORWARDED_PROTO", "").split(",")[-1].strip().lower()
            if proto in {"http", "https"}:
                meta["wsgi.url_scheme"] = proto
        else:
            meta.pop("HTTP_X_FORWARDED_FOR", None)
            meta.pop("HTTP_X_FORWARDED_PROTO", None)
        return self.get_response(request)
