"""The registry of rule systems: one module per system, ``ruleset(name)`` to look one up.

Code outside the engine never compares a system's name; it asks the system's ``Ruleset``
(base.py) what it wants to know.
"""

from __future__ import annotations

from types import MappingProxyType

from ..errors import SkatError
from ..options import Options, OptionValue
from . import american1898, hoyle, isko
from .base import BEER, CLASSIC, DECLARATIONS, SEEGER_FABIAN, Ruleset

ISKO = isko.NAME
AMERICAN1898 = american1898.NAME
HOYLE = hoyle.NAME
DEFAULT = ISKO
NAMES = (ISKO, AMERICAN1898, HOYLE)
SYSTEMS = NAMES

RULESETS = MappingProxyType({r.name: r for r in (isko.RULESET, american1898.RULESET,
                                                hoyle.RULESET)})
assert tuple(RULESETS) == NAMES


def ruleset(name: object) -> Ruleset:
    """The rule system called ``name``; an unknown name is the engine's SkatError."""
    found = RULESETS.get(name) if isinstance(name, str) else None
    if found is None:
        raise SkatError("rules", "Unknown rule system: use one of {choices}.",
                        choices=", ".join(NAMES))
    return found


def parse_options(system: object, raw: object, players: int) -> Options:
    """Parse the options object of a table or lone deal for a rule system."""
    return ruleset(system).parse(raw, players)


def option_defaults(system: object) -> dict[str, OptionValue]:
    """Every option ``system`` accepts (deal-record.md "Options"), with its default as the
    options object writes it; None for an option whose default the table's size decides
    (options.PLAYER_DEPENDENT) and for bock (null: off; its keys' defaults are
    bock_defaults())."""
    return ruleset(system).option_defaults()


class OptionsCache:
    """Parsed options, so that a stream of deals sharing one options dict (or none) is parsed
    once. The cache holds the raw object itself (its id cannot be reused while cached) and a
    typed snapshot, so a dict changed in place (even True -> 1) is parsed again."""

    def __init__(self) -> None:
        self._defaults: dict[tuple[object, int], Options] = {}
        self._entries: dict[tuple[object, int, int], tuple[object, object, Options]] = {}

    def get(self, system: object, raw: object, players: int) -> Options:
        if type(system) is not str or system not in SYSTEMS:
            raise SkatError("rules", "Unknown rule system: use one of {choices}.",
                            choices=", ".join(SYSTEMS))
        if raw is None or (type(raw) is dict and not raw):
            hit = self._defaults.get((system, players))
            if hit is None:
                hit = self._defaults[(system, players)] = parse_options(system, None, players)
            return hit
        key = (system, id(raw), players)
        entry = self._entries.get(key)
        if entry is not None and entry[0] is raw and entry[1] == _snapshot(raw):
            return entry[2]
        options = parse_options(system, raw, players)
        if len(self._entries) > 256:
            self._entries.clear()
        self._entries[key] = (raw, _snapshot(raw), options)
        return options


def _snapshot(raw: object) -> object:
    """A deep copy that keeps types apart (True is not 1) for the cache's equality check."""
    if isinstance(raw, dict):
        return tuple((k, _snapshot(v)) for k, v in raw.items())
    if isinstance(raw, list):
        return ("list", tuple(_snapshot(v) for v in raw))
    return (type(raw).__name__, raw)



def rulesets_json() -> dict[str, dict[str, object]]:
    """What the browser needs of every system, by name (for a json_script)."""
    return {name: r.as_json() for name, r in RULESETS.items()}


__all__ = ["AMERICAN1898", "BEER", "CLASSIC", "DECLARATIONS", "DEFAULT", "HOYLE", "ISKO",
           "NAMES", "RULESETS", "SEEGER_FABIAN", "SYSTEMS", "OptionsCache", "Ruleset",
           "option_defaults", "parse_options", "ruleset", "rulesets_json"]
