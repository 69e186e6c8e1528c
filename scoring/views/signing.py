"""The players sign a finished list (issues 23 and 35): on the tablet, or on their own phone.

- The tablet (the table screen, for whoever may record there: a table code or a scorer or
  admin of the club) shows each player's total (the points that count: Seeger-Fabian where
  they count, the game points beside) and a button with his name (or, when the club chooses,
  a field for his PIN); ``tables/<pk>/signatures/``. Its panel is polled (``.../panel/``) so
  that a signature given on a phone shows within seconds. A viewer of the club reads the
  same panel without anything that signs: no buttons, no link, no code.
- For a phone, the tablet shows the table's phone link (a QR code) and, for each player who
  has not signed, his one-time code ("Code for the phone": a QR code of the link with the
  code in it, and its six digits to type). The link ``tables/<pk>/sign/<token>/`` gives a
  live, read-only view of the list; its token is an HMAC of the table and its code, so it
  works only while the table code does and grants no recording. It signs nobody by itself:
  a phone signs as a person, signed in with the account linked to his seat's player, or with
  his one-time code (writes/signing.py: bound to the table, the player, the list's version
  and the table code; used up by the signature, dead when the list changes). One signature
  per player per list, whatever the cookies: the database's constraint, not the session.
- Every signature keeps who vouched for it: the proof, the account, the device (a digest of
  its session) and the address; the audit log shows them. Wrong PINs count per person across
  every table, per address and per device; wrong codes per table, address and device
  (access.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from scoring import access
from scoring.models import Membership, Player, Signature, Table
from scoring.qr import qr_svg
from scoring.reads import live
from scoring.reads.account import membership_in
from scoring.reads.sheet import ScoreSheet, table_in_full, table_sheet
from scoring.reads.signing import SigningState, is_finished, signing_state, table_with_club
from scoring.writes.services import Actor
from scoring.writes.signing import (
    Signer,
    SigningRefused,
    clean_code,
    club_sign_with_pin,
    pin_wait_message,
    player_codes,
    sign,
    sign_with_code,
)


def _lang() -> str:
    from scoring.views.entry import _lang as lang
    return lang()


def sign_token(table: Table) -> str:
    """The phone link's secret: bound to the table and its current code."""
    return salted_hmac("skatclub.signing-link", f"{table.pk}:{table.access_code}").hexdigest()[
        :24]


def phone_url(request: HttpRequest, table: Table, code: str = "") -> str:
    url = reverse("scoring:sign-phone", args=[table.pk, sign_token(table)])
    return request.build_absolute_uri(url + (f"?{urlencode({'code': code})}" if code else ""))


def _full(pk: int) -> Table:
    return table_in_full(pk)


def _spaced(code: str) -> str:
    """A code as the tablet shows it: "123 456"."""
    return f"{code[:3]} {code[3:]}"


def table_for_signing(request: HttpRequest, pk: int) -> tuple[Table, Actor, bool]:
    """The table, the actor, and whether this session may record at it (a table-code grant,
    or a scorer or admin of the club, while the evening is open): only such a session is
    shown anything that signs."""
    try:
        table, actor = access.table_for(request, pk, write=True)
        return table, actor, True
    except PermissionDenied:
        table, actor = access.table_for(request, pk)
        return table, actor, False


