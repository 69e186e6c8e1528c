"""What one scored record is: the record's field names, the ``Context`` a record is scored
against and ``Scored``, one record scored (before Bock). The scoring itself: deal.py (which
record goes where), isko_game.py, historic_game.py, ramsch.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import Term
from .games import Game
from .options import Options

KINDS = ("game", "passed", "ramsch", "penalty", "misdeal")
RECORD_FIELDS = frozenset({
    "result", "kind", "declarer", "game", "hand", "ouvert", "schneider_announced",
    "schwarz_announced",
    "matadors", "cards", "bid", "declarer_points", "declarer_tricks", "kontra", "kontra_by",
    "spitze", "spitze_made", "passt_mir_nicht", "rum", "passed_18", "dealer", "concession",
    "bock", "ramsch", "penalty", "number", "note",
    # DECISIONS.md §9 bock.manual: a Bock round queued by hand; the export's mark of a level
    # set by hand (so that an import keeps it and leaves the others to the tracker)
    "bock_round", "bock_manual",
})
LONE_FIELDS = RECORD_FIELDS | {"rules", "options", "players"}
# Fields that belong to a game; on any other record they must be absent, null or false.
GAME_FIELDS = (
    "result", "declarer", "game", "hand", "ouvert", "schneider_announced", "schwarz_announced",
    "matadors", "cards", "bid", "declarer_points", "declarer_tricks", "kontra_by", "spitze",
    "spitze_made", "passt_mir_nicht", "rum", "passed_18", "concession",
)
# Fields most deals leave out: one set test skips all of their checks.
_RARE_FIELDS = frozenset({
    "passt_mir_nicht", "kontra", "kontra_by", "passed_18", "concession", "spitze",
    "spitze_made", "rum",
})
_GAME_FIELD_SET = frozenset(GAME_FIELDS) | {"kontra"}
CONCESSIONS = (None, "declarer", "schenken", "schenken_schneider", "schenken_schwarz")
KONTRA_FACTOR = {"none": 1, "kontra": 2, "re": 4}
# The systems as messages name them; the German is the form that follows "nach".
SYSTEM_NAMES = {
    "isko": Term("the International Skat Order", "der Internationalen Skatordnung"),
    "american1898": Term("American Skat (1898)", "dem amerikanischen Skat von 1898"),
    "hoyle": Term("Hoyle's Skat", "Hoyles Skat"),
}
# The kinds of record as messages name them: the code in English, a word in German.
KIND_NAMES = {
    "game": Term("game", "Spiel"), "passed": Term("passed", "Eingepasst"),
    "ramsch": Term("ramsch", "Ramsch"), "penalty": Term("penalty", "Strafe"),
    "misdeal": Term("misdeal", "Vergeben"),
}
# Words that messages put in front of "must be …", "is missing" (built once, not per deal).


@dataclass(frozen=True, slots=True)
class Context:
    """What every record of one table (or one lone deal) is scored against."""

    system: str
    options: Options
    players: int
    names: tuple[str, ...] | None
    legal_bids: frozenset[int]



class Scored:
    """One scored record, before Bock. ``entries`` maps seat -> points.

    Defaults live on the class, so a record sets only what applies to it (this object is
    made once per deal on the hot path)."""

    won: bool | None = None
    value: int | None = None
    charged: int | None = None
    overbid: bool | None = None
    base: int | None = None
    multiplier: int | None = None
    declarer: int | None = None
    game: Game | None = None
    hand = False
    ouvert = False
    points: int | None = None
    tricks: int | None = None
    kontra = "none"
    kontra_factor = 1  # what Kontra/Re did to the declarer's entry
    played = False  # the cards were played (no concession, no Schenken accepted)
    schneider_played = False
    schwarz_played = False
    # What a printed sheet ticks: the matadors (None where a game has none) and the levels
    # that counted beyond "game", in the order a scorer says them ("hand", "schneider" …).
    matadors: int | None = None
    levels: tuple[str, ...] = ()
    # (kind, *data) read by explanation(), rendered per language only when asked for
    explain_parts: tuple[Any, ...] = ()
    # ramsch_cap (DECISIONS.md §9): no entry below -cap after every doubling, Bock included
    cap: int | None = None
    # A Ramsch's outcome, whichever form recorded it: (losers, players without a trick, the
    # seat that took every trick or None); the sheet names them (issue 23)
    ramsch: tuple[tuple[int, ...], int, int | None] | None = None

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.entries: dict[int, int] = {}
