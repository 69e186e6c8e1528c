"""The players sign a finished list (issues 23 and 35): one transaction each, audit-logged.

A signature says who vouched for it (``Signer``): how the signer proved to be the player
(``Signature.Proof``), the account that signed, the device and the address.

- On the tablet, whoever holds it (a table code or a scorer) taps the player's name (TAP) or,
  when the club chooses, the player types the 4-digit PIN he set on his account (PIN, hashed
  like a password).
- On a phone, never by picking a name: signed in with the account linked to the seat's
  player (ACCOUNT), or with the one-time code the tablet shows that one player (CODE; in PIN
  mode his PIN as well).

The one-time codes are stateless: an HMAC of the table, the player, the list's version (the
table's ``version``, bumped by every change of a deal) and the table's code, cut to six
digits. Not stored, because nothing about them needs storing: a code is used up by the
signature itself (one signature per player per list, the database's unique constraint: once
he has signed, his code finds no unsigned player to sign for), and dies with the list when a
deal changes (a new version: every code changes, and the change cleared the signatures) or
with the table code (replaced, or the evening closed). A stored code would need a model, a
sweep of the old ones and a write when the tablet shows it (the panel is polled by every
tablet); the HMAC is computed again where it is checked, on any process, from the secret key.
Codes of one table differ from each other (a collision is derived again), so six digits name
the player; guesses are counted like wrong PINs (the view's, access.py).

When every seated player has signed, the list is locked: the deal services refuse changes
except a club admin's with a reason (services._check_signatures), which clears the
signatures and marks the list "changed after signing" until everybody has signed again.

A PIN or a code is checked only when the list can be signed now: the evening open, the list
finished, the player seated and not signed yet. Every other refusal comes first and reads
the same whatever PIN or code was sent, and a PIN's refusal is one answer whether the PIN
was wrong, the player has set none or has no account (no oracle).

Every signature and every clearing bumps the table's ``signing`` field and drops the polled
pages' states (reads/live.py): the sheet, the overview and the printed lists show it at once.
The limits on wrong PINs and codes are the caller's (access.py counts failures)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import evaluate_table
from scoring.models import AuditEntry, Player, Seat, Signature, SigningPin, Table
from scoring.reads.sheet import table_document
from scoring.reads.signing import is_finished
from scoring.writes.services import Actor, _forget_states

PIN = re.compile(r"^[0-9]{4}$")
CODE_DIGITS = 6


class SigningRefused(Exception):
    """The signature is refused; nothing changed. ``wrong_pin``: count it as a failure of
    ``player``'s PIN; ``wrong_code``: count it as a wrong one-time code; ``wait``: the PIN's
    counts said to wait (nothing was checked)."""

    def __init__(self, message: str, *, wrong_pin: bool = False, wrong_code: bool = False,
                 player: Player | None = None, wait: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.wrong_pin = wrong_pin
        self.wrong_code = wrong_code
        self.player = player
        self.wait = wait


@dataclass(frozen=True)
class Signer:
    """Who vouches for a signature: the proof (Signature.Proof), the account that signed (the
    player's own, or the scorer's holding the tablet; None for a table code), the device (a
    digest of its session, access.device_digest) and the address (access.address_key)."""

    proof: str = Signature.Proof.TAP
    user: Any = None
    device: str = ""
    address: str = ""


def pin_refused() -> str:
    """The one answer to a PIN that does not sign: wrong, none set, or no account."""
    return _("Wrong PIN, or this player has no PIN to sign with.")


def code_refused() -> str:
    """The one answer to a one-time code that does not sign."""
    return _("This code does not sign: it is wrong, used, or the list has changed since. "
             "Ask the tablet for your code.")


def pin_wait_message(seconds: int) -> str:
    return ngettext(
        "Too many wrong PINs. Please try again in %(seconds)s second.",
        "Too many wrong PINs. Please try again in %(seconds)s seconds.",
        seconds) % {"seconds": max(1, seconds)}


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


# ---------------------------------------------------------------- one-time codes

def _code(table: Table, player_id: int, version: int, attempt: int) -> str:
    digest = salted_hmac("skatclub.signing-code",
                         f"{table.pk}:{player_id}:{version}:{table.access_code}:{attempt}")
    return str(int(digest.hexdigest(), 16) % 10 ** CODE_DIGITS).zfill(CODE_DIGITS)


def player_codes(table: Table, player_ids: list[int], version: int | None = None,
                 ) -> dict[int, str]:
    """Each seated player's one-time code for the list as it stands (``version``: the
    table's), in seat order (``player_ids``): six digits, different for each player of the
    table. No query."""
    version = table.version if version is None else version
    codes: dict[int, str] = {}
    for player_id in player_ids:
        attempt = 0
        code = _code(table, player_id, version, attempt)
        while code in codes.values():
            attempt += 1
            code = _code(table, player_id, version, attempt)
        codes[player_id] = code
    return codes


def clean_code(raw: str) -> str:
    """What was typed, without the spaces and dashes a code is shown with."""
    return re.sub(r"[\s\-.]", "", raw or "")[:16]


def _check_pin(seat: Seat, pin: str | None) -> None:
    """One answer, counted alike, for a wrong PIN, no PIN set and no account."""
    player = seat.player
    kept = None
    if player.user_id is not None:
        kept = SigningPin.objects.filter(user_id=player.user_id).values_list(
            "pin", flat=True).first()
    right = (kept is not None and PIN.match(pin or "") is not None
             and check_password(pin, kept))
    if not right:
        raise SigningRefused(pin_refused(), wrong_pin=True, player=player)


def _signable(table: Table) -> None:
    """The checks of the list as a whole: the evening open, the series finished."""
    if table.evening.closed:
        raise SigningRefused(_(
            "This evening is closed: its lists can no longer be signed."))
    if not is_finished(table, counted_games(table)):
        raise SigningRefused(_(
            "The list is signed when the table has finished: there are games to play."))


def sign(*, table: Table, player_id: int, actor: Actor, where: str = Signature.Where.TABLET,
         pin: str | None = None, signer: Signer | None = None,
         pin_wait: Callable[[Player], int] | None = None,
         version: int | None = None) -> Signature:
    """``player_id`` signs the table's list (a player seated at it). Refused (SigningRefused)
    while the evening is closed, before the list is finished, for a player not at the table
    and for one who signed already, in that order, whatever PIN was sent; then, in PIN mode
    (for every proof but the player's own account), without the player's right PIN.
    ``pin_wait`` (the caller's failure counts) says how long the player's PIN must wait
    before it is checked; ``version``: the list the signer saw (a code's), refused if it
    changed. The last signature locks the list."""
    signer = signer or Signer()
    club = table.evening.club
    _signable(table)
    seat = Seat.objects.select_related("player").filter(
        table=table, player_id=player_id).first()
    if seat is None:
        raise SigningRefused(_("Only a player of this table can sign its list."))
    if Signature.objects.filter(table=table, player_id=player_id).exists():
        raise SigningRefused(_("%(name)s has signed already.") % {"name": seat.player.name})
    # in PIN mode every signature but the player's own account's asks for his PIN
    with_pin = club.sign_with_pin and signer.proof != Signature.Proof.ACCOUNT
    proof = Signature.Proof.PIN if with_pin and signer.proof == Signature.Proof.TAP else (
        signer.proof)
    if with_pin:
        wait = pin_wait(seat.player) if pin_wait is not None else 0
        if wait:
            raise SigningRefused(pin_wait_message(wait), wait=wait)
        _check_pin(seat, pin)
    account = signer.user if signer.user is not None and signer.user.is_authenticated else None
    try:
        with transaction.atomic():
            # the table's row: no deal is saved between the check and the signature
            locked = Table.objects.select_for_update().get(pk=table.pk)
            if version is not None and locked.version != version:
                raise SigningRefused(code_refused(), wrong_code=True)
            signature = Signature.objects.create(
                table=locked, player_id=player_id, where=where, with_pin=with_pin,
                proof=proof, user=account, device=signer.device[:64],
                address=signer.address[:64])
            seated = Seat.objects.filter(table=locked).count()
            signed = Signature.objects.filter(table=locked).count()
            update: dict[str, Any] = {"signing": F("signing") + 1}
            if signed >= seated:
                update.update(signed_at=signature.at, changed_after_signing=False)
            Table.objects.filter(pk=locked.pk).update(**update)
            AuditEntry.objects.create(
                evening_id=locked.evening_id, table=locked, action=AuditEntry.Action.SIGN,
                user=actor.user_or_none, actor=actor.label[:150],
                after={"player": seat.player.name, "where": where, "pin": with_pin,
                       "all": signed >= seated, "proof": proof,
                       "account": account.get_username() if account is not None else "",
                       "device": signer.device[:64], "address": signer.address[:64]},
                reason=_("%(name)s signed the list (%(signed)d of %(seated)d)") % {
                    "name": seat.player.name, "signed": signed, "seated": seated})
            _forget_states(table.evening)
    except IntegrityError:
        raise SigningRefused(_("%(name)s has signed already.")
                             % {"name": seat.player.name}) from None
    table.refresh_from_db(fields=["signing", "signed_at", "changed_after_signing"])
    return signature


def sign_with_code(*, table: Table, code: str, actor: Actor, signer: Signer,
                   where: str = Signature.Where.PHONE, pin: str | None = None,
                   pin_wait: Callable[[Player], int] | None = None) -> Signature:
    """The player whose one-time code this is signs (``signer.proof`` CODE; in PIN mode with
    his PIN too). The list's checks come first, whatever code was sent; then the code is
    compared with the codes of the players who have not signed, for the list as it stands:
    none matches, SigningRefused(wrong_code=True)."""
    _signable(table)
    version = Table.objects.filter(pk=table.pk).values_list("version", flat=True).get()
    seats = list(Seat.objects.filter(table=table).order_by("position").values_list(
        "player_id", flat=True))
    signed = set(Signature.objects.filter(table=table).values_list("player_id", flat=True))
    typed = clean_code(code)
    found = None
    for player_id, right in player_codes(table, seats, version).items():
        # every code is compared (in constant time), so the answer takes as long for each
        if constant_time_compare(typed, right) and player_id not in signed:
            found = player_id
    if found is None:
        raise SigningRefused(code_refused(), wrong_code=True)
    return sign(table=table, player_id=found, actor=actor, where=where, pin=pin,
                signer=Signer(Signature.Proof.CODE, signer.user, signer.device,
                              signer.address),
                pin_wait=pin_wait, version=version)


def club_sign_with_pin(*, club: Any, on: bool) -> None:
    """The club's choice: players sign with their PIN (``on``) or a tap on their name."""
    type(club).objects.filter(pk=club.pk).update(sign_with_pin=on)
    club.sign_with_pin = on
