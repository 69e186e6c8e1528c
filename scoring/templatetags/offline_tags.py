"""``{% offline_table %}``: what the table screen needs to keep scoring offline (issue 13).

It writes, in the page's head: the web app manifest link, the table's state as JSON (the input
of SkatEngine.evaluateTable, the ids of its deals, its version, the page's language: the same
shape as GET tables/<pk>/state/ of the sync contract), the screen's words for the offline
panel, SkatEngine's script and static/js/offline-table.js. The JSON sits in
``<script type="application/json">`` elements, which run nothing (the CSP stays strict); the
service worker caches the page with it, so a reload without network still has the table.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, json_script
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from scoring.models import Table
from scoring.reads.sheet import table_document
from scoring.templatetags.engine_tags import skat_engine_script

register = template.Library()


def offline_state(table: Table) -> dict[str, Any]:
    live = [d for d in table.deals.all() if not d.deleted]
    document = table_document(table, [dict(d.record) for d in live])
    players = document.get("players")
    return {
        "version": table.version,
        "table": document,
        "ids": [d.pk for d in live],
        "lang": (get_language() or "en")[:2],
        # the series the header counts ("game 12 of 12"), as GET tables/<pk>/state/ says it
        "series": table.series,
        "series_length": table.evening.series_length(
            len(players) if isinstance(players, list) else len(table.seats.all())),
    }


def _words() -> dict[str, str]:
    return {
        "pending": _("not yet sent"),
        "waiting_one": _("1 deal waits to be sent"),
        "waiting_many": _("%(count)s deals wait to be sent"),
        "nothing_waits": _("Every deal is sent"),
        "last_sent": _("last sent at %(time)s"),
        # The status line and the waiting rows drawn before the engine has started.
        "status_offline": pgettext("waiting deal", "offline"),
        "status_offline_one": pgettext("waiting deal", "offline · 1 deal waits"),
        "status_offline_many": pgettext("waiting deal", "offline · %(count)s deals wait"),
        "waits": pgettext("waiting deal", "waits"),
        "provisional": pgettext("waiting deal", "provisional"),
        "working_out": pgettext("waiting deal", "being worked out"),
        "result_won": pgettext("waiting deal", "won"),
        "result_lost": pgettext("waiting deal", "lost"),
        "card_points": pgettext("waiting deal", "%(points)s card points"),
        "tricks": pgettext("waiting deal", "%(tricks)s tricks"),
        "offline": _("Offline: deals are kept on this tablet and sent when the connection is back"),
        "sending": _("Sending…"),
        "sent": _("Sent to the server"),
        "held": _("held for the club admin"),
        "refused": _("refused by the server"),
        "kept": _("Saved on this tablet: not yet sent"),
        "not_saved": _("The deal was not saved"),
        "engine_loading": _("The scoring engine is loading…"),
        "engine_failed": _("This tablet cannot score offline: the scoring engine did not load."),
        "dealer": _("Dealer"),
        "bock": "Bock",
        "ramsch_round": _("Ramsch round"),
        "no_score": _("No score"),
        "correct": _("Correct"),
        "delete": _("Delete"),
        "conflict": _("Two versions of this table"),
        "conflict_lead": _("Another device saved first. Your deal is not saved yet: choose."),
        "theirs": _("Other device"),
        "mine": _("This device"),
        "append": _("Append mine after theirs"),
        "keep_theirs": _("Keep the other device's version"),
        "same": _("The other device has already saved the same deal."),
        "same_hint": _("Keep it once; append this device's only if the same deal really was "
                       "played twice."),
        "keep_once": _("Keep it once (the other device's)"),
        "append_anyway": _("Append mine anyway, as another deal"),
        "edit_mine": _("Edit mine"),
        "no": _("No. %(number)s"),
        "reason_offline": _("Corrected offline"),
        "deleted_offline": _("Deleted offline"),
        "tap_declarer": _("Tap who plays."),
        "tap_game": _("Tap the game."),
        "tap_kontra_by": _("Tap who said Kontra."),
        "tap_ramsch": _("Tap the player with the most card points, or who took every trick."),
        "cancel": _("Cancel"),
        "totals_now": _("Totals now"),
        "totals_mine": _("Totals with mine"),
        "hint": _("The value and its breakdown appear here as you enter the deal."),
        "misdeal": _("Misdeal: deal again"),
        # The status header after the deals that wait (the engine's numbers; the same words
        # as templates/scoring/entry/_status.html and reads/score_sheet.py's bock_words).
        "series_game": _("Series %(number)s · game %(deal)s of %(length)s"),
        "series_done": _("Series %(number)s finished · %(length)s of %(length)s games"),
        "ramsch_of": _("Ramsch round %(deal)s/%(length)s"),
        "bock_of": _("Bock %(position)s of %(length)s"),
        "bock_waiting_one": ngettext("+%(waiting)s Bock round waiting",
                                     "+%(waiting)s Bock rounds waiting", 1),
        "bock_waiting_many": ngettext("+%(waiting)s Bock round waiting",
                                      "+%(waiting)s Bock rounds waiting", 2),
        "bock_rounds_one": ngettext("%(rounds)s Bock round waiting",
                                    "%(rounds)s Bock rounds waiting", 1),
        "bock_rounds_many": ngettext("%(rounds)s Bock round waiting",
                                     "%(rounds)s Bock rounds waiting", 2),
        "bock_deals_one": ngettext("%(deals)s Bock deal to go", "%(deals)s Bock deals to go", 1),
        "bock_deals_many": ngettext("%(deals)s Bock deal to go", "%(deals)s Bock deals to go",
                                    2),
        # The server no longer knows this tablet as a scorer of the table (issue 36).
        "session_ended": _("You are no longer signed in as a scorer of this table"),
        "session_kept_one": _("1 deal scored here waits on this tablet: it is kept and sent "
                              "when you sign in here again."),
        "session_kept_many": _("%(count)s deals scored here wait on this tablet: they are kept "
                               "and sent when you sign in here again."),
        "session_none": _("Nothing scored here waits to be sent."),
        "sign_in_again": _("Sign in again"),
    }


def _account(context: template.Context) -> str:
    """The signed-in account whose operations this page's queue holds ("" for a device that
    records with a table code): a shared tablet sends one account's queued operations only
    while that account is signed in (static/js/offline-table.js, signout.js)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return str(user.pk) if user is not None and user.is_authenticated else ""


