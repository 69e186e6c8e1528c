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
