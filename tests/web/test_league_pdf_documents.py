"""The league's PDFs read back (issue 25): the match-day report of a played day, the league
table and the players' ranking, each checked line by line against reads.league's numbers,
German halves ("2,5"), a substitute marked where he came in, the captains' signatures (signed
on the tablet; unsigned: a line on paper), and a new PDF when a deal changes."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from scoring.models import League, MatchDay, Player, Table, Team
from scoring.notation import match_point as points
from scoring.reads.league import group_numbers, match_report, player_ranking
from scoring.writes import league as lw
from scoring.writes.services import Actor, deal_delete

from . import pdfs
from .factories import login, make_club
from .leagues import check_in, make_day, make_league, play_day, play_series, team

pytestmark = [pytest.mark.django_db, pdfs.needs_poppler]


def _played(seed: int = 5) -> tuple[League, MatchDay]:
    league = make_league(make_club())
    day = make_day(league)
    play_day(day, seed=seed)
    return league, day


def _fetch(client: Client, url: str, lang: str = "en") -> bytes:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return response.content


def _look(pdf: bytes, name: str) -> None:
    """SKATCLUB_PDF_PNG=folder: each PDF's first page as a PNG there, to be looked at."""
    folder = os.environ.get("SKATCLUB_PDF_PNG")
    if folder:
        path = Path(folder) / f"{name}.pdf"
        path.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", "60", "-png", str(path), str(path.with_suffix(""))],
                       check=True, timeout=60)


def _flat(pdf: bytes) -> str:
    """The PDF's text, each line's words one blank apart (columns as pdftotext lays them)."""
    return "\n".join(" ".join(line.split()) for line in pdfs.text(pdf).splitlines())


def _sp(value: int) -> str:
    return str(value).replace("-", pdfs.MINUS)


def test_points_print_halves_with_the_languages_decimal_sign() -> None:
    with translation.override("de"):
        assert [points(3), points(2.5), points(0), points(0.5)] == ["3", "2,5", "0", "0,5"]
    with translation.override("en"):
        assert points(2.5) == "2.5"


def test_the_report_of_a_played_day(client: Client) -> None:
    league, day = _played()
    herz = team(league, "Herz As")
    lw.report_sign(day=day, team=herz)
    login(client, league.club, "viewer")
    pdf = _fetch(client, reverse("scoring:match-day-report-pdf", args=[day.pk]))
    _look(pdf, "report")
    text = _flat(pdf)
    with translation.override("en"):
        report = match_report(day)
    assert "Match-day report" in text and "Bezirksliga" in text and "Staffel A" in text
    assert "Vereinsheim" in text and "2026" in text and "Host: Grand Hand" in text
    # the line-ups: a row per team and position, a column per series
    assert pdfs.line_starting(text, "Herz As 1 ") == "Herz As 1 Anna Herz Anna Herz Anna Herz"
    assert "4 Dieter Herz Dieter Herz Dieter Herz" in text.splitlines()
    # every table's players with their Spielpunkte, won and lost
    for series in report.series:
        for table in series.tables:
            for seat in table.seats:
                printed = rf"{seat.name}\s+{seat.team}\s+{_sp(seat.points)}\s+" \
                          rf"{seat.won}\s+{seat.lost}(\s|$)"
                assert re.search(printed, text, re.MULTILINE), seat
    # every series' team scores in place order, with the Wertungspunkte
    for series in report.series:
        start = text.index(f"Series {series.number}: teams")
        block = text[start:]
        found = [block.index(f"{row.place}. {row.team}") for row in series.teams]
        assert found == sorted(found)
        for row in series.teams:
            line = next(line for line in block.splitlines()
                        if line.strip().startswith(f"{row.place}. {row.team}"))
            assert line.split()[-2:] == [_sp(row.points),
                                         f"{points(row.plus)}:{points(row.minus)}"]
    # the day's table, in place order
    tail = text[text.index("The day's table"):]
    for day_row in report.table:
        line = pdfs.line_starting(tail, f"{day_row.place}. {day_row.team}")
        assert line.split()[-2:] == [f"{points(day_row.plus)}:{points(day_row.minus)}",
                                     _sp(day_row.points)]
    found = [tail.index(r.team) for r in report.table]
    assert found == sorted(found)
    # the signatures: Herz As on the tablet, the others a line to sign on paper
    assert "signed by Anna Herz" in text and "on the tablet" in text
    for name in ("Grand Hand", "Kreuz Bube", "Pik Dame"):
        assert f"Signature of the captain of {name}" in text
    assert text.count("signed by") == 1
    with translation.override("en"):
        assert f"Binding from {date_format(report.binding_from, 'DATE_FORMAT')}." in text


