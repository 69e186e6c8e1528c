"""The public live board of a tournament: read-only, without signing in, only for a
tournament whose organiser opted in (any other key, or a board switched off, is a 404 that
shows nothing), and a beamer/TV mode with large type and rotating pages.

A hall full of phones must not slow down the tablets: everything here comes from the shared
cache. The board's version (the tournament's version and its tables' versions: every saved
deal moves it) is itself cached for a second, so a poll costs no query at all most of the
time and a saved deal is on the board within about 1 s + one poll interval (static/js/
board.js polls every 2.5 s: within 5 s). The board's HTML is rendered once per version and
language and then served from the cache to every viewer; the version endpoint answers
304 Not Modified to a viewer that has it already.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring.models import Tournament
from scoring.reads.tournament import board_version, tournament_ranking

VERSION_SECONDS = 1  # how long a board's version is taken from the cache
HTML_SECONDS = 60 * 60  # a rendered board (keyed by its version) stays this long
TV_ROWS = 10  # rows per page in the TV mode: large type on a 16:9 screen


def _tournament(key: str) -> Tournament:
    """The opted-in tournament of this key, from the cache (30 s) or one query."""
    cache_key = f"board:t:{key}"
    found = cache.get(cache_key)
    if found is None:
        found = Tournament.objects.select_related("evening", "club").filter(
            board_key=key, public=True).first() or False
        cache.set(cache_key, found, 30)
    if not found:
        raise Http404
    return found  # type: ignore[no-any-return]


def _version(tournament: Tournament) -> str:
    cache_key = f"board:v:{tournament.pk}"
    version = cache.get(cache_key)
    if version is None:
        version = board_version(tournament)  # read fresh: a withdrawal, a new draw, a deal
        cache.set(cache_key, version, VERSION_SECONDS)
    return str(version)


def forget(tournament: Tournament) -> None:
    """After the organiser switches the board on or off: no cached answer outlives it."""
    cache.delete_many([f"board:t:{tournament.board_key}", f"board:v:{tournament.pk}"])


def _pages(rows: list[Any], size: int) -> list[list[Any]]:
    return [rows[i:i + size] for i in range(0, len(rows), size)] or [[]]


def _fragment(tournament: Tournament, version: str, tv: bool) -> str:
    lang = (get_language() or "de")[:2]
    cache_key = f"board:html:{tournament.pk}:{version}:{lang}:{int(tv)}"
    html = cache.get(cache_key)
    if html is None:
        # read afresh: the cached tournament may be up to 30 s old (a new tie rule, a name)
        tournament = Tournament.objects.select_related("evening", "club").get(pk=tournament.pk)
        ranking = tournament_ranking(tournament)
        html = render_to_string("scoring/tournament/_board.html", {
            "tournament": tournament, "ranking": ranking, "tv": tv,
            "pages": _pages(ranking.rows, TV_ROWS if tv else max(1, len(ranking.rows))),
            "stamp": timezone.localtime(), "version": version})
        cache.set(cache_key, html, HTML_SECONDS)
    return str(html)


def _page(request: HttpRequest, key: str, tv: bool) -> HttpResponse:
    tournament = _tournament(key)
    version = _version(tournament)
    response = render(request, "scoring/tournament/board.html", {
        "tournament": tournament, "tv": tv, "fragment": _fragment(tournament, version, tv),
        "version": version,
        "version_url": reverse("scoring:board-version", args=[key]),
        "fragment_url": reverse("scoring:board-tv-fragment" if tv else "scoring:board-fragment",
                                args=[key]),
    })
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def board(request: HttpRequest, key: str) -> HttpResponse:
    return _page(request, key, tv=False)


@require_safe
def board_tv(request: HttpRequest, key: str) -> HttpResponse:
    return _page(request, key, tv=True)


def _fragment_view(request: HttpRequest, key: str, tv: bool) -> HttpResponse:
    tournament = _tournament(key)
    version = _version(tournament)
    response = HttpResponse(_fragment(tournament, version, tv))
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
    tournament = _tournament(key)
    version = _version(tournament)
    etag = f'"board-{version}"'
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
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
