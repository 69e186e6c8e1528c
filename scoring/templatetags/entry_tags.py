"""Template helpers for the table screen's deal form."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.notation import short_names
from scoring.reads.sheet import ScoreSheet

register = template.Library()


@register.simple_tag
def choices(items: list[dict[str, Any]]) -> SafeString:
    """Big tap targets: each choice a label wrapping a native radio (keyboard and screen
    readers work without JS). Built in Python because the form has about a hundred of them
    and as an included template they cost more than the rest of the screen."""
    out = []
    for c in items:
        classes = "choice"
        if c.get("red"):
            classes += " red"
        if c.get("suit"):
            classes += f" suit-{escape(c['suit'])}"
        if c.get("multiplied_only"):
            classes += " needs-multiplied"
        label = escape(c["label"])
        position = f' data-position="{escape(c["position"])}"' if c.get("position") else ""
        attrs = " checked" if c.get("checked") else ""
        if c.get("symbol"):
            attrs += f' aria-label="{label}"'
        elif c.get("aria"):
            attrs += f' aria-label="{escape(c["aria"])}"'
        if c.get("fixed"):
            attrs += " data-fixed"
        if c.get("grand"):
            attrs += " data-grand"
        symbol = (f'<span class="symbol" aria-hidden="true">{escape(c["symbol"])}</span> '
                  if c.get("symbol") else "")
        hint = f' <small>{escape(c["hint"])}</small>' if c.get("hint") else ""
        kind = "checkbox" if c.get("checkbox") else "radio"
        out.append(
            f'<label class="{classes}" for="{escape(c["id"])}" data-tap="{escape(c["tap"])}"'
            f'{position}>\n  <input type="{kind}" id="{escape(c["id"])}" '
            f'name="{escape(c["name"])}" value="{escape(c["value"])}"{attrs}>\n'
            f'  <span class="face">{symbol}<span class="text">{label}</span>{hint}</span>\n'
            "</label>")
    return mark_safe("".join(out))  # every variable part is escaped above


@register.simple_tag
def bid_options(bids: list[int], current: str) -> SafeString:
    """The <option>s of the "other bid" list (every legal bid of the rule system)."""
    return mark_safe("".join(
        f'<option value="{b}"{" selected" if str(b) == current else ""}>{b}</option>'
        for b in bids))


@register.filter
def column_marks(sheet: ScoreSheet) -> list[str]:
    """Each player's mark for a narrow column (the list beside the entry): the first three
    letters of the name the list uses, four where three do not tell two players apart,
    else the initials ("Anna Müller", "Anna Schulz": AM, AS), else the name itself."""
    names = short_names(sheet)
    for length in (3, 4):
        marks = [name[:length] for name in names]
        if len(set(marks)) == len(marks):
            return marks
    marks = ["".join(word[:1] for word in name.split()) for name in names]
    return marks if len(set(marks)) == len(marks) else names


@register.filter
def game_mark(name: str) -> str:
    """A game without a suit symbol in a column two letters wide (the list beside the entry,
    landscape): the initials of its words, so that "Null", "Null Hand", "Null ouvert" and
    "Null ouvert Hand" read N, NH, NO, NOH rather than "N…" four times (issue 36). The whole
    name stays the row's text for screen readers."""
    return "".join(word[:1].upper() for word in str(name).split())
