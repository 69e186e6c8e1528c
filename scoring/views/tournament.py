"""Tournament days (Preisskat, league match days): the organiser's pages and documents.

- Creating a tournament, registration and check-in, paid, withdrawals, the settings of the
  day, drawing each series, the seat list, table cards and standard lists: club admins
  (the organiser). Other members get 403, other clubs and anonymous visitors 404 (or the
  sign-in page).
- The rankings (page, PDF, CSV): every member of the club.
- The tables themselves are recorded on the ordinary table screen (views/entry.py) through
  their table codes; the public live board is views/board.py.
"""

from __future__ import annotations

from decimal import Decimal
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.http import content_disposition_header
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import access
from scoring.access import tournament_for
from scoring.forms.tournament import DrawForm, EntrantForm, SettingsForm, TournamentForm
from scoring.models import Membership, Table, Tournament
from scoring.pdf import tournament as documents
from scoring.qr import qr_png_uri, qr_svg
from scoring.reads.tournament import (
    ENTRANTS_PER_PAGE,
    RANKING_PER_PAGE,
    Group,
    PrizeList,
    Row,
    current_seats,
    drawn_series,
    entrant_counts,
    entrant_of,
    entrant_search,
    entrants_before,
    has_table,
    place_page,
    prize_warnings,
    ranking_search,
    seat_list_search,
    series_summaries,
    series_tables,
    table_statuses,
    tournament_ranking,
    unpaid_players,
)
from scoring.spreadsheet import csv_text
from scoring.views import board, signup
from scoring.views.club import format_code
from scoring.views.printed import pdf_response
from scoring.writes import preisskat
from scoring.writes import tournament as services
from scoring.writes.services import Actor


def _lang() -> str:
    return (get_language() or "de")[:2]


@login_required
def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    club, _member = access.club_for(request, slug, admin=True)
    form = TournamentForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                club=club, name=data["name"], date=data["date"], profile=data["profile"],
                series_count=data["series_count"], series_rounds=data["series_rounds"],
                entry_fee=data["entry_fee"],
                settlement=services.fee_settlement(
                    lost_fee=data["lost_fee"], lost_fee_high=data["lost_fee_high"],
                    lost_fee_from=data["lost_fee_from"] or 1,
                    passed_fee=data["passed_fee"]),
                categories=data["categories"], team_fee=data["team_fee"],
                tandem_fee=data["tandem_fee"], reseat=data["reseat"],
                tie_rule=data["tie_rule"], prizes=data["prizes"], public=data["public"],
                season=data["season"])
        except ValidationError as err:
            for message in err.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("The tournament is set up: register the players."))
            return redirect("scoring:tournament", pk=tournament.pk)
    return render(request, "scoring/tournament/new.html", {"club": club, "form": form})


@login_required
def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's desk: registration and check-in, the draws, the documents."""
    tournament, _member = tournament_for(request, pk, admin=True)
    entrant_form = EntrantForm(tournament=tournament)
    if request.method == "POST":
        entrant_form = EntrantForm(request.POST, tournament=tournament)
        if entrant_form.is_valid():
            data = entrant_form.cleaned_data
            try:
                entrant = services.entrant_register(
                    tournament=tournament, member=data["member"], name=data["name"],
                    home_club=data["home_club"], category=data.get("category") or "",
                    team=data.get("team") or "", tandem=data.get("tandem") or "",
                    paid=data["paid"], at_door=data["at_door"])
            except ValidationError as err:
                for message in err.messages:
                    entrant_form.add_error(None, message)
            else:
                messages.success(request, _("%(name)s is registered with start number "
                                            "%(number)d.") % {"name": entrant.player.name,
                                                              "number": entrant.number})
                return redirect("scoring:tournament", pk=tournament.pk)
    draws = list(tournament.draws.all())
    next_series = len(draws) + 1
    counts = entrant_counts(tournament, next_series)
    query = request.GET.get("q", "").strip()[:100]
    # a page of the field (issue 24): 1,000 entrants' rows are ~1 MB of HTML
    page = Paginator(entrant_search(tournament, query), ENTRANTS_PER_PAGE).get_page(
        request.GET.get("page"))
    # where each entrant of the page sits in the latest series (issue 35: the desk's search
    # answers "where do I sit?")
    seat_series = len(draws)
    seated = current_seats(tournament, seat_series, [e.player_id for e in page.object_list])
    return render(request, "scoring/tournament/desk.html", {
        "tournament": tournament, "club": tournament.club, "entrants": page.object_list,
        "entrant_rows": [(e, seated.get(e.player_id)) for e in page.object_list],
        "seat_series": seat_series,
        "page": page, "query": query, "counts": counts,
        "entrant_form": entrant_form, "draws": draws,
        "series": series_summaries(tournament, table_statuses(tournament)),
        "next_series": next_series if next_series <= tournament.series_count else None,
        "playing": counts.playing, "paid": counts.paid, "checked_in": counts.checked_in,
        "draw_form": DrawForm(),
        "unpaid": unpaid_players(tournament, next_series),
        "prize_warnings": prize_warnings(tournament, counts.paid),
        "settings_form": SettingsForm(initial=SettingsForm.initial_for(tournament),
                                      tournament=tournament),
        "board_url": request.build_absolute_uri(
            reverse("scoring:board", args=[tournament.board_key])),
        **signup.desk_context(request, tournament),
    })


