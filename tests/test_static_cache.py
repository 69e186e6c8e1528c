"""The compressed copies of big static files are kept between collections (skatclub/storage.py):
the same content is compressed once, the copy is byte for byte what WhiteNoise writes, small
files and an empty COMPRESSED_CACHE bypass the cache, and copies no collection used for
CACHE_DAYS days are removed."""

from __future__ import annotations

import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from whitenoise.compress import Compressor  # type: ignore[import-untyped]

from skatclub import storage
from skatclub.storage import CACHED_FROM, CachingCompressor, compressed_cache, remove_stale


def big_file(folder: Path, name: str, size: int = CACHED_FROM + 1) -> Path:
    """Text-like bytes that compress (random words), ``size`` long."""
    words = [bytes(random.Random(n).choices(b"abcdefghij ", k=7)) for n in range(400)]
    rng = random.Random(size)
    data = b"".join(rng.choice(words) for _ in range(size // 7 + 1))[:size]
    path = folder / name
    path.write_bytes(data)
    return path


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often brotli and gzip really ran."""
    calls = {"br": 0, "gz": 0}
    brotli, gzip = Compressor.compress_brotli, Compressor.compress_gzip

    def count_br(data: bytes) -> Any:
        calls["br"] += 1
        return brotli(data)

    def count_gz(data: bytes) -> Any:
        calls["gz"] += 1
        return gzip(data)

    monkeypatch.setattr(Compressor, "compress_brotli", staticmethod(count_br))
    monkeypatch.setattr(Compressor, "compress_gzip", staticmethod(count_gz))
    return calls


def test_the_same_content_is_compressed_once_and_written_as_whitenoise_writes_it(
        tmp_path: Path, counted: dict[str, int]) -> None:
    cache = tmp_path / "cache"
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    one = big_file(first, "pyodide.asm.wasm")
    other = second / "pyodide.asm.1a2b3c.wasm"  # the hashed copy: the same bytes
    other.write_bytes(one.read_bytes())

    written = CachingCompressor(cache=cache, quiet=True).compress(str(one))
    assert sorted(Path(p).name for p in written) == ["pyodide.asm.wasm.br",
                                                     "pyodide.asm.wasm.gz"]
    assert counted == {"br": 1, "gz": 1}
    CachingCompressor(cache=cache, quiet=True).compress(str(other))
    assert counted == {"br": 1, "gz": 1}  # taken from the cache
    for suffix in (".br", ".gz"):
        cached = Path(str(other) + suffix).read_bytes()
        assert cached == Path(str(one) + suffix).read_bytes()
    # what WhiteNoise itself writes for these bytes
    plain = Compressor(quiet=True)
    assert Path(str(other) + ".br").read_bytes() == plain.compress_brotli(one.read_bytes())
    assert Path(str(other) + ".gz").read_bytes() == plain.compress_gzip(one.read_bytes())


def test_small_files_and_no_cache_are_compressed_every_time(
        tmp_path: Path, counted: dict[str, int]) -> None:
    cache = tmp_path / "cache"
    small = big_file(tmp_path, "htmx.js", size=CACHED_FROM - 1)
    for _ in range(2):
        CachingCompressor(cache=cache, quiet=True).compress(str(small))
    assert counted == {"br": 2, "gz": 2}
    assert not cache.exists()
    big = big_file(tmp_path, "big.js")
    for _ in range(2):
        CachingCompressor(cache=None, quiet=True).compress(str(big))
    assert counted == {"br": 4, "gz": 4}


def test_the_cache_folder_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setenv("COMPRESSED_CACHE", str(tmp_path / "here"))
    assert compressed_cache() == tmp_path / "here"
    monkeypatch.setenv("COMPRESSED_CACHE", "")
    assert compressed_cache() is None
    monkeypatch.delenv("COMPRESSED_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert compressed_cache() == tmp_path / "xdg" / "skatclub" / "compressed"


def test_an_unwritable_cache_still_compresses(tmp_path: Path, counted: dict[str, int]) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    big = big_file(tmp_path, "big.js")
    written = CachingCompressor(cache=blocked / "cache", quiet=True).compress(str(big))
    assert len(written) == 2 and counted == {"br": 1, "gz": 1}


def test_copies_unused_for_the_days_are_removed_and_used_ones_kept(
        tmp_path: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    big = big_file(tmp_path, "big.js")
    CachingCompressor(cache=cache, quiet=True).compress(str(big))
    old = time.time() - (storage.CACHE_DAYS + 1) * 86400
    stale = cache / "0000.br"
    stale.write_bytes(b"an old runtime's copy")
    os.utime(stale, (old, old))
    kept = sorted(cache.glob("*.*"))
    for path in kept:
        if path != stale:
            os.utime(path, (old, old))
    CachingCompressor(cache=cache, quiet=True).compress(str(big))  # uses its two copies
    remove_stale(cache)
    assert not stale.exists()
    assert len(list(cache.glob("*.*"))) == 2 and counted == {"br": 1, "gz": 1}


def test_a_copy_that_cannot_be_written_leaves_no_part_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    real = tempfile.NamedTemporaryFile

    def full_disk(*args: Any, **kwargs: Any) -> Any:
        part = real(*args, **kwargs)

        def refuse(data: bytes) -> int:
            raise OSError(28, "No space left on device")

        part.write = refuse  # type: ignore[method-assign,assignment]
        return part

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", full_disk)
    big = big_file(tmp_path, "big.js")
    written = CachingCompressor(cache=cache, quiet=True).compress(str(big))
    assert len(written) == 2  # compressed all the same
    assert list(cache.iterdir()) == []


def test_the_site_collects_through_the_caching_compressor(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Both storages of settings.py (DEBUG on and off) hand collectstatic the caching
    compressor, with the folder the environment names."""
    from django.core.files.storage import storages

    monkeypatch.setenv("COMPRESSED_CACHE", str(tmp_path / "kept"))
    site: Any = storages["staticfiles"]
    compressor = site.create_compressor(quiet=True)
    assert isinstance(compressor, CachingCompressor)
    assert compressor.cache == tmp_path / "kept"
    production = storage.CompressedManifestWithCache()
    assert isinstance(production.create_compressor(quiet=True), CachingCompressor)
