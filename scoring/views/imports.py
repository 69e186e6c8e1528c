"""Bringing old lists in from the browser, and deleting an evening (issue 16); club admins
only. An upload is checked and held (writes/uploads.py); its preview says what will be added,
what the club has already, and every problem by line, table or deal; the confirmation imports
exactly the held file (its SHA-256 is checked) in one transaction."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring import access
from scoring.forms.imports import ConfirmForm, DeleteEveningForm, UploadForm
from scoring.models import Club, PendingImport
from scoring.reads import export
from scoring.reads.club import club_log_entries, pending_import
from scoring.reads.evening import evening_contents, seated_tables
from scoring.reads.export import dumps
from scoring.writes import removal, uploads
from scoring.writes.import_problems import ImportProblem, OverBounds
from scoring.writes.services import Actor


def _actor(request: HttpRequest) -> Actor:
    return Actor(request.user, request.user.get_username())


@login_required
def upload(request: HttpRequest, slug: str) -> HttpResponse:
    club, _member = access.club_for(request, slug, admin=True)
    limit = uploads.max_bytes()
    status = 200
    if request.method == "POST":
        form = UploadForm(request.POST, request.FILES, club=club, max_bytes=limit)
        if form.is_valid():
            file = form.cleaned_data["file"]
            content = file.read(limit + 1)
            kind = form.cleaned_data["kind"]
            options = {}
            if kind == PendingImport.Kind.TOTALS:
                options = {"season": form.cleaned_data["season"].pk}
            elif kind == PendingImport.Kind.SHEET:
                options = {"evening": form.cleaned_data["evening"].pk}
            busy = _over_allowance(request)
            with _check_place() as place:
                if busy or not place:
                    form.add_error("file", busy or _busy())
                    status = 429
                else:
                    try:
                        pending = uploads.hold(club=club, user=request.user, kind=kind,
                                               name=file.name or "", content=content,
                                               options=options)
                    except OverBounds as err:
                        form.add_error("file", err.message_in(get_language()))
                    else:
                        return redirect("scoring:import-preview", slug=club.slug,
                                        pk=pending.pk)
    else:
        form = UploadForm(club=club, max_bytes=limit)
    response = render(request, "scoring/imports/upload.html", {
        "club": club, "form": form, "max_bytes": limit}, status=status)
    if status == 429:
        response["Retry-After"] = "60"
    return response


def _check_place() -> Any:
    """One of the site's places for checking an upload (access.one_of); held at most a
    minute past the check's own bound if the worker dies during the check."""
    return access.one_of("import-check", settings.IMPORT_CHECKS_AT_ONCE,
                         settings.IMPORT_MAX_SECONDS + 60)


def _busy() -> str:
    return _("Another file is being checked on this site just now. Try again in a minute.")


def _over_allowance(request: HttpRequest) -> str:
    """The message when this account or this client address has started more uploads in the
    last hour than IMPORT_UPLOADS_PER_HOUR ('' if not); every upload counts, refused or not."""
    allowance = settings.IMPORT_UPLOADS_PER_HOUR
    if allowance <= 0:
        return ""
    counts = [access.count_attempt(access.limit_key("import-account", str(request.user.pk)),
                                   3600),
              access.count_attempt(access.limit_key("import-address",
                                                    access.address_key(request)), 3600)]
    if max(counts) <= allowance:
        return ""
    return ngettext(
        "At most %(count)d file may be uploaded per hour. Try again later.",
        "At most %(count)d files may be uploaded per hour. Try again later.",
        allowance) % {"count": allowance}


def _pending(request: HttpRequest, slug: str, pk: int) -> tuple[Club, PendingImport | None]:
    club, member = access.club_for(request, slug, admin=True)
    pending = pending_import(club, member.user_id, pk, uploads.expiry_cutoff())
    return club, pending