@require_POST
@login_required
def entrant_action(request: HttpRequest, pk: int, entrant: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)
    who = entrant_of(tournament, entrant)
    if who is None:
        raise Http404
    action = request.POST.get("action", "")
    try:
        if action in ("paid", "unpaid"):
            services.entrant_mark(entrant=who, paid=action == "paid")
        elif action in ("checkin", "checkout"):
            services.entrant_mark(entrant=who, checked_in=action == "checkin")
        elif action in ("withdraw", "return"):
            services.entrant_withdraw(entrant=who, undo=action == "return")
        else:
            raise ValidationError(_("Unknown action."))
    except ValidationError as err:
        for message in err.messages:
            messages.error(request, message)
    # back to the desk's page that shows this entrant, in the search the desk showed
    query = " ".join(request.POST.get("q", "").split())[:100]
    page = entrants_before(tournament, query, who.number) // ENTRANTS_PER_PAGE + 1
    params = {**({"q": query} if query else {}), **({"page": str(page)} if page > 1 else {})}
    return redirect(reverse("scoring:tournament", args=[tournament.pk])
                    + (f"?{urlencode(params)}" if params else "") + f"#entrant-{who.pk}")


@require_POST
@login_required
def tournament_settings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)
    form = SettingsForm(request.POST, tournament=tournament)
    if form.is_valid():
        data = form.cleaned_data
        fees, list_prizes = form.fees(), form.list_prizes()
        try:
            with transaction.atomic():  # refused fees change nothing else either
                if fees is not None:
                    preisskat.tournament_fees(tournament=tournament, fees=fees)
                preisskat.tournament_clubs_apart(tournament=tournament,
                                                 on=data["clubs_apart"])
                if list_prizes is not None:
                    preisskat.tournament_list_prizes(tournament=tournament,
                                                     list_prizes=list_prizes)
                services.tournament_settings(tournament=tournament, reseat=data["reseat"],
                                             tie_rule=data["tie_rule"], prizes=data["prizes"],
                                             public=data["public"])
        except ValidationError as err:
            for refusal in err.messages:
                messages.error(request, refusal)
        else:
            board.forget(tournament)
            messages.success(request, _("The settings are saved."))
            for warning in prize_warnings(tournament, entrant_counts(tournament, 1).paid):
                messages.warning(request, warning)
    else:
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, str(message))
    return redirect("scoring:tournament", pk=tournament.pk)


@require_POST
@login_required
def series_draw(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)
    form = DrawForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, str(message))
        return redirect("scoring:tournament", pk=tournament.pk)
    try:
        data = form.cleaned_data
        drawn = services.series_draw(
            tournament=tournament, seed=data["seed"],
            unsigned_reason=data["unsigned_reason"] if data["unsigned_ok"] else "",
            unpaid_confirmed=data["unpaid_ok"],
            actor=Actor(request.user, request.user.get_username(), admin=True))
    except ValidationError as err:
        for message in err.messages:
            messages.error(request, message)
    else:
        messages.success(request, _(
            "Series %(series)d is drawn (seed %(seed)d): %(count)d repeated opponents.")
            % {"series": drawn.number, "seed": drawn.seed, "count": drawn.repeated_pairs})
    return redirect("scoring:tournament", pk=tournament.pk)


