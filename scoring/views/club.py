"""Club pages, evenings and tables, players, members, and the table codes.

Every object is fetched through scoring.access: another club's objects answer 404, a
viewer who tries to write gets 403. Table codes let a device record at one table without
an account (anchors-mission.md §5.2: no Wi-Fi set-up, nobody signs up at the table)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, URLPattern, path, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from scoring import access
from scoring.forms.club import (
    MAX_TABLES,
    CodeForm,
    EveningForm,
    MemberAddForm,
    PlayerForm,
    RoleForm,
    TableForm,
    normalize_code,
    table_formset,
)
from scoring.forms.members import DepartedNamesForm, InviteForm, LinkForm
from scoring.forms.rule_profile import RuleProfileForm
from scoring.models import Club, Evening, Membership, Player, RuleProfile, Table
from scoring.presets import PRESETS
from scoring.qr import qr_svg
from scoring.reads.club import (
    club_evenings,
    club_memberships,
    club_players,
    membership_of,
    names_seated,
    open_invitations,
    rule_profile,
)
from scoring.reads.evening import latest_series, seated_tables
from scoring.reads.rule_words import describe
from scoring.views import people
from scoring.writes import mail, onboarding, services
from scoring.writes.players import player_create as new_player
from scoring.writes.players import seat_players

DEFAULT_TABLES = 1


def _url(name: str, *args: Any, fallback: str) -> str:
    """A URL of a page another feature module provides, or ``fallback`` while it is missing."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return fallback


def evening_url(evening: Evening) -> str:
    return _url("scoring:evening", evening.pk,
                fallback=reverse("scoring:club", args=[evening.club.slug]))


def table_url(table: Table) -> str:
    return _url("scoring:table", table.pk, fallback=reverse("scoring:home"))


# ---------------------------------------------------------------- club page

@require_safe
@login_required
def club(request: HttpRequest, slug: str) -> HttpResponse:
    the_club, member = access.club_for(request, slug)
    evenings = club_evenings(the_club)
    players = club_players(the_club)
    return render(request, "scoring/club/club.html", {
        "club": the_club, "member": member, "evenings": evenings,
        "members_players": [p for p in players if not p.guest],
        "guests": [p for p in players if p.guest],
        "profiles": [(p, describe(p)) for p in the_club.rule_profiles.all()],
        "seasons": the_club.seasons.all(),
        "tournaments": the_club.tournaments.all(),
        "can_score": member.can_score, "is_admin": member.role == Membership.Role.ADMIN,
        "player_form": PlayerForm(club=the_club),
    })


@login_required
def player_create(request: HttpRequest, slug: str) -> HttpResponse:
    the_club, _member = access.club_for(request, slug, write=True)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    form = PlayerForm(request.POST, club=the_club)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()},
                                           require_https=request.is_secure()):
        back = reverse("scoring:club", args=[the_club.slug])
    if form.is_valid():
        try:
            player = new_player(club=the_club, name=form.cleaned_data["name"],
                                 guest=form.cleaned_data["guest"])
        except IntegrityError:  # created by someone else a moment ago
            messages.error(request, _("%(club)s already has a player named “%(name)s”.")
                           % {"club": the_club.name, "name": form.cleaned_data["name"]})
        else:
            messages.success(request, _("%(name)s was added.") % {"name": player.name})
    else:
        for errors in form.errors.values():
            for error in errors:  # an ErrorList gives its messages as text
                messages.error(request, str(error))
    return HttpResponseRedirect(back)


# ---------------------------------------------------------------- rule profiles

@login_required
def profile_create(request: HttpRequest, slug: str) -> HttpResponse:
    the_club, _member = access.club_for(request, slug, admin=True)
    return _profile_form(request, the_club, None)


@login_required
def profile_edit(request: HttpRequest, pk: int) -> HttpResponse:
    profile = rule_profile(pk)
    if profile is None:
        raise Http404
    # Another club's profile does not exist (404); in one's own club only admins edit (403).
    the_club, _member = access.club_for(request, profile.club.slug, admin=True)
    return _profile_form(request, the_club, profile)


