"""Numbers on the season pages, in the reader's language: a real minus sign, one decimal for
averages and rates, money with its currency."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.utils.formats import number_format

from scoring.templatetags.sheet_tags import MINUS, minus

register = template.Library()
register.filter("minus", minus)


@register.filter
def points(value: Any) -> str:
    """24729 → "24.729" in German, "24,729" in English, with a real minus sign."""
    if value is None or value == "":
        return ""
    text = number_format(int(value), force_grouping=True)
    return MINUS + text[1:] if text.startswith("-") else text


@register.filter
def decimal1(value: Any) -> str:
    """1474.5 → "1.474,5" in German; −8.5 → "−8,5"; "" for None."""
    if value is None or value == "":
        return ""
    text = number_format(Decimal(value), 1, force_grouping=True)
    return MINUS + text[1:] if text.startswith("-") else text


@register.filter
def money(amounts: dict[str, Decimal] | None) -> str:
    """{"EUR": Decimal("-3.45")} → "−3,45 EUR"; several currencies one after the other."""
    if not amounts:
        return ""
    parts = []
    for currency in sorted(amounts):
        text = number_format(amounts[currency], 2, force_grouping=True)
        parts.append(f"{MINUS + text[1:] if text.startswith('-') else text} {currency}")
    return " · ".join(parts)


@register.filter
def sign_class(value: Any) -> str:
    """"neg" for a negative number, for the red figures."""
    try:
        return "neg" if value is not None and Decimal(value) < 0 else ""
    except (ArithmeticError, ValueError, TypeError):
        return ""


@register.filter
def money_sign(amounts: dict[str, Decimal] | None) -> str:
    return "neg" if amounts and any(v < 0 for v in amounts.values()) else ""
