"""The public live board of a tournament: read-only, without signing in, only for a
tournament whose organiser opted in (any other key, or a board switched off, is a 404 that
shows nothing), and a beamer/TV mode with large type: static/js/board.js shows as many
ranking rows as fit the screen and turns the pages by itself (every TV_TURN_MS, or ?turn=
seconds). The tables' progress is one line. The phone board's "find me" (?find=, a start
number or a name) looks in the rendered board itself (board.js in the browser, ``find`` here
without JavaScript): nobody's search renders a board or asks the database. Each row names the
player's table and seat in the latest series (issue 35: "find me" answers where he sits),
and the form links to "Mein Platz".

A hall full of phones must not slow down the tablets: everything here comes from the shared
cache. The board's version (the tournament's version and its tables' versions: every saved
deal moves it) is itself cached for a second, so a poll costs no query at all most of the
time and a saved deal is on the board within about 1 s + one poll interval (static/js/
board.js polls every 2.5 s: within 5 s). The board's HTML is rendered once per version and
language and then served from the cache to every viewer.

board.js polls the board's fragment itself with the ETag of the board it shows: 304 Not
Modified while nothing moved, else the new board in the same round trip (while tablets save,
the version moves about every second, so nearly every poll of a viewer brings a new board:
one request instead of a version check and a fetch). The version endpoint answers the same
question without the board (304 or the version as JSON).

What one request costs (bench/tournament.py --board measures it over HTTP): one round trip
to the shared cache (the tournament and its version in one get_many), no session, no query;
the rendered board of that version comes from the worker's own memory once it has had it (a
version's HTML never changes, so keeping it is always right), gzip-compressed once per
version for every browser that accepts it (a 1,000-player board is ~140 kB of HTML, some
10 kB compressed).

When the database cannot be reached (issue 26), the board serves the last board it rendered
for that key, language and mode instead of an error: from the worker's memory, else from
the shared cache (where each render is also kept as the key's last board), and its "as of"
stamp (the time it was rendered) tells the wall how old it is. Without either: the site's
503 page.
"""

from __future__ import annotations

import gzip
import html
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils import timezone, translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.models import Tournament
from scoring.reads.tournament import (
    board_version,
    public_tournament,
    tournament_again,
    tournament_ranking,
)

log = logging.getLogger("scoring.board")

VERSION_SECONDS = 1  # how long a board's version is taken from the cache
HTML_SECONDS = 60 * 60  # a rendered board (keyed by its version) stays this long
LAST_SECONDS = 60 * 60 * 24 * 7  # the key's last board, served while the database is gone
TV_TURN_MS = 10_000  # the TV mode shows each page of the ranking this long (data-turn)
FIND_LENGTH = 60  # a "find me" query is cut to this many characters
FIND_SHOWN = 10  # matches a "find me" without JavaScript lists as links
LOCAL_ENTRIES = 8  # rendered boards a worker keeps in its own memory (by version)
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
RENDER_LOCK_SECONDS = 30  # a worker that dies while rendering holds the lock this long
_local: OrderedDict[str, Board] = OrderedDict()  # by variant and version
_newest: dict[str, Board] = {}  # the last board this worker had, by variant
_local_lock = threading.Lock()


