"""The players sign a finished list (issue 23): one transaction each, audit-logged.

A player signs on the tablet (a tap on his name) or on his own phone through the table's
signing link; when the club chooses, with the 4-digit PIN he set on his account (hashed like
a password). When every seated player has signed, the list is locked: the deal services
refuse changes except a club admin's with a reason (services._check_signatures), which clears
the signatures and marks the list "changed after signing" until everybody has signed again.

Every signature and every clearing bumps the table's ``signing`` field and drops the polled
pages' states (reads/live.py): the sheet, the overview and the printed lists show it at once.
The limit on wrong PINs is the caller's (access.py counts failures in the shared cache)."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from scoring.engine import evaluate_table
from scoring.models import AuditEntry, Seat, Signature, SigningPin, Table
from scoring.reads.sheet import table_document
from scoring.reads.signing import is_finished
from scoring.writes.services import Actor, _forget_states

PIN = re.compile(r"^[0-9]{4}$")


class SigningRefused(Exception):
    """The signature is refused; nothing changed. ``wrong_pin``: count it as a failure."""

    def __init__(self, message: str, *, wrong_pin: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.wrong_pin = wrong_pin


def counted_games(table: Table) -> int:
    """The games that count toward the table's series, scored by the engine."""
    table = Table.objects.select_related("evening__club").prefetch_related(
        "seats__player", "deals").get(pk=table.pk)
    result = evaluate_table(table_document(table))
    return sum(1 for row in result["deals"] if row["counts"])


def pin_set(*, user: Any, pin: str) -> SigningPin:
    """Set (or change) the account's PIN: exactly four digits, kept hashed."""
    if not PIN.match(pin or ""):
        raise SigningRefused(_("The PIN is exactly four digits."))
    found, _created = SigningPin.objects.update_or_create(
        user=user, defaults={"pin": make_password(pin)})
    return found


def pin_remove(*, user: Any) -> None:
    SigningPin.objects.filter(user=user).delete()


def _check_pin(seat: Seat, pin: str | None) -> None:
    player = seat.player
    if player.user_id is None:
        raise SigningRefused(_(
            "%(name)s has no member account, so no PIN: at this club the players sign with "
            "their PIN. A club admin can link the player to a member account.")
            % {"name": player.name})
    kept = SigningPin.objects.filter(user_id=player.user_id).values_list(
        "pin", flat=True).first()
    if kept is None:
        raise SigningRefused(_(
            "%(name)s has not set a PIN yet: set one on your account page (Your account → "
            "PIN for signing).") % {"name": player.name})
    if not PIN.match(pin or "") or not check_password(pin, kept):
        raise SigningRefused(_("Wrong PIN."), wrong_pin=True)


def sign(*, table: Table, player_id: int, actor: Actor, where: str = Signature.Where.TABLET,
         pin: str | None = None) -> Signature:
    """``player_id`` signs the table's list (a player seated at it). Refused (SigningRefused)
    before the list is finished, twice, for a player not at the table, and in PIN mode
    without the player's right PIN. The last signature locks the list."""
    club = table.evening.club
    if table.evening.closed:
        raise SigningRefused(_(
            "This evening is closed: its lists can no longer be signed."))
    seat = Seat.objects.select_related("player").filter(
        table=table, player_id=player_id).first()
    if seat is None:
        raise SigningRefused(_("Only a player of this table can sign its list."))
    if club.sign_with_pin:
        _check_pin(seat, pin)
    if not is_finished(table, counted_games(table)):
        raise SigningRefused(_(
            "The list is signed when the table has finished: there are games to play."))
    try:
        with transaction.atomic():
            # the table's row: no deal is saved between the check and the signature
            locked = Table.objects.select_for_update().get(pk=table.pk)
            signature = Signature.objects.create(
                table=locked, player_id=player_id, where=where,
                with_pin=club.sign_with_pin)
            seated = Seat.objects.filter(table=locked).count()
            signed = Signature.objects.filter(table=locked).count()
            update: dict[str, Any] = {"signing": F("signing") + 1}
            if signed >= seated:
                update.update(signed_at=signature.at, changed_after_signing=False)
            Table.objects.filter(pk=locked.pk).update(**update)
            AuditEntry.objects.create(
                evening_id=locked.evening_id, table=locked, action=AuditEntry.Action.SIGN,
                user=actor.user_or_none, actor=actor.label[:150],
                after={"player": seat.player.name, "where": where,
                       "pin": club.sign_with_pin, "all": signed >= seated},
                reason=_("%(name)s signed the list (%(signed)d of %(seated)d)") % {
                    "name": seat.player.name, "signed": signed, "seated": seated})
            _forget_states(table.evening)
    except IntegrityError:
        raise SigningRefused(_("%(name)s has signed already.")
                             % {"name": seat.player.name}) from None
    table.refresh_from_db(fields=["signing", "signed_at", "changed_after_signing"])
    return signature


def club_sign_with_pin(*, club: Any, on: bool) -> None:
    """The club's choice: players sign with their PIN (``on``) or a tap on their name."""
    type(club).objects.filter(pk=club.pk).update(sign_with_pin=on)
    club.sign_with_pin = on
