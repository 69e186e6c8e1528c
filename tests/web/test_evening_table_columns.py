"""The evening overview's table (django-tables2) with its series columns: rendered, it warns
nothing."""

from __future__ import annotations

import warnings

import pytest

from scoring.demo.season import build_season
from scoring.models import Evening
from scoring.reads.standings import evening_ranking
from scoring.views.tables import evening_table

pytestmark = pytest.mark.django_db


def test_the_evening_table_with_series_columns_warns_nothing() -> None:
    build_season(evenings=1, tables=2, series=2, seed=5)
    evening = Evening.objects.get()
    ranking = evening_ranking(evening)
    assert len(ranking.series_numbers) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        table = evening_table(ranking, None)
    row = table.rows[0]
    series = ranking.rows[0].series
    assert [row.get_cell(f"series_{n}") for n in (1, 2)] == [series[1], series[2]]
