"""Reads: the score sheet's shapes: a row (``SheetRow``), the sheet (``ScoreSheet``), an engine
refusal as a page shows it, and where the Bock rounds stand in numbers and in words. sheet.py
builds them from the stored deals; the money, the ranking, notation.py and the PDFs read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import SkatError, bock_standing
from scoring.models import Deal, Table
from scoring.reads.audit import Correction


@dataclass
class SheetRow:
    number: int
    deal_id: int
    kind: str
    dealer: int
    active: tuple[int, ...]
    declarer: int | None
    game: str
    symbol: str
    red: bool
    details: list[str]
    bid: int | None
    result: str
    kontra: str
    bock: int
    ramsch_round: bool
    won: bool | None
    value: int | None
    entries: list[int | None]
    totals: list[int]
    seeger_fabian: list[int | None] | None
    round_end: bool
    underline: frozenset[int]
    explanation: str
    result_key: str = ""  # the quick result tapped ("lost_schneider" …), "" for card points
    # What the printed sheet shows in its own columns (the screen folds them into "details"):
    game_base: str = ""  # the game without its declarations: "Null" of "Null Ouvert Hand"
    matadors: int | None = None  # with n = +n, without n = −n; None where a game has none
    levels: frozenset[str] = frozenset()  # "hand", "schneider", "schwarz_announced" …
    result_short: str = ""  # card points, tricks or a quick result in a few letters
    overbid: bool = False  # the declarer made fewer than he bid: lost whatever he took
    ramsch_points: list[int | None] = field(default_factory=list)  # card points per seat
    bock_manual: bool = False  # bock.manual (DECISIONS.md §9): the table set this level
    bock_round: bool = False  # bock.manual: the table queued a Bock round after this deal
    bock_notes: list[str] = field(default_factory=list)  # both in words (also in details)
    # A Ramsch as the engine scored it (issue 23): who lost (the seats charged), how many took
    # no trick (Jungfrau), who took every trick (Durchmarsch); notation.ramsch_words says it
    ramsch_losers: tuple[int, ...] = ()
    ramsch_jungfrau: int = 0
    ramsch_durchmarsch: int | None = None
    kontra_by: int | None = None  # the seat that said Kontra (issue 36: stored, never shown)

    @property
    def sits_out(self) -> list[bool]:
        """Per seat: not playing this deal (the dealer at a 4-table, two people at 5/6)."""
        return [p not in self.active for p in range(len(self.entries))]

    @property
    def says_lost(self) -> bool:
        """The result column already reads "lost …" (a quick result), so no second mark."""
        return self.result_key.startswith("lost")


@dataclass(frozen=True)
class EngineMessage:
    """An engine refusal as a page shows it: ``message`` is in the page's language."""

    field: str | None
    message: str
    deal: int | None

    @classmethod
    def of(cls, err: SkatError, lang: str) -> EngineMessage:
        return cls(err.field, err.message_in(lang), err.deal)