def _profile_form(request: HttpRequest, club: Club, profile: RuleProfile | None) -> HttpResponse:
    if request.method == "POST":
        form = RuleProfileForm(request.POST, club=club, instance=profile)
        if form.is_valid():
            try:
                with transaction.atomic():
                    saved = form.save()
            except IntegrityError:  # the same name, saved by someone else a moment ago
                form.add_error("name", _("The club already has a rule profile named "
                                         "“%(name)s”.") % {"name": form.cleaned_data["name"]})
            else:
                messages.success(request, _("The rule profile “%(name)s” was saved.")
                                 % {"name": saved.name})
                return redirect("scoring:club", slug=club.slug)
    elif request.method in ("GET", "HEAD"):
        form = RuleProfileForm(club=club, instance=profile if profile is not None else
                               preset_start(club, request.GET.get("preset", "")))
    else:
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    return render(request, "scoring/club/profile_form.html", {
        "club": club, "profile": profile, "form": form,
        "words": describe(profile) if profile is not None else "",
        "presets": [(key, _(p["name"])) for key, p in PRESETS.items()] if profile is None
        else [],
    })


def preset_start(club: Club, key: str) -> RuleProfile | None:
    """A new profile's form filled from a preset (issue 24): its rules, named after it."""
    preset = PRESETS.get(key)
    if preset is None:
        return None
    return RuleProfile(club=club, name=_(preset["name"]), rules=preset["rules"],
                       options=preset["options"], scoring=preset["scoring"])


# ---------------------------------------------------------------- evenings and tables

def _table_count(request: HttpRequest) -> int:
    try:
        count = int(request.GET.get("tables", DEFAULT_TABLES))
    except ValueError:
        count = DEFAULT_TABLES
    return max(0, min(count, MAX_TABLES))


@login_required
def evening_create(request: HttpRequest, slug: str) -> HttpResponse:
    the_club, _member = access.club_for(request, slug, write=True)
    form_kwargs = {"club": the_club, "allow_empty": True}
    if request.method == "POST" and "add_table" in request.POST:
        # "One more table" without script: the same form, everything typed kept, one more
        # table, and no errors yet (nothing was meant to be saved).
        form, tables = _evening_form_plus_one_table(request, the_club, form_kwargs)
    elif request.method == "POST":
        form = EveningForm(request.POST, club=the_club)
        tables = table_formset()(request.POST, prefix="tables", form_kwargs=form_kwargs)
        if form.is_valid() and tables.is_valid():
            data = form.cleaned_data
            try:
                with transaction.atomic():
                    evening = services.evening_create(
                        club=the_club, date=data["date"], profile=data["profile"],
                        name=data["name"], stake=data["stake"],
                        currency=data["currency"] or None, season=data["season"],
                        series_rounds=data["series_rounds"])
                    for table_form in tables.forms:
                        entries = table_form.cleaned_data.get("entries")
                        if entries:
                            services.table_create(
                                evening=evening,
                                players=seat_players(club=the_club, entries=entries),
                                first_dealer=table_form.cleaned_data["first_dealer"])
            except ValidationError as err:
                for message in err.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, _("The evening was created."))
                return redirect(evening_url(evening))
    else:
        form = EveningForm(club=the_club)
        tables = table_formset(_table_count(request))(prefix="tables", form_kwargs=form_kwargs)
    return render(request, "scoring/club/evening_form.html", {
        "club": the_club, "form": form, "tables": tables, "max_tables": MAX_TABLES,
    })


def _typed(form: Any) -> dict[str, Any]:
    """What was typed into a bound form, as initial values of an unbound one."""
    return {name: form[name].data for name in form.fields}


