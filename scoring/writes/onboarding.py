"""How a club starts on its own (issue 16): the first run, self-service registration,
invitations, members leaving, and a member's own data.

Each change is one transaction. What a person must be told when something cannot be done
is raised as ``Refused`` with the message in the active language; nothing is written then.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from scoring.collation import invisible_characters, username_key, username_skeleton
from scoring.models import (
    AuditEntry,
    Club,
    ClubLogEntry,
    HeldOperation,
    Invitation,
    Membership,
    Player,
    RuleProfile,
    Seat,
)
from scoring.presets import PRESETS
from scoring.writes import mail

# The demo clubs (manage.py demo, manage.py demo_season; scoring/demo/ takes their slugs from
# here) do not make a site set up: after `make run` the set-up page is still there for the
# club's own start.
DEMO_SLUG = "demo"
DEMO_SEASON_SLUG = "demo-saison"
DEMO_SLUGS = (DEMO_SLUG, DEMO_SEASON_SLUG)

REGISTRATION_SALT = "skatclub.register"
REGISTRATION_DAYS = 2


class Refused(Exception):
    """The change cannot be made; ``message`` says why, for the person who asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class AlreadySetUp(Refused):
    """The first run was done already (by another request, maybe a moment ago)."""


@dataclass(frozen=True)
class NewClub:
    name: str
    slug: str
    language: str
    preset: str
    stake: Decimal
    currency: str

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "slug": self.slug, "language": self.language,
                "preset": self.preset, "stake": str(self.stake), "currency": self.currency}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NewClub:
        return cls(name=str(data["name"]), slug=str(data["slug"]),
                   language=str(data["language"]), preset=str(data["preset"]),
                   stake=Decimal(str(data["stake"])), currency=str(data["currency"]))


# ---------------------------------------------------------------- a new club

def _lock_clubs() -> None:
    """Serialise "is there a club yet?" with creating one. SQLite's transactions take the
    write lock when they begin (settings: transaction_mode IMMEDIATE); PostgreSQL locks the
    club table against other writers until the transaction ends."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("LOCK TABLE scoring_club IN SHARE ROW EXCLUSIVE MODE")


def _club(new: NewClub, admin: Any) -> Club:
    if Club.objects.filter(slug=new.slug).exists():
        raise Refused(_("The short name “%(slug)s” is taken. Choose another one.")
                      % {"slug": new.slug})
    club = Club(name=new.name, slug=new.slug, language=new.language)
    try:
        club.full_clean()
    except ValidationError as err:
        raise Refused(" ".join(err.messages)) from None
    try:
        with transaction.atomic():
            club.save()
    except IntegrityError:  # the same short name, a moment ago
        raise Refused(_("The short name “%(slug)s” is taken. Choose another one.")
                      % {"slug": new.slug}) from None
    preset = PRESETS[new.preset]
    with translation.override(new.language):
        name = _(preset["name"])
    profile = RuleProfile(club=club, name=name, rules=preset["rules"],
                          options=preset["options"], scoring=preset["scoring"],
                          stake=new.stake, currency=new.currency)
    try:
        profile.full_clean()
    except ValidationError as err:
        raise Refused(" ".join(err.messages)) from None
    profile.save()
    Membership.objects.create(user=admin, club=club, role=Membership.Role.ADMIN)
    return club


def _stale_registrations() -> Any:
    """Accounts of registrations never confirmed whose confirmation link has expired: still
    inactive, never signed in, member of no club, linked to no player, made longer ago than
    the link works (and a few minutes, as the link's clock starts a moment after the
    account's). A confirmed account signed in at its confirmation and administers its club;
    an account deactivated later signed in before: neither is ever among these."""
    cutoff = timezone.now() - timedelta(days=REGISTRATION_DAYS, minutes=5)
    return get_user_model().objects.filter(
        is_active=False, is_staff=False, is_superuser=False, last_login=None,
        date_joined__lt=cutoff,
        memberships__isnull=True, players__isnull=True)


def free_stale_names(username: str | None = None) -> int:
    """Deletes the accounts of expired registrations (``username``: only those whose name
    is that one or looks like it, ``username_skeleton``), so that an unconfirmed
    registration does not keep its user name for good. Returns how many were deleted."""
    stale = _stale_registrations()
    if username is not None:
        skeleton = username_skeleton(username)
        stale = stale.filter(pk__in=[pk for pk, name in stale.values_list("pk", "username")
                                     if username_skeleton(name) == skeleton])
    deleted = 0
    for user in stale:
        user.delete()
        deleted += 1
    return deleted


def name_clash(username: str) -> str:
    """Why this user name cannot be had ("" if it can): "taken" when an account has the
    same name as the site compares names (NFKC, case-folded: ``username_key``), "look-alike"
    when an account's name looks the same (``username_skeleton``: a Cyrillic "а" for an "a",
    "0" for "O"). An expired registration never confirmed does not count (the next account
    of that name replaces it). Every account's name is read: registrations are rare, and a
    look-alike cannot be asked of the database."""
    key, skeleton = username_key(username), username_skeleton(username)
    clash = ""
    for name in (get_user_model().objects.exclude(pk__in=_stale_registrations().values("pk"))
                 .values_list("username", flat=True).iterator()):
        if username_key(name) == key:
            return "taken"
        if not clash and username_skeleton(name) == skeleton:
            clash = "look-alike"
    return clash


def name_taken(username: str) -> bool:
    """Whether the user name cannot be had: taken, or like an account's (``name_clash``)."""
    return bool(name_clash(username))


