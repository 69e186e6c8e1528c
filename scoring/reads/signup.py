"""Online self-registration for a tournament (issue 24): whether it is open, and its counts.

Registration is open while the organiser has it switched on, the tournament's evening is not
closed, series 1 is not drawn and the closing time (if any) has not come. The limit counts
the entrants (whoever registered them: the desk too) and the online registrations not yet
confirmed whose link still works: a player who got the mail has a place held until the link
expires."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from scoring.models import Signup, Tournament


@dataclass(frozen=True)
class SignupState:
    closed: str  # why registration is closed for now ("" while it is open)
    entrants: int
    pending: int  # unconfirmed, the link still valid
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


def signup_state(tournament: Tournament, moment: datetime.datetime | None = None,
                 ) -> SignupState:
    """The state of a tournament's online registration: three queries, whatever the field."""
    moment = moment or timezone.now()
    drawn = tournament.draws.exists()
    entrants = tournament.entrants.aggregate(
        total=Count("pk"), online=Count("pk", filter=Q(online=True)))
    pending = Signup.objects.filter(tournament=tournament, confirmed__isnull=True,
                                    expires__gt=moment).count()
    return SignupState(closed_reason(tournament, drawn=drawn, moment=moment),
                       entrants["total"], pending, entrants["online"], tournament.signup_limit)


def signup_by_token(token: str) -> Signup | None:
    if not token or len(token) > 64:
        return None
    return (Signup.objects.select_related("tournament__club", "tournament__evening", "entrant")
            .filter(token=token).first())