def _series(tournament: Tournament, series: int) -> int:
    if not has_table(tournament, series):
        raise Http404
    return series


@require_safe
@login_required
def series_seats(request: HttpRequest, pk: int, series: int) -> HttpResponse:
    """The full seat list of a drawn series: every table, its players and state, and its
    standard lists (the desk shows the series folded to counts)."""
    tournament, _member = tournament_for(request, pk, admin=True)
    tables = dict(series_tables(tournament, _series(tournament, series))).get(series, [])
    query = " ".join(request.GET.get("q", "").split())[:100]
    numbers, found = seat_list_search(tournament, tables, query)
    if query:  # the tables of the players found (issue 35: searchable, without JavaScript)
        wanted = {number for _player, _no, number, _seat in found}
        tables = [t for t in tables if t.table.number in wanted]
    return render(request, "scoring/tournament/seats.html", {
        "tournament": tournament, "club": tournament.club, "number": series,
        "tables": [(t, [(p, numbers.get(p.pk)) for p in t.players]) for t in tables],
        "statuses": table_statuses(tournament), "query": query, "found": found,
        "draw": drawn_series(tournament, series),
    })


@require_safe
@login_required
def entrant_link(request: HttpRequest, pk: int, entrant: int) -> HttpResponse:
    """An entrant's receipt with his personal "Mein Platz" link as a QR code and address
    (issue 35): for a player registered at the desk, who got no registration mail. The
    organiser's (the link shows the entrant's seat and nothing that records)."""
    tournament, _member = tournament_for(request, pk, admin=True)
    who = entrant_of(tournament, entrant)
    if who is None:
        raise Http404
    url = request.build_absolute_uri(reverse("scoring:seat-key", args=[who.seat_key]))
    response = render(request, "scoring/tournament/entrant_link.html", {
        "tournament": tournament, "club": tournament.club, "entrant": who, "url": url,
        "qr": qr_svg(url, title=_("QR code: your table and seat on your phone"))})
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
@login_required
def seats_pdf(request: HttpRequest, pk: int, series: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)
    return pdf_response(request, documents.seat_list(
        tournament, _series(tournament, series), _lang()))


@require_safe
@login_required
def cards_pdf(request: HttpRequest, pk: int, series: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)

    def card(table: Table) -> documents.Card:
        url = request.build_absolute_uri(reverse("scoring:code", args=[table.access_code]))
        return documents.Card(table, format_code(table.access_code), url, qr_png_uri(url),
                              _("QR code for table %(number)d") % {"number": table.number})

    return pdf_response(request, documents.table_cards(
        tournament, _series(tournament, series), _lang(), card,
        origin=request.build_absolute_uri("/")))


@require_safe
@login_required
def list_pdf(request: HttpRequest, pk: int, series: int, number: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)
    if not has_table(tournament, series, number):
        raise Http404
    blank = request.GET.get("blank") == "1"
    return pdf_response(request, documents.standard_list(tournament, series, number, blank,
                                                         _lang()))


def _after(request: HttpRequest) -> int | None:
    raw = request.GET.get("after", "")
    return int(raw) if raw.isdigit() and len(raw) < 4 else None


@require_safe
@login_required
def results(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, member = tournament_for(request, pk)
    ranking = tournament_ranking(tournament, _after(request))
    query = request.GET.get("q", "").strip()[:100]
    # a page of the ranking (issue 24): the full list is the CSV's and the PDF's
    page = Paginator(ranking_search(ranking.rows, query), RANKING_PER_PAGE).get_page(
        request.GET.get("page"))
    return render(request, "scoring/tournament/results.html", {
        "tournament": tournament, "club": tournament.club, "ranking": ranking,
        "is_admin": member.role == Membership.Role.ADMIN,
        "drawn": range(1, len(ranking.progress) + 1),
        "page": page, "query": query, "mine": place_page(ranking.rows, request.user.pk),
        # the series counted, kept by the search and the page links
        "after_param": "" if ranking.after == len(ranking.progress)
        else f"after={ranking.after}&",
    })


@require_safe
@login_required
def results_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk)
    return pdf_response(request, documents.rankings(tournament, _after(request), _lang()))


