"""The registry of rule systems: one module per system, ``ruleset(name)`` to look one up.

Code outside the engine never compares a system's name; it asks the system's ``Ruleset``
(base.py) what it wants to know.
"""

from __future__ import annotations

from types import MappingProxyType

from ..errors import SkatError
from . import american1898, hoyle, isko
from .base import BEER, CLASSIC, DECLARATIONS, SEEGER_FABIAN, Ruleset

ISKO = isko.NAME
AMERICAN1898 = american1898.NAME
HOYLE = hoyle.NAME
DEFAULT = ISKO
NAMES = (ISKO, AMERICAN1898, HOYLE)

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


def rulesets_json() -> dict[str, dict[str, object]]:
    """What the browser needs of every system, by name (for a json_script)."""
    return {name: r.as_json() for name, r in RULESETS.items()}


__all__ = ["AMERICAN1898", "BEER", "CLASSIC", "DECLARATIONS", "DEFAULT", "HOYLE", "ISKO",
           "NAMES", "RULESETS", "SEEGER_FABIAN", "Ruleset", "ruleset", "rulesets_json"]
