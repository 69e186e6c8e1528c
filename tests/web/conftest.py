"""The web tests' fixtures: the shared model fixtures of tests/web/fixtures.py."""

from __future__ import annotations

from .fixtures import club, in_english, scorer, table, table_players

__all__ = ["club", "in_english", "scorer", "table", "table_players"]