def _evening_form_plus_one_table(request: HttpRequest, club: Club,
                                 form_kwargs: dict[str, Any]) -> tuple[EveningForm, Any]:
    bound = table_formset()(request.POST, prefix="tables", form_kwargs=form_kwargs)
    count = min(bound.total_form_count(), MAX_TABLES)
    typed = [_typed(bound.forms[i]) for i in range(count)]
    tables = table_formset(min(count + 1, MAX_TABLES))(
        prefix="tables", typed=typed, form_kwargs=form_kwargs)
    form = EveningForm(initial=_typed(EveningForm(request.POST, club=club)), club=club)
    return form, tables


@login_required
def table_create(request: HttpRequest, pk: int) -> HttpResponse:
    evening, _member = access.evening_for(request, pk, write=True)
    the_club = evening.club
    if request.method == "POST":
        form = TableForm(request.POST, club=the_club)
        if evening.closed:
            form.add_error(None, _("This evening is closed; no table can be added."))
        # A table added later joins the evening's latest series.
        series = latest_series(evening)
        if form.is_valid():
            seated = names_seated(evening, series)
            clash = [e for e in form.cleaned_data["entries"]
                     if (e.name if isinstance(e, Player) else e).casefold() in seated]
            if clash:
                first = clash[0]
                form.add_error(None, _("%(name)s already sits at another table tonight.")
                               % {"name": first.name if isinstance(first, Player) else first})
            else:
                try:
                    with transaction.atomic():
                        table = services.table_create(
                            evening=evening,
                            players=seat_players(
                                club=the_club, entries=form.cleaned_data["entries"]),
                            first_dealer=form.cleaned_data["first_dealer"], series=series)
                except ValidationError as err:
                    for message in err.messages:
                        form.add_error(None, message)
                else:
                    messages.success(request, _("Table %(number)d was added.")
                                     % {"number": table.number})
                    return redirect(evening_url(evening))
    else:
        form = TableForm(club=the_club)
    return render(request, "scoring/club/table_form.html", {
        "club": the_club, "evening": evening, "form": form,
        "evening_url": evening_url(evening),
    })


# ---------------------------------------------------------------- members

@login_required
def members(request: HttpRequest, slug: str) -> HttpResponse:
    the_club, me = access.club_for(request, slug, admin=True)
    add_form = MemberAddForm()
    if request.method == "POST":
        if request.POST.get("action") == "role":
            role_form = RoleForm(request.POST)
            if role_form.is_valid():
                membership = membership_of(the_club, role_form.cleaned_data["membership"])
                if membership is None:
                    raise Http404
                try:
                    changed = onboarding.membership_role(
                        membership, role_form.cleaned_data["role"], by=request.user)
                except onboarding.Refused as err:
                    messages.error(request, err.message)
                else:
                    messages.success(request, _("%(user)s is now: %(role)s.") % {
                        "user": changed.user.get_username(),
                        "role": changed.get_role_display()})
                    return redirect("scoring:members", slug=the_club.slug)
            else:
                messages.error(request, _("Choose a role."))
        else:
            add_form = MemberAddForm(request.POST)
            if add_form.is_valid():
                data = add_form.cleaned_data
                try:
                    user = onboarding.member_create(
                        club=the_club, username=data["username"], password=data["password"],
                        role=data["role"])
                except onboarding.Refused as err:
                    add_form.add_error("username", err.message)
                else:
                    messages.success(request, _("%(user)s can now sign in.")
                                     % {"user": user.get_username()})
                    return redirect("scoring:members", slug=the_club.slug)
    memberships = club_memberships(the_club)
    all_players = club_players(the_club)
    players = {p.user_id: p for p in all_players if p.user_id is not None}
    now = timezone.now()
    invitations = [
        {"invitation": i, "url": (url := mail.site_url(
            reverse("scoring:invitation", args=[i.token]))),
         "qr": qr_svg(url, title=_("QR code of the invitation"))}
        for i in open_invitations(the_club, now)]
    return render(request, "scoring/club/members.html", {
        "club": the_club, "me": me, "add_form": add_form, "roles": Membership.Role.choices,
        "memberships": [(m, LinkForm(club=the_club, players=all_players,
                                     auto_id=f"m{m.pk}-%s", initial={
            "player": players[m.user_id].pk if m.user_id in players else None}))
            for m in memberships],
        "invite_form": InviteForm(), "invitations": invitations,
        "departed_form": DepartedNamesForm(initial={"departed_names": the_club.departed_names}),
        **people.desk_context(request, the_club),
    })


