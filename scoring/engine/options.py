"""Options of each rule system (deal-record.md "Options"): parsed once, then read as attributes.

Unknown keys or values are an error naming ``options.<key>``; absent keys take the default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from .errors import SkatError

BOCK_TRIGGERS = (
    "sixty_sixty", "kontra_lost", "re", "grand_hand", "null_ouvert_hand", "schneider",
    "schwarz", "all_passed", "value_at_least", "loss_at_least", "rounds_without_bock",
)
AM98_EXCEPTIONAL = ("nullo_purchase", "nullo_tourne", "uno", "duo", "nullo_tricks")


@dataclass(frozen=True)
class BockOptions:
    triggers: frozenset[str] = frozenset({"sixty_sixty", "kontra_lost", "re"})
    value_at_least: int = 100
    loss_at_least: int = 100
    rounds_without_bock: int = 2
    stacking: str = "queue"
    includes_trigger: bool = False
    one_per_deal: bool = True
    ramsch_round_after: int = 0
    manual: bool = False  # a table deal may carry its own level and bock_round (DECISIONS §9)


@dataclass(frozen=True)
class Options:
    """Every option of every system; a system reads only its own (others stay at default)."""

    system: str
    players: int
    penalty_points: int = 10
    # isko
    grand_base: int = 24
    lost_hand_single: bool = False
    kontra: bool = False
    kontra_requires_18: bool = False
    spitze: bool = False
    schenken: bool = False
    rum: bool = False
    ramsch: str = "off"
    ramsch_scoring: str = "augen"
    ramsch_skat: str = "last_trick"
    ramsch_ties: str = "full"
    ramsch_jungfrau: bool = True
    ramsch_durchmarsch: str = "plus120"
    schieberamsch: str = "off"
    # DECISIONS.md §9 (house rules other programs play)
    ramsch_all_tied: str = "none"
    ramsch_kontra: bool = False
    ramsch_cap: int | None = None
    ramsch_round_grand_hand: str = "deals_again"
    bock: BockOptions | None = None
    # american1898 and hoyle
    frage: bool = True
    revolution: bool = True
    exceptional: frozenset[str] = field(default_factory=frozenset)
    contra: bool = False
    overbid_charge: str = "next_multiple"
    point_ramsch: bool = False
    forced_ramsch_every: int = 0
    beer_limit: int = 151
    uno_duo: bool = True
    ramsch_base: int = 20


def _bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise SkatError(f"options.{key}", "Option {key} must be true or false.", key=key)
    return value


def _int(key: str, value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise SkatError(f"options.{key}", "Option {key} must be a whole number from {low} to "
                        "{high}.", key=key, low=low, high=high)
    return value


def _choice(key: str, value: object, allowed: tuple[Any, ...]) -> Any:
    if value not in allowed or isinstance(value, bool):
        raise SkatError(f"options.{key}", "Option {key} must be one of {choices}.", key=key,
                        choices=", ".join(repr(a) for a in allowed))
    return value


def _parse_bock(raw: object) -> BockOptions | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise SkatError("options.bock", "Option bock must be null (off) or an object.")
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "triggers":
            if not isinstance(value, list) or not all(
                isinstance(t, str) and t in BOCK_TRIGGERS for t in value
            ):
                raise SkatError("options.bock.triggers", "Bock triggers must be a list of: "
                                "{choices}.", choices=", ".join(BOCK_TRIGGERS))
            values[key] = frozenset(value)
        elif key in ("value_at_least", "loss_at_least"):
            values[key] = _int(f"bock.{key}", value, 1, 10_000)
        elif key == "rounds_without_bock":
            values[key] = _int("bock.rounds_without_bock", value, 1, 100)
        elif key == "ramsch_round_after":
            values[key] = _int("bock.ramsch_round_after", value, 0, 100)
        elif key == "stacking":
            values[key] = _choice("bock.stacking", value, ("queue", "parallel"))
        elif key in ("includes_trigger", "one_per_deal", "manual"):
            values[key] = _bool(f"bock.{key}", value)
        else:
            raise SkatError(f"options.bock.{key}", "Unknown Bock option {key!r}.", key=key)
    return BockOptions(**values)


# Every option's parser; which system takes which option is the registry's (rulesets/).
_PARSER: dict[str, Any] = {
    "penalty_points": lambda k, v: _int(k, v, 0, 10_000),
    "grand_base": lambda k, v: _choice(k, v, (24, 20)),
    "lost_hand_single": _bool, "kontra": _bool, "kontra_requires_18": _bool,
    "spitze": _bool, "schenken": _bool, "rum": _bool,
    "ramsch": lambda k, v: _choice(k, v, ("off", "when_all_pass")),
    "ramsch_scoring": lambda k, v: _choice(k, v, ("augen", "simple")),
    "ramsch_skat": lambda k, v: _choice(k, v, ("last_trick", "loser", "nobody")),
    "ramsch_ties": lambda k, v: _choice(k, v, ("full", "share")),
    "ramsch_jungfrau": _bool,
    "ramsch_durchmarsch": lambda k, v: _choice(k, v, ("plus120", "times4")),
    "schieberamsch": lambda k, v: _choice(k, v, ("off", "optional_double", "mandatory")),
    "ramsch_all_tied": lambda k, v: _choice(k, v, ("none", "all_lose")),
    "ramsch_kontra": _bool,
    "ramsch_cap": lambda k, v: _cap(v),
    "ramsch_round_grand_hand": lambda k, v: _choice(k, v, ("deals_again", "counts")),
    "overbid_charge": lambda k, v: _choice(k, v, ("next_multiple", "bid")),
    "bock": lambda k, v: _parse_bock(v),
}


def _cap(value: object) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 1 <= value <= 100_000:
        raise SkatError("options.ramsch_cap", "Option ramsch_cap must be null (no cap) or a "
                        "whole number from 1 to 100000.")
    return value


def _exceptional(key: str, value: object) -> frozenset[str]:
    if not isinstance(value, list) or not all(
        isinstance(g, str) and g in AM98_EXCEPTIONAL for g in value
    ):
        raise SkatError("options.exceptional", "Option exceptional must be a list of: "
                        "{choices}.", choices=", ".join(AM98_EXCEPTIONAL))
    return frozenset(value)


_PARSER.update({
    "frage": _bool, "revolution": _bool,
    "exceptional": _exceptional, "contra": _bool, "point_ramsch": _bool,
    "forced_ramsch_every": lambda k, v: _int(k, v, 0, 100),
    "beer_limit": lambda k, v: _int(k, v, 1, 100_000),
    "uno_duo": _bool, "ramsch_base": lambda k, v: _int(k, v, 1, 1000),
})



# A default as an options object writes it (JSON): a set is a list in its canonical order.
OptionValue = bool | int | str | list[str] | None
# Options whose default depends on the table: beer_limit is 151 at a 3-table, else 201.
PLAYER_DEPENDENT = frozenset({"beer_limit"})


def defaults_of(keys: tuple[str, ...], parsed: Options) -> dict[str, OptionValue]:
    """Every option of ``keys`` with its default as the options object writes it, read from
    the defaults ``parsed``; None for an option of PLAYER_DEPENDENT (left out, the table's size
    decides) and for bock (null: off; its keys' defaults are bock_defaults())."""
    defaults: dict[str, OptionValue] = {}
    for key in keys:
        if key in PLAYER_DEPENDENT:
            defaults[key] = None
        elif key == "exceptional":
            defaults[key] = [g for g in AM98_EXCEPTIONAL if g in parsed.exceptional]
        else:
            defaults[key] = getattr(parsed, key)
    return defaults


def bock_defaults() -> dict[str, bool | int | str | list[str]]:
    """The keys of option bock with their defaults, as the options object writes them."""
    defaults: dict[str, bool | int | str | list[str]] = asdict(BockOptions())
    defaults["triggers"] = [t for t in BOCK_TRIGGERS if t in BockOptions().triggers]
    return defaults


def parse_for(system: str, keys: tuple[str, ...], overrides: Mapping[str, Any], raw: object,
              players: int) -> Options:
    """Parse the options object of a table or lone deal under ``system``, which takes the
    options ``keys`` with its own ``overrides`` of the defaults (its ruleset's: the registry
    says which system takes which option; rulesets.parse_options is the way in)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise SkatError("options", "Options must be an object.")
    values: dict[str, Any] = dict(overrides)
    if "beer_limit" in keys:
        values["beer_limit"] = 151 if players == 3 else 201
    for key, value in raw.items():
        if key not in keys:
            raise SkatError(f"options.{key}", "Unknown option {key!r} for rule system {system}.",
                            key=key, system=system)
        values[key] = _PARSER[key](key, value)
    options = Options(system=system, players=players, **values)
    _check_combinations(options)
    return options


def _check_combinations(o: Options) -> None:
    bock = o.bock
    if bock is not None and bock.ramsch_round_after:
        if o.ramsch == "off":
            raise SkatError(
                "options.bock.ramsch_round_after", "Ramsch rounds after Bock need option ramsch on."
            )
        if bock.stacking != "queue":
            raise SkatError(
                "options.bock.ramsch_round_after",
                "Ramsch rounds after Bock need Bock stacking \"queue\".",
            )
    # The §9 options are refused where they cannot apply; their defaults are accepted anywhere,
    # so that a form may always send every key.
    if o.ramsch == "off":
        for key, default in (("ramsch_all_tied", "none"), ("ramsch_kontra", False),
                             ("ramsch_cap", None)):
            if getattr(o, key) != default:
                raise SkatError(f"options.{key}", "Option {key} needs option ramsch on.",
                                key=key)
    if o.ramsch_kontra and not o.kontra:
        raise SkatError("options.ramsch_kontra", "Kontra on a Ramsch needs option kontra.")
    if o.ramsch_round_grand_hand != "deals_again" and not (bock and bock.ramsch_round_after):
        raise SkatError("options.ramsch_round_grand_hand", "Option ramsch_round_grand_hand "
                        "applies to Ramsch rounds after Bock: it needs "
                        "bock.ramsch_round_after.")
    if o.forced_ramsch_every and o.ramsch == "off":
        raise SkatError("options.forced_ramsch_every", "Forced Ramsch needs option ramsch on.")
