"""The signing panel on the table screen (issue 23): one tag, so that the table screen's
template needs one line and its view nothing."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("scoring/signing/_panel.html", takes_context=True)
def signing_panel(context: template.Context) -> dict[str, Any]:
    """The panel of the table in ``context`` (the table screen's, with its sheet)."""
    from scoring.views.signing import panel_context

    request = context["request"]
    # only a screen that may record (a table code, a scorer) shows anything that signs
    found: dict[str, Any] = panel_context(request, context["table"],
                                          writable=bool(context.get("writable")),
                                          sheet=context.get("sheet"),
                                          is_admin=context.get("actor_admin"))
    found["request"] = request
    found["csrf_token"] = context.get("csrf_token")
    found["polled"] = True
    # A refused save while the entry form is not shown (the series is finished): the
    # engine's or the lock's words stand in the panel.
    form = context.get("form")
    series = context.get("series") or {}
    if request.method == "POST" and form is not None and series.get("complete"):
        found["refused"] = [message for _group, message in getattr(form, "engine_errors", [])]
    return found


@register.filter
def get_status(statuses: dict[int, tuple[str, str]], pk: int) -> tuple[str, str] | None:
    """A table's (state, words) from the desk's statuses."""
    return statuses.get(pk) if isinstance(statuses, dict) else None


@register.simple_tag
def table_status(sheet: Any) -> tuple[str, str]:
    """A table's state on the evening overview from its sheet (no query): playing,
    finished or signed, with the words, and "changed after signing" where it was."""
    from scoring.reads.signing import SIGNED, STATUS_WORDS
    from scoring.reads.signing import table_status as status_of

    table = sheet.table
    status = status_of(table, sheet.counted, len(sheet.players))
    words = str(STATUS_WORDS[status])
    if table.changed_after_signing and status != SIGNED:
        from django.utils.translation import gettext

        words = f"{words} · {gettext('changed after signing')}"
    return status, words


@register.inclusion_tag("scoring/signing/_sheet_signatures.html")
def sheet_signatures(table: Any) -> dict[str, Any]:
    """Under the score sheet page: who signed when, and "changed after signing" (one
    query, only for a table whose list was ever signed)."""
    from scoring.reads.signing import printed_signatures

    if not table.signing:
        return {"lines": [], "table": table}
    return {"lines": printed_signatures(table), "table": table}
