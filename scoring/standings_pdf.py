"""The season table as an A4 landscape PDF (WeasyPrint), for the club's notice board.

The same rows as the page (standings.season_standings), so paper and screen cannot disagree.
The document is one short table; its style is inline so nothing has to be fetched.
``render_pdf standings`` (management command) calls ``standings_command``.
"""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from typing import Any, BinaryIO

from django.core.management.base import CommandError
from django.template.loader import render_to_string
from django.utils import timezone, translation

from scoring.models import Season
from scoring.standings import counting_rule, season_standings, tie_rule


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
    from weasyprint import HTML  # imported when needed: it takes half a second

    return HTML(string=standings_html(season, lang)).write_pdf()


# ---------------------------------------------------------------- render_pdf standings

def add_standings_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--season", type=int, required=True, help="the season's id")
    parser.add_argument("-o", "--output", required=True,
                        help="the PDF file to write, or - for standard output")
    parser.add_argument("--lang", choices=["de", "en"], default="de",
                        help="the language of the document (default: de)")


def standings_command(options: dict[str, Any], stdout: Any) -> None:
    season = Season.objects.select_related("club").filter(pk=options["season"]).first()
    if season is None:
        raise CommandError(f"There is no season with id {options['season']}.")
    pdf = standings_pdf(season, options["lang"])
    if options["output"] == "-":
        out: BinaryIO = sys.stdout.buffer
        out.write(pdf)
        out.flush()
        return
    with open(options["output"], "wb") as handle:
        handle.write(pdf)
    stdout.write(f"{options['output']}: the season table of {season.name} ({len(pdf)} bytes).")
