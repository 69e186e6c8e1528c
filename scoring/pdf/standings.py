"""The season table as an A4 landscape PDF (WeasyPrint), for the club's notice board.

The same rows as the page (standings.season_standings), so paper and screen cannot disagree.
The document is one short table; its style is inline so nothing has to be fetched, and it is
rendered by the one renderer every PDF uses (scoring/pdf/documents.py), which fetches nothing
but data: URLs.
``render_pdf standings`` (management command) writes it from scripts.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone, translation

from scoring.models import Season
from scoring.pdf import documents
from scoring.reads.standings import counting_rule, season_standings, tie_rule


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
    # its own style, A4 across the page: not the house style of the other documents
    return documents.render_html(standings_html(season, lang), house_style=False).pdf