def panel_context(request: HttpRequest, table: Table, *, writable: bool,
                  phone: bool = False, token: str = "", sheet: ScoreSheet | None = None,
                  is_admin: bool | None = None) -> dict[str, Any]:
    """What the signing panel shows: the state under the list; for a session that may
    record at the table (``writable``) the buttons, the phone link's QR code and each
    player's one-time code, once the list may be signed. ``table`` fetched with
    tables_with_everything; ``sheet`` its sheet if the caller has it; ``is_admin`` whether
    the user is a club admin, if the caller's access check knows it. On a phone
    (``phone``) the panel signs nothing: the phone page's own forms do."""
    if sheet is None:
        sheet = table_sheet(table, _lang(), explain=False)
    if not phone and table.signing == 0 and not is_finished(table, sheet.counted):
        # nobody ever signed and there is nothing to sign yet: no panel, and no query
        return {"table": table, "state": SigningState([], False, False, False, False),
                "rows": []}
    state = signing_state(table, sheet.counted, sheet.totals, sheet.seeger_fabian_totals)
    tablet = writable and not phone
    context: dict[str, Any] = {
        "table": table, "state": state, "phone": phone, "token": token, "sheet": sheet,
        "writable": tablet,
        "open_list": table.evening.series_length(len(sheet.players)) is None,
        "action": reverse("scoring:sign-tablet", args=[table.pk])}
    codes: dict[int, str] = {}
    if tablet and state.finished and not state.locked:
        url = phone_url(request, table)
        context["phone_url"] = url
        context["qr"] = qr_svg(url, title=_("QR code: sign on your phone"))
        codes = player_codes(table, state.player_ids)
    rows = []
    for line in state.lines:
        code = codes.get(line.player_id) if not line.signed else None
        if code is not None and state.with_pin and not line.has_account:
            code = None  # in PIN mode a code signs only with the player's PIN
        row: dict[str, Any] = {"line": line}
        if code is not None:
            link = phone_url(request, table, code)
            row.update(code=_spaced(code), code_url=link, code_qr=qr_svg(
                link, title=_("QR code: %(name)s signs on his phone") % {"name": line.name}))
        rows.append(row)
    context["rows"] = rows
    context["etag"] = phone_etag(table) if phone else panel_etag(request, table, tablet)
    if is_admin is None:
        member = None
        if tablet and request.user.is_authenticated:
            member = membership_in(request.user, table.evening.club_id)
        is_admin = member is not None and member.role == Membership.Role.ADMIN
    context["is_admin"] = is_admin
    return context


def panel_etag(request: HttpRequest, table: Table, writable: bool) -> str:
    """The tablet panel's ETag: the table's state (its signing version, its deals' version
    and its code among its fields), the language, who asks (a club admin reads one more
    line; a viewer sees nothing that signs) and the club's PIN choice."""
    state = live.digest(live.table_state(table), _lang(), request.user.pk, writable,
                        table.evening.club.sign_with_pin,
                        live.template_digest("scoring/signing/_panel.html"))
    return f'"signing-{table.pk}-{state}"'


def phone_etag(table: Table) -> str:
    """The phone page's live part's ETag: as the panel's; it is the same for every phone
    (it signs nothing: the page's forms stand outside it)."""
    state = live.digest(live.table_state(table), _lang(), table.evening.club.sign_with_pin,
                        live.template_digest("scoring/signing/_phone_live.html"),
                        live.template_digest("scoring/signing/_panel.html"))
    return f'"signing-phone-{table.pk}-{state}"'


def _player(request: HttpRequest) -> int | None:
    raw = request.POST.get("player", "")
    return int(raw) if raw.isdecimal() and len(raw) < 12 else None


def _signer(request: HttpRequest, proof: str) -> Signer:
    return Signer(proof, request.user if request.user.is_authenticated else None,
                  access.device_digest(request, make=True), access.address_key(request))


def _pin_wait(request: HttpRequest) -> Callable[[Player], int]:
    """How long the player's PIN waits (his counts, the address's, this device's)."""
    return lambda player: access.waiting(*(key for key, _limit in
                                           access.pin_keys(request, player)))


def _refused(request: HttpRequest, refused: SigningRefused) -> str:
    """Counts a wrong PIN or code where it counts; the message for the page."""
    if refused.wrong_pin and refused.player is not None:
        waits = [access.note_failure(key, limit)
                 for key, limit in access.pin_keys(request, refused.player, make=True)]
        if max(waits or [0]):
            return refused.message + " " + pin_wait_message(max(waits))
    return refused.message


def _signed(table: Table, signature: Signature) -> str:
    name = next((seat.player.name for seat in table.seats.all()
                 if seat.player_id == signature.player_id), "")
    return _("%(name)s has signed the list.") % {"name": name}


def _sign(request: HttpRequest, table: Table, actor: Actor, where: str) -> tuple[bool, str]:
    """The tablet: sign as the posted player (a tap, or his PIN): (done, the message)."""
    player = _player(request)
    if player is None:
        return False, _("Tap your name to sign.")
    pin = request.POST.get("pin", "")[:16] if table.evening.club.sign_with_pin else None
    proof = Signature.Proof.PIN if pin is not None else Signature.Proof.TAP
    try:
        signature = sign(table=table, player_id=player, actor=actor, where=where, pin=pin,
                         signer=_signer(request, proof), pin_wait=_pin_wait(request))
    except SigningRefused as refused:
        return False, _refused(request, refused)
    return True, _signed(table, signature)


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
    """The tablet's signing panel, polled: a phone's signature shows within seconds. A
    viewer reads it too, without anything that signs."""
    table, actor, writable = table_for_signing(request, pk)
    etag = panel_etag(request, table, writable)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        # the answer polls on (hx-swap="outerHTML" replaces the polling element itself)
        response = render(request, "scoring/signing/_panel.html", {
            **panel_context(request, _full(table.pk), writable=writable,
                            is_admin=actor.admin), "polled": True})
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