def clash_message(clash: str, username: str) -> str:
    if clash == "look-alike":
        return _("The user name “%(name)s” looks like the name of another account. Choose "
                 "another one.") % {"name": username}
    return _("The user name “%(name)s” is taken. Choose another one.") % {"name": username}


def account_named(username: str) -> Any | None:
    """The account of this user name as the site compares names: the one of exactly this
    name, else the one whose name has the same key (None: none, or several of old)."""
    users = get_user_model()
    exact = users.objects.filter(username=username).first()
    if exact is not None:
        return exact
    key = username_key(username)
    found = [user for user in users.objects.filter(username__iexact=key)
             if username_key(user.username) == key]
    if not found and not key.isascii():
        # SQLite folds the case of ASCII letters only: a name with other letters ("ÄRGER"
        # for "ärger", fullwidth of old) is compared here, among the names that have such
        # letters at all (a few), read as names only
        found = [user for user in users.objects.filter(username__regex=r"[^\x00-\x7f]")
                 .only("pk", "username") if username_key(user.username) == key]
        if len(found) == 1:
            return users.objects.get(pk=found[0].pk)
    return found[0] if len(found) == 1 else None


def _new_user(username: str, email: str, password: str, *, active: bool = True) -> Any:
    users = get_user_model()
    username = users.normalize_username(username.strip())  # NFKC, as Django's forms do
    bad = invisible_characters(username)
    if bad:
        raise Refused(_("A user name may not contain invisible or control characters "
                        "(%(codes)s): type it again without them.") % {"codes": ", ".join(bad)})
    free_stale_names(username)
    clash = name_clash(username)
    if clash:
        raise Refused(clash_message(clash, username))
    user = users(username=username, email=email, is_active=active)
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        raise Refused(clash_message("taken", username)) from None
    return user


def new_account(*, username: str, email: str, password: str) -> Any:
    """An account of its own, member of no club (a claim link's page makes one for the
    player who claims his record: issue 35); refused when the name is taken."""
    with transaction.atomic():
        return _new_user(username, email, password)


def set_up() -> bool:
    """Whether the site has a club of its own (demo clubs do not count)."""
    return Club.objects.exclude(slug__in=DEMO_SLUGS).exists()


def first_run(*, club: NewClub, username: str, email: str, password: str) -> tuple[Club, Any]:
    """The installation's first club and its admin. Once a club exists (other than the demo
    clubs) this is refused, also for a second request that raced the first one."""
    with transaction.atomic():
        _lock_clubs()
        if set_up():
            raise AlreadySetUp(_("This site is set up already."))
        user = _new_user(username, email, password)
        return _club(club, user), user


def club_create(*, club: NewClub, username: str, email: str = "",
                password: str | None = None) -> tuple[Club, Any]:
    """A club and its admin for scripts (manage.py create_club): a new account, or an
    existing one (then ``password`` is None and the account is kept as it is)."""
    with transaction.atomic():
        user = account_named(username)
        if user is None:
            if password is None:
                raise Refused(_("There is no account named “%(name)s”.") % {"name": username})
            user = _new_user(username, email, password)
        elif password is not None:
            raise Refused(clash_message("taken", username))
        return _club(club, user), user


# ---------------------------------------------------------------- self-service registration

