"""People, not names (issue 35): the members page's players (claim links and their QR
codes, unlinking, member numbers, merging two records and undoing it), the claim link's
own page, and a person's results across clubs ("me/results/" for himself, a person page
for others).

The desk's actions are POSTs for the club admins of the player's own club (scoring.access:
another club's admin gets 404, a scorer or viewer 403; nothing changes) and come back to the
members page with a message; writes/people.py logs each in the club log."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import access
from scoring.forms.invitation import SignUpForm
from scoring.forms.people import MemberNumberForm, MergeForm, ReasonForm, VisibilityForm
from scoring.models import Club, Player, PlayerClaim
from scoring.qr import qr_svg
from scoring.reads import people as reads
from scoring.writes import mail, onboarding, people

BACKEND = "scoring.access.SignedInBackend"
# The members page lists this many players at most (a club that holds Preisskats keeps a
# thousand guests): the search finds the others.
DESK_ROWS = 200


def claim_url(claim: PlayerClaim) -> str:
    return mail.site_url(reverse("scoring:claim", args=[claim.token]))


def _back(club: Club, player: Player | None = None) -> HttpResponse:
    url = reverse("scoring:members", args=[club.slug])
    return redirect(url + (f"#player-{player.pk}" if player is not None else "#players"))


def _player(request: HttpRequest, slug: str, pk: int) -> tuple[Club, Player]:
    club, _me = access.club_for(request, slug, admin=True)
    player = reads.club_player(club, pk)
    if player is None:
        raise Http404
    return club, player


def desk_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    """The members page's players section: every player with his account, member number,
    open claim links (link and QR code) and, for a merged record, the merge to undo; the
    search (``q``: a part of the name or the member number) and the merge form."""
    query = request.GET.get("q", "")[:100]
    found = reads.desk_players(club, query)
    rows = found[:DESK_ROWS]
    shown = [{"row": row, "player": row.player, "merge": row.merge, "claims": [
        {"claim": c, "url": (url := claim_url(c)),
         "qr": qr_svg(url, title=_("QR code of the claim link"))} for c in row.claims]}
        for row in rows]
    players = [row.player for row in rows] if not query else [
        row.player for row in reads.desk_players(club)]
    return {"desk_players": shown, "player_query": query, "players_found": len(found),
            "players_cut": len(found) > DESK_ROWS,
            "merge_form": MergeForm(players=players, auto_id="merge-%s")}


# ---------------------------------------------------------------- the desk

@require_POST
@login_required
def claim_create(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, player = _player(request, slug, pk)
    try:
        people.claim_create(player=player, by=request.user)
    except onboarding.Refused as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _(
            "The claim link for %(name)s is ready: hand it on, or let the player scan its QR "
            "code. It works once, for 14 days.") % {"name": player.name})
    return _back(club, player)


@require_POST
@login_required
def claim_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, _me = access.club_for(request, slug, admin=True)
    claim = reads.club_claim(club, pk)
    if claim is None:
        raise Http404
    if people.claim_revoke(claim=claim):
        messages.success(request, _("The claim link was withdrawn: it no longer works."))
    else:
        messages.error(request, _("This claim link is no longer open."))
    return _back(club, claim.player)


@require_POST
@login_required
def player_unlink(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, player = _player(request, slug, pk)
    people.unlink(player=player, by=request.user)
    messages.success(request, _("%(name)s is linked to no account.") % {"name": player.name})
    return _back(club, player)


@require_POST
@login_required
def member_number(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, player = _player(request, slug, pk)
    form = MemberNumberForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return _back(club, player)
    try:
        people.member_number(player=player, number=form.cleaned_data["member_number"],
                             by=request.user)
    except onboarding.Refused as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("%(name)s: member number saved.") % {"name": player.name})
    return _back(club, player)


@require_POST
@login_required
def merge(request: HttpRequest, slug: str) -> HttpResponse:
    club, _me = access.club_for(request, slug, admin=True)
    form = MergeForm(request.POST, players=[row.player for row in reads.desk_players(club)])
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return _back(club)
    kept, merged = form.players[form.cleaned_data["kept"]], form.players[
        form.cleaned_data["merged"]]
    try:
        people.merge(kept=kept, merged=merged, reason=form.cleaned_data["reason"],
                     by=request.user)
    except onboarding.Refused as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("%(merged)s was merged into %(kept)s.")
                         % {"merged": merged.name, "kept": kept.name})
    return _back(club, kept)


@require_POST
@login_required
def unmerge(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, _me = access.club_for(request, slug, admin=True)
    record = reads.club_merge(club, pk)
    if record is None:
        raise Http404
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason for undoing the merge: the club log keeps "
                                  "it."))
        return _back(club, record.merged)
    try:
        people.unmerge(record=record, reason=form.cleaned_data["reason"], by=request.user)
    except onboarding.Refused as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("The merge of %(merged)s into %(kept)s was undone.")
                         % {"merged": record.merged.name, "kept": record.kept.name})
    return _back(club, record.merged)


# ---------------------------------------------------------------- the claim link's page

def claim(request: HttpRequest, token: str) -> HttpResponse:
    """Whose record this is, and the confirmation (a POST) that links it to the signed-in
    account. A stranger signs in (and comes back) or makes an account here first."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    found = reads.claim_by_token(token)
    message = people.claim_refusal(found)
    if found is None or message:
        return render(request, "scoring/onboarding/refused.html", {
            "title": _("Claim link"), "message": message},
            status=404 if found is None else 410)
    user: Any = request.user
    signup = SignUpForm(request.POST if request.method == "POST"
                        and request.POST.get("action") == "signup" else None)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "signup" and not user.is_authenticated:
                if signup.is_valid():
                    data = signup.cleaned_data
                    try:
                        with transaction.atomic():
                            user = onboarding.new_account(username=data["username"],
                                                          email=data["email"],
                                                          password=data["password1"])
                            player = people.claim_use(token=token, user=user)
                    except onboarding.Refused as err:
                        if people.claim_refusal(reads.claim_by_token(token)):
                            raise
                        signup.add_error(None, err.message)  # the name is taken
                        user = request.user
                    else:
                        login(request, user, backend=BACKEND)
                        return _claimed(request, player)
            elif request.POST.get("action") == "claim":
                if not user.is_authenticated:
                    return redirect(f"{reverse('login')}?{urlencode({'next': request.path})}")
                return _claimed(request, people.claim_use(token=token, user=user))
        except onboarding.Refused as err:
            return render(request, "scoring/onboarding/refused.html", {
                "title": _("Claim link"), "message": err.message}, status=409)
    refusal = people.claim_refusal(found, user) if user.is_authenticated else None
    return render(request, "scoring/people/claim.html", {
        "claim": found, "player": found.player, "club": found.player.club,
        "lists": reads.tables_of(found.player), "refusal": refusal, "signup": signup,
        "login_url": f"{reverse('login')}?{urlencode({'next': request.path})}",
    })