# ---------------------------------------------------------------- the phone

def _phone_table(pk: int, token: str) -> Table:
    """The table of a phone link, while its code works; else there is no such page."""
    table = table_with_club(pk)
    if (table is None or not constant_time_compare(token, sign_token(table))
            or not table.evening.codes_valid()):
        raise Http404
    return table


def _own_seat(request: HttpRequest, table: Table) -> Player | None:
    """The seated player whose account is the signed-in one (none: not signed in, or no
    player of this table is his)."""
    if not request.user.is_authenticated:
        return None
    return next((seat.player for seat in table.seats.all()
                 if seat.player.user_id == request.user.pk), None)


def _phone_sign(request: HttpRequest, table: Table) -> tuple[bool, str]:
    """A phone signs as a person: with the signed-in account linked to a seat's player, or
    with a one-time code from the tablet (and, in PIN mode, the player's PIN)."""
    if request.POST.get("how") == "account":
        own = _own_seat(request, table)
        if own is None:
            return False, _("Your account is not linked to a player of this table: sign "
                            "with the code the tablet shows you.")
        actor = Actor(request.user, request.user.get_username())
        try:
            signature = sign(table=table, player_id=own.pk, actor=actor,
                             where=Signature.Where.PHONE,
                             signer=_signer(request, Signature.Proof.ACCOUNT))
        except SigningRefused as refused:
            return False, refused.message
        return True, _signed(table, signature)
    code = clean_code(request.POST.get("code", ""))
    if not code:
        return False, _("Type the code the tablet shows you.")
    keys = access.code_keys(request, table)
    wait = access.waiting(*(key for key, _limit in keys))
    if wait:
        # even the right code waits, or guessing would go on: it is not compared
        return False, ngettext(
            "Too many wrong codes. Please try again in %(seconds)s second.",
            "Too many wrong codes. Please try again in %(seconds)s seconds.",
            wait) % {"seconds": wait}
    label = (request.user.get_username() if request.user.is_authenticated
             else _("phone, table %(number)d") % {"number": table.number})
    actor = Actor(request.user, label)
    pin = request.POST.get("pin", "")[:16] if table.evening.club.sign_with_pin else None
    try:
        signature = sign_with_code(table=table, code=code, actor=actor,
                                   signer=_signer(request, Signature.Proof.CODE), pin=pin,
                                   pin_wait=_pin_wait(request))
    except SigningRefused as refused:
        if refused.wrong_code:
            for key, limit in access.code_keys(request, table, make=True):
                access.note_failure(key, limit)
        return False, _refused(request, refused)
    return True, _signed(table, signature)


def phone_context(request: HttpRequest, table: Table, token: str, code: str,
                  ) -> dict[str, Any]:
    """The phone page: the live list (read-only) and the forms that sign as a person."""
    context = panel_context(request, table, writable=False, phone=True, token=token)
    state: SigningState = context["state"]
    own = _own_seat(request, table)
    own_line = next((line for line in state.lines
                     if own is not None and line.player_id == own.pk), None)
    context.update(
        own=own_line, code=clean_code(code)[:8],
        may_sign=state.finished and not state.locked and bool(state.waiting),
        action=reverse("scoring:sign-phone", args=[table.pk, token]),
        login_url=reverse("login") + "?" + urlencode({"next": request.path}))
    return context


def phone(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    table = _phone_table(pk, token)
    status = 200
    code = request.GET.get("code", "")
    if request.method == "POST":
        full = _full(table.pk)
        done, message = _phone_sign(request, full)
        if done:
            messages.success(request, message)
            return redirect(reverse("scoring:sign-phone", args=[table.pk, token]))
        messages.error(request, message)
        status = 422
        code = request.POST.get("code", "")
    elif request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    context = phone_context(request, _full(table.pk), token, code)
    return render(request, "scoring/signing/phone.html", context, status=status)


@require_safe
def phone_live(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    table = _phone_table(pk, token)
    etag = phone_etag(table)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = render(request, "scoring/signing/_phone_live.html",
                          panel_context(request, _full(table.pk), writable=False, phone=True,
                                        token=token))
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
