"""Helpers of the printed documents: CSS strings for the page margins, the page counter and
amounts of money."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.money import money as format_money

register = template.Library()


@register.filter
def css_string(value: Any) -> SafeString:
    """``value`` as a quoted CSS string, safe inside a ``<style>`` element: quotes and
    backslashes escaped, "<" and ">" as CSS escapes (so no "</style>" can end it early)."""
    text = re.sub(r"[\r\n\t\f\v]+", " ", str(value))
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    text = text.replace("<", "\\3c ").replace(">", "\\3e ")
    return mark_safe(f'"{text}"')


@register.simple_tag
def page_counter() -> SafeString:
    """The CSS ``content`` of "Page 3 of 17" in the current language, with WeasyPrint's
    page counters where the numbers go."""
    text = _("Page %(page)s of %(pages)s")
    parts = []
    for piece in re.split(r"(%\(pages?\)s)", text):
        if piece == "%(page)s":
            parts.append("counter(page)")
        elif piece == "%(pages)s":
            parts.append("counter(pages)")
        elif piece:
            parts.append(css_string(piece))
    return mark_safe(" ".join(parts))


@register.filter
def money(value: str | Decimal | None, places: int | None = None) -> str:
    return format_money(value, places)


@register.filter
def signed_money(value: str | Decimal | None, places: int | None = None) -> str:
    """Like ``money``, with a plus sign on amounts received."""
    text = format_money(value, places)
    return f"+{text}" if text and value is not None and Decimal(value) > 0 else text
