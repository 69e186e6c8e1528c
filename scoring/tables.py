"""Sortable rankings (django-tables2): the season table and the evening ranking.

Both are made of the same rows (standings.Standing), so they share their columns; a table
leaves out what does not apply (dropped results without best N, game points when they are
what ranks anyway, money when nobody played for money). The rows come ranked; a click on a
column heading sorts by it (?sort=…), and "Place" sorts back to the ranking.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.standings import EveningRanking, SeasonStandings, Standing
from scoring.templatetags.season_tags import decimal1, money, money_sign, points, sign_class

TEMPLATE = "scoring/season/_table.html"


def _num(**more: Any) -> dict[str, Any]:
    """Cell attributes of a number column: right-aligned, red when negative."""
    return {"th": {"class": "num"}, "td": {"class": lambda value: f"num {sign_class(value)}"},
            **more}


class RankingTable(tables.Table):
    rank = tables.Column(verbose_name=_("Place"), order_by=("position",),
                         attrs={"th": {"class": "num"}, "td": {"class": "num place"}})
    name = tables.Column(verbose_name=_("Player"), order_by=("name",), accessor="name")
    evenings = tables.Column(verbose_name=_("Evenings"), attrs=_num())
    score = tables.Column(verbose_name=_("Score"), attrs={
        "th": {"class": "num"}, "td": {"class": lambda value: f"num score {sign_class(value)}"}})
    total = tables.Column(verbose_name=_("All evenings"), attrs=_num())
    dropped = tables.Column(verbose_name=_("Dropped"), attrs=_num())
    average = tables.Column(verbose_name=_("Average"), attrs=_num())
    games = tables.Column(verbose_name=_("Games"), attrs=_num())
    won = tables.Column(verbose_name=_("won"), attrs=_num())
    lost = tables.Column(verbose_name=_("lost"), attrs=_num())
    points = tables.Column(verbose_name=_("Game points"), attrs=_num())
    money = tables.Column(verbose_name=_("Money"), order_by=("money_sort",), attrs={
        "th": {"class": "num"}, "td": {"class": lambda record: f"num {money_sign(record.money)}"}})

    class Meta:
        template_name = TEMPLATE
        orderable = True
        attrs = {"class": "ranking"}
        row_attrs = {"class": lambda record: "" if record.ranked else "unranked"}
        empty_text = _("No results yet.")

    def __init__(self, data: list[Standing], *, player_url: Callable[[Standing], str] | None,
                 **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.player_url = player_url

    def render_rank(self, value: int | None) -> str:
        return f"{value}." if value is not None else "–"

    def render_name(self, record: Standing) -> str:
        if self.player_url is None:
            return record.name
        return format_html('<a href="{}">{}</a>', self.player_url(record), record.name)

    def render_score(self, value: int) -> str:
        return points(value)

    render_total = render_points = render_score

    def render_average(self, value: Any) -> str:
        return decimal1(value)

    def render_money(self, record: Standing) -> str:
        return money(record.money)


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


class SeriesColumn(tables.Column):
    """A series' result in the evening ranking ("Series 1")."""

    def __init__(self, number: int) -> None:
        super().__init__(verbose_name=_("Series %(number)d") % {"number": number},
                         accessor=tables.A(f"series.{number}"), attrs=_num(), default="")
        self.number = number

    def render(self, value: int) -> str:
        return points(value)


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
    extra = [(f"series_{n}", SeriesColumn(n)) for n in series] if len(series) > 1 else []
    return EveningTable(ranking.rows, player_url=player_url, exclude=exclude,
                        extra_columns=extra)
