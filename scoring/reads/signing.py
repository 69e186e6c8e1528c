"""The players' signatures under a table's list (issue 23): who has signed and when, whether
the list may be signed (its series is finished, or an open list has deals), whether it is
locked (everybody seated has signed), and each table's state for the evening overview and the
tournament desk: playing, finished or signed.

The players sign the points that count (issue 35): Seeger-Fabian points where the evening is
scored by them, and at every tournament and league match day (their rankings add the tables'
Seeger-Fabian points: reads/tournament.py, reads/league.py), with the game points beside;
the game points alone where Seeger-Fabian does not count.

A table's ``signing`` field is bumped by every signature and by clearing them, so the polled
pages' digests (reads/live.py covers every field of the table) and the printed documents'
keys change with them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.engine import SkatError, evaluate_table
from scoring.models import Evening, Scoring, Signature, Table
from scoring.reads.results import keeps_seeger_fabian, scoring_for_document
from scoring.reads.sheet import table_document

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
    total: int | None  # the points that count: Seeger-Fabian where they count, else game
    game_points: int | None  # the game points (shown beside Seeger-Fabian points)
    at: datetime | None  # None: not signed
    where: str
    with_pin: bool
    has_account: bool  # may sign with a PIN (PIN mode)
    proof: str = ""  # how the signer proved to be the player (Signature.Proof)

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
    seeger_fabian: bool = False  # the totals are Seeger-Fabian points

    @property
    def player_ids(self) -> list[int]:
        return [line.player_id for line in self.lines]

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


def counts_seeger_fabian(evening: Evening) -> bool:
    """Whether the evening's places are decided by Seeger-Fabian points: scored so, or a
    tournament's or a league match day's evening (their rankings add the tables'
    Seeger-Fabian points whatever the profile's scoring). At most one query."""
    if evening.scoring == Scoring.SEEGER_FABIAN:
        return True
    return Evening.objects.filter(
        Q(tournament__isnull=False) | Q(match_day__isnull=False), pk=evening.pk).exists()


def seeger_fabian_alongside(table: Table) -> list[int] | None:
    """The Seeger-Fabian totals of a table whose evening is scored classic (its sheet has
    none), scored alongside as the rankings score them (reads/results.py); the table fetched
    with its seats and deals (tables_with_everything). None where the rules give none."""
    document = table_document(table)
    players = len(document["players"])
    document["scoring"] = scoring_for_document(document, players)
    try:
        result = evaluate_table(document)
    except SkatError:
        return None
    totals = result.get("seeger_fabian_totals")
    return [totals[str(p)] for p in range(players)] if totals else None


def signing_state(table: Table, counted: int, totals: list[int] | None,
                  seeger_fabian: list[int] | None = None) -> SigningState:
    """The table (fetched with its seats and players, tables_with_everything) under its
    list: one query, the signatures (and one more where the table may have Seeger-Fabian
    points and whether they count is not the evening's scoring: counts_seeger_fabian; a
    classic tournament's table is scored once more for them: seeger_fabian_alongside).
    ``totals`` the game points, ``seeger_fabian`` the sheet's Seeger-Fabian totals."""
    signed = {s.player_id: s for s in Signature.objects.filter(table=table)}
    sf = None
    seats = len(table.seats.all())
    if (seeger_fabian or keeps_seeger_fabian(table.evening, seats)) and counts_seeger_fabian(
            table.evening):
        sf = seeger_fabian or seeger_fabian_alongside(table)
    lines = []
    for seat in table.seats.all():
        signature = signed.get(seat.player_id)
        game = totals[seat.position] if totals and seat.position < len(totals) else None
        lines.append(SignLine(
            seat=seat.position, player_id=seat.player_id, name=seat.player.name,
            total=sf[seat.position] if sf and seat.position < len(sf) else game,
            game_points=game,
            at=signature.at if signature else None,
            where=signature.where if signature else "",
            with_pin=signature.with_pin if signature else False,
            has_account=seat.player.user_id is not None,
            proof=signature.proof if signature else ""))
    return SigningState(lines=lines, finished=is_finished(table, counted),
                        locked=table.signed_at is not None,
                        changed_after_signing=table.changed_after_signing,
                        with_pin=table.evening.club.sign_with_pin, seeger_fabian=sf is not None)


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


def table_with_club(pk: int) -> Table | None:
    """The table ``pk`` with its evening and club (None: there is none). One query."""
    return Table.objects.select_related("evening__club").filter(pk=pk).first()
