"""The season pages: the season table (sortable, constant queries, read back from its PDF),
a player's season, the evening ranking, seating a series from the page, season settings for
admins only, and the commands demo_season and render_pdf."""

from __future__ import annotations

import datetime
import io
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from scoring.demo.season import build_season
from scoring.models import Club, Deal, Evening, Player, Season, Table
from scoring.writes.services import evening_create, series_draw

from .factories import login, make_club, make_user
from .seasons import PASSED, game, make_evening, make_season, play, player, seat_and_play

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
W, L = True, False


def hand_made() -> tuple[Club, Season]:
    """A classic season of two evenings: A 24 + 72, B 48 − 48, C −48, D 24."""
    club = make_club()
    a, b, c, d = (player(club, n) for n in ("Anna", "Bert", "Cäcilie", "Dörte"))
    season = make_season(club, "classic", best_of=1, min_evenings=1)
    seat_and_play(make_evening(season, 1), [a, b, c], {0: [(1, W)], 1: [(3, W)], 2: [(1, L)]})
    seat_and_play(make_evening(season, 8), [a, b, d], {0: [(5, W)], 1: [(1, L)], 2: [(1, W)]})
    return club, season


def first_player(evening: Evening) -> Player:
    """The first seat's player of the evening's first table."""
    table = evening.tables.first()
    assert table is not None, "the evening has a table"
    seat = table.seats.first()
    assert seat is not None, "the table has seats"
    return seat.player


def body_names(html: str) -> list[str]:
    tbody = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<th scope="row"><a [^>]*>([^<]*)</a></th>', tbody)


# ---------------------------------------------------------------- the season table

def test_the_season_table_ranks_and_sorts(client: Client) -> None:
    club, season = hand_made()
    login(client, club)
    url = reverse("scoring:season", args=[season.pk])
    html = client.get(url, headers=EN).content.decode()
    # best of one evening: A 72, B 48, D 24, C −48
    assert body_names(html) == ["Anna", "Bert", "Dörte", "Cäcilie"]
    assert "Each player&#x27;s best evening counts." in html or "best evening counts" in html
    assert "\u221248" in html  # a real minus sign
    html = client.get(url, {"sort": "-total"}, headers=EN).content.decode()
    assert body_names(html) == ["Anna", "Dörte", "Bert", "Cäcilie"]  # 96, 24, 0, −48
    assert 'aria-sort="descending"' in html
    html = client.get(url, {"sort": "name"}, headers=EN).content.decode()
    assert body_names(html) == ["Anna", "Bert", "Cäcilie", "Dörte"]
    # each name links to that player's season page (the link is made once per table)
    for member in club.players.filter(name__in=["Anna", "Bert", "Cäcilie", "Dörte"]):
        link = reverse("scoring:season-player", args=[season.pk, member.pk])
        assert f'<a href="{link}">{escape(member.name)}</a>' in html


