"""Preisskat essentials (issue 24, item 4): a rule profile made from a preset in one step,
offered by the tournament form when the club has no profile with the ISkO tournament rules.
Club admins only: other members 403, other clubs and anonymous visitors 404 (or sign-in)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import access
from scoring.writes import preisskat


@require_POST
@login_required
def profile_preset(request: HttpRequest, slug: str) -> HttpResponse:
    """Create the club's rule profile from a preset, then back to the new tournament."""
    club, _member = access.club_for(request, slug, admin=True)
    try:
        profile = preisskat.profile_from_preset(club=club, key=request.POST.get("preset", ""))
    except ValidationError as err:
        for message in err.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("The rule profile “%(name)s” was saved.")
                         % {"name": profile.name})
    return redirect("scoring:tournament-create", slug=club.slug)


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/profiles/preset/", profile_preset, name="profile-preset"),
]
