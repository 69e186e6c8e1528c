"""The static files' storage: WhiteNoise's hashed names, compressed copies and manifest
(staticfiles.json), with the compressed copies of big files kept between collections.

``CollectedAsInProduction`` (DEBUG on, issue 26): collectstatic writes exactly what it writes
with DEBUG off, so that the files make install collects with DEBUG=1 serve a DEBUG=0
gunicorn started by hand as they are. Only the links differ: with DEBUG on the pages name the
plain files, which the development server (and the tests' live server) finds in the source
folders, so a changed file needs no collectstatic to be seen.

Why a cache: brotli at its best level takes some 20 s of two cores for the vendored Pyodide
runtime alone (12 MB), and every collection (make install, make serve, a fresh checkout's make
test) did it again for the same bytes. The same bytes compress to the same bytes, so the
compressed copy of a file of ``CACHED_FROM`` bytes or more is kept under the hash of its
content in ``COMPRESSED_CACHE`` (``~/.cache/skatclub/compressed`` unless the environment says
otherwise; empty: no cache) and copied from there the next time. Copies unused for
``CACHE_DAYS`` days are removed when a collection runs."""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.compress import Compressor  # type: ignore[import-untyped]
from whitenoise.storage import (  # type: ignore[import-untyped]
    CompressedManifestStaticFilesStorage,
)

CACHED_FROM = 256 * 1024
CACHE_DAYS = 60


def compressed_cache() -> Path | None:
    """Where compressed copies are kept, or None for no cache."""
    configured = os.environ.get("COMPRESSED_CACHE")
    if configured is not None:
        return Path(configured) if configured.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "skatclub" / "compressed"


class CachingCompressor(Compressor):  # type: ignore[misc]
    """WhiteNoise's compressor (brotli, then gzip, each kept only when it saves 5 %), taking
    a big file's compressed copy from the cache when it holds one for the same content."""

    def __init__(self, *args: Any, cache: Path | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cache = cache

    def compress_brotli(self, data: bytes) -> bytes:
        return self._cached(data, "br", Compressor.compress_brotli)

    def compress_gzip(self, data: bytes) -> bytes:
        return self._cached(data, "gz", Compressor.compress_gzip)

    def _cached(self, data: bytes, suffix: str, compress: Callable[[bytes], bytes]) -> bytes:
        if self.cache is None or len(data) < CACHED_FROM:
            return bytes(compress(data))
        kept = self.cache / f"{hashlib.sha256(data).hexdigest()}.{suffix}"
        try:
            compressed = kept.read_bytes()
            os.utime(kept)  # used: not removed as stale
            return compressed
        except OSError:
            pass
        compressed = bytes(compress(data))
        try:
            self.cache.mkdir(parents=True, exist_ok=True)
            # written aside and renamed: a parallel collection never reads half a file
            with tempfile.NamedTemporaryFile(dir=self.cache, prefix=".part-",
                                             delete=False) as part:
                try:
                    part.write(compressed)
                except OSError:
                    os.unlink(part.name)
                    raise
            os.replace(part.name, kept)
        except OSError:
            pass  # no cache this time (read-only home, full disk): the collection goes on
        return compressed


def remove_stale(cache: Path, days: int = CACHE_DAYS) -> None:
    """Forget the compressed copies no collection used for ``days`` days (an old Pyodide's)."""
    oldest = time.time() - days * 86400
    for kept in cache.glob("*.*"):
        try:
            if kept.stat().st_mtime < oldest:
                kept.unlink()
        except OSError:
            pass


class CompressedManifestWithCache(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    def create_compressor(self, **kwargs: Any) -> CachingCompressor:
        cache = compressed_cache()
        if cache is not None and cache.is_dir():
            remove_stale(cache)
        return CachingCompressor(cache=cache, **kwargs)


class CollectedAsInProduction(CompressedManifestWithCache):
    def url(self, name: str | None, force: bool = False) -> str:
        return StaticFilesStorage.url(self, name)
