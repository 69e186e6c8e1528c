"""The shared cache on Redis, as a cache that may be gone (issue 26, item 12).

Django's own RedisCache raises redis' ConnectionError or TimeoutError out of every call
while its server is stopped or unreachable, so that every page that reads the session, the
signed-in account or a cached fragment answered 500. Nothing the site keeps in the cache is
needed to answer a request: sessions are written through to the database (cached_db), the
signed-in account, the polled pages, the board and the results are derived from the
database. So a cache that cannot be reached behaves here as an empty cache that keeps
nothing: a read is a miss, a write is dropped (``add`` succeeds as on an empty cache, an
``incr`` finds no number), and the site goes on from the database.

- A dead host must not hang the workers: the connection is given up after
  ``socket_connect_timeout`` (0.5 s unless CACHE_URL's OPTIONS say otherwise) and a reply
  after ``socket_timeout`` (2 s); after a failure the server is not asked again for
  ``RETRY_SECONDS`` (2 s, doubled after each further failed try up to 30 s), so a request
  that would make twenty calls waits for none of them, and a server that hangs costs a
  worker one wait per pause, not one per call.
- One warning per ``WARN_SECONDS`` in each process (logger ``skatclub.cache``), not one per
  call, and one line when the server answers again.
- What a process changed while the server was gone is not left stale there: the keys it
  wrote or deleted meanwhile (a session signed out or changed, an account changed) are
  deleted from the server first thing when it answers again, before anything is read from
  it (at most ``MAX_MISSED`` keys a process; beyond that the log says so). A process that
  wrote nothing has nothing to delete; another process may read such a key between the
  server's return and the writer's next call.
- ``available()`` says whether the last call reached the server; /healthz asks the server
  itself (skatclub/health.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger("skatclub.cache")

# Connection refused or lost, timeouts, and a server that answers but not as Redis (a wrong
# port, a proxy) or refuses writes (out of memory): the cache cannot be used, the site can.
UNREACHABLE = (RedisError, OSError)
CONNECT_TIMEOUT = 0.5  # seconds to reach the server
REPLY_TIMEOUT = 2.0  # seconds for one answer (a PDF of a few MB, a busy server: well under)
RETRY_SECONDS = 2.0  # after a failure, calls are misses without asking for this long,
MAX_RETRY_SECONDS = 30.0  # doubled after each failed try while the server stays gone
WARN_SECONDS = 60.0  # one warning per process at most this often
MAX_MISSED = 10_000  # keys written while the server was gone, deleted when it is back

_T = TypeVar("_T")


class ResilientRedisCache(RedisCache):
    """Django's RedisCache, degraded to an empty cache while its server cannot be reached."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_connect_timeout", CONNECT_TIMEOUT)
        options.setdefault("socket_timeout", REPLY_TIMEOUT)
        super().__init__(server, {**params, "OPTIONS": options})
        self._down_until = 0.0  # monotonic time before which the server is not asked
        self._warned = -WARN_SECONDS  # monotonic time of the last warning
        self._down = False
        self._pause = RETRY_SECONDS
        self._state = threading.Lock()
        self._missed: set[tuple[Any, int | None]] = set()  # (key, version) written meanwhile
        self._overflowed = False

    def available(self) -> bool:
        """Whether the server answered the last call (False while it is skipped)."""
        return not self._down

    def ping(self) -> None:
        """Asks the server itself, past the degradation: raises when it cannot be reached
        (for /healthz, which must report the cache down, not a miss)."""
        try:
            self._cache.get_client(write=True).ping()  # type: ignore[attr-defined]
        except UNREACHABLE as err:
            self._failed(err)
            raise

    def _call(self, work: Callable[[], _T], fallback: _T,
              keys: Iterable[Any] = (), version: int | None = None) -> _T:
        if self._down and time.monotonic() < self._down_until:
            self._remember(keys, version)
            return fallback
        try:
            if self._down:
                self._forget_missed()
            result = work()
        except UNREACHABLE as err:
            self._failed(err)
            self._remember(keys, version)
            return fallback
        if self._down:
            with self._state:
                if self._down:
                    self._down = False
                    self._pause = RETRY_SECONDS
                    log.warning("the cache at %s answers again", self._location())
        return result

    def _remember(self, keys: Iterable[Any], version: int | None) -> None:
        with self._state:
            for key in keys:
                if len(self._missed) >= MAX_MISSED:
                    if not self._overflowed:
                        self._overflowed = True
                        log.warning("more than %d keys changed while the cache was gone: "
                                    "the rest may be stale when it is back", MAX_MISSED)
                    return
                self._missed.add((key, version))

    def _forget_missed(self) -> None:
        """Deletes on the server what this process changed while it was gone (raises while
        it is still gone: the keys stay remembered)."""
        with self._state:
            missed = list(self._missed)
        by_version: dict[int | None, list[Any]] = {}
        for key, version in missed:
            by_version.setdefault(version, []).append(key)
        for version, keys in by_version.items():
            for start in range(0, len(keys), 500):
                super().delete_many(keys[start:start + 500], version)
        with self._state:
            self._missed.difference_update(missed)
            self._overflowed = False

    def _failed(self, err: BaseException) -> None:
        now = time.monotonic()
        with self._state:
            if self._down:  # failed again after a pause: wait longer before the next try
                self._pause = min(self._pause * 2, MAX_RETRY_SECONDS)
            self._down = True
            self._down_until = now + self._pause
            warn = now - self._warned >= WARN_SECONDS
            if warn:
                self._warned = now
        if warn:
            log.warning("the cache at %s cannot be reached (%s: %s): the site goes on without "
                        "it (every read a miss, every write dropped) and asks again in "
                        "%.0f s", self._location(), type(err).__name__, err, self._pause)

    def _location(self) -> str:
        # The servers without a password (redis://:secret@host/0 → host/0).
        servers: list[str] = getattr(self, "_servers", [])
        return ",".join(s.rsplit("@", 1)[-1] for s in servers)

    # ------------------------------------------------------------ Django's cache API

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: int | None = None) -> bool:
        # An empty cache has no such key: the add "succeeds" (a lock is then taken by all).
        return self._call(lambda: super(ResilientRedisCache, self).add(
            key, value, timeout, version), True, [key], version)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._call(lambda: super(ResilientRedisCache, self).get(key, default, version),
                          default)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: int | None = None) -> None:
        self._call(lambda: super(ResilientRedisCache, self).set(key, value, timeout, version),
                   None, [key], version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT,
              version: int | None = None) -> bool:
        return self._call(lambda: super(ResilientRedisCache, self).touch(key, timeout, version),
                          False, [key], version)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._call(lambda: super(ResilientRedisCache, self).delete(key, version), False,
                          [key], version)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        keys = list(keys)
        return self._call(lambda: super(ResilientRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._call(lambda: super(ResilientRedisCache, self).has_key(key, version), False)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        missing = object()
        result = self._call(lambda: super(ResilientRedisCache, self).incr(key, delta, version),
                            missing, [key], version)
        if result is missing:  # as on an empty cache
            raise ValueError(f"Key '{key}' not found")
        assert isinstance(result, int)
        return result

    def set_many(self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT,
                 version: int | None = None) -> list[Any]:
        return self._call(lambda: super(ResilientRedisCache, self).set_many(
            data, timeout, version), [], list(data), version)

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        keys = list(keys)
        self._call(lambda: super(ResilientRedisCache, self).delete_many(keys, version), None,
                   keys, version)

    def clear(self) -> None:
        self._call(lambda: super(ResilientRedisCache, self).clear(), None)
