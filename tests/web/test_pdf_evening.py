"""The settlement and the evening summary as PDFs, read back: every payment, net, transfer,
fee and total is the engine's; the ranking across tables; the money summed per person."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Evening, RuleProfile
from scoring.presets import PRESETS
from scoring.writes.services import evening_create, table_create

from . import pdfs
from .factories import login, make_club
from .money_fixtures import EXTRAS, engine_tables, money_evening
from .test_sheet_pages import play

pytestmark = [pytest.mark.django_db, pdfs.needs_poppler]


def get(client: Client, name: str, evening: Evening, lang: str = "en") -> bytes:
    response = client.get(reverse(f"scoring:{name}", args=[evening.pk]),
                          headers={"accept-language": lang})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "inline" in response["Content-Disposition"]
    return response.content


def flat(text: str) -> str:
    """The text on one line with single spaces and ASCII minus signs, for searching rows."""
    return " ".join(text.replace(pdfs.MINUS, "-").split())


def test_the_settlement_pdf_prints_every_payment_of_the_engine(client: Client) -> None:
    club = make_club()
    evening = money_evening(club, settlement=EXTRAS)
    login(client, club)
    pdf = get(client, "settlement-pdf", evening)
    text = pdfs.text(pdf)
    lines = text.splitlines()
    assert "Page 1 of" in text
    parts = re.split(r"\n\s*Table (\d+)\s*\n", text)
    sections = {int(number): body for number, body in zip(parts[1::2], parts[2::2],
                                                           strict=True)}
    for table, names, result in engine_tables(evening):
        s = result["settlement"]
        for pair in s["pairs"]:
            row = rf"{names[pair['payer']]}\s+{names[pair['payee']]}\s+{pair['points']}\s+" \
                  rf"{re.escape(pair['amount'])}(\s|$)"
            assert any(re.search(row, line) for line in lines), pair
        for transfer in s["transfers"]:
            row = rf"{names[transfer['from']]}\s+{names[transfer['to']]}\s+" \
                  rf"{re.escape(transfer['amount'])}(\s|$)"
            assert any(re.search(row, line) for line in lines), transfer
        section = sections[table.number]
        for seat, name in enumerate(names):
            key = str(seat)
            # points, lost games, passed in, net, fees, balance
            numbers = pdfs.numbers(pdfs.line_starting(section, name))
            assert numbers[0] == str(result["totals"][key])
            assert numbers[1] == str(result["games"]["lost"][key])
            assert numbers[2] == str(result["games"]["passed"][key])
            assert [Decimal(n) for n in numbers[3:6]] == [
                Decimal(s["net"][key]), Decimal(s["fees"][key]), Decimal(s["balance"][key])]
        assert s["checks"]["agree"]
    assert "The cross-checks agree" in flat(text)
    assert "Stake: 0.05 EUR per point." in flat(text)


def test_the_summary_ranks_every_player_across_tables(client: Client) -> None:
    club = make_club()
    evening = money_evening(club, settlement=EXTRAS)
    login(client, club)
    text = pdfs.text(get(client, "summary-pdf", evening))
    everyone = []
    nets: dict[str, Decimal] = {}
    for table, names, result in engine_tables(evening):
        counted = sum(1 for row in result["deals"] if row["counts"])  # issue 23: games
        assert f"Table {table.number} · {counted} games" in text
        for seat, name in enumerate(names):
            everyone.append((result["totals"][str(seat)], name, table.number))
            nets[name] = Decimal(result["settlement"]["balance"][str(seat)])
    everyone.sort(key=lambda e: (-e[0], e[1]))
    ranking = text.split("Ranking", 1)[1].split("Money", 1)[0]
    printed = [line.split() for line in ranking.splitlines()
               if re.match(r"\s*\d+\.\s", line)]
    assert [" ".join(row[1:3]) for row in printed] == [name for _p, name, _t in everyone]
    assert [row[4].replace(pdfs.MINUS, "-") for row in printed] == [
        str(points) for points, _n, _t in everyone]
    money = text.split("Money", 1)[1]
    for name, balance in nets.items():
        line = pdfs.line_starting(money, name)
        assert Decimal(pdfs.numbers(line)[-1]) == balance


def test_seeger_fabian_ranking_breaks_ties_by_games(client: Client) -> None:
    club = make_club()
    evening = money_evening(club, preset="isko_tournament")
    login(client, club)
    text = pdfs.text(get(client, "summary-pdf", evening))
    ranking = text.split("Ranking", 1)[1].split("Money", 1)[0]
    assert "By Seeger-Fabian points" in ranking
    rows = [line.split() for line in ranking.splitlines() if re.match(r"\s*\d+\.\s", line)]
    points = [int(row[5].replace(pdfs.MINUS, "-")) for row in rows]
    assert points == sorted(points, reverse=True)
    expected = []
    for _table, names, result in engine_tables(evening):
        for seat, name in enumerate(names):
            key = str(seat)
            expected.append((-result["seeger_fabian_totals"][key],
                             -result["games"]["won"][key], result["games"]["lost"][key], name))
    assert [" ".join(row[1:3]) for row in rows] == [e[3] for e in sorted(expected)]


def test_german_pdfs_by_default(client: Client) -> None:
    club = make_club()
    evening = money_evening(club, settlement=EXTRAS)
    login(client, club)
    for name in ("settlement-pdf", "summary-pdf"):
        text = pdfs.text(get(client, name, evening, lang="de"))
        assert "Jürgen Weiß" in text and "Zoë Brühl" in text
        assert "0,05 EUR" in text and "2,00" in text


def test_an_evening_without_deals_or_tables_prints(client: Client) -> None:
    club = make_club()
    profile = club.rule_profiles.get(name=PRESETS["club_evening"]["name"])
    bare = evening_create(club=club, date=timezone.localdate(), profile=profile)
    table_create(evening=bare, players=list(club.players.all()[:3]))
    empty = evening_create(club=club, date=timezone.localdate(), profile=profile)
    login(client, club)
    for evening in (bare, empty):
        for name in ("settlement-pdf", "summary-pdf"):
            assert pdfs.pages(get(client, name, evening)) == 1
    assert "This evening has no tables yet." in pdfs.text(get(client, "summary-pdf", empty))


def test_a_beer_skat_evening_prints_without_money(client: Client) -> None:
    club = make_club()
    profile = RuleProfile.objects.create(club=club, name="Bierskat", rules="american1898",
                                         scoring="beer", stake="0.05")
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile)
    table = table_create(evening=evening, players=list(club.players.all()[:3]))
    play(table, [{"kind": "game", "declarer": 1, "game": "solo_clubs", "matadors": 1,
                  "bid": 36, "declarer_points": 70},
                 {"kind": "game", "declarer": 2, "game": "grand_solo", "matadors": 2,
                  "bid": 48, "declarer_points": 40}])
    login(client, club)
    summary = pdfs.text(get(client, "summary-pdf", evening))
    assert "Beer Skat: the lowest count is best." in summary
    settlement = pdfs.text(get(client, "settlement-pdf", evening))
    assert "Beer Skat settles no money" in settlement
    sheet = client.get(reverse("scoring:sheet-pdf", args=[table.pk]),
                       headers={"accept-language": "en"})
    text = pdfs.text(sheet.content)
    assert "♣ Clubs Solo" in text and "Settlement" not in text
    page = client.get(reverse("scoring:settlement", args=[evening.pk]),
                      headers={"accept-language": "en"}).content.decode()
    assert "Beer Skat settles no money" in page
