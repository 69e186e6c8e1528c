"""Members of a club (issue 16): invitations by e-mail or one-time link and QR code, and what
a club admin does to members besides changing roles (views/club.py's members page): remove
them, send them a password-reset link, link them to a player on the lists. The invitation
link's own page, where the invited person picks a user name and password, is here too.

Every admin action is a POST fetched through scoring.access (another club's objects: 404;
a scorer or viewer: 403) and comes back to the members page with a message. A mail server
that fails is a message too, never an error page: the invitation is kept, marked not sent,
and can be sent again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import access
from scoring.forms.invitation import SignUpForm
from scoring.forms.members import DepartedNamesForm, InviteForm, LinkForm
from scoring.models import Club, Invitation, Membership
from scoring.reads import people as people_reads
from scoring.reads.account import is_member
from scoring.reads.club import (
    invitation_again,
    invitation_by_token,
    invitation_of,
    membership_of,
)
from scoring.writes import mail, onboarding, people

BACKEND = "scoring.access.SignedInBackend"


def invitation_url(request: HttpRequest, invitation: Invitation) -> str:
    return mail.site_url(reverse("scoring:invitation", args=[invitation.token]))


def _back(club: Club) -> HttpResponse:
    return redirect("scoring:members", slug=club.slug)


def _send(request: HttpRequest, invitation: Invitation) -> None:
    if onboarding.invitation_send(invitation, invitation_url(request, invitation)):
        messages.success(request, _("The invitation was sent to %(email)s.")
                         % {"email": invitation.email})
    else:
        messages.error(request, _(
            "The invitation to %(email)s could not be sent: the mail server did not take it. "
            "The invitation is kept, marked as not sent: send it again later, or hand on its "
            "link or QR code yourself.") % {"email": invitation.email})


@require_POST
@login_required
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    club, _me = access.club_for(request, slug, admin=True)
    form = InviteForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return _back(club)
    invitation = onboarding.invitation_create(
        club=club, role=form.cleaned_data["role"], email=form.cleaned_data["email"],
        by=request.user)
    if invitation.email:
        _send(request, invitation)
    else:
        messages.success(request, _("The invitation link is ready: hand it on, or let the "
                                    "new member scan its QR code. It works once, for 7 days."))
    return redirect(reverse("scoring:members", args=[club.slug]) + f"#invitation-{invitation.pk}")


def _invitation(request: HttpRequest, slug: str, pk: int) -> tuple[Club, Invitation]:
    club, _me = access.club_for(request, slug, admin=True)
    invitation = invitation_of(club, pk)
    if invitation is None:
        raise Http404
    return club, invitation


@require_POST
@login_required
def invitation_send(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, invitation = _invitation(request, slug, pk)
    if onboarding.refusal(invitation):
        messages.error(request, _("This invitation is no longer open."))
    elif not invitation.email:
        messages.error(request, _("This invitation has no e-mail address."))
    else:
        _send(request, invitation)
    return _back(club)


@require_POST
@login_required
def invitation_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, invitation = _invitation(request, slug, pk)
    if onboarding.invitation_revoke(invitation):
        messages.success(request, _("The invitation was withdrawn: its link no longer works."))
    else:
        messages.error(request, _("This invitation is no longer open."))
    return _back(club)


def _membership(request: HttpRequest, slug: str, pk: int) -> tuple[Club, Membership]:
    club, _me = access.club_for(request, slug, admin=True)
    membership = membership_of(club, pk)
    if membership is None:
        raise Http404
    return club, membership


@require_POST
@login_required
def member_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, membership = _membership(request, slug, pk)
    name = membership.user.get_username()
    try:
        onboarding.membership_remove(membership, by=request.user)
    except onboarding.Refused as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("%(user)s is no longer a member of %(club)s.")
                         % {"user": name, "club": club.name})
        if membership.user_id == request.user.pk:
            return redirect("scoring:home")
    return _back(club)


@require_POST
@login_required
def member_password_reset(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, membership = _membership(request, slug, pk)
    user = membership.user
    name = user.get_username()
    if not user.email:
        messages.error(request, _("%(user)s has no e-mail address, so no link can be sent. "
                                  "They can add one on their account page.") % {"user": name})
    elif onboarding.password_reset_send(
            user, lambda uid, token: mail.site_url(
                reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})),
            club.language):
        messages.success(request, _("A link to choose a new password was sent to %(user)s.")
                         % {"user": name})
    else:
        messages.error(request, _("The mail to %(user)s could not be sent: the mail server did "
                                  "not take it. Nothing was changed; try again later.")
                       % {"user": name})
    return _back(club)


@require_POST
@login_required
def member_player(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, membership = _membership(request, slug, pk)
    form = LinkForm(request.POST, club=club)
    if not form.is_valid():
        messages.error(request, _("Choose a player of the club."))
        return _back(club)
    player = form.cleaned_data["player"]
    if player is None:
        for linked in people_reads.linked_players(club, membership.user):
            people.unlink(player=linked, by=request.user)
        messages.success(request, _("%(user)s is linked to no player.")
                         % {"user": membership.user.get_username()})
    else:
        try:
            people.link(player=player, user=membership.user, by=request.user)
        except onboarding.Refused as err:
            messages.error(request, err.message)
        else:
            messages.success(request, _("%(user)s is %(player)s on the lists.")
                             % {"user": membership.user.get_username(), "player": player.name})
    return _back(club)


@require_POST
@login_required
def departed_names(request: HttpRequest, slug: str) -> HttpResponse:
    club, _me = access.club_for(request, slug, admin=True)
    form = DepartedNamesForm(request.POST)
    if form.is_valid():
        onboarding.departed_names(club=club, choice=form.cleaned_data["departed_names"])
        messages.success(request, _("Saved."))
    else:
        messages.error(request, _("Choose what becomes of the names."))
    return _back(club)


# ---------------------------------------------------------------- the invitation link

def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invitation link opens: sign up (or join with the signed-in account)."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    found = invitation_by_token(token)
    message = onboarding.refusal(found)
    if found is None or message:
        return render(request, "scoring/onboarding/refused.html", {
            "title": _("Invitation"), "message": message}, status=404 if found is None else 410)
    form = SignUpForm(request.POST if request.method == "POST"
                      and request.POST.get("action") != "join" else None)
    try:
        if request.method == "POST" and request.POST.get("action") == "join":
            if not request.user.is_authenticated:
                return redirect(f"{reverse('login')}?next={request.path}")
            onboarding.invitation_join(token=token, user=request.user)
            return _welcome(request, found.club)
        if form.is_valid():
            data = form.cleaned_data
            user = onboarding.invitation_accept(token=token, username=data["username"],
                                                email=data["email"],
                                                password=data["password1"])
            login(request, user, backend=BACKEND)
            return _welcome(request, found.club)
    except onboarding.Refused as err:
        if onboarding.refusal(invitation_again(found)):
            return render(request, "scoring/onboarding/refused.html", {
                "title": _("Invitation"), "message": err.message}, status=410)
        form.add_error(None, err.message)
    return render(request, "scoring/onboarding/invitation.html", {
        "invitation": found, "club": found.club, "form": form,
        "member": request.user.is_authenticated
        and is_member(request.user, found.club),
    })


def _welcome(request: HttpRequest, club: Club) -> HttpResponse:
    messages.success(request, _("Welcome to %(club)s!") % {"club": club.name})
    return redirect("scoring:club", slug=club.slug)


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/invitations/new/", invitation_create, name="invitation-create"),
    path("clubs/<slug:slug>/invitations/<int:pk>/send/", invitation_send,
         name="invitation-send"),
    path("clubs/<slug:slug>/invitations/<int:pk>/revoke/", invitation_revoke,
         name="invitation-revoke"),
    path("clubs/<slug:slug>/members/<int:pk>/remove/", member_remove, name="member-remove"),
    path("clubs/<slug:slug>/members/<int:pk>/password-reset/", member_password_reset,
         name="member-password-reset"),
    path("clubs/<slug:slug>/members/<int:pk>/player/", member_player, name="member-player"),
    path("clubs/<slug:slug>/departed-names/", departed_names, name="departed-names"),
    path("invite/<str:token>/", invitation, name="invitation"),
]
