"""Online self-registration for a tournament (issue 24, item 4).

- ``/signup/<key>/``: the public page the organiser shares (its key is unguessable, like the
  board's): anyone registers there with name, e-mail, home club (and category, team, tandem
  as the tournament offers them), without an account. It exists only while the organiser has
  online registration switched on (404 otherwise); it says so when registration has closed
  or is fully booked. Registrations are counted per client address (an IPv6 client's /64)
  and per e-mail address in the database (scoring.access.count_attempt, as the registration
  of clubs): past either allowance the page answers 429 and nothing is held or sent.
- ``/signup/confirm/<token>/``: the link in the mail. Opening it (GET) shows what is
  confirmed and a button; the POST confirms (a mail scanner's GET changes nothing). The
  player becomes an entrant with the next start number, registered online. Once confirmed,
  the same link leads to the player's "Mein Platz" page (views/my_seat.py): his table and
  seat after each draw.
- ``/tournaments/<pk>/signup/``: the organiser's settings (club admins; other members 403,
  other clubs 404, anonymous visitors the sign-in page); ``…/signup/<signup>/drop/`` drops
  an unconfirmed registration, for the same people. Each tournament also takes at most
  ``SIGNUPS_PER_ADDRESS_PER_TOURNAMENT`` registrations per address within the window.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import access
from scoring.forms.signup import SignupForm, SignupSettingsForm
from scoring.models import Tournament
from scoring.reads.signup import (
    closed_reason,
    closing_words,
    open_signup,
    signup_by_token,
    signup_state,
    unconfirmed,
)
from scoring.reads.tournament import is_drawn
from scoring.writes import mail
from scoring.writes import signup as services


def desk_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the organiser's desk shows of online registration: its state and counts, the
    link to share, the settings form."""
    closes = tournament.signup_closes
    moment = timezone.now()
    waiting = unconfirmed(tournament, moment)
    return {
        "signup": signup_state(tournament, moment, waiting=waiting),
        "unconfirmed": waiting,
        "hold_minutes": settings.SIGNUP_HOLD_MINUTES,
        "signup_url": request.build_absolute_uri(
            reverse("scoring:signup", args=[tournament.signup_key])),
        "signup_form": SignupSettingsForm(initial={
            "signup_open": tournament.signup_open,
            "signup_closes": timezone.localtime(closes) if closes else None,
            "signup_limit": tournament.signup_limit}),
    }