@register.simple_tag(takes_context=True)
def offline_table(context: template.Context, table: Table, writable: bool) -> SafeString:
    try:
        state_url = reverse("scoring:table-state", args=[table.pk])
    except NoReverseMatch:  # the server side of the sync contract is not there yet
        state_url = ""
    try:
        sync_url = reverse("scoring:table-sync", args=[table.pk])
    except NoReverseMatch:
        sync_url = ""
    parts = [
        format_html('<link rel="manifest" href="{}">', reverse("scoring:offline-manifest")),
        mark_safe('<meta name="theme-color" content="#1d5c3a">'),  # noqa: S308 (constant)
        format_html('<link rel="apple-touch-icon" href="{}">',
                    reverse("scoring:offline-icon-192")),
        format_html('<link rel="stylesheet" href="{}">', static("css/offline-table.css")),
        json_script(offline_state(table), "offline-state"),
        json_script(_words(), "offline-words"),
        skat_engine_script(),
        format_html('<script src="{}" data-offline-table data-sw="{}" data-table="{}" '
                    'data-state-url="{}" data-sync-url="{}" data-version-url="{}" '
                    'data-writable="{}" data-account="{}" data-login-url="{}" defer></script>',
                    static("js/offline-table.js"), reverse("scoring:offline-sw"), table.pk,
                    state_url, sync_url, reverse("scoring:table-version", args=[table.pk]),
                    "true" if writable else "false", _account(context), reverse("login")),
    ]
    return mark_safe("\n".join(str(p) for p in parts))  # noqa: S308 (each part is escaped)
