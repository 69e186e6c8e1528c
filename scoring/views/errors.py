"""The site's own error pages (skatclub/urls.py: handler404, handler403, handler500): every
404, 403 and 500 is a page of the site (base.html) in the visitor's language, German unless
the visitor chose or asked for another (LocaleMiddleware has activated it by now), never
Django's bare English "Not Found".

A 500 is rendered without the request's context (the error may be the database's: nothing
that reads the session, the user or a club may run again), and should even that fail, a
plain page in the same language is returned.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import defaults

logger = logging.getLogger("skatclub.errors")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404.html with the request's context (the header knows who is signed in)."""
    return defaults.page_not_found(request, exception, template_name="404.html")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """403.html, with the view's reason when it gave one."""
    return defaults.permission_denied(request, exception, template_name="403.html")


def server_error(request: HttpRequest) -> HttpResponse:
    """500.html from an empty context: no request, no user, no query."""
    try:
        return HttpResponseServerError(loader.get_template("500.html").render({}))
    except Exception:  # the page itself failed: still an answer in the visitor's language
        logger.exception("the 500 page could not be rendered")
        lang = escape((get_language() or "de")[:8])
        title = escape(_("Something went wrong"))
        text = escape(_("The server could not answer this request. Nothing you entered is "
                        "lost: try again in a moment."))
        return HttpResponseServerError(
            f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
            f"<title>{title} · Skatclub</title></head><body><h1>{title}</h1><p>{text}</p>"
            "</body></html>")