@require_safe
@login_required
def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The ranking as CSV (UTF-8 with BOM, semicolons: what a German spreadsheet opens)."""
    tournament, _member = tournament_for(request, pk)
    ranking = tournament_ranking(tournament, _after(request))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        True, f"rangliste-{tournament.date:%Y-%m-%d}.csv") or ""
    numbers = ranking.series_numbers
    key = request.GET.get("list", "")
    if key:  # one of the other prize lists (issue 24): a category, the teams, the tandems
        found = next((p for p in ranking.prize_lists if p.key == key), None)
        if found is None:
            raise Http404
        response["Content-Disposition"] = content_disposition_header(
            True, f"rangliste-{tournament.date:%Y-%m-%d}-{found.key}.csv") or ""
        response.write(csv_text(prize_list_rows(found, numbers), delimiter=";"))
        return response
    rows: list[list[object]] = [
        [_("Place"), _("No."), _("Player"), _("Club"), _("Category"), _("Team"), _("Tandem"),
         *[_("Series %(number)d") % {"number": n} for n in numbers],
         _("Points"), _("won"), _("lost"), _("Fees"), _("Prize money")]]
    for row in ranking.rows:
        rows.append([row.rank, row.entrant.number, row.name, row.entrant.home_club,
                     row.entrant.category, row.entrant.team, row.entrant.tandem,
                     *[row.series.get(n, "") for n in numbers], row.score, row.won,
                     row.lost, _csv_money(row.fees), _csv_money(row.prize)])
    # names, clubs, teams as typed: through the one CSV writer that keeps formulas text
    response.write(csv_text(rows, delimiter=";"))
    return response


def prize_list_rows(found: PrizeList, numbers: list[int]) -> list[list[object]]:
    """A category's players, or the teams or tandems, with their prizes, as CSV rows."""
    rows: list[list[object]] = []
    if found.kind == "category":
        rows.append([_("Place"), _("No."), _("Player"), _("Club"),
                     *[_("Series %(number)d") % {"number": n} for n in numbers],
                     _("Points"), _("won"), _("lost"), _("Prize money"), _("Paid")])
        for row in found.rows:
            assert isinstance(row, Row)
            rows.append([row.rank, row.entrant.number, row.name, row.entrant.home_club,
                         *[row.series.get(n, "") for n in numbers], row.score, row.won,
                         row.lost, _csv_money(row.prize),
                         _("yes") if row.entrant.paid else _("no")])
        return rows
    rows.append([_("Place"), _("Name"), _("Players"), _("Points"), _("won"), _("lost"),
                 _("Prize money")])
    for group in found.rows:
        assert isinstance(group, Group)
        rows.append([group.rank, group.name, ", ".join(m.name for m in group.members),
                     group.score, group.won, group.lost, _csv_money(group.prize)])
    return rows


def _csv_money(value: Decimal) -> str:
    return f"{value:.2f}".replace(".", ",") if _lang() == "de" else f"{value:.2f}"


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/tournaments/new/", tournament_create, name="tournament-create"),
    path("tournaments/<int:pk>/", tournament_page, name="tournament"),
    path("tournaments/<int:pk>/entrants/<int:entrant>/", entrant_action,
         name="tournament-entrant"),
    path("tournaments/<int:pk>/entrants/<int:entrant>/link/", entrant_link,
         name="tournament-entrant-link"),
    path("tournaments/<int:pk>/settings/", tournament_settings, name="tournament-settings"),
    path("tournaments/<int:pk>/draw/", series_draw, name="tournament-draw"),
    path("tournaments/<int:pk>/series/<int:series>/seats/", series_seats,
         name="tournament-seats"),
    path("tournaments/<int:pk>/series/<int:series>/seats.pdf", seats_pdf,
         name="tournament-seats-pdf"),
    path("tournaments/<int:pk>/series/<int:series>/cards.pdf", cards_pdf,
         name="tournament-cards-pdf"),
    path("tournaments/<int:pk>/series/<int:series>/tables/<int:number>/list.pdf", list_pdf,
         name="tournament-list-pdf"),
    path("tournaments/<int:pk>/results/", results, name="tournament-results"),
    path("tournaments/<int:pk>/results.pdf", results_pdf, name="tournament-results-pdf"),
    path("tournaments/<int:pk>/results.csv", results_csv, name="tournament-results-csv"),
]
