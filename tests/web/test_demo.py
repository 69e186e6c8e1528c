"""`manage.py demo`: the club `make run` shows, with a played evening at two tables."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db.models import RestrictedError
from django.test import Client
from django.urls import reverse

from scoring.models import AuditEntry, Club, Membership, Table
from scoring.reads.sheet import table_sheet, tables_with_everything

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_played_evening_at_a_3_and_a_4_table() -> None:
    out = io.StringIO()
    call_command("demo", stdout=out)
    club = Club.objects.get(slug="demo")
    assert "log in as 'demo'" in out.getvalue()
    assert Membership.objects.get(club=club, user__username="demo").role == "admin"
    tables = tables_with_everything(Table.objects.filter(evening__club=club)).order_by("number")
    sheets = [table_sheet(t, "de") for t in tables]
    assert [len(s.players) for s in sheets] == [3, 4]
    assert all(s.error is None and len(s.rows) > 30 for s in sheets)
    assert any(r.bock for s in sheets for r in s.rows), "the club-evening rules play Bock"
    assert AuditEntry.objects.filter(evening__club=club).count() == sum(len(s.rows) for s in sheets)


def test_running_it_again_changes_nothing() -> None:
    call_command("demo", stdout=io.StringIO())
    count = AuditEntry.objects.count()
    call_command("demo", stdout=io.StringIO())
    assert AuditEntry.objects.count() == count and Club.objects.filter(slug="demo").count() == 1


def test_reset_rebuilds_the_demo() -> None:
    call_command("demo", stdout=io.StringIO())
    first = set(Table.objects.values_list("pk", flat=True))
    call_command("demo", "--reset", stdout=io.StringIO())
    assert Club.objects.filter(slug="demo").count() == 1
    assert first.isdisjoint(Table.objects.values_list("pk", flat=True))


@pytest.mark.slow  # two builds of 700 deals through the services
def test_the_demo_league_has_a_played_match_day_and_one_under_way() -> None:
    """`make demo`'s second step, the club's team in its district league (demo/league.py):
    last week's match day played and signed, today's with series 1 seated and under way;
    run again it changes nothing, --reset builds it anew."""
    from django.core.management.base import CommandError

    from scoring.models import Deal, MatchDay
    from scoring.reads.league import day_progress, group_numbers, match_report

    with pytest.raises(CommandError, match="run manage.py demo first"):
        call_command("demo_league", stdout=io.StringIO())
    call_command("demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("demo_league", stdout=out)
    assert "Demo league created." in out.getvalue()
    played, running = MatchDay.objects.filter(group__league__club__slug="demo").order_by(
        "number")
    assert day_progress(played).finished(3) and match_report(played).signed
    progress = day_progress(running)
    assert progress.seated == 1 and progress.unfinished(1) is not None
    numbers = group_numbers(played.group)
    assert len(numbers.result.table) == 4
    assert sum(row.plus for row in numbers.result.table) == 3 * 6 + 6  # 3 series + 1 so far
    deals = Deal.objects.count()
    call_command("demo_league", stdout=io.StringIO())
    assert Deal.objects.count() == deals and MatchDay.objects.count() == 2
    call_command("demo_league", "--reset", stdout=io.StringIO())
    assert Deal.objects.count() == deals
    assert not MatchDay.objects.filter(pk__in=[played.pk, running.pk]).exists()


def test_a_player_who_sat_at_a_table_cannot_be_deleted_alone() -> None:
    """Deleting a whole club takes its players and seats with it; deleting one player who
    has played would tear holes in old score sheets and is refused."""
    call_command("demo", stdout=io.StringIO())
    table = Table.objects.first()
    assert table is not None, "the demo has tables"
    seat = table.seats.first()
    assert seat is not None, "its tables have seats"
    player = seat.player
    with pytest.raises(RestrictedError):
        player.delete()


def test_the_demo_evening_opens_a_season_whose_table_shows_its_players(client: Client) -> None:
    call_command("demo", stdout=io.StringIO())
    club = Club.objects.get(slug="demo")
    season = club.seasons.get()
    assert season.evenings.count() == 1
    client.force_login(Membership.objects.get(club=club).user)
    page = client.get(reverse("scoring:season", args=[season.pk])).content.decode()
    assert all(name in page for name in ("Jürgen", "Käthe", "Björn", "Özlem", "Heinz"))
