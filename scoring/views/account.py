"""A member's own account (issue 16): their e-mail address, their data as JSON, deleting the
account, "my results" in a club (the player on the lists linked to the account), and the
"forgot your password" mail, sent in the language of the account's club."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import access
from scoring.forms.account import DeleteAccountForm, EmailForm, PinForm
from scoring.reads.account import (
    has_linked_player,
    has_signing_pin,
    linked_player,
    memberships_of,
)
from scoring.reads.my_results import PlayerTable, player_tables
from scoring.reads.standings import season_standings
from scoring.writes import mail, onboarding, signing


@login_required
def account(request: HttpRequest) -> HttpResponse:
    user: Any = request.user
    email_form = EmailForm(request.POST if request.method == "POST" else None,
                           initial={"email": getattr(user, "email", "")})
    if request.method == "POST" and email_form.is_valid():
        user.email = email_form.cleaned_data["email"]
        user.save(update_fields=["email"])
        messages.success(request, _("Your e-mail address was saved."))
        return redirect("scoring:account")
    return _account_page(request, email_form=email_form)


def _account_page(request: HttpRequest, *, email_form: EmailForm | None = None,
                  pin_form: PinForm | None = None, status: int = 200) -> HttpResponse:
    user: Any = request.user
    return render(request, "scoring/account/account.html", {
        "email_form": email_form or EmailForm(initial={"email": getattr(user, "email", "")}),
        "delete_form": DeleteAccountForm(user=user),
        "pin_form": pin_form or PinForm(),
        "has_pin": has_signing_pin(user),
        "has_player": has_linked_player(user),
        "memberships": memberships_of(user),
    }, status=status)


@require_POST
@login_required
def account_pin(request: HttpRequest) -> HttpResponse:
    """Set, change or remove the PIN for signing lists (issue 23)."""
    if request.POST.get("action") == "remove":
        signing.pin_remove(user=request.user)
        messages.success(request, _("Your PIN was removed."))
        return redirect(reverse("scoring:account") + "#pin")
    form = PinForm(request.POST)
    if not form.is_valid():
        return _account_page(request, pin_form=form, status=422)
    signing.pin_set(user=request.user, pin=form.cleaned_data["pin"])
    messages.success(request, _("Your PIN for signing lists was saved."))
    return redirect(reverse("scoring:account") + "#pin")


@require_safe
@login_required
def account_data(request: HttpRequest) -> HttpResponse:
    data = onboarding.account_data(request.user)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="skatclub-{request.user.pk}.json"')
    return response


@require_POST
@login_required
def account_delete(request: HttpRequest) -> HttpResponse:
    user: Any = request.user
    form = DeleteAccountForm(request.POST, user=user)
    if form.is_valid():
        try:
            onboarding.account_delete(user)
        except onboarding.Refused as err:
            messages.error(request, err.message)
        else:
            logout(request)
            messages.success(request, _("Your account was deleted."))
            return redirect("scoring:home")
    else:
        for error in form.errors.get("password", []):
            messages.error(request, str(error))
    return redirect("scoring:account")


@require_safe
@login_required
def my_results(request: HttpRequest, slug: str) -> HttpResponse:
    """The signed-in member's results in this club: every season's row of the linked player,
    and every evening they sat at a table."""
    club, _member = access.club_for(request, slug)
    user: Any = request.user
    player = linked_player(club, user)
    seasons: list[dict[str, Any]] = []
    tables: list[PlayerTable] = []
    if player is not None:
        for season in club.seasons.all():
            row = season_standings(season).row_for(player)
            if row is not None:
                seasons.append({"season": season, "row": row})
        tables = player_tables(player)
    return render(request, "scoring/account/my_results.html", {
        "club": club, "player": player, "seasons": seasons, "tables": tables,
        "seeger_fabian": any(t.seeger_fabian is not None for t in tables),
    })


class PasswordResetView(auth_views.PasswordResetView):
    """Django's "forgot your password" page; the mail goes out in the language of the
    account's club, through the same sender as every other mail of the site (a mail server
    that fails is logged to skatclub.mail; the page says the same either way, so that it
    tells nobody which addresses have accounts). Mails are limited per e-mail address typed,
    per account and per client address (PASSWORD_RESET_*); the link starts with SITE_URL,
    never with the request's Host."""

    def form_valid(self, form: Any) -> HttpResponse:
        email = form.cleaned_data["email"]
        if _reset_allowed(self.request, email):
            window = settings.PASSWORD_RESET_WINDOW
            for user in form.get_users(email):
                key = access.limit_key("reset-account", str(user.pk))
                if access.count_attempt(key, window) > settings.PASSWORD_RESET_MAILS_PER_ACCOUNT:
                    continue
                onboarding.password_reset_send(
                    user, lambda uid, token: mail.site_url(reverse(
                        "password_reset_confirm", kwargs={"uidb64": uid, "token": token})),
                    onboarding.language_of(user, get_language()))
        # the same answer whether a mail went out or not: it tells nobody which addresses
        # have accounts, nor that a limit was reached
        return HttpResponseRedirect(self.get_success_url())


def _reset_allowed(request: HttpRequest, email: str) -> bool:
    """Counts a request for a reset mail per client address and per e-mail address typed
    (normalised: NFKC, case-folded); False once either is past its allowance in the window,
    then no mail goes out (a mail bomb at one address, or one client at many)."""
    window = settings.PASSWORD_RESET_WINDOW
    typed = unicodedata.normalize("NFKC", email).strip().casefold()
    by_client = access.count_attempt(
        access.limit_key("reset-client", access.address_key(request)), window)
    by_email = access.count_attempt(access.limit_key("reset-email", typed), window)
    return (by_client <= settings.PASSWORD_RESET_MAILS_PER_CLIENT
            and by_email <= settings.PASSWORD_RESET_MAILS_PER_EMAIL)


urlpatterns: list[URLPattern] = [
    path("account/pin/", account_pin, name="account-pin"),
    path("account/", account, name="account"),
    path("account/data.json", account_data, name="account-data"),
    path("account/delete/", account_delete, name="account-delete"),
    path("clubs/<slug:slug>/me/", my_results, name="my-results"),
]
