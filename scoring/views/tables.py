"""Sortable rankings (django-tables2): the season table and the evening ranking.

Both are made of the same rows (standings.Standing), so they share their columns; a table
leaves out what does not apply (dropped results without best N, game points when they are
what ranks anyway, money when nobody played for money). The rows come ranked; a click on a
column heading sorts by it (?sort=…), and "Place" sorts back to the ranking.

django-tables2 chooses the columns, sorts the rows and draws the headings. The cells are
written here in Python (``body_html``): tables2 renders each cell through a call that
inspects the render function's signature, which cost some 40 ms for a season table of 60
players, more than computing the whole season.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import django_tables2 as tables
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from scoring.notation import decimal1, money, money_sign, points, sign_class
from scoring.reads.standings import EveningRanking, SeasonStandings, Standing

TEMPLATE = "scoring/season/_table.html"
NUM = {"th": {"class": "num"}}


def _number(value: Any, extra: str = "") -> tuple[str, str]:
    return points(value), f"num {extra} {sign_class(value)}".strip()


# How each column's cell reads: record -> (escaped text, classes).
CELLS: dict[str, Callable[[Standing], tuple[str, str]]] = {
    "rank": lambda r: (f"{r.rank}." if r.rank is not None else "–", "num place"),
    # an asterisk: some of the evenings are totals imported from paper (see the table note)
    "evenings": lambda r: (f"{r.evenings}*" if r.paper else str(r.evenings), "num"),
    "score": lambda r: _number(r.score, "score"),
    "total": lambda r: _number(r.total),
    "dropped": lambda r: (str(r.dropped), "num"),
    "average": lambda r: (decimal1(r.average), f"num {sign_class(r.average)}".strip()),
    "games": lambda r: (str(r.games), "num"),
    "won": lambda r: (str(r.won), "num"),
    "lost": lambda r: (str(r.lost), "num"),
    "points": lambda r: _number(r.points),
    "money": lambda r: (escape(money(r.money)), f"num {money_sign(r.money)}".strip()),
}


# django-tables2 ships no type information, so its Table is Any to mypy.
class RankingTable(tables.Table):  # type: ignore[misc]
    rank = tables.Column(verbose_name=_("Place"), order_by=("position",), attrs=NUM)
    name = tables.Column(verbose_name=_("Player"), order_by=("name_sort",), accessor="name")
    evenings = tables.Column(verbose_name=_("Evenings"), attrs=NUM)
    score = tables.Column(verbose_name=_("Score"), attrs=NUM)
    total = tables.Column(verbose_name=_("All evenings"), attrs=NUM)
    dropped = tables.Column(verbose_name=_("Dropped"), attrs=NUM)
    average = tables.Column(verbose_name=_("Average"), attrs=NUM)
    games = tables.Column(verbose_name=_("Games"), attrs=NUM)
    won = tables.Column(verbose_name=_("won"), attrs=NUM)
    lost = tables.Column(verbose_name=_("lost"), attrs=NUM)
    points = tables.Column(verbose_name=_("Game points"), attrs=NUM)
    money = tables.Column(verbose_name=_("Money"), order_by=("money_sort",), attrs=NUM)

    class Meta:
        template_name = TEMPLATE
        orderable = True
        attrs = {"class": "ranking"}
        empty_text = _("No results yet.")

    def __init__(self, data: list[Standing], *, player_url: Callable[[Standing], str] | None,
                 **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.player_url = player_url

    def name_html(self, record: Standing) -> str:
        # the standard library's escape (what Django's escape calls) on plain strings: a
        # thousand rows skip Django's checks for lazy text
        name = html.escape(record.name)
        if self.player_url is None:
            return name
        return f'<a href="{html.escape(self.player_url(record))}">{name}</a>'

    def body_html(self) -> SafeString:
        """The rows, in the order asked for, with the columns shown."""
        names = [column.name for column in self.columns]
        out = []
        for row in self.rows:
            record: Standing = row.record
            cells = []
            for name in names:
                if name == "name":
                    cells.append(f'<th scope="row">{self.name_html(record)}</th>')
                    continue
                cell = CELLS.get(name)
                text, classes = cell(record) if cell else series_cell(record, name)
                cells.append(f'<td class="{classes}">{text}</td>')
            css = "" if record.ranked else ' class="unranked"'
            out.append(f"<tr{css}>{''.join(cells)}</tr>")
        # Safe: names are escaped, every other text is a formatted number or escaped.
        return mark_safe("".join(out))


def series_cell(record: Standing, name: str) -> tuple[str, str]:
    """The cell of a "series_N" column: the player's result in that series."""
    number = int(name.removeprefix("series_"))
    value = record.series.get(number)
    return ("" if value is None else points(value)), f"num {sign_class(value)}".strip()


class SeasonTable(RankingTable):
    """The season table: every player of the season, ranked ones first."""

    class Meta(RankingTable.Meta):
        sequence = ("rank", "name", "evenings", "score", "total", "dropped", "average",
                    "games", "won", "lost", "points", "money")


def season_table(standings: SeasonStandings, player_url: Callable[[Standing], str] | None,
                 ) -> SeasonTable:
    season = standings.season
    exclude = []
    if season.best_of is None:
        exclude += ["total", "dropped"]
    if season.evaluation == season.Evaluation.CLASSIC:
        exclude.append("points")
    if not standings.money:
        exclude.append("money")
    return SeasonTable(standings.rows, player_url=player_url, exclude=exclude)


class EveningTable(RankingTable):
    """The evening ranking (Tagesrangliste): every series, then the evening's result."""

    class Meta(RankingTable.Meta):
        sequence = ("rank", "name", "...", "score", "games", "won", "lost", "points", "money")


def evening_table(ranking: EveningRanking, player_url: Callable[[Standing], str] | None,
                  ) -> EveningTable:
    exclude = ["evenings", "total", "dropped", "average"]
    if ranking.evaluation == "classic":
        exclude.append("points")
    if not ranking.money:
        exclude.append("money")
    series = ranking.series_numbers
    extra = [(f"series_{n}", tables.Column(
        verbose_name=_("Series %(number)d") % {"number": n}, accessor=tables.A(f"series__{n}"),
        attrs=NUM, default="")) for n in series] if len(series) > 1 else []
    return EveningTable(ranking.rows, player_url=player_url, exclude=exclude,
                        extra_columns=extra)
