"""The rule profiles a new club starts with (issue: "ISkO tournament", "Club evening",
"American 1898", "Hoyle"). Each is data the engine checks like any club's own profile."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

PRESETS: dict[str, dict[str, Any]] = {
    "isko_tournament": {
        "name": gettext_noop("ISkO tournament"),
        "rules": "isko", "options": {}, "scoring": "seeger_fabian",
    },
    "club_evening": {
        "name": gettext_noop("Club evening"),
        "rules": "isko",
        "options": {
            "kontra": True,
            "ramsch": "when_all_pass",
            "bock": {"triggers": ["sixty_sixty", "kontra_lost", "re"], "ramsch_round_after": 1},
        },
        "scoring": "classic",
    },
    "american1898": {
        "name": gettext_noop("American 1898"),
        "rules": "american1898", "options": {"contra": True}, "scoring": "classic",
    },
    "hoyle": {
        "name": gettext_noop("Hoyle"),
        "rules": "hoyle", "options": {}, "scoring": "classic",
    },
}


TOURNAMENT_PRESET = "isko_tournament"


def _settings(rules: object, options: object, scoring: object) -> tuple[object, ...] | None:
    """What a profile plays by, compared by meaning: the rule system, the options as the
    engine reads them (``{}`` and ``{"kontra": false}`` are the same rules) and the scoring.
    None for options the engine refuses (they match no preset)."""
    from scoring.engine import SkatError, parse_options

    try:
        parsed = parse_options(rules, options, 4)
    except SkatError:
        return None
    return (rules, parsed, scoring)


def matches_preset(profile: Any, key: str = TOURNAMENT_PRESET) -> bool:
    """Whether a rule profile holds the preset's rules, whatever it is called (issue 24: the
    ISkO tournament profile is found by its settings, in any language, under any name)."""
    preset = PRESETS[key]
    mine = _settings(profile.rules, profile.options, profile.scoring)
    return mine is not None and mine == _settings(
        preset["rules"], preset["options"], preset["scoring"])
