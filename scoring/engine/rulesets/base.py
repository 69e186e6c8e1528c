"""What a rule system answers to the rest of the code: the one place that says which system
has which declarations, bids, options and scorings (DECISIONS.md is the authority).

A ``Ruleset`` is plain data plus a few questions that need a table's parsed options. It stands
above options.py and the deal's modules and imports them; none of them imports the registry
(options.py parses the keys a ruleset hands it), so there is no circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games import Game
from ..options import Options, OptionValue, defaults_of, parse_for

# The declarations of the table screen, in the order it shows them.
DECLARATIONS = ("hand", "schneider_announced", "schwarz_announced", "ouvert", "passt_mir_nicht")
# What a declaration switches on with it (in a suit game or Grand; a fixed game such as Null
# Ouvert takes none): Schwarz announced needs Schneider announced and Hand, Ouvert all three.
IMPLIES: Mapping[str, tuple[str, ...]] = {
    "schneider_announced": ("hand",),
    "schwarz_announced": ("hand", "schneider_announced"),
    "ouvert": ("hand", "schneider_announced", "schwarz_announced"),
    "hand": (),
}
# The scorings of a table (models.Scoring's values).
CLASSIC, SEEGER_FABIAN, BEER = "classic", "seeger_fabian", "beer"


@dataclass(frozen=True)
class Ruleset:
    """One rule system. Subclasses (isko.py, american1898.py, hoyle.py) fill the data and
    override the questions whose answer depends on the options."""

    name: str
    # Every option the system takes (deal-record.md "Options"), in the order its options
    # object and option_defaults() list them; options.py parses exactly these.
    option_keys: tuple[str, ...]
    # Defaults that differ from options.Options' own for this system.
    option_overrides: Mapping[str, Any] = field(default_factory=dict)
    # What each declaration switches on with it: the table screen's toggles follow it.
    implies: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: IMPLIES)
    # Scorings a table may be scored with (models.Scoring values).
    scorings: tuple[str, ...] = (CLASSIC,)
    # Table sizes whose players get Seeger-Fabian points (empty: never).
    seeger_fabian_tables: tuple[int, ...] = ()
    # The table screen groups the games under family headings (Frage, Tourné, Solo …) rather
    # than showing suit symbols.
    game_headings: bool = True
    # Bock rounds (option bock) exist in this system.
    bock: bool = False
    # Ramsch's own rules: refused while option ramsch is off.
    ramsch_options: tuple[str, ...] = ()
    # One of the historic systems (American 1898, Hoyle): the games of games.HISTORIC_GAMES
    # and the options they share (frage, revolution …), described together in words.
    historic: bool = False

    # ------------------------------------------------------------ options

    def option_defaults(self) -> dict[str, OptionValue]:
        """Every option with its default as an options object writes it (deal-record.md
        "Options"; PLAYER_DEPENDENT ones and bock as None)."""
        return defaults_of(self.option_keys, self.parse(None, 4))

    def parse(self, raw: object, players: int) -> Options:
        """The options object of a table of ``players`` under this system, parsed and
        checked (an unknown key or value is a SkatError)."""
        return parse_for(self.name, self.option_keys, self.option_overrides, raw, players)

    # ------------------------------------------------------------ games and bids

    def all_games(self, options: Options) -> dict[str, Game]:
        """Every game key of the system (a game switched off by an option too)."""
        return self.game_table({"grand_base": options.grand_base})

    def game_table(self, raw_options: Mapping[str, Any]) -> dict[str, Game]:
        """The games by key under an options object as stored (not parsed): the table the
        sheet's labels and a sheet read back use."""
        raise NotImplementedError

    def games(self, options: Options) -> list[Game]:
        """The games the table screen offers, in its order."""
        from ..deal import game_enabled
        return [g for g in self.all_games(options).values()
                if game_enabled(self.name, g, options)]

    def bids(self, options: Options) -> list[int]:
        """Every bid that can be said, ascending."""
        from ..deal import legal_bids
        return sorted(legal_bids(self.name, options))

    def common_bids(self, options: Options) -> list[int]:
        """The bids the table screen shows as buttons (the rest under "more")."""
        return self.bids(options)[:18]

    # ------------------------------------------------------------ declarations

    def declarations(self, options: Options) -> tuple[str, ...]:
        """The declarations the table screen offers (a subset of DECLARATIONS)."""
        return tuple(d for d in DECLARATIONS if self.declares(d, options))

    def declares(self, declaration: str, options: Options) -> bool:
        if declaration in ("schneider_announced", "schwarz_announced"):
            return True
        if declaration == "ouvert":
            return any(g.ouvert_value for g in self.games(options))
        return False

    # ------------------------------------------------------------ what the screen asks

    def kontra(self, options: Options) -> bool:
        """Kontra (or Contra) can be said."""
        return False

    def spitze(self, options: Options) -> bool:
        return False

    def schenken(self, options: Options) -> bool:
        return False

    def pushes(self, options: Options) -> bool:
        """A Ramsch may be pushed (Schieberamsch)."""
        return False

    def skat_to_nobody(self, options: Options) -> bool:
        """The skat's card points in a Ramsch are entered apart (they count for nobody)."""
        return False

    # ------------------------------------------------------------ scoring

    def seeger_fabian(self, players: int) -> bool:
        """Whether a table of ``players`` can be scored by Seeger-Fabian."""
        return players in self.seeger_fabian_tables

    def keeps_seeger_fabian(self, scoring: str, players: int) -> bool:
        """Whether a table scored with ``scoring`` gets Seeger-Fabian points alongside (and so
        table scores for the federation ranking): wherever the rules allow them, except a
        Beer Skat evening."""
        return scoring != BEER and self.seeger_fabian(players)

    def scoring_for(self, scoring: str, players: int) -> str:
        """The scoring to evaluate a table with so that its result carries Seeger-Fabian
        totals wherever the table can have them; classic totals, games and the settlement
        are the same either way."""
        if scoring == CLASSIC and self.seeger_fabian(players):
            return SEEGER_FABIAN
        return scoring

    def as_json(self) -> dict[str, Any]:
        """What the browser needs of the system (rendered by the server as JSON)."""
        return {"name": self.name, "options": list(self.option_keys),
                "implies": {k: list(v) for k, v in self.implies.items()}}
