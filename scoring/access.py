"""Who may see and write what. Every view fetches its objects through these helpers.

- Club isolation: an object of a club the user is not a member of does not exist (404).
- Roles: viewers read; scorers and club admins write; admins manage the club.
- Failure limits: wrong table codes and wrong passwords are counted in the database (not the
  cache: nothing else evicts them there) per (address, account) and per (address, device),
  with atomic increments, and per address with a higher allowance (an IPv6 client's address
  is its /64 network, ``address_key``); past the free attempts each further attempt waits longer
  (a slowdown, never a lock-out of the rightful holder from another address or device).
- One query: each ``*_for`` helper reads its object and the signed-in user's membership of
  the object's club in one query (a LEFT JOIN on the membership; the unique (user, club)
  pair makes it an index lookup and at most one row) and builds the ``Membership`` from
  that row: the polled pages ask this on every request. The signed-in account itself comes
  from the shared cache (SignedInBackend).
- Table codes: a device that entered a table's code may record at that one table while the
  evening's codes are valid (its date and the night after, until it is closed). The grant
  lives in the session and is checked against the table on every request.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.db.models import F, FilteredRelation, Model, Q, QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from scoring.apps import (
    SIGNED_IN_CACHE,
    new_signed_in_version,
    signed_in_key,
    signed_in_version_key,
)
from scoring.models import (
    Club,
    Deal,
    Evening,
    FailureCount,
    League,
    MatchDay,
    Membership,
    Player,
    Season,
    Table,
    TeamPlayer,
    Tournament,
)
from scoring.writes.onboarding import account_named
from scoring.writes.services import Actor

SESSION_KEY = "table_grants"

# How long a signed-in account is kept in the shared cache. Every request of a signed-in
# member reads the account (Django's get_user); at a Preisskat most requests are polls, and
# that read was the largest part of a poll after the session. A change through the models
# (a new password, deactivated, deleted) makes a new version of the account at once and at
# its commit, in every process (scoring/apps.py): a copy kept under an older version is never
# used again, even one kept by a request that read the account just before the commit. This
# bounds anything else (a bulk update in a shell sends no signal).
SIGNED_IN_SECONDS = 60


class SignedInBackend(ModelBackend):
    """Django's own sign-in (ModelBackend), with the signed-in account read from the shared
    cache. Django still checks the session against the account's password on every request
    (the session's hash), and an inactive account is refused as before. The user name is
    compared as the site compares names (issue 35: NFKC and case-folded), so that "Anna"
    signs in as "anna" or "ＡＮＮＡ"; an account of exactly the name typed comes first (as
    typed, before the form's NFKC too), so that two old accounts whose names differ only so
    still sign in with their own names."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> User | None:
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = None
        typed = request.POST.get("username") if request is not None else None
        if isinstance(typed, str) and typed.strip() != username:
            # as typed, before the sign-in form's NFKC: an old account named in fullwidth
            # letters beside its halfwidth twin still signs in with its exact name
            user = User.objects.filter(username=typed.strip()).first()
        if user is None:
            user = account_named(str(username))
        if user is None:
            # As ModelBackend: hash the password anyway, so that the time taken does not
            # tell a name that exists from one that does not.
            User().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None

    def get_user(self, user_id: Any) -> User | None:
        """One round trip to the cache: the kept account and the account's version together.
        The kept account is used only under the version it was read under; else it is read
        from the database under the current version (made when there is none: a version
        evicted from the cache never matches a kept account again)."""
        if SIGNED_IN_SECONDS <= 0:  # keeping switched off
            return super().get_user(user_id)
        cache = caches[SIGNED_IN_CACHE]
        key, version_key = signed_in_key(user_id), signed_in_version_key(user_id)
        got = cache.get_many([key, version_key])
        version, kept = got.get(version_key), got.get(key)
        if (version is not None and isinstance(kept, tuple) and len(kept) == 2
                and kept[0] == version):
            user: User | None = kept[1]
            return user if user is not None and self.user_can_authenticate(user) else None
        if version is None:
            fresh = new_signed_in_version()
            version = fresh if cache.add(version_key, fresh, None) else cache.get(version_key)
        # read after the version: a change committed from here on makes a new version
        user = super().get_user(user_id)
        if user is not None and version is not None:
            cache.set(key, (version, user), SIGNED_IN_SECONDS)
        return user


_M = TypeVar("_M", bound=Model)


def with_membership(request: HttpRequest, objects: QuerySet[_M], club: str) -> QuerySet[_M]:
    """The objects, each with the signed-in user's membership of its club (``club``: the
    path from the object to its club, "pk" for a club) as ``member_pk`` and ``member_role``,
    in the same query; read them back with ``member_of``. Anonymous: the objects as they are."""
    user = request.user
    if not user.is_authenticated:
        return objects
    # A LEFT JOIN on the user's membership of that club (at most one: the unique (user,
    # club) pair), cheaper to build than a subquery per column: the ORM's work is most of a
    # poll's cost.
    memberships = "memberships" if club == "pk" else f"{club}__memberships"
    annotated: QuerySet[_M] = objects.annotate(
        mine=FilteredRelation(memberships, condition=Q(**{f"{memberships}__user": user.pk})),
    ).annotate(member_pk=F("mine__pk"), member_role=F("mine__role"))
    return annotated


def member_of(request: HttpRequest, row: Model, club: Club) -> Membership | None:
    """The membership ``with_membership`` read along with ``row`` (None: not a member),
    built without a query: as if read from the database (its pk, role, user and club, the
    latter two the request's user and the club at hand)."""
    pk = getattr(row, "member_pk", None)
    user = request.user
    if pk is None or not user.is_authenticated:
        return None
    member = Membership.from_db(row._state.db, ["id", "user_id", "club_id", "role"],
                                [pk, user.pk, club.pk, getattr(row, "member_role", None)])
    member.user = user
    member.club = club
    return member


def club_for(request: HttpRequest, slug: str, *, write: bool = False,
             admin: bool = False) -> tuple[Club, Membership]:
    club = get_object_or_404(with_membership(request, Club.objects.all(), "pk"), slug=slug)
    member = member_of(request, club, club)
    if member is None:
        raise Http404
    _require(member, write=write, admin=admin)
    return club, member


def evening_for(request: HttpRequest, pk: int, *, write: bool = False,
                admin: bool = False) -> tuple[Evening, Membership]:
    evening = get_object_or_404(with_membership(
        request, Evening.objects.select_related("club", "season"), "club"), pk=pk)
    member = member_of(request, evening, evening.club)
    if member is None:
        raise Http404
    _require(member, write=write, admin=admin)
    return evening, member


def season_for(request: HttpRequest, pk: int, *, admin: bool = False,
               ) -> tuple[Season, Membership]:
    """A season for a member of its club; editing it is for the club's admins."""
    season = get_object_or_404(with_membership(
        request, Season.objects.select_related("club"), "club"), pk=pk)
    member = member_of(request, season, season.club)
    if member is None:
        raise Http404
    _require(member, write=False, admin=admin)
    return season, member


def tournament_for(request: HttpRequest, pk: int, *, admin: bool = False,
                   ) -> tuple[Tournament, Membership]:
    """A tournament (with its club, its evening and the evening's club and season) for a
    member of its club; the organiser's pages for its admins: other members 403, other
    clubs 404."""
    tournament = get_object_or_404(with_membership(
        request, Tournament.objects.select_related("club", "evening__club", "evening__season"),
        "club"), pk=pk)
    member = member_of(request, tournament, tournament.club)
    if member is None:
        raise Http404
    _require(member, write=False, admin=admin)
    return tournament, member


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
    table = get_object_or_404(with_membership(
        request, Table.objects.select_related("evening__club"), "evening__club"), pk=pk)
    member = member_of(request, table, table.evening.club)
    if member is not None and (not write or member.can_score):
        actor = Actor(request.user, request.user.get_username(),
                      admin=member.role == Membership.Role.ADMIN)
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


# ---------------------------------------------------------------- team leagues

@dataclass(frozen=True)
class LeagueAccess:
    """What the signed-in user may do in a league (issue 25). The league secretaries are
    the admins of the league's club; a match day's host is the admins of the host team's
    club (its desk until the results are binding); a captain signs the report for his team;
    members of the league's club and of its teams' clubs may read the league's pages."""

    secretary: bool
    reader: bool
    host_clubs: frozenset[int]  # clubs the user is an admin of
    captain_of: frozenset[int]  # teams whose captain's player is the user

    def hosts(self, day: MatchDay) -> bool:
        host = day.host
        return self.secretary or (host is not None and host.club_id in self.host_clubs)

    def signs_for(self, team_id: int) -> bool:
        return team_id in self.captain_of


def league_access(request: HttpRequest, league: League) -> LeagueAccess:
    """Two queries: the user's memberships and the teams he captains in this league."""
    user = request.user
    if not user.is_authenticated:
        return LeagueAccess(False, False, frozenset(), frozenset())
    roles = dict(Membership.objects.filter(user=user).values_list("club_id", "role"))
    captain_of = frozenset(TeamPlayer.objects.filter(
        team__group__league=league, captain=True, player__user=user).values_list(
            "team_id", flat=True))
    admin_of = frozenset(c for c, role in roles.items() if role == Membership.Role.ADMIN)
    team_clubs = set(league.groups.filter(teams__club__isnull=False).values_list(
        "teams__club_id", flat=True)) if roles else set()
    reader = (league.club_id in roles or bool(team_clubs & set(roles)) or bool(captain_of)
              or user.is_staff)
    return LeagueAccess(league.club_id in admin_of, reader, admin_of, captain_of)


def league_for(request: HttpRequest, pk: int, *, secretary: bool = False,
               ) -> tuple[League, LeagueAccess]:
    """A league for its readers (404 for anyone else); ``secretary``: only for the league
    secretaries (403 for the other readers)."""
    league = get_object_or_404(League.objects.select_related("club", "profile"), pk=pk)
    access = league_access(request, league)
    if not access.reader:
        raise Http404
    if secretary and not access.secretary:
        raise PermissionDenied
    return league, access


def match_day_for(request: HttpRequest, pk: int, *, desk: bool = False,
                  ) -> tuple[MatchDay, LeagueAccess]:
    """A match day for the league's readers; ``desk`` (line-ups, seating, the tablet's
    signatures): the league secretaries, and the host's club admins until the results are
    binding."""
    day = get_object_or_404(MatchDay.objects.select_related(
        "group__league__club", "group__league__profile", "host", "evening"), pk=pk)
    league = day.group.league
    access = league_access(request, league)
    if not access.reader and not (day.host is not None
                                  and day.host.club_id in access.host_clubs):
        raise Http404
    if desk and not access.secretary and (
            not access.hosts(day) or timezone.localdate() >= day.binding_from(league)):
        raise PermissionDenied
    return day, access


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

@dataclass(frozen=True)
class Limit:
    """How wrong attempts under one key are answered: ``free`` of them cost nothing; after
    that every attempt waits ``delay`` seconds, doubled with each further failure, up to
    ``max_delay`` (and below ``window``). The count is forgotten ``window`` seconds after the
    last failure. A slowdown, not a lock-out: whoever waits may try again, the rightful
    holder too."""

    free: int
    delay: int
    max_delay: int
    window: int

    def wait(self, failures: int) -> int:
        """Seconds to wait before the next attempt after this many failures (0: none)."""
        if failures < self.free or self.delay <= 0:
            return 0
        # below the window, or the count would be forgotten by the end of the wait
        longest = min(self.max_delay, max(1, self.window - 1))
        return int(min(longest, self.delay * 2 ** min(failures - self.free, 40)))


def now() -> float:
    return time.time()


def limit_key(kind: str, *parts: str) -> str:
    """A short key of safe characters for whatever was typed or sent (a user name, an
    address, a session id): a digest, so that the count's row holds none of them."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "replace")).hexdigest()
    return f"limit:{kind}:{digest[:40]}"


def waiting(*keys: str) -> int:
    """Seconds until the holder of these keys may try again: the longest wait of them.
    One query for all the keys (an index lookup per key)."""
    return counted(*keys)[0]


def counted(*keys: str) -> tuple[int, set[str]]:
    """``waiting``, and which of the keys have a count now: in the same one query, so that a
    right password or code clears a count (``forget_failures``) only if there is one, and a
    request that is not a failure costs that one read and no write."""
    if not keys:
        return 0, set()
    moment = now()
    rows = list(FailureCount.objects.filter(key__in=keys, expires__gt=moment)
                .values_list("key", "until"))
    longest = max((until for _key, until in rows), default=0.0)
    wait = math.ceil(longest - moment) if longest > moment else 0
    return wait, {key for key, _until in rows}


# How many expired counts one new count removes at most (prune_failure_counts removes the
# rest): every first failure pays for a few expired ones, so the table stays small without a
# request ever paying for a large deletion.
PRUNE_BATCH = 20

_INCREMENT = """
    UPDATE "scoring_failurecount"
    SET "count" = CASE WHEN "expires" > %(moment)s THEN "count" + 1 ELSE 1 END,
        "until" = CASE WHEN "expires" > %(moment)s THEN "until" ELSE 0 END,
        "expires" = CASE WHEN %(slide)s OR "expires" <= %(moment)s THEN %(expires)s
                         ELSE "expires" END
    WHERE "key" = %(key)s
    RETURNING "count"
"""


def _count(key: str, window: int, *, slide: bool) -> int:
    """Adds one to the key's count and returns the new count. One UPDATE ... RETURNING:
    the database adds to the row it has locked (PostgreSQL's row lock, SQLite's write lock),
    so two failures at once never read the same number; an expired count starts again at 1.
    The first failure creates the row, in a savepoint: if another request created it a moment
    before, the unique key refuses the second and this one adds to the first. ``slide``: the
    count is kept ``window`` seconds after its latest failure, else after its first."""
    moment = now()
    params: dict[str, float | str | bool] = {
        "moment": moment, "expires": moment + window, "key": key, "slide": slide}
    for _attempt in range(3):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_INCREMENT, params)
            row = cursor.fetchone()
        if row is not None:
            return int(row[0])
        try:
            with transaction.atomic():
                FailureCount.objects.create(key=key, count=1, expires=moment + window)
        except IntegrityError:
            continue  # created by another request meanwhile: add to that one
        prune(moment, PRUNE_BATCH)
        return 1
    raise RuntimeError(f"failure count {key} could be neither created nor counted")


def count_failure(key: str, window: int) -> int:
    """Adds one failure to the key's count and returns the new count; the count is kept
    ``window`` seconds after the latest failure. Atomic on SQLite and PostgreSQL (``_count``);
    in the database, where no other traffic evicts it (models.FailureCount)."""
    return _count(key, window, slide=True)


def count_attempt(key: str, window: int) -> int:
    """Like ``count_failure``, but the count is forgotten ``window`` seconds after its first
    attempt (a fixed allowance per window: registrations, password-reset mails)."""
    return _count(key, window, slide=False)


def note_failure(key: str, limit: Limit) -> int:
    """Counts a failure under the key and sets the wait it earns; returns the wait."""
    wait = limit.wait(count_failure(key, limit.window))
    if wait:
        FailureCount.objects.filter(key=key).update(until=now() + wait)
    return wait


def forget_failures(key: str) -> None:
    """Clears the key's count and its wait."""
    FailureCount.objects.filter(key=key).delete()


@contextmanager
def one_of(kind: str, places: int, window: int) -> Iterator[bool]:
    """Holds one of ``places`` places for heavy work of this kind (the check of an upload)
    while the block runs, site-wide: yields False when every place is taken. A place is a
    count in the database (no cache needed, no eviction): whoever counts it first holds it
    until the block ends, or for ``window`` seconds if its worker dies meanwhile. So one
    account, or a few, cannot keep every worker busy and the tablets waiting."""
    for number in range(max(1, places)):
        key = limit_key(kind, str(number))
        if count_attempt(key, window) == 1:
            try:
                yield True
            finally:
                forget_failures(key)
            return
    yield False


def prune(moment: float | None = None, batch: int | None = None) -> int:
    """Removes expired counts (they count as nothing already): at most ``batch`` of them,
    the longest expired first (None: all). Returns how many were removed."""
    moment = now() if moment is None else moment
    expired = FailureCount.objects.filter(expires__lte=moment)
    if batch is not None:
        # (expired still when deleted: a failure may have started one of them again since)
        expired = FailureCount.objects.filter(expires__lte=moment, pk__in=list(
            expired.order_by("expires").values_list("pk", flat=True)[:batch]))
    removed, _kinds = expired.delete()
    return int(removed)


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, which skatclub's proxy middleware sets from
    X-Forwarded-For for trusted proxies only."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def address_key(request: HttpRequest) -> str:
    """The client's address as the limits count it: an IPv4 address as it is, an IPv6
    address as its /64 network (one connection gets a whole /64 to pick addresses from), an
    IPv4-mapped IPv6 address as the IPv4 address."""
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def device_id(request: HttpRequest, *, make: bool = False) -> str | None:
    """This device's session id, so that its failures are its own and not its neighbours'
    at one address. A device without a session has no failures yet; ``make`` gives it one
    (the session cookie goes out with the answer) when its first failure is counted."""
    if not request.session.session_key and make:
        request.session.save()
        request.session.modified = True
    return request.session.session_key or None


# ---------------------------------------------------------------- signing (issues 23, 35)

def device_digest(request: HttpRequest, *, make: bool = False) -> str:
    """What a signature keeps of the device that gave it: a digest of its session (never the
    session key itself, which would let whoever reads it act as that device). ``make``: give
    a device without a session one, so that it has a digest to keep."""
    key = device_id(request, make=make)
    return salted_hmac("skatclub.signing-device", key).hexdigest()[:16] if key else ""


def pin_limit(free: int) -> Limit:
    """Wrong signing PINs and codes are answered like wrong table codes: a few free, then
    waits."""
    from django.conf import settings
    return Limit(free, settings.TABLE_CODE_DELAY, settings.TABLE_CODE_MAX_DELAY,
                 settings.TABLE_CODE_FAILURE_WINDOW)


PIN_FREE_PER_DEVICE = 5
PIN_FREE_PER_PERSON = 8  # from any device, at any table: a four-digit PIN has 10,000 values
# The devices behind one address (a club's router: every tablet of the evening) together;
# each person's own count binds long before this one.
PIN_FREE_PER_ADDRESS = 100
# A table's one-time codes, from any device: six digits, at most six of them right, so a
# guess succeeds about once in 170,000; past these, each further guess waits twice as long.
CODE_FREE_PER_TABLE = 20


def _device_and_address(kind: str, request: HttpRequest, make: bool,
                        ) -> list[tuple[str, Limit]]:
    address = address_key(request)
    keys = [(limit_key(f"{kind}-address", address), pin_limit(PIN_FREE_PER_ADDRESS))]
    device = device_id(request, make=make)
    if device is not None:
        keys.append((limit_key(kind, address, device), pin_limit(PIN_FREE_PER_DEVICE)))
    return keys


def pin_keys(request: HttpRequest, player: Player, *, make: bool = False,
             ) -> list[tuple[str, Limit]]:
    """The counts a wrong PIN goes to: the person's, whatever table and device (his account;
    a player without one by his record: the answer is the same, and so is the count), the
    address's, and this device's at this address. A fresh table is no fresh try."""
    person = (f"user:{player.user_id}" if player.user_id is not None
              else f"player:{player.pk}")
    return [(limit_key("pin-person", person), pin_limit(PIN_FREE_PER_PERSON)),
            *_device_and_address("pin", request, make)]


def code_keys(request: HttpRequest, table: Table, *, make: bool = False,
              ) -> list[tuple[str, Limit]]:
    """The counts a wrong one-time code goes to: the table's (a code names no player until
    it matches one, so a guess counts against every player of the table), the address's and
    this device's at this address."""
    return [(limit_key("sign-code", str(table.pk)), pin_limit(CODE_FREE_PER_TABLE)),
            *_device_and_address("sign-code", request, make)]
