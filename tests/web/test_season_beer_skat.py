"""A Beer Skat evening stays out of a classic season: no form puts it into one, and one found
there is not counted as classic."""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation

from scoring.models import Club, Evening, Table
from scoring.reads.standings import evening_ranking

from .factories import make_club

pytestmark = pytest.mark.django_db


def _beer_evening_with_a_table(club: Club) -> tuple[Evening, Table]:
    """A Beer Skat evening (in no season) where Bernd won a Solo worth 24: Anna and Clara are
    charged 24 each, Bernd nothing (DECISIONS §3)."""
    from scoring.models import RuleProfile
    from scoring.writes.services import Actor, deal_record, evening_create, table_create

    from .seasons import START

    profile = RuleProfile.objects.create(club=club, name="Bierskat", rules="american1898",
                                         scoring="beer", stake="0")
    evening = evening_create(club=club, date=START + datetime.timedelta(days=3),
                             profile=profile)
    table = table_create(evening=evening, players=list(club.players.order_by("name")[:3]))
    deal_record(table=table, expected_version=0, actor=Actor(None, "test"), record={
        "kind": "game", "declarer": 1, "game": "solo_clubs", "matadors": 1, "bid": 18,
        "declarer_points": 70})
    return evening, table


def test_a_beer_skat_evening_cannot_be_put_into_a_season_by_any_form() -> None:
    """DECISIONS §3: Beer Skat counts up and the lowest count wins, a season ranks the
    highest score first; the two cannot be added up, so a Beer Skat evening stays out of
    seasons. The model says so, so that every form (the admin's too) refuses it."""
    from django.core.exceptions import ValidationError

    from .seasons import make_season

    club = make_club()
    evening, _table = _beer_evening_with_a_table(club)
    evening.season = make_season(club, "classic")
    with pytest.raises(ValidationError) as refused:
        evening.full_clean()
    assert "season" in refused.value.message_dict
    with translation.override("de"):
        assert "Bierskat-Abend" in str(ValidationError(refused.value.message_dict["season"]))


def test_a_beer_skat_evening_found_in_a_classic_season_is_not_counted_as_classic() -> None:
    """One put there before the model refused it (or by hand in the database): the season
    table leaves it out and says why; its own ranking still puts the lowest count first."""
    from scoring.reads.standings import season_standings

    from .seasons import make_season, seat_and_play

    club = make_club()
    season = make_season(club, "classic")
    evening, table = _beer_evening_with_a_table(club)
    Evening.objects.filter(pk=evening.pk).update(season=season)
    anna, bernd, clara = (s.player for s in table.seats.order_by("position"))
    classic = Evening.objects.create(club=club, date=evening.date, rules="isko",
                                     scoring="classic", season=season)
    seat_and_play(classic, [anna, bernd, clara], {0: [(1, True)]})  # Anna +24
    standings = season_standings(season)
    assert [(r.player.name, r.score) for r in standings.rows] == [
        (anna.name, 24), (bernd.name, 0), (clara.name, 0)]
    assert [e.pk for e in standings.evenings] == [classic.pk]
    with translation.override("en"):
        messages = [str(p.message) for p in season_standings(season).problems]
    assert messages == ["A Beer Skat evening: its lowest count wins, so it does not count "
                        "toward the season."]
    evening.refresh_from_db()
    ranking = evening_ranking(evening)
    assert [(r.player.name, r.score, r.rank) for r in ranking.rows] == [
        (bernd.name, 0, 1), (anna.name, 24, 2), (clara.name, 24, 2)]