@dataclass
class ScoreSheet:
    table: Table
    players: list[str]
    rows: list[SheetRow]
    totals: list[int]
    seeger_fabian_totals: list[int] | None
    won: list[int]
    lost: list[int]
    next_dealer: int
    next_active: list[int]
    next_round: int
    next_deal_in_round: int  # 1…n
    next_bock: int
    next_ramsch_round: bool
    next_ramsch_deal: int  # 1…n inside a Ramsch round, else 0
    bock_pending: int
    settlement: dict[str, Any] | None
    beer_loser: int | None
    deleted: list[Deal] = field(default_factory=list)
    error: EngineMessage | None = None  # the stored deals no longer score (should not happen)
    passed: list[int] = field(default_factory=list)  # passed-in deals each seat sat in on
    counted: int = 0  # deals that count toward rounds and the series length
    deals: int = 0  # live deals recorded, also where only the last rows were built
    # The deals changed after every player had signed (issue 36), where the page or PDF
    # asked for them (reads.audit.corrections_after_signing): marked on their rows.
    corrections: list[Correction] = field(default_factory=list)

    @property
    def seeger_fabian(self) -> bool:
        return self.seeger_fabian_totals is not None

    @property
    def series_played(self) -> bool:
        """The table's series is played (its rounds of a Preisskat or league day): no next
        round and no next dealer to show (issue 36: "Runde 13 · nächster Geber")."""
        length = self.table.evening.series_length(len(self.players))
        return length is not None and self.counted >= length

    @property
    def corrected(self) -> frozenset[int]:
        """The deals (ids) changed after every player had signed."""
        return frozenset(c.deal_id for c in self.corrections)

    @property
    def end_words(self) -> str:
        """What a list with no next deal says instead of the next dealer and the Bock rounds
        waiting (issue 36: a signed sheet printed "nächster Geber … 1 Bockrunde wartet"): the
        evening closed, every player signed, the series played; "" while play goes on. The
        one wording of the sheet page and its PDF."""
        if self.table.evening.closed:
            return _("Evening closed")
        if self.table.signed_at is not None:
            return _("Signed by every player")
        if self.series_played:
            return _("Series %(number)s played") % {"number": self.table.series}
        return ""

    @property
    def lost_bonus(self) -> int:
        return 40 if len(self.players) == 3 else 30

    @property
    def bock(self) -> BockStatus:
        return bock_status(self)

    @property
    def bock_words(self) -> list[tuple[str, str]]:
        return bock_words(self)


@dataclass(frozen=True)
class BockStatus:
    """Where the Bock rounds stand before the next deal, from the round tracker.

    The tracker's ``bock_pending`` counts *deals*: the deals left in the running Bock round
    plus n for every whole round queued behind it (with parallel stacking, the deals left in
    each running round, so a Doppelbock deal owes two). Rounds are worked out from it here,
    once, for every screen and the PDF."""

    level: int  # the next deal's Bock level: 0 none, 1 Bock, 2 Doppelbock …
    length: int  # deals in a round (players at the table)
    position: int  # the next deal is the position-th of its Bock round; 0 where unknown
    waiting: int  # whole Bock rounds queued behind the running one (or waiting to start)
    owed: int  # Bock deals still owed (the tracker's count)
    parallel: bool  # overlapping rounds run at once (Doppelbock) instead of queueing

    @property
    def factor(self) -> int:
        factor: int = 2 ** self.level  # int ** int is typed Any: a negative power is a float
        return factor


def bock_status(sheet: ScoreSheet) -> BockStatus:
    n = max(len(sheet.players), 1)
    options = sheet.table.evening.options or {}
    bock_options = options.get("bock") if isinstance(options, dict) else None
    parallel = isinstance(bock_options, dict) and bock_options.get("stacking") == "parallel"
    pending, level = max(sheet.bock_pending, 0), sheet.next_bock
    # the engine's one computation, which the offline table runs in the browser too
    standing = bock_standing(pending, level, n, parallel)
    return BockStatus(level, n, standing.position, standing.waiting, pending, parallel)


def bock_words(sheet: ScoreSheet) -> list[tuple[str, str]]:
    """The Bock state in words, as (kind, text): ("bock", "Bock 2 of 4"), ("waiting", "+1 Bock
    round waiting"). The one wording of the sheet, the table screen and the PDF."""
    status = bock_status(sheet)
    out: list[tuple[str, str]] = []
    if status.level:
        text = (_("Bock %(position)s of %(length)s")
                % {"position": status.position, "length": status.length}
                if status.position else "Bock")
        if status.level > 1:
            text += f" ×{status.factor}"
        out.append(("bock", text))
    if status.waiting:
        if status.level:
            text = ngettext("+%(waiting)s Bock round waiting", "+%(waiting)s Bock rounds waiting",
                            status.waiting) % {"waiting": status.waiting}
        else:
            text = ngettext("%(rounds)s Bock round waiting", "%(rounds)s Bock rounds waiting",
                            status.waiting) % {"rounds": status.waiting}
        out.append(("waiting", text))
    elif status.parallel and status.owed:
        out.append(("waiting", ngettext("%(deals)s Bock deal to go", "%(deals)s Bock deals to go",
                                        status.owed) % {"deals": status.owed}))
    return out
