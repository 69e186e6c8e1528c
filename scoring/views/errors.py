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
import re
import sys

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import defaults

from scoring import access
from scoring.reads.club import table_language
from scoring.views.sync import RETRY_AFTER_SECONDS, unavailable

logger = logging.getLogger("skatclub.errors")


def _club_language(request: HttpRequest) -> str | None:
    """The language of the club whose table this device held a code for (the tablet of a
    closed evening), unless the visitor chose a language himself (the language cookie):
    then LocaleMiddleware's choice stands. One query, only for a device with a grant."""
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
        return None
    session = getattr(request, "session", None)
    grants = session.get(access.SESSION_KEY, {}) if session is not None else {}
    pks = [int(pk) for pk in grants if str(pk).isdecimal()] if isinstance(grants, dict) else []
    if not pks:
        return None
    language = table_language(pks)
    return language if language in dict(settings.LANGUAGES) else None


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404.html with the request's context (the header knows who is signed in), in the
    club's language for a table-code device that chose none."""
    language = _club_language(request)
    if language is None:
        return defaults.page_not_found(request, exception, template_name="404.html")
    with translation.override(language):
        response = defaults.page_not_found(request, exception, template_name="404.html")
    response["Content-Language"] = language
    return response


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """403.html, with the view's reason when it gave one."""
    return defaults.permission_denied(request, exception, template_name="403.html")


# Not "500.html": Django's own handler500 (a URL configuration without ours, as some tests
# use) would render that name unguarded; this one is rendered only here, with the fallback.
SERVER_ERROR_TEMPLATE = "scoring/errors/500.html"


# The offline table's JSON endpoints (views/sync.py, sync-contract.md: never HTML, never a
# 500): a failure before their view (a middleware, the session's database) is their JSON 503.
_JSON_ONLY = re.compile(r"^/tables/\d+/(sync|state)/$")


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page from an empty context: no request, no user, no query. A database that
    cannot be reached is a 503 (with Retry-After): the same page, nothing was stored."""
    if _JSON_ONLY.match(request.path):
        return unavailable()
    # The database cannot be reached (not a query's own error, say an IntegrityError: a 500).
    status = 503 if isinstance(sys.exc_info()[1], OperationalError | InterfaceError) else 500
    try:
        response = HttpResponseServerError(
            loader.get_template(SERVER_ERROR_TEMPLATE).render({}))
        response.status_code = status
        if status == 503:
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    except Exception:  # the page itself failed: still an answer in the visitor's language
        logger.exception("the 500 page could not be rendered")
        lang = escape((get_language() or "de")[:8])
        title = escape(_("Something went wrong"))
        text = escape(_("The server could not answer this request. Go back and try again in "
                        "a moment; if it was a deal, look at the list first to see whether it "
                        "was saved."))
        return HttpResponseServerError(
            f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
            f"<title>{title} · Skatclub</title></head><body><h1>{title}</h1><p>{text}</p>"
            "</body></html>", status=status)