def test_the_report_marks_a_substitute_where_he_came_in(client: Client) -> None:
    league = make_league(make_club())
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day)
    play_series(day, 1)
    herz = team(league, "Herz As")
    emil = Player.objects.get(name="Emil Herz")
    players = [tp.player for tp in herz.players.filter(position__isnull=False)
               .order_by("position")]
    lw.lineup_set(day=day, series=2, team=herz, players=[emil, *players[1:]])
    lw.series_seat(day=day)
    login(client, league.club, "viewer")
    text = _flat(_fetch(client, reverse("scoring:match-day-report-pdf", args=[day.pk])))
    assert "Herz As 1 Anna Herz Emil Herz (in)" in text.splitlines()
    assert text.count("(in)") == 2  # once in the line-up, once in the legend


def test_a_substitute_in_series_1_is_marked_there_only(client: Client) -> None:
    league = make_league(make_club())
    day = make_day(league)
    check_in(day)
    herz = team(league, "Herz As")
    emil = Player.objects.get(name="Emil Herz")
    players = [tp.player for tp in herz.players.filter(position__isnull=False)
               .order_by("position")]
    lw.lineup_set(day=day, series=1, team=herz, players=[*players[:3], emil])
    lw.series_seat(day=day)
    play_series(day, 1)
    lw.series_seat(day=day)  # series 2: the line-ups of series 1 again
    login(client, league.club, "viewer")
    text = _flat(_fetch(client, reverse("scoring:match-day-report-pdf", args=[day.pk])))
    assert "4 Emil Herz (in) Emil Herz" in text.splitlines()
    assert text.count("(in)") == 2


def test_the_league_table_and_the_players_ranking(client: Client) -> None:
    league, day = _played()
    second = make_day(league)
    play_day(second, seed=11)
    group = league.groups.get()
    numbers = group_numbers(group)
    login(client, league.club, "viewer")
    pdf = _fetch(client, reverse("scoring:league-table-pdf", args=[group.pk]))
    _look(pdf, "table")
    text = _flat(pdf)
    assert "League table" in text and "after 2 match days" in text
    rows = numbers.result.table
    found = [text.index(f"{r.place}. {r.team}") for r in rows]
    assert found == sorted(found)
    for row in rows:
        line = pdfs.line_starting(text, f"{row.place}. {row.team}")
        per_day = [r.plus for d in numbers.result.days for r in d.table if r.team == row.team]
        assert line.split()[-4:] == [f"{points(row.plus)}:{points(row.minus)}",
                                     _sp(row.points), *[points(p) for p in per_day]]
    pdf = _fetch(client, reverse("scoring:league-players-pdf", args=[group.pk]))
    _look(pdf, "players")
    text = _flat(pdf)
    ranking = player_ranking(numbers)
    assert len(ranking) == 16
    found = [text.index(r.name) for r in ranking]
    assert found == sorted(found)
    for player in ranking:
        line = next(line for line in text.splitlines() if player.name in line)
        assert line.split()[0] == f"{player.place}."
        assert line.split()[-4:] == [_sp(player.points), str(player.won), str(player.lost),
                                     str(player.series)]
        assert player.team in line


