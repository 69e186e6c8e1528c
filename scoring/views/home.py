from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.views.decorators.http import require_safe

from scoring.forms.club import CodeForm
from scoring.models import Membership
from scoring.reads.account import any_club, memberships_of
from scoring.writes import onboarding


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Signed in: the user's clubs (straight to the club when there is one). Otherwise a
    short landing page: enter a table code, or sign in. An installation without any club
    leads to the first-run set-up."""
    if not any_club():
        return redirect("scoring:setup")
    memberships: list[Membership] = []
    if request.user.is_authenticated:
        memberships = list(memberships_of(request.user))
        if len(memberships) == 1:
            return redirect("scoring:club", slug=memberships[0].club.slug)
    return render(request, "scoring/home.html", {
        "memberships": memberships, "code_form": CodeForm(),
        "registration_open": settings.CLUB_REGISTRATION,
        # Only the demo clubs (after `make run`): the set-up page is offered.
        "setup_open": not request.user.is_authenticated and not onboarding.set_up(),
    })


urlpatterns: list[URLPattern] = [path("", home, name="home")]