def _claimed(request: HttpRequest, player: Player) -> HttpResponse:
    messages.success(request, _("You are %(name)s on the lists of %(club)s.")
                     % {"name": player.name, "club": player.club.name})
    return redirect("scoring:me-results")


# ---------------------------------------------------------------- results across clubs

@require_safe
@login_required
def my_results(request: HttpRequest) -> HttpResponse:
    user: Any = request.user
    results = reads.person_results(user.pk, user)
    assert results is not None  # the person always sees his own
    return render(request, "scoring/people/results.html", {
        "results": results, "own": True,
        "visibility_form": VisibilityForm(initial={
            "results_visible": reads.results_visible(user.pk)}),
    })


@require_safe
def person_results(request: HttpRequest, pk: int) -> HttpResponse:
    """The results of the person whose account the player record ``pk`` is linked to (any
    record of his, in any club): 404 for anonymous visitors, for a record linked to nobody
    and for whoever may not see them, whether the record exists or not."""
    viewer: Any = request.user
    if not viewer.is_authenticated:
        raise Http404
    user_pk = reads.account_of(pk)
    if user_pk is None:
        raise Http404
    if viewer.pk == user_pk:
        return redirect("scoring:me-results")
    results = reads.person_results(user_pk, viewer)
    if results is None:
        raise Http404
    return render(request, "scoring/people/results.html", {"results": results, "own": False})


@require_POST
@login_required
def results_visible(request: HttpRequest) -> HttpResponse:
    form = VisibilityForm(request.POST)
    visible = form.is_valid() and bool(form.cleaned_data["results_visible"])
    people.results_visible(user=request.user, visible=visible)
    messages.success(request, _("Members of other clubs may see your results.") if visible
                     else _("Only members of the clubs you play in see your results."))
    return redirect("scoring:me-results")


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/players/<int:pk>/claim/", claim_create, name="claim-create"),
    path("clubs/<slug:slug>/claims/<int:pk>/revoke/", claim_revoke, name="claim-revoke"),
    path("clubs/<slug:slug>/players/<int:pk>/unlink/", player_unlink, name="player-unlink"),
    path("clubs/<slug:slug>/players/<int:pk>/number/", member_number,
         name="player-member-number"),
    path("clubs/<slug:slug>/merge/", merge, name="player-merge"),
    path("clubs/<slug:slug>/merges/<int:pk>/undo/", unmerge, name="player-unmerge"),
    path("claim/<str:token>/", claim, name="claim"),
    path("me/results/", my_results, name="me-results"),
    path("me/results/visibility/", results_visible, name="me-results-visible"),
    path("people/<int:pk>/results/", person_results, name="person-results"),
]
