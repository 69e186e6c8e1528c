"""Online self-registration for a tournament (issue 24): the organiser's settings, a player's
registration held unconfirmed, its confirmation mail, and the confirmation that makes the
player an entrant (through ``writes.tournament.entrant_register``, as the desk registers a
guest: a guest record of the organising club without an account, found again by name, never
a member's record: ``writes.tournament.guest_named``).

An unconfirmed registration holds its place, its name and its team or tandem slot for
``SIGNUP_HOLD_MINUTES`` only (issue 35; ``reads.signup.holding``); its link confirms later
while a place is free. The desk drops one (``signup_drop``).

Each change is one transaction under the tournament's row lock, so that two registrations for
the last place, or two clicks on one link, cannot both pass. What cannot be done raises
ValidationError with the message for the player; nothing is written then.

Unconfirmed registrations whose link has expired are swept on write: every registration and
every confirmation deletes them first (site-wide, one DELETE), so they never hold a place or
an e-mail address after their link expired; confirmed ones go the day after their tournament
(the entrant keeps its mark). ``manage.py sweep_signups`` does the same for a quiet site.
"""

from __future__ import annotations

import datetime
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.collation import refuse_invisible
from scoring.models import Entrant, Signup, Tournament
from scoring.reads.signup import closed_reason, holding
from scoring.writes import mail
from scoring.writes import tournament as tournaments

TEAM_SIZES = {"team": 4, "tandem": 2}


def signup_settings(*, tournament: Tournament, open: bool,
                    closes: datetime.datetime | None, limit: int | None) -> Tournament:
    """Switch online registration on or off, with its closing time and its limit."""
    tournament.signup_open, tournament.signup_closes = open, closes
    tournament.signup_limit = limit
    tournament.full_clean()
    with transaction.atomic():
        tournament.save(update_fields=["signup_open", "signup_closes", "signup_limit"])
    return tournament


def sweep(moment: datetime.datetime | None = None) -> int:
    """Deletes the unconfirmed registrations whose link has expired, and the confirmed ones
    once their tournament's day is over (the entrant keeps its "online" mark; the e-mail
    address is kept no longer than it serves to refuse a second registration). Returns how
    many were deleted."""
    moment = moment or timezone.now()
    removed, _kinds = Signup.objects.filter(
        Q(confirmed__isnull=True, expires__lte=moment)
        | Q(confirmed__isnull=False, tournament__date__lt=timezone.localdate(moment))).delete()
    return int(removed)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_related("club", "evening").select_for_update().get(
        pk=tournament.pk)


def _refuse_closed(tournament: Tournament, moment: datetime.datetime) -> None:
    reason = closed_reason(tournament, drawn=tournament.draws.exists(), moment=moment)
    if reason:
        raise ValidationError(reason)


def _full(limit: int) -> ValidationError:
    return ValidationError(_(
        "This tournament is fully booked: all %(limit)d places are taken. There is no "
        "waiting list; ask the organiser whether places are left at the door.")
        % {"limit": limit})


def signup_create(*, tournament: Tournament, name: str, email: str, home_club: str = "",
                  category: str = "", team: str = "", tandem: str = "") -> Signup:
    """A registration held unconfirmed until its link is opened (``SIGNUP_CONFIRM_HOURS``).
    Refused when registration is closed, the tournament is fully booked (entrants and the
    unconfirmed registrations still holding a place: made within ``SIGNUP_HOLD_MINUTES``),
    the e-mail address is registered for this tournament already (its link still works),
    the name is an entrant's or a holding registration's, or the team or tandem is full
    (counting the holding registrations)."""
    name = " ".join(name.split())[:100]
    email = email.strip().lower()
    home_club, team, tandem = (" ".join(v.split()) for v in (home_club, team, tandem))
    if not name:
        raise ValidationError(_("Give your name."))
    for text in (name, home_club, team, tandem):
        refuse_invisible(text)
    moment = timezone.now()
    with transaction.atomic():
        sweep(moment)
        locked = _lock(tournament)
        _refuse_closed(locked, moment)
        if category and category not in locked.categories:
            raise ValidationError(_("%(category)s is not one of this tournament's categories.")
                                  % {"category": category})
        if team and locked.team_fee is None:
            raise ValidationError(_("This tournament has no team ranking."))
        if tandem and locked.tandem_fee is None:
            raise ValidationError(_("This tournament has no tandem ranking."))
        signups = Signup.objects.filter(tournament=locked).exclude(
            confirmed__isnull=True, expires__lte=moment)
        # what holds a name, a team slot and a place: made within SIGNUP_HOLD_MINUTES
        held = holding(locked, moment)
        if signups.filter(email=email).exists():
            raise ValidationError(_(
                "This e-mail address is registered for this tournament already. Each player "
                "registers with an address of their own; if it is yours, open the link in "
                "the mail we sent."))
        if (locked.entrants.filter(player__name__iexact=name).exists()
                or held.filter(name__iexact=name).exists()):
            raise ValidationError(_(
                "A player named %(name)s is registered already. If that is somebody else, "
                "add something that tells you apart, your home town for instance.")
                % {"name": name})
        for kind, value in (("team", team), ("tandem", tandem)):
            size = TEAM_SIZES[kind]
            if value and (locked.entrants.filter(**{f"{kind}__iexact": value}).count()
                          + held.filter(**{f"{kind}__iexact": value}).count()) >= size:
                raise ValidationError(_("%(name)s has %(size)d players already.")
                                      % {"name": value, "size": size})
        limit = locked.signup_limit
        if limit is not None and locked.entrants.count() + held.count() >= limit:
            raise _full(limit)
        signup = Signup(
            tournament=locked, name=name, email=email, home_club=home_club[:100],
            category=category, team=team[:60], tandem=tandem[:60],
            expires=moment + timedelta(hours=settings.SIGNUP_CONFIRM_HOURS))
        signup.full_clean(exclude=["token"])
        try:
            with transaction.atomic():
                signup.save()
        except IntegrityError:  # the same address, a moment ago
            raise ValidationError(_(
                "This e-mail address is registered for this tournament already. Each player "
                "registers with an address of their own; if it is yours, open the link in "
                "the mail we sent.")) from None
    return signup


