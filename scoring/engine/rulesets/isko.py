"""The International Skat Order (ISkO, DECISIONS.md §2): the tournament rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..games import ISKO_GAMES, Game
from .base import CLASSIC, SEEGER_FABIAN, Ruleset

if TYPE_CHECKING:
    from ..options import Options

NAME = "isko"
# The table screen's order of the games.
GAME_ORDER = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
# Ramsch's own rules: refused while Ramsch is off.
RAMSCH_OPTIONS = ("ramsch_scoring", "ramsch_skat", "ramsch_ties", "ramsch_jungfrau",
                  "ramsch_durchmarsch", "schieberamsch", "ramsch_all_tied", "ramsch_kontra",
                  "ramsch_cap", "ramsch_round_grand_hand")


@dataclass(frozen=True)
class Isko(Ruleset):
    def game_table(self, raw_options: Mapping[str, Any]) -> dict[str, Game]:
        return ISKO_GAMES[raw_options.get("grand_base", 24)]

    def games(self, options: Options) -> list[Game]:
        table = self.all_games(options)
        return [table[key] for key in GAME_ORDER]

    def common_bids(self, options: Options) -> list[int]:
        return [b for b in self.bids(options) if b <= 60]

    def declares(self, declaration: str, options: Options) -> bool:
        return declaration != "passt_mir_nicht"

    def kontra(self, options: Options) -> bool:
        return options.kontra

    def spitze(self, options: Options) -> bool:
        return options.spitze

    def schenken(self, options: Options) -> bool:
        return options.schenken

    def pushes(self, options: Options) -> bool:
        return options.schieberamsch != "off"

    def skat_to_nobody(self, options: Options) -> bool:
        return options.ramsch_skat == "nobody"


RULESET = Isko(
    name=NAME,
    option_keys=(
        "penalty_points", "grand_base", "lost_hand_single", "kontra", "kontra_requires_18",
        "spitze", "schenken", "rum", "ramsch", *RAMSCH_OPTIONS, "overbid_charge", "bock"),
    scorings=(CLASSIC, SEEGER_FABIAN),
    seeger_fabian_tables=(3, 4),
    game_headings=False,
    bock=True,
    ramsch_options=RAMSCH_OPTIONS,
)
