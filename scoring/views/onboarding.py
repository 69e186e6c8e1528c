"""A club starts on its own (issue 16): the first-run set-up page, and the self-service
registration of further clubs on a hosted site (closed unless CLUB_REGISTRATION is on).

- ``/setup/`` exists only while the installation has no club (the demo clubs of `make run`
  do not count): afterwards, and for a second request that raced the first, it is 404.
- ``/register/`` makes an account that cannot sign in yet and mails a confirmation link in
  the new club's language; the club is created, with that account as its admin, when the
  link is confirmed (a POST: a mail scanner's GET changes nothing). Registrations are
  counted per address (an IPv6 client's /64) in the database (scoring.access.count_attempt:
  atomic, so two workers cannot both slip past, and evicted by no other traffic).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _

from scoring import access
from scoring.forms.setup import ClubSetupForm
from scoring.writes import mail, onboarding
from scoring.writes.onboarding import NewClub

BACKEND = "scoring.access.SignedInBackend"


def _new_club(form: ClubSetupForm) -> NewClub:
    data = form.cleaned_data
    return NewClub(name=data["club_name"], slug=data["slug"], language=data["language"],
                   preset=data["preset"], stake=data["stake"], currency=data["currency"])


def setup(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    if onboarding.set_up():
        raise Http404
    form = ClubSetupForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            club, user = onboarding.first_run(
                club=_new_club(form), username=data["username"], email=data["email"],
                password=data["password1"])
        except onboarding.AlreadySetUp:
            raise Http404 from None
        except onboarding.Refused as err:
            form.add_error(None, err.message)
        else:
            login(request, user, backend=BACKEND)
            messages.success(request, _("%(club)s is set up, and you are its club admin. "
                                        "Invite the members on the members page.")
                             % {"club": club.name})
            return redirect("scoring:club", slug=club.slug)
    return render(request, "scoring/onboarding/setup.html", {"form": form})


def count_attempt(key: str, window: int) -> int:
    """Attempts under ``key`` in the current window, this one included: counted in the
    database (scoring.access.count_attempt), atomic, and evicted by no other traffic."""
    return access.count_attempt(key, window)


def register(request: HttpRequest) -> HttpResponse:
    if not settings.CLUB_REGISTRATION:
        raise Http404
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    form = ClubSetupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        limit = settings.REGISTRATION_MAX_PER_ADDRESS
        window = settings.REGISTRATION_WINDOW
        key = access.limit_key("registrations", access.address_key(request))
        if limit and count_attempt(key, window) > limit:
            response = render(request, "scoring/onboarding/register.html",
                              {"form": form, "blocked": True}, status=429)
            response["Retry-After"] = str(window)
            return response
    if form.is_valid():
        data = form.cleaned_data
        new = _new_club(form)
        try:
            token = onboarding.register(club=new, username=data["username"],
                                        email=data["email"], password=data["password1"])
        except onboarding.Refused as err:
            form.add_error(None, err.message)
        else:
            url = mail.site_url(reverse("scoring:register-confirm", args=[token]))
            if onboarding.register_send(token=token, url=url, email=data["email"], club=new):
                return render(request, "scoring/onboarding/register_sent.html",
                              {"email": data["email"]})
            form.add_error(None, _(
                "The confirmation mail could not be sent: the mail server did not take it. "
                "Nothing was saved. Please try again later."))
    return render(request, "scoring/onboarding/register.html", {"form": form})


def register_confirm(request: HttpRequest, token: str) -> HttpResponse:
    if not settings.CLUB_REGISTRATION:
        raise Http404
    if request.method == "POST":
        try:
            club, user = onboarding.register_confirm(token)
        except onboarding.Refused as err:
            return render(request, "scoring/onboarding/refused.html",
                          {"title": _("Registration"), "message": err.message}, status=410)
        login(request, user, backend=BACKEND)
        messages.success(request, _("%(club)s is registered, and you are its club admin.")
                         % {"club": club.name})
        return redirect("scoring:club", slug=club.slug)
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    return render(request, "scoring/onboarding/register_confirm.html", {})


urlpatterns: list[URLPattern] = [
    path("setup/", setup, name="setup"),
    path("register/", register, name="register"),
    path("register/<str:token>/", register_confirm, name="register-confirm"),
]
