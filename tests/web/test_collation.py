"""Names sorted as a reader expects (issue 12, point 6.7): "Änne" with the A, "Özlem" with
the O, "Groß" as "Gross", on the club page, the season table, the rankings' ties and the
forms' choices. The database's byte order would put every umlaut after "Z"."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, cast

import pytest
from django import forms
from django.test import Client
from django.urls import reverse

from scoring.collation import by_name, name_key
from scoring.forms.club import TableForm
from scoring.forms.season import SeriesForm
from scoring.models import Club, Player
from scoring.reads.sheet import evening_ranking, evening_tables, table_sheet
from scoring.reads.standings import season_standings

from .factories import login, make_club
from .seasons import make_evening, make_season, player, seat_and_play

pytestmark = pytest.mark.django_db
READING_ORDER = ["Anna", "Änne", "Bernd", "Groß", "Grosz", "Otto", "Özlem", "Ulf", "Üwe",
                 "Zoë"]


def test_the_sort_key_folds_umlauts_accents_and_sharp_s() -> None:
    shuffled = ["Zoë", "Üwe", "Özlem", "Änne", "Ulf", "Grosz", "Otto", "Groß", "Bernd", "Anna"]
    assert sorted(shuffled, key=name_key) == READING_ORDER
    assert sorted(["änne", "Anna", "ANNE"], key=name_key) == ["Anna", "ANNE", "änne"]
    assert name_key("Groß")[0] == "gross"


def people(club: Club) -> list[Player]:
    Player.objects.filter(club=club).delete()
    return [Player.objects.create(club=club, name=name) for name in reversed(READING_ORDER)]


def order_in(html: str, names: list[str]) -> list[str]:
    found = sorted((html.index(f">{name}<"), name) for name in names if f">{name}<" in html)
    return [name for _at, name in found]


def test_the_club_page_lists_players_in_reading_order(client: Client) -> None:
    club = make_club()
    people(club)
    login(client, club)
    html = client.get(reverse("scoring:club", args=[club.slug])).content.decode()
    assert order_in(html, READING_ORDER) == READING_ORDER


def choice_pairs(field: forms.Field) -> Iterable[tuple[Any, Any]]:
    """A choice field's (value, label) pairs, as its widget offers them."""
    assert isinstance(field, forms.ChoiceField)
    # django-stubs types the getter with the setter's inputs (a mapping, a Choices class);
    # Django has normalised those to (value, label) pairs by the time it is read.
    return cast(Iterable[tuple[Any, Any]], field.choices)


def test_the_forms_offer_players_in_reading_order() -> None:
    club = make_club()
    people(club)
    Player.objects.filter(club=club, name="Anna").update(guest=True)
    series = SeriesForm(club=club)
    labels = [str(label).split(" (")[0]
              for _value, label in choice_pairs(series.fields["players"])]
    assert labels == [n for n in READING_ORDER if n != "Anna"] + ["Anna"]  # guests last
    table = TableForm(club=club)
    labels = [str(label).split(" (")[0] for value, label in choice_pairs(table.fields["seat_0"])
              if value]
    assert labels == READING_ORDER


def test_ties_are_broken_in_reading_order_in_every_ranking(client: Client) -> None:
    club = make_club()
    season = make_season(club)
    evening = make_evening(season, 1)
    # Özlem and Otto both win one game with 1, Änne and Bernd both too: four equal scores
    seat_and_play(evening, [player(club, n) for n in ["Özlem", "Bernd", "Otto", "Änne"]],
                  {0: [(1, True)], 1: [(1, True)], 2: [(1, True)], 3: [(1, True)]})
    expected = ["Änne", "Bernd", "Otto", "Özlem"]
    standings = season_standings(season)
    assert [row.name for row in standings.rows] == expected
    sheets = [table_sheet(t, "de") for t in evening_tables(evening)]
    assert [s.name for s in evening_ranking(evening, sheets)] == expected
    login(client, club)
    for query in ("", "?sort=name"):
        html = client.get(reverse("scoring:season", args=[season.pk]) + query).content.decode()
        names = [n for n in re.findall(r">([^<>]+)</a>", html) if n in expected]
        assert names == expected, query


def test_by_name_takes_any_name() -> None:
    assert by_name(["Özlem", "Otto", "Anna"], name=str) == ["Anna", "Otto", "Özlem"]
