"""Online self-registration for a tournament (issue 24): whether it is open, and its counts.

Registration is open while the organiser has it switched on, the tournament's evening is not
closed, series 1 is not drawn and the closing time (if any) has not come. The limit counts
the entrants (whoever registered them: the desk too) and the online registrations not yet
confirmed that still hold a place: a player who got the mail has a place held for
``SIGNUP_HOLD_MINUTES`` (issue 35: not for the 48 hours the link works, so that registrations
nobody confirms cannot book a tournament out); after that the link still confirms while a
place is free."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from scoring.models import Signup, Tournament


@dataclass(frozen=True)
class SignupState:
    closed: str  # why registration is closed for now ("" while it is open)
    entrants: int
    pending: int  # unconfirmed and still holding a place (``holding``)
    online: int  # confirmed: entrants marked as registered online
    limit: int | None

    @property
    def taken(self) -> int:
        return self.entrants + self.pending

    @property
    def full(self) -> bool:
        return self.limit is not None and self.taken >= self.limit

    @property
    def left(self) -> int | None:
        return None if self.limit is None else max(0, self.limit - self.taken)


def closing_words(closes: datetime.datetime) -> dict[str, str]:
    local = timezone.localtime(closes)
    return {"date": formats.date_format(local, "DATE_FORMAT"),
            "time": formats.time_format(local, "H:i")}


def closed_reason(tournament: Tournament, *, drawn: bool,
                  moment: datetime.datetime | None = None) -> str:
    """Why online registration is closed ("" while it is open)."""
    moment = moment or timezone.now()
    if not tournament.signup_open:
        return _("Online registration is not open for this tournament.")
    if tournament.evening.closed:
        return _("This tournament is closed.")
    if drawn:
        return _("Online registration is closed: series 1 is drawn.")
    closes = tournament.signup_closes
    if closes is not None and moment >= closes:
        return _("Online registration closed on %(date)s at %(time)s.") % closing_words(closes)
    return ""


def hold_cutoff(moment: datetime.datetime) -> datetime.datetime:
    """Registrations made after this moment still hold their place, name and team slot."""
    return moment - datetime.timedelta(minutes=settings.SIGNUP_HOLD_MINUTES)


def holding(tournament: Tournament, moment: datetime.datetime) -> QuerySet[Signup]:
    """The tournament's unconfirmed registrations that hold a place, a name and a team or
    tandem slot at ``moment``: made within ``SIGNUP_HOLD_MINUTES``, the link still valid."""
    return Signup.objects.filter(tournament=tournament, confirmed__isnull=True,
                                 expires__gt=moment, created__gt=hold_cutoff(moment))


@dataclass(frozen=True)
class Unconfirmed:
    pk: int
    name: str
    email: str
    created: datetime.datetime
    holds_until: datetime.datetime
    holding: bool


def unconfirmed(tournament: Tournament, moment: datetime.datetime | None = None,
                ) -> list[Unconfirmed]:
    """The desk's list of the registrations not yet confirmed whose link still works, the
    oldest first: who, since when, and whether each still holds a place. One query."""
    moment = moment or timezone.now()
    cutoff = hold_cutoff(moment)
    hold = datetime.timedelta(minutes=settings.SIGNUP_HOLD_MINUTES)
    return [Unconfirmed(pk, name, email, created, created + hold, created > cutoff)
            for pk, name, email, created in Signup.objects.filter(
                tournament=tournament, confirmed__isnull=True, expires__gt=moment)
            .order_by("created", "pk").values_list("pk", "name", "email", "created")]


def signup_state(tournament: Tournament, moment: datetime.datetime | None = None, *,
                 waiting: list[Unconfirmed] | None = None) -> SignupState:
    """The state of a tournament's online registration: three queries, whatever the field;
    two where the caller has the unconfirmed registrations at the same moment already
    (``waiting``, the desk's list), which count the ones that hold a place."""
    moment = moment or timezone.now()
    drawn = tournament.draws.exists()
    entrants = tournament.entrants.aggregate(
        total=Count("pk"), online=Count("pk", filter=Q(online=True)))
    pending = (sum(1 for row in waiting if row.holding) if waiting is not None
               else holding(tournament, moment).count())
    return SignupState(closed_reason(tournament, drawn=drawn, moment=moment),
                       entrants["total"], pending, entrants["online"], tournament.signup_limit)


def signup_by_token(token: str) -> Signup | None:
    if not token or len(token) > 64:
        return None
    return (Signup.objects.select_related("tournament__club", "tournament__evening", "entrant")
            .filter(token=token).first())


def open_signup(key: str) -> Tournament | None:
    """The tournament whose registration page has the key ``key``, while the organiser has
    registration switched on."""
    return Tournament.objects.select_related("club", "evening").filter(
        signup_key=key, signup_open=True).first()
