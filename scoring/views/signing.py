"""The players sign a finished list (issue 23): on the tablet, or on their own phone.

- The tablet (the table screen, for whoever may record there: a table code or a scorer) shows
  each player's total and a button with his name (or, when the club chooses, a field for his
  PIN); ``tables/<pk>/signatures/``. Its panel is polled (``.../panel/``) so that a signature
  given on a phone shows within seconds.
- A phone scans the QR code the tablet shows once the list is finished: the link
  ``tables/<pk>/sign/<token>/`` gives a live, read-only view of the list and lets its holder
  sign as one player (he picks his name, and types his PIN in PIN mode). The token is an HMAC
  of the table and its code, so the link works only while the table code does (it stops when
  the code is replaced or the evening closes) and grants no recording: it is not the code.
  Signing for somebody else from a phone is no easier than on the tablet: the link is only
  shown on the table's own tablet, a phone signs once (for one player) and every signature
  appears on the tablet at once, marked "on a phone"; wrong PINs are limited alike.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from scoring import access
from scoring.models import Membership, Signature, Table
from scoring.qr import qr_svg
from scoring.reads import live
from scoring.reads.sheet import ScoreSheet, table_sheet, tables_with_everything
from scoring.reads.signing import SigningState, is_finished, signing_state
from scoring.writes.services import Actor
from scoring.writes.signing import SigningRefused, club_sign_with_pin, sign

SESSION_PHONE = "signed_on_phone"  # {table pk: player id} what this phone signed


def _lang() -> str:
    from scoring.views.entry import _lang as lang
    return lang()


def sign_token(table: Table) -> str:
    """The phone link's secret: bound to the table and its current code."""
    return salted_hmac("skatclub.signing-link", f"{table.pk}:{table.access_code}").hexdigest()[
        :24]


def phone_url(request: HttpRequest, table: Table) -> str:
    return request.build_absolute_uri(reverse("scoring:sign-phone",
                                              args=[table.pk, sign_token(table)]))


def _full(pk: int) -> Table:
    return tables_with_everything(Table.objects.filter(pk=pk)).get()


def panel_context(request: HttpRequest, table: Table, *, phone: bool = False,
                  token: str = "", sheet: ScoreSheet | None = None,
                  is_admin: bool | None = None) -> dict[str, Any]:
    """What the signing panel shows: the state under the list, the QR code for phones (on
    the tablet, once the list may be signed), and who this phone signed as. ``table``
    fetched with tables_with_everything; ``sheet`` its sheet if the caller has it;
    ``is_admin`` whether the user is a club admin, if the caller's access check knows it."""
    if sheet is None:
        sheet = table_sheet(table, _lang(), explain=False)
    if not phone and table.signing == 0 and not is_finished(table, sheet.counted):
        # nobody ever signed and there is nothing to sign yet: no panel, and no query
        return {"table": table, "state": SigningState([], False, False, False, False)}
    state = signing_state(table, sheet.counted, sheet.totals)
    context: dict[str, Any] = {
        "table": table, "state": state, "phone": phone, "token": token, "sheet": sheet,
        "open_list": table.evening.series_length(len(sheet.players)) is None,
        "action": reverse("scoring:sign-phone", args=[table.pk, token]) if phone
        else reverse("scoring:sign-tablet", args=[table.pk])}
    if phone:
        mine = request.session.get(SESSION_PHONE, {})
        context["signed_as"] = mine.get(str(table.pk)) if isinstance(mine, dict) else None
        context["layout"] = "standard"
    elif state.finished and not state.locked:
        url = phone_url(request, table)
        context["phone_url"] = url
        context["qr"] = qr_svg(url, title=_("QR code: sign on your phone"))
    context["etag"] = phone_etag(request, table) if phone else panel_etag(request, table)
    if is_admin is None:
        member = None
        if request.user.is_authenticated:
            member = Membership.objects.filter(user=request.user,
                                               club_id=table.evening.club_id).first()
        is_admin = member is not None and member.role == Membership.Role.ADMIN
    context["is_admin"] = is_admin
    return context


def panel_etag(request: HttpRequest, table: Table) -> str:
    """The tablet panel's ETag: the table's state (its signing version among its fields),
    the language, who asks (a club admin reads one more line) and the club's PIN choice."""
    state = live.digest(live.table_state(table), _lang(), request.user.pk,
                        table.evening.club.sign_with_pin,
                        live.template_digest("scoring/signing/_panel.html"))
    return f'"signing-{table.pk}-{state}"'


def phone_etag(request: HttpRequest, table: Table) -> str:
    """The phone page's ETag: as the panel's, and what this phone signed."""
    mine = request.session.get(SESSION_PHONE, {})
    state = live.digest(live.table_state(table), _lang(), table.evening.club.sign_with_pin,
                        mine.get(str(table.pk)) if isinstance(mine, dict) else None,
                        live.template_digest("scoring/signing/_phone_live.html"))
    return f'"signing-phone-{table.pk}-{state}"'


def _pin_wait_message(seconds: int) -> str:
    return ngettext(
        "Too many wrong PINs. Please try again in %(seconds)s second.",
        "Too many wrong PINs. Please try again in %(seconds)s seconds.",
        seconds) % {"seconds": max(1, seconds)}


