"""Who may see and write what. Every view fetches its objects through these helpers.

- Club isolation: an object of a club the user is not a member of does not exist (404).
- Roles: viewers read; scorers and club admins write; admins manage the club.
- Failure limits: wrong table codes and wrong passwords are counted per key (an address, a
  user name) in the cache; too many within a window and further attempts wait.
- Table codes: a device that entered a table's code may record at that one table while the
  evening's codes are valid (its date and the night after, until it is closed). The grant
  lives in the session and is checked against the table on every request.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from scoring.models import Club, Deal, Evening, Membership, Player, Season, Table
from scoring.writes.services import Actor

SESSION_KEY = "table_grants"


def membership(request: HttpRequest, club: Club) -> Membership | None:
    user = request.user
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, club=club).first()


def club_for(request: HttpRequest, slug: str, *, write: bool = False,
             admin: bool = False) -> tuple[Club, Membership]:
    club = get_object_or_404(Club, slug=slug)
    member = membership(request, club)
    if member is None:
        raise Http404
    _require(member, write=write, admin=admin)
    return club, member


def evening_for(request: HttpRequest, pk: int, *, write: bool = False,
                admin: bool = False) -> tuple[Evening, Membership]:
    evening = get_object_or_404(Evening.objects.select_related("club", "season"), pk=pk)
    member = membership(request, evening.club)
    if member is None:
        raise Http404
    _require(member, write=write, admin=admin)
    return evening, member


def season_for(request: HttpRequest, pk: int, *, admin: bool = False,
               ) -> tuple[Season, Membership]:
    """A season for a member of its club; editing it is for the club's admins."""
    season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
    member = membership(request, season.club)
    if member is None:
        raise Http404
    _require(member, write=False, admin=admin)
    return season, member


def federation_reader(request: HttpRequest) -> bool:
    """The federation ranking names every club's players with their scores: it is for
    members of a club of the site (any role) and the site's staff, not for anonymous
    visitors or a device that only holds a table code. Raises PermissionDenied for a
    signed-in account of no club; the view sends anonymous visitors to sign in first."""
    user = request.user
    if not user.is_authenticated:
        return False
    if not (user.is_staff or Membership.objects.filter(user=user).exists()):
        raise PermissionDenied
    return True


def player_for(club: Club, pk: int) -> Player:
    """A player of this club; another club's player does not exist here."""
    return get_object_or_404(Player, pk=pk, club=club)


class EveningClosed(PermissionDenied):
    """A write to a closed evening's table: read-only for everybody until reopened."""


def table_for(request: HttpRequest, pk: int, *, write: bool = False) -> tuple[Table, Actor]:
    """A table for a member of its club, or for a device holding its code. Writing to a
    closed evening's table is refused to everybody (EveningClosed, a 403 that says so)."""
    table = get_object_or_404(Table.objects.select_related("evening__club"), pk=pk)
    member = membership(request, table.evening.club)
    if member is not None and (not write or member.can_score):
        actor = Actor(request.user, request.user.get_username())
    elif has_grant(request, table):
        actor = Actor(None, _("table code, table %(number)d") % {"number": table.number})
    elif member is not None:
        raise PermissionDenied
    else:
        raise Http404
    if write and table.evening.closed:
        raise EveningClosed(_(
            "This evening is closed: its deals cannot be recorded or changed until a club "
            "admin reopens it."))
    return table, actor


def deal_for(request: HttpRequest, table: Table, pk: int) -> Deal:
    return get_object_or_404(Deal, pk=pk, table=table)


def _require(member: Membership, *, write: bool, admin: bool) -> None:
    if admin and member.role != Membership.Role.ADMIN:
        raise PermissionDenied
    if write and not member.can_score:
        raise PermissionDenied


# ---------------------------------------------------------------- table codes

def table_by_code(code: str) -> Table | None:
    """The table whose code this is, if the code is valid now."""
    code = code.strip().upper().replace(" ", "").replace("-", "")
    table = Table.objects.select_related("evening__club").filter(access_code=code).first()
    if table is None or not table.evening.codes_valid():
        return None
    return table


def grant(request: HttpRequest, table: Table) -> None:
    grants = dict(request.session.get(SESSION_KEY, {}))
    grants[str(table.pk)] = table.access_code
    request.session[SESSION_KEY] = grants


def has_grant(request: HttpRequest, table: Table) -> bool:
    code = request.session.get(SESSION_KEY, {}).get(str(table.pk))
    return code is not None and code == table.access_code and table.evening.codes_valid()


# ---------------------------------------------------------------- failure limits

def recent(stamps: list[float], now: float, window: int) -> list[float]:
    """The failure times within the last ``window`` seconds."""
    return [t for t in stamps if now - t < window]


def wait_after(stamps: list[float], limit: int, window: int, now: float | None = None) -> int:
    """Seconds until another attempt is allowed after these failures (0: now)."""
    now = time.time() if now is None else now
    stamps = recent(stamps, now, window)
    if not limit or len(stamps) < limit:
        return 0
    return int(stamps[-limit] + window - now) + 1


def failures(key: str) -> list[float]:
    stamps = cache.get(key, [])
    return stamps if isinstance(stamps, list) else []


def blocked_for(key: str, limit: int, window: int) -> int:
    """Seconds the holder of ``key`` must wait after too many failures (0: it may try)."""
    return wait_after(failures(key), limit, window)


def note_failure(key: str, window: int) -> None:
    now = time.time()
    cache.set(key, [*recent(failures(key), now, window), now], window)


def forget_failures(key: str) -> None:
    cache.delete(key)


def client_address(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"
