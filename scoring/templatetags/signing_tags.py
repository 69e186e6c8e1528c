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
    found: dict[str, Any] = panel_context(request, context["table"],
                                          sheet=context.get("sheet"))
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
