"""Club, player, evening and deal models arrive with their features."""

from __future__ import annotations
