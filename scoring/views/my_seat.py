""""Mein Platz" (issue 35, item 5): a player's table and seat on his phone after each draw.

- ``seat/<key>/``: the personal link of a tournament entrant (``Entrant.seat_key``: in the
  registration mail's confirmation link, on the desk's receipt), without an account. It shows
  that one entrant only; any other key is a 404. Never the table code (it grants recording).
- ``me/seat/``: for a signed-in account, every current seat of every player record linked to
  it, across clubs (tournaments, league match days, club evenings of today).

Each page polls its fragment (``…/live/``) every POLL_SECONDS with the ETag of what it shows
(static/js/live.js): 304 while nothing moved, made of the evenings' live digests
(reads/live.py) without rendering or reading the rankings; after a draw the new seat is there
within one poll. Reads are reads/my_seat.py's.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring.models import Entrant
from scoring.reads import live
from scoring.reads.my_seat import (
    Account,
    MySeat,
    States,
    account,
    account_seats,
    account_state,
    entrant_by_key,
    entrant_seat,
    entrant_state,
    entrant_states,
    is_linked,
)

POLL_SECONDS = 3  # a draw is on the phone within this and a second of kept states: < 5 s
CARD = "scoring/my_seat/_card.html"
SEATS = "scoring/my_seat/_seats.html"


def _lang() -> str:
    return (get_language() or "de")[:2]


def _templates() -> tuple[str, str]:
    return live.template_digest(CARD), live.template_digest(SEATS)


def _has(request: HttpRequest, etag: str) -> bool:
    given = request.headers.get("If-None-Match", "")
    return etag in [tag.strip() for tag in given.split(",")]


def _stale(seats: list[MySeat], etag: str) -> str:
    """The ETag of an answer whose points are of an earlier state (reads/my_seat.py's
    evening_summary): one that no poll names, so that the next poll brings the points."""
    return etag[:-1] + '-stale"' if any(seat.stale for seat in seats) else etag


def _private(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    # the personal link is in the address: no other site learns it from a Referer
    response["Referrer-Policy"] = "no-referrer"
    return response


def _entrant(key: str) -> Entrant:
    entrant = entrant_by_key(key)
    if entrant is None:
        raise Http404
    return entrant


def _key_etag(entrant: Entrant, states: States) -> str:
    return f'"my-seat-{entrant_state(entrant, states, _lang(), *_templates())}"'


def _key_context(entrant: Entrant, states: States, key: str) -> dict[str, Any]:
    return {"seats": [entrant_seat(entrant, states)], "personal": True,
            "live_url": reverse("scoring:seat-key-live", args=[key])}


@require_safe
def seat_key_page(request: HttpRequest, key: str) -> HttpResponse:
    """The entrant's own page: his seat, waiting before the draw."""
    entrant = _entrant(key)
    states = entrant_states(entrant)
    context = _key_context(entrant, states, key)
    etag = _stale(context["seats"], _key_etag(entrant, states))
    response = render(request, "scoring/my_seat/page.html", {
        **context, "etag": etag, "poll_seconds": POLL_SECONDS,
        "title": entrant.tournament.name})
    return _private(response, etag)


@require_safe
def seat_key_live(request: HttpRequest, key: str) -> HttpResponse:
    """The personal page's polled part: 304 while nothing moved."""
    entrant = _entrant(key)
    states = entrant_states(entrant)
    etag = _key_etag(entrant, states)
    if _has(request, etag):
        return _private(HttpResponse(status=304), etag)
    context = _key_context(entrant, states, key)
    return _private(render(request, SEATS, context), _stale(context["seats"], etag))


def _account_etag(found: Account) -> str:
    return f'"my-seats-{account_state(found, _lang(), *_templates())}"'


@require_safe
@login_required
def my_seat_page(request: HttpRequest) -> HttpResponse:
    """Every current seat of the account's players, across clubs."""
    assert request.user.pk is not None
    found = account(request.user.pk)
    seats = account_seats(found)
    etag = _stale(seats, _account_etag(found))
    response = render(request, "scoring/my_seat/page.html", {
        "seats": seats, "personal": False, "etag": etag,
        "poll_seconds": POLL_SECONDS, "live_url": reverse("scoring:my-seat-live"),
        "linked": is_linked(request.user.pk)})
    return _private(response, etag)


@require_safe
def my_seat_live(request: HttpRequest) -> HttpResponse:
    """The signed-in page's polled part (signed out meanwhile: 403, the page stays)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    assert request.user.pk is not None
    found = account(request.user.pk)
    etag = _account_etag(found)
    if _has(request, etag):
        return _private(HttpResponse(status=304), etag)
    seats = account_seats(found)
    return _private(render(request, SEATS, {"seats": seats, "personal": False}),
                    _stale(seats, etag))


urlpatterns: list[URLPattern] = [
    path("seat/<str:key>/", seat_key_page, name="seat-key"),
    path("seat/<str:key>/live/", seat_key_live, name="seat-key-live"),
    path("me/seat/", my_seat_page, name="my-seat"),
    path("me/seat/live/", my_seat_live, name="my-seat-live"),
]
