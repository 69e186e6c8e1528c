"""Filters of the tournament pages and documents."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    """``row.series|get_item:n``: the value under ``key``, None when absent."""
    return mapping.get(key) if isinstance(mapping, dict) else None