def _slot() -> int:
    """The current VERSION_SECONDS-long slot of time: the version is read once per slot."""
    return int(time.time() // VERSION_SECONDS)


def _lookup(key: str) -> tuple[Tournament, str]:
    """The opted-in tournament of this key (cached 30 s) and its board's version, read once
    per VERSION_SECONDS slot: one round trip to the shared cache, a query only when one
    expired. Workers that read the version at the same moment agree on the first one stored
    for the slot (cache.add), so that the board has one version per slot, and one render,
    however many workers asked."""
    tournament_key, version_key = f"board:t:{key}", f"board:v:{key}:{_slot()}"
    cached = cache.get_many([tournament_key, version_key])
    found: Tournament | bool | None = cached.get(tournament_key)
    if found is None:
        found = public_tournament(key)
        if found is None:
            # An unknown key (it comes from the path: anyone can make up a new one for every
            # request) keeps nothing in the shared cache, or a flood would push other
            # entries out.
            raise Http404
        cache.set(tournament_key, found, 30)
    if not isinstance(found, Tournament):
        raise Http404
    version = cached.get(version_key)
    if version is None:
        version = board_version(found)  # read fresh: a withdrawal, a new draw, a deal
        if not cache.add(version_key, version, VERSION_SECONDS + 1):
            version = cache.get(version_key, version)  # another worker's, a moment earlier
    return found, str(version)


def forget(tournament: Tournament) -> None:
    """After the organiser switches the board on or off: no cached answer outlives it."""
    slot = _slot()
    key = tournament.board_key
    cache.delete_many([f"board:t:{key}", *(f"board:v:{key}:{s}" for s in (slot, slot + 1)),
                       *(_last_key(_variant(key, lang, tv)) for lang, _name in settings.LANGUAGES
                         for tv in (False, True))])
    with _local_lock:
        for lang, _name in settings.LANGUAGES:
            for tv in (False, True):
                _newest.pop(_variant(key, lang, tv), None)


def _variant(key: str, lang: str, tv: bool) -> str:
    return f"{key}:{lang}:{int(tv)}"


def _last_key(variant: str) -> str:
    return f"board:last:{variant}"


@dataclass(frozen=True)
class Progress:
    """The last drawn series' tables folded into one line: how many are finished, how many
    still play (a 1,000-player field has 251 tables: one line, not 251 boxes)."""

    series: int
    done: int
    tables: int

    @property
    def playing(self) -> int:
        return self.tables - self.done


def _progress(progress: list[list[Any]]) -> Progress | None:
    if not progress:
        return None
    tables = progress[-1]
    return Progress(len(progress), sum(1 for t in tables if t.complete), len(tables))


@dataclass(frozen=True)
class Board:
    """A rendered board: its version, its HTML (UTF-8) and the same gzip-compressed, and the
    tournament's name (for the page around it when the database is gone)."""

    version: str
    plain: bytes
    compressed: bytes
    name: str = ""


def _last(key: str, tv: bool) -> Board | None:
    """The last board of this key, language and mode: this worker's, else the shared
    cache's (another worker's, or this one's before a restart)."""
    variant = _variant(key, (get_language() or "de")[:2], tv)
    with _local_lock:
        newest = _newest.get(variant)
    if newest is not None:
        return newest
    kept = cache.get(_last_key(variant))
    if not (isinstance(kept, tuple) and len(kept) == 3):
        return None
    version, html, name = kept
    body = str(html).encode()
    board = Board(str(version), body, gzip.compress(body, compresslevel=6, mtime=0), str(name))
    with _local_lock:
        _newest.setdefault(variant, board)
    return board


def _current(key: str, tv: bool, version_only: bool = False
             ) -> tuple[str, Board | None, Tournament | None, str]:
    """The board's version and (unless ``version_only``) the board to show, the tournament
    and the language the board speaks: the club's (Club.language, as its mails), not the
    visitor's, for a wall or phone in the club's hall shows the club's board. While the
    database is gone, the last board kept (no tournament), or the DatabaseError again when
    there is none."""
    lang = _languages.get(key) or (get_language() or "de")[:2]
    try:
        tournament, version = _lookup(key)
        lang = _remember_language(key, tournament.club.language)
        if version_only:
            return version, None, tournament, lang
        with translation.override(lang):
            return version, _fragment(tournament, version, tv), tournament, lang
    except DatabaseError:
        with translation.override(lang):
            last = _last(key, tv)
        if last is None:
            raise
        _warn(key, last.version)
        return last.version, last, None, lang


_languages: dict[str, str] = {}  # the club's language of the boards this worker served


def _remember_language(key: str, language: str) -> str:
    """The club's language of this board, kept for a moment the database is gone."""
    language = (language or "de")[:2]
    with _local_lock:
        _languages[key] = language
        while len(_languages) > LOCAL_ENTRIES * 8:
            _languages.pop(next(iter(_languages)))
    return language


_warned = [-math.inf]  # when this worker last said it serves a kept board


def _warn(key: str, version: str) -> None:
    """One line per minute and worker, not one per poll of every phone in the hall."""
    moment = time.monotonic()
    if moment - _warned[0] >= 60:
        _warned[0] = moment
        log.warning("the database cannot be reached: board %s… shows its last board (%s)",
                    key[:6], version)


def _fragment(tournament: Tournament, version: str, tv: bool) -> Board:
    """The board of this version: from this worker's memory, else from the shared cache,
    else rendered (and shared). One worker renders a board at a time (a lock in the shared
    cache): while another renders the new version, a worker that has an older board serves
    that one (with its own version; the viewer gets the new one at a later poll), so that a
    saved deal does not make every worker render the same board at once while the polls
    queue up."""
    lang = (get_language() or "de")[:2]
    # The board's key (random, never reused) too: a deleted tournament's number may come back
    # on SQLite, with a version string that happens to match.
    variant = _variant(tournament.board_key, lang, tv)
    cache_key = f"board:html:{variant}:{version}"
    with _local_lock:
        kept = _local.get(cache_key)
        newest = _newest.get(variant)
    if kept is not None:
        return kept
    html = cache.get(cache_key)
    if html is None:
        lock = f"board:render:{variant}"
        locked = cache.add(lock, version, RENDER_LOCK_SECONDS)
        if not locked and newest is not None:
            return newest
        try:
            # read afresh: the cached tournament may be up to 30 s old (a tie rule, a name)
            tournament = tournament_again(tournament.pk)
            ranking = tournament_ranking(tournament)
            html = render_to_string("scoring/tournament/_board.html", {
                "tournament": tournament, "ranking": ranking, "tv": tv,
                "summary": _progress(ranking.progress),
                "stamp": timezone.localtime(), "version": version})
            cache.set(cache_key, html, HTML_SECONDS)
            cache.set(_last_key(variant), (version, html, tournament.name), LAST_SECONDS)
        finally:
            if locked:
                cache.delete(lock)
    body = str(html).encode()
    kept = Board(version, body, gzip.compress(body, compresslevel=6, mtime=0), tournament.name)
    with _local_lock:
        _local[cache_key] = kept
        _newest[variant] = kept
        while len(_local) > LOCAL_ENTRIES:
            _local.popitem(last=False)
        while len(_newest) > LOCAL_ENTRIES:
            _newest.pop(next(iter(_newest)))
    return kept


@dataclass(frozen=True)
class Found:
    """A row of the board that a "find me" names."""

    number: int
    name: str
    rank: str
    seat: str = ""  # "Table 17, Seat 3" in the latest series, as the row shows it


# A ranking row of _board.html: its start number (the row's id), its place and its name,
# and the table and seat of the latest series in its sub line, if he plays it.
_ROW = re.compile(r'<tr id="p(\d+)"[^>]*><td class="rank">([^<]*)</td>'
                  r'<td class="num">[^<]*</td><td class="l name"><span class="nm">([^<]*)</span>'
                  r'(?:<span class="sub">[^<]*(?:<span class="seat">([^<]*)</span>)?)?')


def find(board: Board, query: str) -> list[Found]:
    """The rows of a rendered board that a "find me" names: a start number that one, else
    the players whose name contains the words (any case). Read from the board's own HTML,
    the shared render, so that no viewer's search renders or reads anything else."""
    query = " ".join(query.split())[:FIND_LENGTH].casefold()
    if not query:
        return []
    rows = [Found(int(n), html.unescape(name), rank.rstrip("."), html.unescape(seat))
            for n, rank, name, seat in _ROW.findall(board.plain.decode())]
    if query.isdigit():
        return [r for r in rows if r.number == int(query)]
    return [r for r in rows if query in r.name.casefold()]


def _turn(request: HttpRequest) -> int:
    """How long the TV mode shows a page (ms): ``?turn=`` seconds (1–300) for a hall that
    wants it slower or faster, else TV_TURN_MS; anything else is the default."""
    given = request.GET.get("turn", "")
    if given.isdigit() and 1 <= int(given) <= 300:
        return int(given) * 1000
    return TV_TURN_MS


def _page(request: HttpRequest, key: str, tv: bool) -> HttpResponse:
    _version, shown, tournament, lang = _current(key, tv)
    assert shown is not None
    with translation.override(lang):
        response = _page_in(request, key, tv, shown, tournament)
    response["Content-Language"] = lang
    return response


def _page_in(request: HttpRequest, key: str, tv: bool, shown: Board,
             tournament: Tournament | None) -> HttpResponse:
    query = "" if tv else " ".join(request.GET.get("find", "").split())[:FIND_LENGTH]
    found = find(shown, query) if query else []
    if len(found) == 1 and "at" not in request.GET:
        # Without JavaScript, too, the one row found is in view (and marked: :target).
        return redirect(f"{request.path}?{urlencode({'find': query, 'at': found[0].number})}"
                        f"#p{found[0].number}")
    response = render(request, "scoring/tournament/board.html", {
        "tournament": tournament or {"name": shown.name}, "tv": tv,
        "etag": _etag(shown.version, tv),
        "fragment": shown.plain.decode(), "version": shown.version,
        "version_url": reverse("scoring:board-version", args=[key]),
        "fragment_url": reverse("scoring:board-tv-fragment" if tv else "scoring:board-fragment",
                                args=[key]),
        "turn": _turn(request) if tv else 0, "query": query, "found": found[:FIND_SHOWN],
        "found_count": len(found),
        # filled in by board.js: %(page)s, %(pages)s and %(count)s are its placeholders
        "pager_format": _("Page %(page)s of %(pages)s"),
        "many_format": _("Found %(count)s: all marked, the first in view."),
    })
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def board(request: HttpRequest, key: str) -> HttpResponse:
    return _page(request, key, tv=False)


@require_safe
def board_tv(request: HttpRequest, key: str) -> HttpResponse:
    return _page(request, key, tv=True)


def _etag(version: str, tv: bool) -> str:
    """The fragment's ETag: weak (the same board, compressed or not), with the language and
    the mode, which the board's HTML depends on besides its version."""
    return f'W/"board-{version}-{(get_language() or "de")[:2]}-{int(tv)}"'


def _has(request: HttpRequest, etag: str) -> bool:
    """Whether the request's If-None-Match names this (weak) ETag."""
    given = request.headers.get("If-None-Match", "")
    return any(t.strip().removeprefix("W/") == etag.removeprefix("W/")
               for t in given.split(","))


def _fragment_view(request: HttpRequest, key: str, tv: bool) -> HttpResponse:
    """The board itself, conditional: static/js/board.js polls it with the ETag of the board
    it shows and gets 304 Not Modified (nothing rendered, nothing read but the version) or
    the new board in the same round trip."""
    version, last, tournament, lang = _current(key, tv, version_only=True)
    with translation.override(lang):
        response = _fragment_in(request, key, tv, version, last, tournament)
    response["Content-Language"] = lang
    return response


def _fragment_in(request: HttpRequest, key: str, tv: bool, version: str, last: Board | None,
                 tournament: Tournament | None) -> HttpResponse:
    etag = _etag(version, tv)
    shown = last
    if not _has(request, etag) and tournament is not None:
        try:
            shown = _fragment(tournament, version, tv)
        except DatabaseError:
            shown = _last(key, tv)
            if shown is None:
                raise
        # an older board while another worker renders this version
        version, etag = shown.version, _etag(shown.version, tv)
    if shown is None or _has(request, etag):
        response = HttpResponse(status=304)
    elif _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(shown.compressed)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(shown.plain)
    response["Vary"] = "Accept-Encoding"
    response["ETag"] = etag
    response["X-Board-Version"] = version
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def board_fragment(request: HttpRequest, key: str) -> HttpResponse:
    return _fragment_view(request, key, tv=False)


@require_safe
def board_tv_fragment(request: HttpRequest, key: str) -> HttpResponse:
    return _fragment_view(request, key, tv=True)


@require_safe
def board_version_view(request: HttpRequest, key: str) -> HttpResponse:
    """The board's version with an ETag: mostly 304 Not Modified, no query within a second
    of the last."""
    version, _shown, _tournament, _lang = _current(key, False, version_only=True)
    etag = f'"board-{version}"'
    if _has(request, etag):
        response = HttpResponse(status=304)
    else:
        response = JsonResponse({"version": version})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


urlpatterns: list[URLPattern] = [
    path("board/<str:key>/", board, name="board"),
    path("board/<str:key>/tv/", board_tv, name="board-tv"),
    path("board/<str:key>/fragment/", board_fragment, name="board-fragment"),
    path("board/<str:key>/tv/fragment/", board_tv_fragment, name="board-tv-fragment"),
    path("board/<str:key>/version/", board_version_view, name="board-version"),
]