@require_safe
@login_required
def preview(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The preview as the upload's check found it: the file is not read again."""
    club, pending = _pending(request, slug, pk)
    seen = uploads.preview(pending) if pending is not None else None
    if pending is None or seen is None:
        messages.error(request, _("That upload has expired or was imported already; upload "
                                  "the file again."))
        return redirect("scoring:import", slug=slug)
    return render(request, "scoring/imports/preview.html", {
        "club": club, "pending": pending, "preview": seen,
        "form": ConfirmForm(initial={"digest": pending.digest}, clashes=seen.clashes)})


@login_required
def confirm(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    club, _member = access.club_for(request, slug, admin=True)
    form = ConfirmForm(request.POST)
    pending = None
    if form.is_valid():
        pending = uploads.held(club=club, user=request.user, pk=pk,
                               digest=form.cleaned_data["digest"])
    if pending is None:
        messages.error(request, _("That upload has expired, was imported already or has "
                                  "changed since its preview; upload the file again."))
        return redirect("scoring:import", slug=club.slug)
    seen = uploads.preview(pending)
    form = ConfirmForm(request.POST, clashes=seen.clashes if seen else [])
    if not form.is_valid():
        return render(request, "scoring/imports/preview.html", {
            "club": club, "pending": pending, "preview": seen, "form": form})
    with _check_place() as place:
        if not place:
            messages.error(request, _busy())
            return redirect("scoring:import-preview", slug=club.slug, pk=pk)
        try:
            outcome = uploads.confirm(pending, actor=_actor(request), profiles=form.profiles())
        except (ImportProblem, OverBounds) as err:
            messages.error(request, _("Nothing was imported: %(problem)s") % {
                "problem": err.message_in(get_language())})
            return redirect("scoring:import-preview", slug=club.slug, pk=pk)
    if outcome.added:
        message = ngettext("%(count)d evening was added.", "%(count)d evenings were added.",
                           outcome.added) % {"count": outcome.added}
        if outcome.skipped:
            message += " " + ngettext(
                "%(count)d was there already and was not added again.",
                "%(count)d were there already and were not added again.",
                outcome.skipped) % {"count": outcome.skipped}
        messages.success(request, message)
    else:
        messages.info(request, _("Nothing was added: everything in this file is there "
                                 "already (the same file was imported before)."))
    return redirect("scoring:club", slug=club.slug)


# ---------------------------------------------------------------- export in the browser

def _download(document: dict[str, Any], filename: str) -> HttpResponse:
    response = HttpResponse(dumps(document).encode(),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
@login_required
def club_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The club as `manage.py export_club` writes it (club admins only)."""
    club, _member = access.club_for(request, slug, admin=True)
    return _download(export.club_export(club), f"{club.slug}.json")


@require_safe
@login_required
def evening_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The evening as `manage.py export_evening` writes it (the club's admins only)."""
    evening, _member = access.evening_for(request, pk, admin=True)
    return _download(export.evening_export(evening),
                     f"{evening.club.slug}-{evening.date.isoformat()}-{evening.pk}.json")


# ---------------------------------------------------------------- deleting an evening

@login_required
def evening_delete(request: HttpRequest, pk: int) -> HttpResponse:
    evening, _member = access.evening_for(request, pk, admin=True)
    tables = seated_tables(evening)
    contents = evening_contents(evening)
    context = {
        "evening": evening, "club": evening.club, "tables": tables,
        "deals": contents.deals, "deleted_deals": contents.deleted_deals,
        "paper": contents.paper, "audit": contents.audit,
    }
    if request.method == "POST":
        form = DeleteEveningForm(request.POST)
        if form.is_valid():
            try:
                removal.evening_delete(evening=evening, actor=_actor(request),
                                        reason=form.cleaned_data["reason"])
            except ValidationError as err:
                for message in err.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, _("The evening %(name)s of %(date)s was deleted; "
                                            "the club's log keeps what it held.") % {
                    "name": evening.name,
                    "date": date_format(evening.date, "SHORT_DATE_FORMAT")})
                return redirect("scoring:club", slug=evening.club.slug)
    else:
        form = DeleteEveningForm()
    context["form"] = form
    return render(request, "scoring/imports/evening_delete.html", context)


@require_safe
@login_required
def club_log(request: HttpRequest, slug: str) -> HttpResponse:
    club, _member = access.club_for(request, slug, admin=True)
    entries = club_log_entries(club)
    return render(request, "scoring/imports/club_log.html", {
        "club": club, "entries": entries, "club_url": reverse("scoring:club", args=[slug])})


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/import/", upload, name="import"),
    path("clubs/<slug:slug>/import/<int:pk>/", preview, name="import-preview"),
    path("clubs/<slug:slug>/import/<int:pk>/confirm/", confirm, name="import-confirm"),
    path("clubs/<slug:slug>/log/", club_log, name="club-log"),
    path("clubs/<slug:slug>/export/", club_export, name="club-export"),
    path("evenings/<int:pk>/export/", evening_export, name="evening-export"),
    path("evenings/<int:pk>/delete/", evening_delete, name="evening-delete"),
]
