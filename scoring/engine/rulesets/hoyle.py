"""Skat as Foster's Hoyle describes it (DECISIONS.md §4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..games import HISTORIC_GAMES, Game
from .base import CLASSIC, Ruleset

if TYPE_CHECKING:
    from ..options import Options

NAME = "hoyle"


@dataclass(frozen=True)
class Hoyle(Ruleset):
    def game_table(self, raw_options: Mapping[str, Any]) -> dict[str, Game]:
        return HISTORIC_GAMES[NAME]

    def declares(self, declaration: str, options: Options) -> bool:
        return declaration == "passt_mir_nicht" or super().declares(declaration, options)


RULESET = Hoyle(
    name=NAME,
    option_keys=(
        "penalty_points", "frage", "revolution", "overbid_charge", "ramsch", "uno_duo",
        "ramsch_base"),
    option_overrides={"ramsch": "when_all_pass", "frage": False},
    historic=True,
    scorings=(CLASSIC,),
)