def _too_many(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    window = settings.SIGNUP_WINDOW
    response = render(request, "scoring/signup/page.html",
                      {**context, "blocked": True}, status=429)
    response["Retry-After"] = str(window)
    return response


def signup_page(request: HttpRequest, key: str) -> HttpResponse:
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    tournament = open_signup(key)
    if tournament is None:
        raise Http404
    form = SignupForm(request.POST if request.method == "POST" else None,
                      tournament=tournament)
    context: dict[str, Any] = {"tournament": tournament, "form": form}
    if request.method == "POST":
        window = settings.SIGNUP_WINDOW
        per_address = access.limit_key("signups", access.address_key(request))
        if settings.SIGNUPS_PER_ADDRESS and access.count_attempt(
                per_address, window) > settings.SIGNUPS_PER_ADDRESS:
            context["state"] = signup_state(tournament)
            return _too_many(request, context)
        if form.is_valid() and form.trapped:
            # a bot: answered as a person would be, and nothing is held or sent
            return render(request, "scoring/signup/sent.html",
                          {"tournament": tournament, "email": form.cleaned_data["email"]})
        if form.is_valid():
            data = form.cleaned_data
            email = str(data["email"]).strip().lower()
            per_email = access.limit_key("signups-email", email)
            if settings.SIGNUPS_PER_EMAIL and access.count_attempt(
                    per_email, window) > settings.SIGNUPS_PER_EMAIL:
                context["state"] = signup_state(tournament)
                return _too_many(request, context)
            # the tournament's own allowance per address (an IPv6 client's /64), tighter
            # than the site's: a few addresses cannot hold a tournament's places (issue 35)
            here = access.limit_key("signups-tournament", str(tournament.pk),
                                    access.address_key(request))
            allowance = settings.SIGNUPS_PER_ADDRESS_PER_TOURNAMENT
            if allowance and access.count_attempt(here, window) > allowance:
                context["state"] = signup_state(tournament)
                return _too_many(request, context)
            try:
                held = services.signup_create(
                    tournament=tournament, name=data["name"], email=email,
                    home_club=data["home_club"], category=data.get("category") or "",
                    team=data.get("team") or "", tandem=data.get("tandem") or "")
            except ValidationError as err:
                for message in err.messages:
                    form.add_error(None, message)
            else:
                url = mail.site_url(reverse("scoring:signup-confirm", args=[held.token]))
                if services.signup_send(held, url):
                    return render(request, "scoring/signup/sent.html", {
                        "tournament": tournament, "email": held.email,
                        "hours": settings.SIGNUP_CONFIRM_HOURS})
                form.add_error(None, _(
                    "The confirmation mail could not be sent: the mail server did not take "
                    "it. Nothing was saved. Please try again later."))
    context["state"] = signup_state(tournament)
    if tournament.signup_closes:
        context["closes"] = closing_words(tournament.signup_closes)
    return render(request, "scoring/signup/page.html", context)


def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """A link that never was (or whose registration expired and was swept) is 404; a link
    used, expired or come after the close is 410, with the message; each changes nothing."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    title = _("Online registration")
    held = signup_by_token(token)
    moment = timezone.now()
    if held is None:
        return render(request, "scoring/onboarding/refused.html",
                      {"title": title, "message": services.refusal(None, moment)}, status=404)
    if request.method != "POST" and held.confirmed is not None and held.entrant is not None:
        # the mailed link, once confirmed, is the player's way to "Mein Platz" (issue 35)
        return redirect("scoring:seat-key", key=held.entrant.seat_key)
    if request.method == "POST":
        try:
            entrant = services.signup_confirm(token)
        except ValidationError as err:
            return render(request, "scoring/onboarding/refused.html",
                          {"title": title, "message": " ".join(err.messages)}, status=410)
        return render(request, "scoring/signup/confirmed.html", {
            "entrant": entrant, "tournament": entrant.tournament})
    tournament = held.tournament
    message = services.refusal(held, moment) or closed_reason(
        tournament, drawn=is_drawn(tournament), moment=moment)
    if message:
        return render(request, "scoring/onboarding/refused.html",
                      {"title": title, "message": message}, status=410)
    return render(request, "scoring/signup/confirm.html", {
        "signup": held, "tournament": tournament})


def _organisers(request: HttpRequest, pk: int) -> Tournament:
    """The tournament for its club's admins (``access.tournament_for``, as the desk's):
    other members 403, other clubs 404."""
    tournament, _member = access.tournament_for(request, pk, admin=True)
    return tournament


@require_POST
@login_required
def signup_settings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _organisers(request, pk)
    form = SignupSettingsForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.signup_settings(tournament=tournament, open=data["signup_open"],
                                     closes=data["signup_closes"], limit=data["signup_limit"])
        except ValidationError as err:
            for message in err.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("The online registration settings are saved."))
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
    return redirect(reverse("scoring:tournament", args=[tournament.pk]) + "#signup-heading")


@require_POST
@login_required
def signup_drop(request: HttpRequest, pk: int, signup: int) -> HttpResponse:
    """The desk drops an unconfirmed registration (club admins of the tournament's club:
    other members 403, other clubs 404)."""
    tournament = _organisers(request, pk)
    try:
        dropped = services.signup_drop(tournament=tournament, pk=signup)
    except ValidationError as err:
        for message in err.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("The registration of %(name)s (%(email)s) is dropped: "
                                    "it holds nothing, and its link no longer works.")
                         % {"name": dropped.name, "email": dropped.email})
    return redirect(reverse("scoring:tournament", args=[tournament.pk]) + "#signup-heading")


urlpatterns: list[URLPattern] = [
    path("signup/<str:key>/", signup_page, name="signup"),
    path("signup/confirm/<str:token>/", signup_confirm, name="signup-confirm"),
    path("tournaments/<int:pk>/signup/", signup_settings, name="tournament-signup"),
    path("tournaments/<int:pk>/signup/<int:signup>/drop/", signup_drop,
         name="tournament-signup-drop"),
]