def register(*, club: NewClub, username: str, email: str, password: str) -> str:
    """An account that cannot sign in yet, and the token of its confirmation link: the club
    is created when the e-mail address is confirmed."""
    if Club.objects.filter(slug=club.slug).exists():
        raise Refused(_("The short name “%(slug)s” is taken. Choose another one.")
                      % {"slug": club.slug})
    with transaction.atomic():
        user = _new_user(username, email, password, active=False)
    return signing.dumps({"user": user.pk, "club": club.as_dict()}, salt=REGISTRATION_SALT)


def register_confirm(token: str) -> tuple[Club, Any]:
    """The club of a confirmed registration, with its account as the club admin."""
    try:
        data = signing.loads(token, salt=REGISTRATION_SALT,
                             max_age=timedelta(days=REGISTRATION_DAYS))
        club = NewClub.from_dict(data["club"])
        user_id = int(data["user"])
    except signing.SignatureExpired:
        raise Refused(_("This confirmation link has expired. Register again.")) from None
    except (signing.BadSignature, KeyError, TypeError, ValueError, ArithmeticError):
        raise Refused(_("This confirmation link is not valid.")) from None
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise Refused(_("This confirmation link is not valid."))
        if user.is_active or user.memberships.exists():
            raise Refused(_("This registration is confirmed already. Sign in."))
        new = _club(club, user)
        user.is_active = True
        user.save(update_fields=["is_active"])
    return new, user


# ---------------------------------------------------------------- invitations

def invitation_create(*, club: Club, role: str, email: str, by: Any) -> Invitation:
    return Invitation.objects.create(club=club, role=role, email=email, invited_by=by)


def invitation_send(invitation: Invitation, url: str) -> bool:
    """Mail the invitation's link in the club's language. On a failure nothing is marked
    sent: the admin is told, and may send it again."""
    club = invitation.club
    with translation.override(club.language):
        role = invitation.get_role_display()
    ok = mail.send(invitation.email, "invitation", {
        "club": club, "url": url, "role": role, "expires": invitation.expires,
        "by": invitation.invited_by.get_username() if invitation.invited_by else "",
    }, club.language)
    now = timezone.now()
    if ok:
        Invitation.objects.filter(pk=invitation.pk).update(sent_at=now, send_failed_at=None)
        invitation.sent_at, invitation.send_failed_at = now, None
    else:
        Invitation.objects.filter(pk=invitation.pk).update(send_failed_at=now)
        invitation.send_failed_at = now
    return ok


def invitation_revoke(invitation: Invitation) -> bool:
    """Revoke an open invitation; False if it was used or revoked already."""
    return bool(Invitation.objects.filter(pk=invitation.pk, used_at=None, revoked_at=None)
                .update(revoked_at=timezone.now()))


def refusal(invitation: Invitation | None) -> str | None:
    """Why this invitation cannot be used (None: it can)."""
    if invitation is None:
        return _("This invitation link is not valid. Ask your club admin for a new one.")
    state = invitation.state()
    if state == Invitation.State.USED:
        return _("This invitation has been used already. Each invitation link works once: "
                 "sign in with the account made with it, or ask your club admin for a new "
                 "invitation.")
    if state == Invitation.State.REVOKED:
        return _("This invitation was withdrawn by the club admin. Ask them for a new one.")
    if state == Invitation.State.EXPIRED:
        return _("This invitation has expired (an invitation link works for 7 days). Ask "
                 "your club admin for a new one.")
    return None


def _claim(invitation: Invitation, user: Any) -> None:
    """Mark the invitation used, once: of two requests with the same link only one wins."""
    now = timezone.now()
    claimed = Invitation.objects.filter(
        pk=invitation.pk, used_at=None, revoked_at=None, expires__gt=now,
    ).update(used_at=now, used_by=user)
    if not claimed:
        invitation.refresh_from_db()
        raise Refused(refusal(invitation) or "")


def invitation_accept(*, token: str, username: str, email: str, password: str) -> Any:
    """A new account, member of the invitation's club with its role."""
    with transaction.atomic():
        invitation = Invitation.objects.select_related("club").filter(token=token).first()
        message = refusal(invitation)
        if invitation is None or message:
            raise Refused(message or "")
        user = _new_user(username, email, password)
        _claim(invitation, user)
        Membership.objects.create(user=user, club=invitation.club, role=invitation.role)
    return user


