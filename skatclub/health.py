"""``/healthz`` for load balancers and monitoring: can this instance reach its database and
its cache? 200 with ``{"status": "ok", ...}``, or 503 naming what failed. No session, no
sign-in, two round trips; the failure itself goes to the log. While Redis is gone the site
goes on without its cache (skatclub/cache.py), and this says ``"cache": "failed"`` (503)."""

from __future__ import annotations

import logging
import uuid

from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from skatclub.cache import ResilientRedisCache

log = logging.getLogger("skatclub.health")


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 did not answer 1")


def _cache() -> None:
    cache = caches["default"]
    if isinstance(cache, ResilientRedisCache):
        # It answers a miss while Redis is gone (skatclub/cache.py): ask the server itself.
        cache.ping()
    key, value = f"healthz:{uuid.uuid4().hex}", uuid.uuid4().hex
    cache.set(key, value, 30)
    try:
        if cache.get(key) != value:
            raise RuntimeError("a value written to the cache did not come back")
    finally:
        cache.delete(key)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database, "cache": _cache}
    answer: dict[str, str] = {}
    for name, check in checks.items():
        try:
            check()
        except Exception:
            log.exception("healthz: the %s check failed", name)
            answer[name] = "failed"
        else:
            answer[name] = "ok"
    failed = [name for name, state in answer.items() if state != "ok"]
    if failed:
        return JsonResponse({"status": "unavailable", "failed": failed, **answer}, status=503)
    return JsonResponse({"status": "ok", **answer})