def _player(request: HttpRequest) -> int | None:
    raw = request.POST.get("player", "")
    return int(raw) if raw.isdecimal() and len(raw) < 12 else None


def _sign(request: HttpRequest, table: Table, actor: Actor, where: str) -> tuple[bool, str]:
    """Sign as the posted player: (done, the message for the page)."""
    player = _player(request)
    if player is None:
        return False, _("Tap your name to sign.")
    pin = request.POST.get("pin", "")[:16] if table.evening.club.sign_with_pin else None
    keys = access.pin_keys(request, table, player) if pin is not None else []
    wait, counted = access.counted(*(key for key, _limit in keys))
    if wait:
        return False, _pin_wait_message(wait)
    try:
        signature = sign(table=table, player_id=player, actor=actor, where=where, pin=pin)
    except SigningRefused as refused:
        if refused.wrong_pin:
            waits = [access.note_failure(key, limit)
                     for key, limit in access.pin_keys(request, table, player, make=True)]
            if max(waits or [0]):
                return False, _("Wrong PIN.") + " " + _pin_wait_message(max(waits))
        return False, refused.message
    if pin is not None:
        device = access.device_id(request)
        mine = access.limit_key("pin", access.address_key(request), device or "")
        if device is not None and mine in counted:  # no count, no write
            access.forget_failures(mine)
    name = next((seat.player.name for seat in table.seats.all()
                 if seat.player_id == signature.player_id), "")
    return True, _("%(name)s has signed the list.") % {"name": name}


# ---------------------------------------------------------------- the tablet

@require_POST
def tablet_sign(request: HttpRequest, pk: int) -> HttpResponse:
    """A player signs on the tablet: whoever may record at the table holds it."""
    table, actor = access.table_for(request, pk, write=True)
    table = _full(table.pk)
    done, message = _sign(request, table, actor, Signature.Where.TABLET)
    (messages.success if done else messages.error)(request, message)
    return redirect(reverse("scoring:table", args=[table.pk]) + "#signing")


@require_safe
def tablet_panel(request: HttpRequest, pk: int) -> HttpResponse:
    """The tablet's signing panel, polled: a phone's signature shows within seconds."""
    table, _actor = access.table_for(request, pk)
    etag = panel_etag(request, table)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        # the answer polls on (hx-swap="outerHTML" replaces the polling element itself)
        response = render(request, "scoring/signing/_panel.html",
                          {**panel_context(request, _full(table.pk)), "polled": True})
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


# ---------------------------------------------------------------- the phone

def _phone_table(pk: int, token: str) -> Table:
    """The table of a phone link, while its code works; else there is no such page."""
    table = Table.objects.select_related("evening__club").filter(pk=pk).first()
    if (table is None or not constant_time_compare(token, sign_token(table))
            or not table.evening.codes_valid()):
        raise Http404
    return table


def phone(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    table = _phone_table(pk, token)
    status = 200
    if request.method == "POST":
        mine = request.session.get(SESSION_PHONE, {})
        mine = dict(mine) if isinstance(mine, dict) else {}
        full = _full(table.pk)
        if str(table.pk) in mine:
            done, message = False, _(
                "This phone has signed this list already: each player signs on his own "
                "phone or on the tablet.")
        else:
            actor = Actor(None, _("phone, table %(number)d") % {"number": table.number})
            done, message = _sign(request, full, actor, Signature.Where.PHONE)
        if done:
            mine[str(table.pk)] = _player(request)
            request.session[SESSION_PHONE] = mine
            messages.success(request, message)
            return redirect(reverse("scoring:sign-phone", args=[table.pk, token]))
        messages.error(request, message)
        status = 422
    elif request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    context = panel_context(request, _full(table.pk), phone=True, token=token)
    return render(request, "scoring/signing/phone.html", context, status=status)


@require_safe
def phone_live(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    table = _phone_table(pk, token)
    etag = phone_etag(request, table)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = render(request, "scoring/signing/_phone_live.html",
                          panel_context(request, _full(table.pk), phone=True, token=token))
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


# ---------------------------------------------------------------- the club's choice

@require_POST
@login_required
def sign_mode(request: HttpRequest, slug: str) -> HttpResponse:
    """A club admin chooses how the players sign: a tap on the name (default) or the PIN."""
    club, _member = access.club_for(request, slug, admin=True)
    club_sign_with_pin(club=club, on=request.POST.get("sign_with_pin") == "on")
    messages.success(request, _("Saved."))
    return redirect(reverse("scoring:members", args=[club.slug]) + "#sign-mode")


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/signing/", sign_mode, name="sign-mode"),
    path("tables/<int:pk>/signatures/", tablet_sign, name="sign-tablet"),
    path("tables/<int:pk>/signatures/panel/", tablet_panel, name="sign-panel"),
    path("tables/<int:pk>/sign/<str:token>/", phone, name="sign-phone"),
    path("tables/<int:pk>/sign/<str:token>/live/", phone_live, name="sign-phone-live"),
]