# ---------------------------------------------------------------- table codes

def _evening_state(request: HttpRequest, pk: int, close: bool) -> HttpResponse:
    """Close or reopen an evening (club admins only), written to the audit log."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    evening, _member = access.evening_for(request, pk, admin=True)
    reason = request.POST.get("reason", "")[:500]
    actor = services.Actor(request.user, request.user.get_username())
    try:
        if close:
            services.evening_close(evening=evening, actor=actor, reason=reason)
            messages.success(request, _("The evening is closed."))
        else:
            services.evening_reopen(evening=evening, actor=actor, reason=reason)
            messages.success(request, _("The evening is open again."))
    except ValidationError as err:
        messages.error(request, " ".join(err.messages))
    return redirect(evening_url(evening))


@login_required
def evening_close(request: HttpRequest, pk: int) -> HttpResponse:
    return _evening_state(request, pk, close=True)


@login_required
def evening_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    return _evening_state(request, pk, close=False)


def format_code(code: str) -> str:
    """ABCDEFGH → ABCD-EFGH: easier to read out across a table."""
    return f"{code[:4]}-{code[4:]}" if len(code) == 8 else code


@require_safe
@login_required
def codes(request: HttpRequest, pk: int) -> HttpResponse:
    evening, _member = access.evening_for(request, pk, write=True)
    return render(request, "scoring/club/codes.html", codes_context(
        request, evening, seated_tables(evening), evening_url(evening)))


def codes_context(request: HttpRequest, evening: Evening, tables: list[Table],
                  back: str) -> dict[str, object]:
    """The table cards of ``tables`` (of ``evening``, with their players: reads/evening.py's
    ``seated_tables``): code, QR code, players, validity; a league's match day prints its own
    tables' cards with it (views/league_day.py)."""
    now = timezone.now()
    cards = []
    for table in tables:
        url = request.build_absolute_uri(reverse("scoring:code", args=[table.access_code]))
        cards.append({
            "table": table, "code": format_code(table.access_code), "url": url,
            "players": [seat.player.name for seat in table.seats.all()],
            "qr": qr_svg(url, title=_("QR code for table %(number)d") % {
                "number": table.number}),
        })
    return {
        "club": evening.club, "evening": evening, "cards": cards,
        "valid_now": evening.codes_valid(now),
        "not_yet": not evening.closed and now < evening.codes_valid_until()
        and not evening.codes_valid(now),
        "valid_until": evening.codes_valid_until(),
        "evening_url": back,
        "entry_url": request.build_absolute_uri(reverse("scoring:code-entry")),
    }


def code_limit(free: int) -> access.Limit:
    return access.Limit(free, settings.TABLE_CODE_DELAY, settings.TABLE_CODE_MAX_DELAY,
                        settings.TABLE_CODE_FAILURE_WINDOW)


def _code_keys(request: HttpRequest, *, make: bool = False) -> list[tuple[str, access.Limit]]:
    """The counts a wrong code goes to: this device's at this address and, against a device
    that drops its cookie for every guess, the address's with a larger allowance. Another
    device at the same address (a club behind one proxy) has its own count. A device without
    a session has no count of its own yet (``make``: give it one, for its first failure)."""
    address = access.address_key(request)
    keys: list[tuple[str, access.Limit]] = []
    device = access.device_id(request, make=make)
    if device is not None:
        keys.append((access.limit_key("code", address, device),
                     code_limit(settings.TABLE_CODE_FREE_FAILURES)))
    if settings.TABLE_CODE_FREE_FAILURES_PER_ADDRESS:
        keys.append((access.limit_key("code-address", address),
                     code_limit(settings.TABLE_CODE_FREE_FAILURES_PER_ADDRESS)))
    return keys


