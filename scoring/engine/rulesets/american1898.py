"""American Skat by the St. Louis rules of 1898 (DECISIONS.md §3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..games import HISTORIC_GAMES, Game
from .base import BEER, CLASSIC, Ruleset

if TYPE_CHECKING:
    from ..options import Options

NAME = "american1898"


@dataclass(frozen=True)
class American1898(Ruleset):
    def game_table(self, raw_options: Mapping[str, Any]) -> dict[str, Game]:
        return HISTORIC_GAMES[NAME]

    def kontra(self, options: Options) -> bool:
        return options.contra

    def skat_to_nobody(self, options: Options) -> bool:
        return True


RULESET = American1898(
    name=NAME,
    option_keys=(
        "penalty_points", "frage", "revolution", "overbid_charge", "ramsch", "exceptional",
        "contra", "point_ramsch", "forced_ramsch_every", "beer_limit"),
    option_overrides={"ramsch": "when_all_pass"},
    historic=True,
    scorings=(CLASSIC, BEER),
)