def signup_drop(*, tournament: Tournament, pk: int) -> Signup:
    """The desk drops an unconfirmed registration (issue 35): it holds nothing any more and
    its link is refused as not valid. A confirmed one is the entrant's: refused here (the
    desk withdraws entrants)."""
    with transaction.atomic():
        _lock(tournament)
        signup = Signup.objects.filter(tournament=tournament, pk=pk).first()
        if signup is None:
            raise ValidationError(_("This registration is gone already."))
        if signup.confirmed is not None:
            raise ValidationError(_("%(name)s has confirmed already and is an entrant.")
                                  % {"name": signup.name})
        signup.delete()
    return signup


def signup_send(signup: Signup, url: str) -> bool:
    """Mail the confirmation link in the club's language. If the mail server fails the
    registration is deleted again (nothing is held): the player is told and may retry."""
    tournament = signup.tournament
    club = tournament.club
    ok = mail.send(signup.email, "signup", {
        "club": club, "tournament": tournament, "name": signup.name, "url": url,
        "expires": signup.expires, "closes": tournament.signup_closes,
    }, club.language)
    if not ok:
        Signup.objects.filter(pk=signup.pk, confirmed__isnull=True).delete()
    return ok


def refusal(signup: Signup | None, moment: datetime.datetime) -> str:
    """Why this link cannot confirm now ("" if it can, as far as the link goes)."""
    if signup is None:
        return _("This confirmation link is not valid. Register again on the tournament's "
                 "page.")
    if signup.confirmed is not None:
        if signup.entrant is not None:
            return _("This registration is confirmed already: your start number is "
                     "%(number)d.") % {"number": signup.entrant.number}
        return _("This registration is confirmed already.")
    if signup.expires <= moment:
        return _("This confirmation link has expired (a link works for %(hours)d hours). "
                 "Register again on the tournament's page.") % {
                     "hours": settings.SIGNUP_CONFIRM_HOURS}
    return ""


def signup_confirm(token: str) -> Entrant:
    """The entrant of a confirmed registration: the next start number, not paid, not checked
    in, marked as registered online. The link works once, until it expires, and only while
    registration is open; a tournament that filled up at the desk meanwhile is refused as
    fully booked."""
    moment = timezone.now()
    with transaction.atomic():
        found = Signup.objects.filter(token=token).only("tournament_id").first()
        if found is None:
            raise ValidationError(refusal(None, moment))
        locked = _lock(found.tournament)
        signup = Signup.objects.select_related("entrant").filter(pk=found.pk).first()
        message = refusal(signup, moment)
        if signup is None or message:
            raise ValidationError(message)
        sweep(moment)
        _refuse_closed(locked, moment)
        limit = locked.signup_limit
        # a place is free: beside the entrants and the other registrations still holding
        # theirs (this one's, made within SIGNUP_HOLD_MINUTES, was held for it)
        if limit is not None and (locked.entrants.count() + holding(locked, moment)
                                  .exclude(pk=signup.pk).count()) >= limit:
            raise _full(limit)
        entrant = tournaments.entrant_register(
            tournament=locked, name=signup.name, home_club=signup.home_club,
            category=signup.category, team=signup.team, tandem=signup.tandem,
            paid=False, at_door=False, online=True)
        signup.confirmed, signup.entrant = moment, entrant
        signup.save(update_fields=["confirmed", "entrant"])
    return entrant
