"""A team league's printed documents (issue 25), each rendered by the one renderer
(pdf/documents.py, weasy.py) once per version of what it prints and then served from the
shared cache:

- the match-day report (Spielbericht): the day's head, the line-ups per series (a player who
  came in for the series marked), each series' tables and team scores, the day's table and
  the captains' signatures (signed: by whom, when and how; unsigned: a line on paper);
- the league table of a group: place, team, plus:minus, Spielpunkte and each match day's plus
  points;
- the players' ranking of a group: place, name, team, Spielpunkte, won, lost, series.

Every number comes from ``reads.league`` (``match_report``, ``group_numbers``,
``player_ranking``), the source of the pages too: nothing is computed here but the words
and the layout. The short lists (line-ups, team scores, the day's and the league table) are
HTML tables in the house style (print.css); the long ones, the players' ranking (some 80
players in a group of 18 teams) and each series' tables (a line per player), are grids as the
tournament's ranking is (pdf/grid.py, pdf/tournament.py's ``flowing_grid``): WeasyPrint lays
out an HTML table cell by cell, a grid block by block (bench/league.py: a report of five
teams took 2.7 s as HTML tables, 0.5 s with the grids).

The cache key is a digest of everything printed short of the deals (the league's version,
which moves with teams, calendar, line-ups, seating and signatures; the names; the days),
and of the group's tables' versions, deal counts and latest changes, which every saved deal
moves: seven queries, whatever the number of teams and days.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.models import (
    POSITIONS,
    League,
    LeagueGroup,
    MatchDay,
    ReportSignature,
    Table,
    TeamPlayer,
)
from scoring.notation import match_point, minus
from scoring.pdf import grid
from scoring.pdf.documents import Document
from scoring.pdf.tournament import FlowingGrid, flowing_grid
from scoring.reads.league import (
    GroupNumbers,
    PlayerRow,
    Report,
    ReportTable,
    group_numbers,
    match_report,
    player_ranking,
)

# Bump when a printed layout changes, so that PDFs of the old layout are not served.
FORMAT = 1
LIST_MOST_PT = 10.0  # the players' ranking, read on the club's notice board
REPORT_MOST_PT = 8.5  # the report's series tables


def _width(texts: list[str], title: str, least: int, most: int) -> int:
    """A grid column's width in characters: its title's on one line, its longest text's up
    to ``most``."""
    longest = max((len(t) for t in texts), default=0)
    return max(least, len(grid.grid_text(title)), min(most, longest))


def _stamp() -> str:
    return _("Skatclub · as of %(when)s") % {
        "when": date_format(timezone.localtime(), "SHORT_DATETIME_FORMAT")}


def _head(league: League, group: LeagueGroup) -> str:
    return f"{league.club.name} · {league.name} {league.season} · {group.name}"


# ------------------------------------------------------------------ the cache key

def _state(group: LeagueGroup) -> list[Any]:
    """What a document of this group prints, short of the deals: seven queries."""
    league = League.objects.filter(pk=group.league_id).values_list(
        "version", "name", "season", "binding_days", "club__name").get()
    teams = list(group.teams.order_by("pk").values_list("pk", "name", "club_name"))
    players = list(TeamPlayer.objects.filter(team__group=group).order_by("pk").values_list(
        "team_id", "player_id", "player__name", "position", "captain"))
    days = list(group.days.order_by("pk").values_list(
        "pk", "number", "date", "host__name", "venue", "evening_id"))
    meets = list(MatchDay.teams.through.objects.filter(matchday__group=group)
                 .order_by("pk").values_list("matchday_id", "team_id"))
    tables = list(Table.objects.filter(evening__match_day__group=group).order_by("pk")
                  .annotate(deal_count=Count("deals"), deal_stamp=Max("deals__updated"))
                  .values_list("pk", "version", "series", "number", "deal_count",
                               "deal_stamp"))
    signatures = list(ReportSignature.objects.filter(match_day__group=group).order_by("pk")
                      .values_list("match_day_id", "team_id", "name", "where", "at"))
    return [league, group.name, teams, players, days, meets, tables, signatures]


def _key(kind: str, group: LeagueGroup, *extra: Any) -> str:
    from weasyprint import __version__ as weasyprint_version

    # today's date: a report turns binding by the calendar alone
    state = [FORMAT, weasyprint_version, kind, translation.get_language(),
             timezone.localdate(), *extra, _state(group)]
    digest = hashlib.sha256(
        json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()
    return f"skatclub-pdf:league-{kind}:{group.pk}:{digest}"


def _filename(league: League, *what: object) -> str:
    base = slugify(" ".join(str(w) for w in (league.name, league.season, *what)))
    return f"{base or 'league'}.pdf"


# ------------------------------------------------------------------ the match-day report

@dataclass(frozen=True)
class LineupRow:
    """A team's position in the line-ups: per series (name, came in for this series);
    ("", False) where the team played short."""

    team: str  # on the team's first row only
    position: int
    series: list[tuple[str, bool]]


@dataclass(frozen=True)
class SignatureLine:
    team: str
    captain: str
    signed: str  # "signed by …, date time, on the tablet" or "" (a line to sign on paper)


def _lineups(report: Report, substitutes: set[tuple[str, str]]) -> list[LineupRow]:
    """The line-ups as one table: a row per team and position, a column per series. A
    player came in who was not in his team's line-up of the series before (a substitute, or
    back from the bench), or, in series 1, who is a substitute of his team (``substitutes``:
    (team, name) of the players without a fixed position)."""
    numbers = sorted(report.lineups)
    if not numbers:
        return []
    rows = []
    for team in report.teams:
        at = {n: dict(report.lineups[n].get(team.name, [])) for n in numbers}
        for position in range(1, POSITIONS + 1):
            cells = []
            for n in numbers:
                name = at[n].get(position, "")
                if n - 1 in at:
                    came_in = bool(name) and name not in at[n - 1].values()
                else:
                    came_in = (team.name, name) in substitutes
                cells.append((name, came_in))
            rows.append(LineupRow(team.name if position == 1 else "", position, cells))
    return rows


def _signature_lines(report: Report) -> list[SignatureLine]:
    lines = []
    for team in report.teams:
        captain = report.captains.get(team.pk, "")
        signature = report.signatures.get(team.pk)
        signed = ""
        if signature is not None:
            how = (_("on the tablet") if signature.where == ReportSignature.Where.TABLET
                   else _("with his account"))
            signed = _("signed by %(name)s, %(when)s, %(how)s") % {
                "name": signature.name, "how": how,
                "when": date_format(timezone.localtime(signature.at),
                                    "SHORT_DATETIME_FORMAT")}
        if team.pk in report.stale:  # given to other numbers: to be signed again on paper
            signed = ""
            captain = _("%(captain)s; signed by %(name)s before a deal was corrected") % {
                "captain": captain, "name": signature.name if signature else ""}
        lines.append(SignatureLine(team.name, captain, signed))
    return lines


def series_grid(tables: list[ReportTable]) -> FlowingGrid:
    """A series' tables as one grid (pdf/grid.py): a line per player (table, name, team,
    Spielpunkte, won, lost), each table's lines kept together and ruled off below. A box per
    block of lines for WeasyPrint instead of one per cell (bench/league.py)."""
    titles = [_("Table"), _("Player"), _("Team"), _("Spielpunkte"),
              pgettext("result, short", "won"), pgettext("result, short", "lost")]
    seats = [(t.number if k == 0 else None, seat, k == len(t.seats) - 1)
             for t in tables for k, seat in enumerate(t.seats)]
    texts = [["" if n is None else str(n) for n, _s, _l in seats],
             [grid.grid_text(s.name) for _n, s, _l in seats],
             [grid.grid_text(s.team) for _n, s, _l in seats],
             [minus(s.points) for _n, s, _l in seats],
             [str(s.won) for _n, s, _l in seats], [str(s.lost) for _n, s, _l in seats]]
    left = (1, 2)
    columns = [grid.Column(_width(t, title, 1, 30 if k in left else 12),
                           "<" if k in left else ">", "" if k == 0 else "thin")
               for k, (t, title) in enumerate(zip(texts, titles, strict=True))]
    columns[3] = grid.Column(columns[3].width, ">", "thick")
    lines = [grid.Line([grid.cell(t[i]) for t in texts],
                       rule_below="round" if last else "thin", joined=number is None)
             for i, (number, _seat, last) in enumerate(seats)]
    return flowing_grid([(t, 1) for t in titles], columns, lines, REPORT_MOST_PT, shade=[3])


def report_html(day: MatchDay) -> str:
    report = match_report(day)
    league, group = report.league, day.group
    substitutes = set(TeamPlayer.objects.filter(team__in=report.teams, position__isnull=True)
                      .values_list("team__name", "player__name"))
    title = _("Match-day report")
    return render_to_string("scoring/pdf/league_report.html", {
        "report": report, "league": league, "group": group, "day": day,
        "lineups": _lineups(report, substitutes), "lineup_series": sorted(report.lineups),
        "signatures": _signature_lines(report),
        "series": [(s, series_grid(s.tables),
                    [(row, match_point(row.plus), match_point(row.minus)) for row in s.teams])
                   for s in report.series],
        "table": [(row, match_point(row.plus), match_point(row.minus)) for row in report.table],
        "title": title, "printed": _stamp(), "doc_label": title,
        "running_head": _head(league, group),
    })


def report_document(day: MatchDay) -> Document:
    league = day.group.league
    return Document("league-report", _key("report", day.group, day.pk),
                    _filename(league, day.group.name, day.number, day.date),
                    lambda: report_html(day))


# ------------------------------------------------------------------ the league table

@dataclass(frozen=True)
class LeagueTableRow:
    place: int
    team: str
    plus: str
    minus: str
    points: int
    days: list[str]  # per match-day number, the plus points ("" where the team did not meet)


def table_rows(numbers: GroupNumbers) -> tuple[list[int], list[LeagueTableRow]]:
    """The league table's rows and the match-day numbers of its columns. A match day played
    in several places (one number, a MatchDay each) is one column: a team meets at one
    place per number."""
    columns: dict[int, dict[str, float | int]] = defaultdict(dict)
    for day, result in zip(numbers.played, numbers.result.days, strict=True):
        for row in result.table:
            columns[day.number][row.team] = columns[day.number].get(row.team, 0) + row.plus
    order = sorted(columns)
    rows = [LeagueTableRow(row.place, row.team, match_point(row.plus), match_point(row.minus),
                           row.points,
                           [match_point(columns[n][row.team]) if row.team in columns[n] else ""
                            for n in order])
            for row in numbers.result.table]
    return order, rows


def table_html(group: LeagueGroup) -> str:
    numbers = group_numbers(group)
    order, rows = table_rows(numbers)
    league = group.league
    title = _("League table")
    return render_to_string("scoring/pdf/league_table.html", {
        "league": league, "group": group, "day_numbers": order, "rows": rows,
        "days": numbers.days, "played": numbers.played,
        "title": title, "printed": _stamp(), "doc_label": title,
        "running_head": _head(league, group),
    })


def table_document(group: LeagueGroup) -> Document:
    return Document("league-table", _key("table", group),
                    _filename(group.league, group.name, "tabelle"),
                    lambda: table_html(group))


# ------------------------------------------------------------------ the players' ranking

def players_grid(rows: list[PlayerRow]) -> FlowingGrid:
    """The ranking as a grid (pdf/grid.py, as the tournament's ranking): a box per block of
    lines for WeasyPrint instead of one per cell."""
    titles = [_("Place"), _("Player"), _("Team"), _("Spielpunkte"),
              pgettext("result, short", "won"), pgettext("result, short", "lost"),
              _("Series")]
    texts = [[f"{r.place}." for r in rows], [grid.grid_text(r.name) for r in rows],
             [grid.grid_text(r.team) for r in rows], [minus(r.points) for r in rows],
             [str(r.won) for r in rows], [str(r.lost) for r in rows],
             [str(r.series) for r in rows]]
    left = (1, 2)
    columns = [grid.Column(_width(t, title, 1, 30 if k in left else 12),
                           "<" if k in left else ">", "" if k == 0 else "thin")
               for k, (t, title) in enumerate(zip(texts, titles, strict=True))]
    columns[3] = grid.Column(columns[3].width, ">", "thick")
    lines = [grid.Line([grid.cell(t[i]) for t in texts], rule_below="thin")
             for i in range(len(rows))]
    return flowing_grid([(t, 1) for t in titles], columns, lines, LIST_MOST_PT, shade=[3])


def players_html(group: LeagueGroup) -> str:
    numbers = group_numbers(group)
    league = group.league
    title = _("Players' ranking")
    rows = player_ranking(numbers)
    return render_to_string("scoring/pdf/league_players.html", {
        "league": league, "group": group, "rows": rows, "grid": players_grid(rows),
        "played": numbers.played,
        "title": title, "printed": _stamp(), "doc_label": title,
        "running_head": _head(league, group),
    })


def players_document(group: LeagueGroup) -> Document:
    return Document("league-players", _key("players", group),
                    _filename(group.league, group.name, "spieler"),
                    lambda: players_html(group))

