"""Options of each rule system (deal-record.md "Options"): parsed once, then read as attributes.

Unknown keys or values are an error naming ``options.<key>``; absent keys take the default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any, Literal

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


def _optional_int(key: str, value: object, low: int, high: int) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise SkatError(f"options.{key}", "Option {key} must be null (no cap) or a whole "
                        "number from {low} to {high}.", key=key, low=low, high=high)
    return value


def _set(key: str, value: object, allowed: tuple[Any, ...]) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v in allowed
                                              for v in value):
        raise SkatError(f"options.{key}", "Option {key} must be a list of: {choices}.",
                        key=key, choices=", ".join(allowed))
    return frozenset(value)


OptionKind = Literal["bool", "choice", "int", "optional_int", "set", "bock"]


@dataclass(frozen=True)
class OptionSpec:
    """The values one option takes (deal-record.md "Options"): what the parser accepts, and
    what the rule-profile form offers (forms/rule_profile.py builds its fields from these and
    the option's words in reads/rule_words.py)."""

    kind: OptionKind
    # A choice's or a set's values, in the order they are offered and a set is written.
    values: tuple[Any, ...] = ()
    # A whole number's bounds (int, optional_int).
    low: int = 0
    high: int = 0

    def parse(self, key: str, value: object) -> Any:
        if self.kind == "bool":
            return _bool(key, value)
        if self.kind == "choice":
            return _choice(key, value, self.values)
        if self.kind == "int":
            return _int(key, value, self.low, self.high)
        if self.kind == "optional_int":
            return _optional_int(key, value, self.low, self.high)
        if self.kind == "set":
            return _set(key, value, self.values)
        return _parse_bock(value)


_BOOL = OptionSpec("bool")

# Every option of every system, once, in the order an options object lists them (the profile
# form writes them so). Which system takes which option is the registry's (rulesets/); a
# parsed option is read as the attribute of the same name on Options.
OPTION_SPECS: Mapping[str, OptionSpec] = MappingProxyType({
    "penalty_points": OptionSpec("int", low=0, high=10_000),
    "overbid_charge": OptionSpec("choice", ("next_multiple", "bid")),
    "ramsch": OptionSpec("choice", ("off", "when_all_pass")),
    # isko
    "grand_base": OptionSpec("choice", (24, 20)),
    "lost_hand_single": _BOOL, "kontra": _BOOL, "kontra_requires_18": _BOOL,
    "spitze": _BOOL, "schenken": _BOOL, "rum": _BOOL,
    "ramsch_scoring": OptionSpec("choice", ("augen", "simple")),
    "ramsch_skat": OptionSpec("choice", ("last_trick", "loser", "nobody")),
    "ramsch_ties": OptionSpec("choice", ("full", "share")),
    "ramsch_jungfrau": _BOOL,
    "ramsch_durchmarsch": OptionSpec("choice", ("plus120", "times4")),
    "schieberamsch": OptionSpec("choice", ("off", "optional_double", "mandatory")),
    "ramsch_all_tied": OptionSpec("choice", ("none", "all_lose")),
    "ramsch_kontra": _BOOL,
    "ramsch_cap": OptionSpec("optional_int", low=1, high=100_000),
    "ramsch_round_grand_hand": OptionSpec("choice", ("deals_again", "counts")),
    # american1898 and hoyle
    "frage": _BOOL, "revolution": _BOOL,
    "exceptional": OptionSpec("set", AM98_EXCEPTIONAL),
    "contra": _BOOL, "point_ramsch": _BOOL,
    "forced_ramsch_every": OptionSpec("int", low=0, high=100),
    "beer_limit": OptionSpec("int", low=1, high=100_000),
    "uno_duo": _BOOL,
    "ramsch_base": OptionSpec("int", low=1, high=1000),
    # isko: a group of its own (BockOptions)
    "bock": OptionSpec("bock"),
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
        elif OPTION_SPECS[key].kind == "set":
            chosen = getattr(parsed, key)
            defaults[key] = [v for v in OPTION_SPECS[key].values if v in chosen]
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
        values[key] = OPTION_SPECS[key].parse(key, value)
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