def test_shared_places_print_halves_with_a_german_comma(client: Client) -> None:
    """A series seated and not yet played: all four teams share places 1-4 (1.5:1.5)."""
    league = make_league(make_club())
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day)
    group = league.groups.get()
    assert {(r.plus, r.minus) for r in group_numbers(group).result.table} == {(1.5, 1.5)}
    login(client, league.club, "viewer")
    text = _flat(_fetch(client, reverse("scoring:league-table-pdf", args=[group.pk]), "de"))
    for name in ("Herz As", "Grand Hand", "Kreuz Bube", "Pik Dame"):
        assert pdfs.line_starting(text, f"1. {name}").split()[-3:] == ["1,5:1,5", "0", "1,5"]
    text = _flat(_fetch(client, reverse("scoring:match-day-report-pdf", args=[day.pk]), "de"))
    assert "1,5:1,5" in text and "1.5" not in text


def test_a_changed_deal_makes_a_new_pdf(client: Client) -> None:
    league, day = _played()
    group = league.groups.get()
    login(client, league.club, "admin")
    urls = [reverse("scoring:match-day-report-pdf", args=[day.pk]),
            reverse("scoring:league-table-pdf", args=[group.pk]),
            reverse("scoring:league-players-pdf", args=[group.pk])]
    first = [client.get(url) for url in urls]
    assert [r["X-PDF-Cache"] for r in first] == ["miss"] * 3
    again = [client.get(url) for url in urls]
    assert [r["X-PDF-Cache"] for r in again] == ["hit"] * 3
    table = Table.objects.filter(evening=day.evening, series=1).order_by("number").first()
    assert table is not None
    deal = table.deals.filter(deleted=False).order_by("-position").first()
    assert deal is not None
    deal_delete(deal=deal, reason="test", expected_version=table.version,
                actor=Actor(None, "secretary", admin=True))
    after = [client.get(url) for url in urls]
    assert [r["X-PDF-Cache"] for r in after] == ["miss"] * 3
    assert all(a["ETag"] != b["ETag"] for a, b in zip(first, after, strict=True))
    assert pdfs.text(after[2].content) != pdfs.text(first[2].content)


def test_a_team_short_of_a_player_and_a_day_not_yet_played(client: Client) -> None:
    league = make_league(make_club())
    day = make_day(league)
    group = league.groups.get()
    login(client, league.club, "viewer")
    text = _flat(_fetch(client, reverse("scoring:match-day-report-pdf", args=[day.pk])))
    assert "No line-ups checked in yet." in text and "No series played yet." in text
    assert "Signature of the captain of Pik Dame (Nora Pik)" in text
    text = _flat(_fetch(client, reverse("scoring:league-table-pdf", args=[group.pk])))
    assert "after 0 match days" in text
    assert pdfs.line_starting(text, "1. Grand Hand").split()[-2:] == ["0:0", "0"]
    text = _flat(_fetch(client, reverse("scoring:league-players-pdf", args=[group.pk])))
    assert "Nobody has played yet." in text
    check_in(day, short="Pik Dame")
    lw.series_seat(day=day)
    play_series(day, 1)
    text = _flat(_fetch(client, reverse("scoring:match-day-report-pdf", args=[day.pk])))
    assert "4 –" in text.splitlines()  # Pik Dame's position 4: nobody
    report = match_report(day)
    assert [len(t.seats) for t in report.series[0].tables].count(3) == 1  # one 3-table
    for row in report.series[0].teams:
        assert f"{row.place}. {row.team} {_sp(row.points)} " \
               f"{points(row.plus)}:{points(row.minus)}" in text.splitlines()


def test_a_signature_and_a_renamed_team_make_a_new_report(client: Client) -> None:
    league, day = _played()
    login(client, league.club, "viewer")
    url = reverse("scoring:match-day-report-pdf", args=[day.pk])
    first = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="en")["X-PDF-Cache"] == "hit"
    lw.report_sign(day=day, team=team(league, "Pik Dame"))
    signed = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert signed["X-PDF-Cache"] == "miss" and signed["ETag"] != first["ETag"]
    assert "signed by Nora Pik" in _flat(signed.content)
    Team.objects.filter(pk=team(league, "Pik Dame").pk).update(name="Pik Sieben")  # past writes
    renamed = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert renamed["X-PDF-Cache"] == "miss"
    assert "Signature of the captain of Pik Sieben" in _flat(renamed.content)