def invitation_join(*, token: str, user: Any) -> Membership:
    """A signed-in account joins the invitation's club."""
    with transaction.atomic():
        invitation = Invitation.objects.select_related("club").filter(token=token).first()
        message = refusal(invitation)
        if invitation is None or message:
            raise Refused(message or "")
        if Membership.objects.filter(user=user, club=invitation.club).exists():
            raise Refused(_("You are a member of %(club)s already.")
                          % {"club": invitation.club.name})
        _claim(invitation, user)
        return Membership.objects.create(user=user, club=invitation.club,
                                         role=invitation.role)


# ---------------------------------------------------------------- members

def _last_admin(membership: Membership) -> bool:
    return (membership.role == Membership.Role.ADMIN
            and not Membership.objects.filter(club_id=membership.club_id,
                                              role=Membership.Role.ADMIN)
            .exclude(pk=membership.pk).exists())


def _lock_admins(club_id: int) -> set[int]:
    """Inside a transaction: take the club's lock on its admins and return the ids of their
    memberships as they are now. Two admins demoting or removing each other at the same
    instant are served one after the other, and the second sees the first's change (issue
    26). PostgreSQL: the club's row and its admin memberships are locked FOR UPDATE; SQLite
    (where FOR UPDATE is a no-op): the transaction took the write lock when it began
    (settings: transaction_mode IMMEDIATE), and the no-op UPDATE of the club row takes it
    even where that is not set."""
    if connection.vendor == "sqlite":
        Club.objects.filter(pk=club_id).update(name=F("name"))
    else:
        list(Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True))
    return set(Membership.objects.select_for_update()
               .filter(club_id=club_id, role=Membership.Role.ADMIN)
               .values_list("pk", flat=True))


def _locked(membership: Membership, by: Any | None) -> tuple[Membership, set[int]]:
    """The membership as it is under the lock, and the club's admins; refused when it is gone
    or when ``by`` (the admin who asked) is no longer a club admin of the club."""
    admins = _lock_admins(membership.club_id)
    if by is not None and not Membership.objects.filter(
            pk__in=admins, user_id=by.pk).exists():
        raise Refused(_("You are no longer a club admin of this club: nothing was changed."))
    fresh = Membership.objects.select_related("user").filter(pk=membership.pk).first()
    if fresh is None:
        raise Refused(_("%(user)s is no longer a member of the club: nothing was changed.")
                      % {"user": membership.user.get_username()})
    return fresh, admins


def membership_role(membership: Membership, role: str, *, by: Any | None = None) -> Membership:
    """Give the member another role. The club keeps at least one club admin: the check and
    the change are made under the club's lock (``_lock_admins``)."""
    if role not in Membership.Role.values:
        raise Refused(_("Choose a role."))
    with transaction.atomic():
        fresh, admins = _locked(membership, by)
        if role != Membership.Role.ADMIN and admins == {fresh.pk}:
            raise Refused(_("A club needs at least one club admin."))
        fresh.role = role
        fresh.save(update_fields=["role"])
    return fresh


def membership_remove(membership: Membership, *, by: Any | None = None) -> None:
    """The member leaves the club (the account stays); the club's players linked to the
    account are unlinked, their lists unchanged. The last club admin cannot leave: checked
    under the club's lock, so two admins removing each other cannot both succeed."""
    with transaction.atomic():
        fresh, admins = _locked(membership, by)
        if admins == {fresh.pk}:
            raise Refused(_("A club needs at least one club admin."))
        actor = by if by is not None and by.is_authenticated else None
        for player in Player.objects.filter(club_id=fresh.club_id, user_id=fresh.user_id):
            ClubLogEntry.objects.create(  # the desk unlinks him, in the club log (issue 35)
                club_id=fresh.club_id, action=ClubLogEntry.Action.UNLINK, user=actor,
                actor=(actor.get_username() if actor is not None else _("system"))[:150],
                summary=_("%(player)s unlinked from %(user)s") % {
                    "player": player.name, "user": fresh.user.get_username()})
        Player.objects.filter(club_id=fresh.club_id, user_id=fresh.user_id).update(
            user=None)
        fresh.delete()


def member_create(*, club: Club, username: str, password: str, role: str) -> Any:
    """A new account made by a club admin on the members page, member of the club with
    ``role``: its name checked as every new account's (``_new_user``)."""
    if role not in Membership.Role.values:
        raise Refused(_("Choose a role."))
    with transaction.atomic():
        user = _new_user(username, "", password)
        Membership.objects.create(user=user, club=club, role=role)
    return user


