"""The players' signatures under a table's list (issue 23): who has signed and when, whether
the list may be signed (its series is finished, or an open list has deals), whether it is
locked (everybody seated has signed), and each table's state for the evening overview and the
tournament desk: playing, finished or signed.

A table's ``signing`` field is bumped by every signature and by clearing them, so the polled
pages' digests (reads/live.py covers every field of the table) and the printed documents'
keys change with them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext_lazy as _

from scoring.models import Signature, Table

PLAYING = "playing"
FINISHED = "finished"
SIGNED = "signed"
STATUS_WORDS = {PLAYING: _("playing"), FINISHED: _("finished"), SIGNED: _("signed")}


@dataclass(frozen=True)
class SignLine:
    """One seated player under the list."""

    seat: int
    player_id: int
    name: str
    total: int | None
    at: datetime | None  # None: not signed
    where: str
    with_pin: bool
    has_account: bool  # may sign with a PIN (PIN mode)

    @property
    def signed(self) -> bool:
        return self.at is not None


@dataclass(frozen=True)
class SigningState:
    lines: list[SignLine]
    finished: bool  # the list may be signed
    locked: bool  # everybody signed: deals are changed only by a club admin, with a reason
    changed_after_signing: bool
    with_pin: bool  # the club's players sign with their PIN

    @property
    def signed_count(self) -> int:
        return sum(1 for line in self.lines if line.signed)

    @property
    def waiting(self) -> list[SignLine]:
        return [line for line in self.lines if not line.signed]


def is_finished(table: Table, counted: int) -> bool:
    """Whether a table with ``counted`` games may be signed: all games of its series played,
    or, for an open list, at least one game (the players decide when they stop)."""
    length = table.evening.series_length(len(table.seats.all()))
    return counted >= length if length is not None else counted > 0


def table_status(table: Table, counted: int, players: int) -> str:
    """playing, finished or signed (the table's seats need not be fetched)."""
    if table.signed_at is not None:
        return SIGNED
    length = table.evening.series_length(players)
    if length is not None and counted >= length:
        return FINISHED
    return PLAYING


def signing_state(table: Table, counted: int, totals: list[int] | None) -> SigningState:
    """The table (fetched with its seats and players, tables_with_everything) under its
    list: one query, the signatures."""
    signed = {s.player_id: s for s in Signature.objects.filter(table=table)}
    lines = []
    for seat in table.seats.all():
        signature = signed.get(seat.player_id)
        lines.append(SignLine(
            seat=seat.position, player_id=seat.player_id, name=seat.player.name,
            total=totals[seat.position] if totals and seat.position < len(totals) else None,
            at=signature.at if signature else None,
            where=signature.where if signature else "",
            with_pin=signature.with_pin if signature else False,
            has_account=seat.player.user_id is not None))
    return SigningState(lines=lines, finished=is_finished(table, counted),
                        locked=table.signed_at is not None,
                        changed_after_signing=table.changed_after_signing,
                        with_pin=table.evening.club.sign_with_pin)


def signatures_by_table(table_ids: list[int]) -> dict[int, dict[int, Signature]]:
    """The signatures of these tables, by table and player: one query."""
    found: dict[int, dict[int, Signature]] = {}
    for signature in Signature.objects.filter(table_id__in=table_ids):
        found.setdefault(signature.table_id, {})[signature.player_id] = signature
    return found


@dataclass(frozen=True)
class PrintedSignature:
    """A signature line of a printed list: the name, and when he signed (None: blank)."""

    name: str
    at: datetime | None


def printed_signatures(table: Table) -> list[PrintedSignature]:
    """The table's signature lines in seat order (the table fetched with its seats and
    players): one query."""
    signed = {s.player_id: s.at for s in Signature.objects.filter(table=table)}
    return [PrintedSignature(seat.player.name, signed.get(seat.player_id))
            for seat in table.seats.all()]