def season_page_queries(client: Client, season: Season) -> list[int]:
    """Queries of the season table (cold, warm), a player's page and the evening ranking."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    evening = season.evenings.order_by("date").last()
    assert evening is not None, "the season has evenings"
    someone = first_player(evening)
    urls = [reverse("scoring:season", args=[season.pk])] * 2 + [
        reverse("scoring:season-player", args=[season.pk, someone.pk]),
        reverse("scoring:evening-ranking", args=[evening.pk])]
    counts = []
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    return counts


def test_the_season_pages_cost_the_same_queries_for_a_bigger_season(client: Client) -> None:
    build_season(evenings=3, tables=2, series=1, seed=3)
    season = Season.objects.get()
    client.force_login(make_user(season.club, role="viewer"))
    small = season_page_queries(client, season)

    build_season(evenings=8, tables=3, series=2, seed=4)  # rebuilds the demo club, bigger
    season = Season.objects.get()
    client.force_login(make_user(season.club, role="viewer", username="viewer-2"))
    assert season_page_queries(client, season) == small
    cold, warm, _player, _ranking = small
    # The season table's first request reads the five inputs of its digest (reads/live.py)
    # before computing; the next one, unchanged, takes its body from the shared cache and
    # computes nothing: none of the six queries of the standings.
    assert max(small) <= 17
    assert warm == cold - 6


def test_the_standings_pdf_reads_back(client: Client, tmp_path: Path) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is missing (make system-test-deps)")
    club, season = hand_made()
    login(client, club)
    response = client.get(reverse("scoring:season-pdf", args=[season.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    pdf = tmp_path / "standings.pdf"
    pdf.write_bytes(response.content)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert re.search(r"Page size:\s+841\.\d+ x 595\.\d+ pts", info), info  # A4 landscape
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "Saisontabelle 2026/27" in text and "Skatfreunde Altenburg" in text
    lines = [line.split() for line in text.splitlines() if re.match(r"\s*\d\.\s", line)]
    assert [(row[0], row[1], row[3]) for row in lines] == [
        ("1.", "Anna", "72"), ("2.", "Bert", "48"), ("3.", "Dörte", "24"),
        ("4.", "Cäcilie", "\u221248")]


def test_render_pdf_standings_writes_the_file(tmp_path: Path) -> None:
    _club, season = hand_made()
    out = tmp_path / "season.pdf"
    stderr = io.StringIO()
    call_command("render_pdf", "standings", "--season", str(season.pk), "-o", str(out),
                 "--lang", "en", stderr=stderr)
    assert out.read_bytes().startswith(b"%PDF")
    assert "season 2026/27" in stderr.getvalue()
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert "Season table 2026/27" in text and "Anna" in text
    with pytest.raises(Exception, match="no season with id 999"):
        call_command("render_pdf", "standings", "--season", "999", "-o", str(out))


# ---------------------------------------------------------------- a player's season

def test_the_player_page_shows_figures_charts_and_evenings(client: Client) -> None:
    club, season = hand_made()
    login(client, club)
    anna = club.players.get(name="Anna")
    html = client.get(reverse("scoring:season-player", args=[season.pk, anna.pk]),
                      headers=EN).content.decode()
    assert "place 1 of 4" in html
    assert html.count("<svg") == 4  # results per evening, place, the evening, the games
    assert 'role="img"' in html and "<title" in html
    assert "+72" in html  # the biggest win: Clubs with 5, won
    assert "100.0 %" in html  # both games won
    evenings = list(season.evenings.order_by("date"))
    html = client.get(reverse("scoring:season-player", args=[season.pk, anna.pk]),
                      {"evening": evenings[0].pk}, headers=EN).content.decode()
    assert 'aria-current="true"' in html and "Place 2 that evening" in html  # B scored 48, A 24
    idle = player(club, "Ida")  # a member who has not played this season
    html = client.get(reverse("scoring:season-player", args=[season.pk, idle.pk]),
                      headers=EN).content.decode()
    assert "no evening played yet" in html and "<svg" not in html


def test_a_player_of_another_club_does_not_exist_here(client: Client) -> None:
    club, season = hand_made()
    other = make_club("other", "Other")
    login(client, club)
    stranger = other.players.first()
    assert stranger is not None, "the other club has players"
    response = client.get(reverse("scoring:season-player", args=[season.pk, stranger.pk]))
    assert response.status_code == 404


# ---------------------------------------------------------------- the evening and its series

def test_the_evening_ranking_and_seating_the_next_series_from_the_page(client: Client) -> None:
    club = make_club()
    people = [player(club, f"P{i}") for i in range(1, 8)]  # 7: a 4-table and a 3-table
    evening = make_evening(make_season(club, "classic"), 3, series_rounds=1)
    login(client, club, role="scorer")
    new = reverse("scoring:series-new", args=[evening.pk])
    response = client.post(new, {"players": [p.pk for p in people]}, headers=EN)
    assert response.status_code == 302
    tables = list(Table.objects.filter(evening=evening).order_by("number"))
    assert [(t.series, t.seats.count()) for t in tables] == [(1, 4), (1, 3)]

    ranking = reverse("scoring:evening-ranking", args=[evening.pk])
    html = client.get(ranking, headers=EN).content.decode()
    assert "0 of 4 games" in html and "Seat series 2" not in html
    # the page refuses to seat series 2 while series 1 is being played
    response = client.post(new, {"players": [p.pk for p in people]}, headers=EN)
    assert response.status_code == 200 and "not finished yet" in response.content.decode()

    for table in tables:
        n = table.seats.count()
        play(table, game(1 % n, 2), *[PASSED] * (n - 1))
    html = client.get(ranking, headers=EN).content.decode()
    assert "finished" in html and "Seat series 2 by the results" in html
    response = client.post(new, {"players": [p.pk for p in people]}, headers=EN)
    assert response.status_code == 302
    second = Table.objects.filter(evening=evening, series=2).order_by("number")
    winners = {tables[0].seats.get(position=1).player, tables[1].seats.get(position=1).player}
    assert {s.player for s in second[0].seats.all()} >= winners  # the leaders at table 1
    html = client.get(ranking, headers=EN).content.decode()
    assert "Series 1" in html and "Series 2" in html  # a column per series


def test_viewers_do_not_seat_a_series(client: Client) -> None:
    club = make_club()
    evening = make_evening(make_season(club, "classic"), 3)
    login(client, club, role="viewer")
    assert client.get(reverse("scoring:evening-ranking", args=[evening.pk])).status_code == 200
    assert client.get(reverse("scoring:series-new", args=[evening.pk])).status_code == 403


def test_the_table_screen_counts_the_series(client: Client) -> None:
    club = make_club()
    people = [player(club, f"T{i}") for i in range(1, 4)]
    evening = make_evening(make_season(club, "classic"), 2, series_rounds=1)  # 3 games
    (table,) = series_draw(evening=evening, players=people, rng=random.Random(1))
    login(client, club, role="scorer")
    url = reverse("scoring:table", args=[table.pk])
    assert "Series 1 · game 1 of 3" in client.get(url, headers=EN).content.decode()
    play(table, PASSED, PASSED)
    assert "Series 1 · game 3 of 3" in client.get(url, headers=EN).content.decode()
    play(table, PASSED)
    html = client.get(url, headers=EN).content.decode()
    assert "Series 1 finished · 3 of 3 games" in html
    assert "no further deal can be recorded here" in html and 'name="declarer"' not in html
    response = client.post(reverse("scoring:deal-save", args=[table.pk]), {
        "version": table.version, "request_id": "2b1c1a5e-0000-4000-8000-000000000001",
        "kind": "passed"}, headers=EN)
    assert response.status_code == 422 and Deal.objects.filter(table=table).count() == 3
    assert "no further deal can be recorded here" in response.content.decode()


# ---------------------------------------------------------------- settings

def test_admins_create_and_edit_seasons_others_may_not(client: Client) -> None:
    club = make_club()
    other_day = make_evening(make_season(club, "classic", name="old"), 10)  # in "old"
    profile = club.rule_profiles.get(name="ISkO tournament")
    loose = evening_create(club=club, date=datetime.date(2026, 10, 1), profile=profile)
    login(client, club, role="scorer")
    create = reverse("scoring:season-create", args=[club.slug])
    assert client.get(create).status_code == 403
    login(client, club, role="admin")
    data = {"name": "Herbst 2026", "start": "2026-09-15", "end": "2026-12-31",
            "evaluation": "seeger_fabian", "best_of": "", "min_evenings": "3",
            "series_rounds": "12", "assign": "on"}
    response = client.post(create, data, headers=EN)
    assert response.status_code == 302
    season = Season.objects.get(name="Herbst 2026")
    loose.refresh_from_db()
    other_day.refresh_from_db()
    assert loose.season == season  # within the dates and in no season yet
    assert other_day.season is not None and other_day.season.name == "old"
    response = client.post(create, data, headers=EN)  # the same name again
    assert response.status_code == 200 and "already has a season" in response.content.decode()
    edit = reverse("scoring:season-edit", args=[season.pk])
    response = client.post(edit, {**data, "end": "2026-01-01"}, headers=EN)
    assert "cannot end before it starts" in response.content.decode()
    response = client.post(edit, {**data, "best_of": "10"}, headers=EN)
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.best_of == 10


def test_a_new_evening_joins_a_season_with_its_series_length(client: Client) -> None:
    club = make_club()
    season = make_season(club, "seeger_fabian", series_rounds=8)
    login(client, club, role="scorer")
    url = reverse("scoring:evening-create", args=[club.slug])
    profile = club.rule_profiles.get(name="ISkO tournament")
    data = {"date": "2026-09-20", "name": "Clubabend", "profile": profile.pk, "stake": "",
            "currency": "", "season": season.pk, "series_rounds": "8",
            "tables-TOTAL_FORMS": "1", "tables-INITIAL_FORMS": "0",
            "tables-MIN_NUM_FORMS": "0", "tables-MAX_NUM_FORMS": "30",
            "tables-0-first_dealer": "0"}
    response = client.post(url, data, headers=EN)
    assert response.status_code == 302
    evening = season.evenings.get()
    assert evening.series_rounds == 8 and evening.series_length(4) == 32
    hoyle = club.rule_profiles.get(name="Hoyle")
    response = client.post(url, {**data, "profile": hoyle.pk}, headers=EN)
    assert "needs the International Skat Order" in response.content.decode()


# ---------------------------------------------------------------- the demo season

def test_demo_season_plays_a_season_through_the_engine() -> None:
    stdout = io.StringIO()
    call_command("demo_season", "--evenings", "3", "--tables", "2", "--series", "2",
                 stdout=stdout)
    season = Season.objects.get()
    assert "3 evenings" in stdout.getvalue()
    evenings = list(season.evenings.order_by("date"))
    assert len(evenings) == 3
    for evening in evenings:
        tables = list(evening.tables.all())
        assert {t.series for t in tables} == {1, 2}
        for table in tables:  # each series played to its end, version = deals
            n = table.seats.count()
            assert table.deals.count() == evening.series_length(n) == table.version
    call_command("demo_season", "--evenings", "2", "--tables", "1", stdout=io.StringIO())
    assert Season.objects.get().evenings.count() == 2  # rebuilt, not added


# ---------------------------------------------------------------- in German

def test_the_season_pages_speak_german(client: Client) -> None:
    from tests.test_i18n import check_german

    build_season(evenings=4, tables=2, series=2, seed=5)
    season = Season.objects.get()
    client.force_login(make_user(season.club, role="admin"))
    evening = season.evenings.order_by("date").last()
    assert evening is not None, "the season has evenings"
    someone = first_player(evening)
    check_german(client, reverse("scoring:season", args=[season.pk]),
                 must_show=["Saisontabelle", "Platz", "Spieler", "Wertung", "Schnitt",
                            "Spielpunkte", "Tagesranglisten", "PDF zum Drucken",
                            "Bei gleicher Wertung entscheiden mehr gewonnene"])
    check_german(client, reverse("scoring:season-player", args=[season.pk, someone.pk]),
                 must_show=["Schnitt je Abend", "Gewinnquote", "Höchster Gewinn",
                            "Spiele als Alleinspieler", "Platz in der Saisontabelle",
                            "Serie 1, Tisch", "Streichergebnis"])
    check_german(client, reverse("scoring:evening-ranking", args=[evening.pk]),
                 must_show=["Tagesrangliste", "Serie 1", "Serie 2", "beendet",
                            "Serie 3 nach Ergebnis setzen", "Serienlänge"])
    check_german(client, reverse("scoring:series-new", args=[evening.pk]),
                 must_show=["Serie 3 nach Ergebnis setzen", "Nachzügler"])
    check_german(client, reverse("scoring:season-edit", args=[season.pk]),
                 must_show=["Saison-Einstellungen", "Auswertung", "Gewertete Abende",
                            "Runden je Serie"])
    table = evening.tables.filter(series=2).first()
    assert table is not None, "series 2 has a table"
    check_german(client, reverse("scoring:table", args=[table.pk]),
                 must_show=["Serie 2 beendet", "Die Serie ist beendet"])