def departed_names(*, club: Club, choice: str) -> None:
    if choice not in Club.DepartedNames.values:
        raise Refused(_("Choose what becomes of the names."))
    Club.objects.filter(pk=club.pk).update(departed_names=choice)
    club.departed_names = choice


def language_of(user: Any, default: str) -> str:
    """The language of the account's first club (by name), for mail the club did not send."""
    club = Club.objects.filter(memberships__user=user).order_by("name").first()
    return club.language if club is not None else default


def password_reset_send(user: Any, link: Callable[[str, str], str], language: str) -> bool:
    """Mail the account a link to choose a new password (Django's reset tokens: the link
    works once, and not after the password changed or PASSWORD_RESET_TIMEOUT). False: the
    mail server failed and nothing was sent."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return mail.send(user.email, "password_reset", {
        "username": user.get_username(), "url": link(uid, token)}, language)


def register_send(*, token: str, url: str, email: str, club: NewClub) -> bool:
    """Mail the confirmation link of a registration, in the new club's language. If the mail
    server fails, the waiting account is removed again: nothing is left half-done."""
    ok = mail.send(email, "register", {"club_name": club.name, "url": url,
                                       "days": REGISTRATION_DAYS}, club.language)
    if not ok:
        data = signing.loads(token, salt=REGISTRATION_SALT)
        get_user_model().objects.filter(pk=data["user"], is_active=False).delete()
    return ok


# ---------------------------------------------------------------- a member's own data

def account_data(user: Any) -> dict[str, Any]:
    """Everything the site keeps about this account, as JSON (issue 16, item 6)."""
    memberships = list(user.memberships.select_related("club").order_by("club__name"))
    players = list(Player.objects.filter(user=user).select_related("club").order_by("pk"))
    seats = (Seat.objects.filter(player__in=players)
             .select_related("table__evening", "player").order_by("table__evening__date", "pk"))
    audit = AuditEntry.objects.filter(user=user).select_related("evening").order_by("at", "pk")
    return {
        "format": "skatclub-personal-data",
        "account": {
            "username": user.get_username(), "email": user.email,
            "first_name": user.first_name, "last_name": user.last_name,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
        "memberships": [{"club": m.club.name, "club_short_name": m.club.slug, "role": m.role}
                        for m in memberships],
        "players": [{"club_short_name": p.club.slug, "name": p.name, "guest": p.guest,
                     "member_number": p.member_number} for p in players],
        "seats": [{"player": s.player.name, "evening": s.table.evening.name,
                   "date": s.table.evening.date.isoformat(), "series": s.table.series,
                   "table": s.table.number, "seat": s.position} for s in seats],
        "audit": [{"evening": a.evening.name, "date": a.evening.date.isoformat(),
                   "action": a.action, "at": a.at.isoformat(), "reason": a.reason}
                  for a in audit],
    }


def _pseudonym(club: Club) -> str:
    taken = set(club.players.values_list("name", flat=True))
    with translation.override(club.language):
        number = 1
        while (name := _("Former member %(number)d") % {"number": number}) in taken:
            number += 1
    return name


def account_delete(user: Any) -> None:
    """Delete the account. Its players stay on the lists (so every total adds up as before),
    under their name or a pseudonym as each club decided; the audit log keeps the entries,
    under the pseudonym in such a club. The last admin of a club cannot leave it."""
    with transaction.atomic():
        for membership in user.memberships.select_related("club"):
            if membership.role == Membership.Role.ADMIN:
                _lock_admins(membership.club_id)  # a co-admin leaving meanwhile waits
            if _last_admin(membership):
                raise Refused(_(
                    "You are the only club admin of %(club)s. Make another member club admin "
                    "first, then delete your account.") % {"club": membership.club.name})
        clubs = {m.club_id: m.club for m in user.memberships.select_related("club")}
        names: dict[int, str] = {}
        for player in Player.objects.filter(user=user).select_related("club"):
            clubs[player.club_id] = player.club
            if player.club.departed_names == Club.DepartedNames.PSEUDONYM:
                player.name = names[player.club_id] = _pseudonym(player.club)
            player.user = None
            player.save(update_fields=["name", "user"])
        for club_id, club in clubs.items():
            if club.departed_names == Club.DepartedNames.PSEUDONYM:
                label = names.get(club_id) or _pseudonym(club)
                AuditEntry.objects.filter(evening__club_id=club_id, user=user).update(
                    actor=label)
                HeldOperation.objects.filter(table__evening__club_id=club_id, user=user).update(
                    actor=label)
        user.delete()
