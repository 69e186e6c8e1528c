"""The season table as an A4 landscape PDF (WeasyPrint), for the club's notice board.

The same rows as the page (standings.season_standings), so paper and screen cannot disagree.
The document is one short table; its style is inline so nothing has to be fetched, and it is
rendered by the one renderer every PDF uses (scoring/pdf/documents.py), which fetches nothing
but data: URLs. Like every printed document it is rendered once per version of what it prints
and then served from the shared cache (``standings_document``): any member may ask for it, and
a season's table is the heaviest of them.
``render_pdf standings`` (management command) writes it from scripts.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db.models import Count, Max
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.text import slugify

from scoring.models import Player, Season, Seat
from scoring.pdf import documents
from scoring.reads.standings import counting_rule, season_standings, season_tables, tie_rule

# Bump when the printed season table changes, so that PDFs of the old layout are not served.
FORMAT = 1


def standings_html(season: Season, lang: str) -> str:
    with translation.override(lang):
        standings = season_standings(season)
        evenings = standings.evenings
        return render_to_string("scoring/season/standings_pdf.html", {
            "season": season, "club": season.club, "standings": standings,
            "last_evening": evenings[-1] if evenings else None,
            "counting_rule": counting_rule(season), "tie_rule": tie_rule(),
            "generated": timezone.localtime(), "lang": lang,
        })


def standings_pdf(season: Season, lang: str = "de") -> bytes:
    """Rendered afresh, past the cache (``render_pdf --no-cache``, tests)."""
    return documents.render(standings_document(season, lang)).pdf


def _state(season: Season) -> list[Any]:
    """Everything the season table prints, short of the deals, whose tables' versions (and
    counts and latest change, for a deal saved past the services) stand for them: the season,
    its club, its evenings, its tables, the seats and the players' names. Five queries."""
    tables = list(
        season_tables(season).order_by("pk")
        .annotate(deal_count=Count("deals"), deal_stamp=Max("deals__updated"))
        .values_list("pk", "version", "evening_id", "series", "number", "first_dealer",
                     "access_code", "deal_count", "deal_stamp"))
    seats = list(Seat.objects.filter(table__evening__season=season)
                 .order_by("table_id", "position").values_list("table_id", "player_id"))
    players = list(Player.objects.filter(club_id=season.club_id).order_by("pk")
                   .values_list("pk", "name", "guest"))
    evenings = list(season.evenings.order_by("pk").values())
    fields = [getattr(season, field.attname) for field in Season._meta.concrete_fields]
    return [fields, season.club.name, season.club.slug, evenings, tables, seats, players]


def standings_document(season: Season, lang: str = "de") -> documents.Document:
    from weasyprint import __version__ as weasyprint_version

    state = [FORMAT, weasyprint_version, "standings", lang, _state(season)]
    digest = hashlib.sha256(
        json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()
    return documents.Document(
        "standings", f"skatclub-pdf:standings:{season.pk}:{digest}",
        f"{slugify(f'{season.club.slug} {season.name}') or 'season'}.pdf",
        lambda: standings_html(season, lang), house_style=False)