def code_wait_message(seconds: int) -> str:
    if seconds < 120:
        return ngettext(
            "Too many wrong codes from this device. Please try again in %(seconds)s second.",
            "Too many wrong codes from this device. Please try again in %(seconds)s seconds.",
            seconds) % {"seconds": max(1, seconds)}
    minutes = (seconds + 59) // 60
    return ngettext(
        "Too many wrong codes from this device. Please try again in %(minutes)s minute.",
        "Too many wrong codes from this device. Please try again in %(minutes)s minutes.",
        minutes) % {"minutes": minutes}


def _use_code(request: HttpRequest, code: str, form: CodeForm | None = None) -> HttpResponse:
    """Open the table of ``code`` on this device; a wrong code counts against this device
    and address (a running wait holds even the right code)."""
    wait, counted = access.counted(*(key for key, _limit in _code_keys(request)))
    if wait:
        # even the right code waits, or guessing would go on: it is not looked up
        response = render(request, "scoring/club/code_entry.html", {
            "form": form or CodeForm(initial={"code": code}),
            "wait_message": code_wait_message(wait)}, status=429)
        response["Retry-After"] = str(wait)
        return response
    table = access.table_by_code(code)
    if table is None:
        for key, limit in _code_keys(request, make=True):
            access.note_failure(key, limit)
        return render(request, "scoring/club/code_entry.html", {
            "form": form or CodeForm(initial={"code": code}), "unknown": True}, status=404)
    device = access.device_id(request)
    mine = access.limit_key("code", access.address_key(request), device or "")
    if device is not None and mine in counted:  # no count, no write
        access.forget_failures(mine)
    access.grant(request, table)
    return redirect(table_url(table))


def code_entry(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = CodeForm(request.POST)
        if form.is_valid():
            return _use_code(request, form.cleaned_data["code"], form)
    else:
        form = CodeForm()
    return render(request, "scoring/club/code_entry.html", {"form": form})


def _opened_here(request: HttpRequest) -> bool:
    """Whether this GET is a person opening the address: a top-level navigation that no
    other site started (a scanned QR code or a typed address: Sec-Fetch-Site "none"; a link
    of this site). A client that sends no Fetch metadata (an old browser, a script) counts
    as one. An image or frame on another site's page is not."""
    site = request.headers.get("Sec-Fetch-Site")
    dest = request.headers.get("Sec-Fetch-Dest")
    return site in (None, "none", "same-origin", "same-site") and dest in (None, "document")


def code(request: HttpRequest, code: str) -> HttpResponse:
    """The address a table's QR code holds: opens the table's entry screen on this device,
    and a wrong code counts as the form's does. Asked for by another site's page (an image,
    a link from elsewhere) it neither opens nor counts: it shows the entry form with the
    code filled in, the same answer for a right and a wrong code, and the person opens it
    with one tap (the form's POST). So no page elsewhere can burn a club address's allowance
    through its visitors' browsers, and claiming to come from elsewhere guesses nothing."""
    code = normalize_code(code)
    if not _opened_here(request):
        return render(request, "scoring/club/code_entry.html",
                      {"form": CodeForm(initial={"code": code})})
    return _use_code(request, code)


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/", club, name="club"),
    path("clubs/<slug:slug>/evenings/new/", evening_create, name="evening-create"),
    path("clubs/<slug:slug>/players/new/", player_create, name="player-create"),
    path("clubs/<slug:slug>/members/", members, name="members"),
    path("clubs/<slug:slug>/profiles/new/", profile_create, name="profile-create"),
    path("profiles/<int:pk>/", profile_edit, name="profile-edit"),
    path("evenings/<int:pk>/tables/new/", table_create, name="table-create"),
    path("evenings/<int:pk>/codes/", codes, name="codes"),
    path("evenings/<int:pk>/close/", evening_close, name="evening-close"),
    path("evenings/<int:pk>/reopen/", evening_reopen, name="evening-reopen"),
    path("t/", code_entry, name="code-entry"),
    path("t/<str:code>/", code, name="code"),
]
