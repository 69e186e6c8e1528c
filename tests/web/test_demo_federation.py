"""`manage.py demo_federation` at a small size (the benchmark builds 300 clubs on
PostgreSQL): every table is a played series the engine accepts, its table scores are those
the engine derives from its deals, the federation ranking is ready, and a second run keeps
the clubs that exist and adds the missing ones."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from scoring.engine import evaluate_table
from scoring.models import AuditEntry, Club, Deal, Evening, Table, TableScore
from scoring.reads.federation import federation_ranking, recomputed
from scoring.reads.sheet import table_document
from scoring.writes import scores

pytestmark = pytest.mark.django_db

SMALL = ["--evenings", "3", "--tables", "2", "--rounds", "2", "--pool", "2", "--year", "2026"]


def _flat(ranking: object) -> list[tuple[int, int | None, int, int, int]]:
    return [(r.player_id, r.rank, r.score, r.won, r.evenings)
            for r in ranking.ranked]  # type: ignore[attr-defined]


def test_a_small_federation() -> None:
    out = io.StringIO()
    call_command("demo_federation", "--clubs", "2", *SMALL, stdout=out)
    assert "2 clubs built, 0 kept" in out.getvalue()
    assert Club.objects.filter(slug__startswith="fed-").count() == 2
    assert Evening.objects.count() == 2 * 3
    tables = Table.objects.all()
    assert tables.count() == 2 * 3 * 2
    deals = Deal.objects.count()
    # a series of 2 rounds: 8 deals at a 4-table, 6 at a 3-table
    assert 12 * 6 <= deals <= 12 * 8
    assert AuditEntry.objects.filter(action="create").count() == deals
    for table in tables.select_related("evening"):
        assert table.version == table.deals.count()
        evaluate_table(table_document(table))  # raises if the engine refuses a deal
    kept = sorted(TableScore.objects.values_list("table_id", "player_id", "seeger_fabian",
                                                 "points", "won", "lost"))
    assert len(kept) == sum(t.seats.count() for t in tables)
    scores.rebuild(Table.objects.all())  # the engine's scores of the stored deals
    assert sorted(TableScore.objects.values_list("table_id", "player_id", "seeger_fabian",
                                                 "points", "won", "lost")) == kept
    assert _flat(federation_ranking(2026, 1)) == _flat(recomputed(2026, 1))
    assert federation_ranking(2026, 1).clubs == 2


def test_a_second_run_keeps_the_clubs_and_adds_the_missing() -> None:
    call_command("demo_federation", "--clubs", "1", *SMALL, stdout=io.StringIO())
    first = list(Deal.objects.order_by("pk").values_list("pk", "record"))
    out = io.StringIO()
    call_command("demo_federation", "--clubs", "3", "--chunk", "1", *SMALL, stdout=out)
    assert "2 clubs built, 1 kept" in out.getvalue()
    assert list(Deal.objects.order_by("pk").values_list("pk", "record"))[:len(first)] == first
    assert Club.objects.filter(slug__startswith="fed-").count() == 3


def test_bad_sizes_are_refused() -> None:
    from django.core.management.base import CommandError
    with pytest.raises(CommandError, match="--clubs"):
        call_command("demo_federation", "--clubs", "0", stdout=io.StringIO())
    assert not Club.objects.exists()
