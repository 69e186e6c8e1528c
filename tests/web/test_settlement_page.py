"""The treasurer's page: every pair payment, net, fee, transfer and cross-check is the
engine's; each person's evening is the sum of his tables; club admins set the stake and the
extras, bad input gets a message and saves nothing; constant queries; club isolation."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from scoring.models import Deal, Evening, Table
from scoring.presets import PRESETS

from .factories import login, make_club, make_user
from .money_fixtures import EXTRAS, engine_tables, money_evening
from .test_sheet_pages import grant_code, plain_games

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
MINUS = "\u2212"


def page(client: Client, evening: Evening, lang: str = "en") -> str:
    response = client.get(reverse("scoring:settlement", args=[evening.pk]),
                          headers={"accept-language": lang})
    assert response.status_code == 200
    return response.content.decode()


def table_rows(html: str, css_class: str, which: int = 0) -> list[list[str]]:
    """The cells' texts of the body rows of the ``which``-th table with ``css_class``."""
    tables = re.findall(rf'<table class="{css_class}">(.*?)</table>', html, re.S)
    body = tables[which].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    return [[re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)] for row in rows]


def amount(text: str) -> Decimal:
    return Decimal(text.replace(MINUS, "-").replace("+", "").replace(",", "."))


def test_every_payment_net_fee_and_transfer_is_the_engines(client: Client) -> None:
    club = make_club()
    evening = money_evening(club, settlement=EXTRAS)
    login(client, club)
    html = page(client, evening)
    for index, (_table, names, result) in enumerate(engine_tables(evening)):
        settlement = result["settlement"]
        pairs = [[names[p["payer"]], names[p["payee"]], str(p["points"]), p["amount"]]
                 for p in settlement["pairs"]]
        assert table_rows(html, "money-pairs", index) == pairs
        transfers = [[names[t["from"]], names[t["to"]], t["amount"]]
                     for t in settlement["transfers"]]
        assert table_rows(html, "money-transfers", index) == transfers
        totals = table_rows(html, "money-totals", index)
        assert [row[0] for row in totals] == names
        for seat, row in enumerate(totals):
            key = str(seat)
            # player, points, lost games, passed in, net, fees, balance
            assert row[1].replace(MINUS, "-") == str(result["totals"][key])
            assert row[2] == str(result["games"]["lost"][key])
            assert row[3] == str(result["games"]["passed"][key])
            assert amount(row[4]) == Decimal(settlement["net"][key])
            assert amount(row[5]) == Decimal(settlement["fees"][key])
            assert amount(row[6]) == Decimal(settlement["balance"][key])
        checks = table_rows(html, "money-checks", index)
        for seat, row in enumerate(checks):
            key = str(seat)
            assert amount(row[1]) == Decimal(settlement["checks"]["exact"][key])
            assert amount(row[2]) == Decimal(settlement["checks"]["lowest_zero"][key])
            assert amount(row[3]) == Decimal(settlement["checks"]["average"][key])
        assert settlement["checks"]["agree"]
    assert html.count("The cross-checks agree") == 2


def test_each_persons_evening_is_the_sum_of_his_tables(client: Client) -> None:
    club = make_club()
    evening = money_evening(club, settlement=EXTRAS)
    login(client, club)
    html = page(client, evening)
    expected: dict[str, list[Decimal]] = {}
    pot = Decimal(0)
    for _table, names, result in engine_tables(evening):
        s = result["settlement"]
        pot += Decimal(s["pot"])
        for seat, name in enumerate(names):
            key = str(seat)
            expected[name] = [Decimal(s["net"][key]), Decimal(s["fees"][key]),
                              Decimal(s["balance"][key])]
    rows = table_rows(html, "money-evening")
    assert {row[0]: [amount(c) for c in row[2:5]] for row in rows} == expected
    assert sum(values[0] for values in expected.values()) == 0
    foot = html.split('<table class="money-evening">', 1)[1].split("<tfoot>", 1)[1]
    assert "Into the club's pot" in foot and f"{pot:.2f}" in foot


def test_stake_currency_rounding_and_extras_are_stated(client: Client) -> None:
    club = make_club()
    evening = money_evening(club, settlement={
        "lost_game_fee_tiers": [{"from": 1, "fee": "0.50"}, {"from": 5, "fee": "1.00"}],
        "passed_deal_fee": "0.10", "entry_fee": "2.00", "loss_cap": "3.00"})
    login(client, club)
    html = page(client, evening)
    facts = html.split('class="facts"', 1)[1].split("</ul>", 1)[0]
    assert "Stake: 0.05 EUR per point." in facts
    assert "rounded to 0.01 EUR (half up)" in facts
    assert "from lost game 1 on: 0.50 EUR" in facts and "from lost game 5 on: 1.00 EUR" in facts
    assert "0.10 EUR per passed-in deal" in facts and "entry fee 2.00 EUR" in facts
    assert "Nobody loses more than 3.00 EUR" in facts


def test_a_settlement_without_extras_says_so(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club)
    html = page(client, evening)
    assert "No club extras." in html and "Fees" not in html


def test_german_amounts_have_commas(client: Client) -> None:
    club = make_club()
    evening = money_evening(club, settlement=EXTRAS)
    login(client, club)
    html = page(client, evening, lang="de")
    assert "2,00" in html and "0,05 EUR" in html


def test_constant_queries_however_many_deals(
        client: Client, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club, "admin")
    with django_assert_max_num_queries(9):
        page(client, evening)
    for table in evening.tables.all():
        last = table.deals.count()
        Deal.objects.bulk_create(
            Deal(table=table, position=last + i + 1, record=record)
            for i, record in enumerate(plain_games(table, 120))
            if i >= 0)
    with django_assert_max_num_queries(9):
        html = page(client, evening)
    assert "money-pairs" in html


# ---------------------------------------------------------------- the settings form

def form_data(evening: Evening, **changes: str) -> dict[str, str]:
    evening.refresh_from_db()
    data = {"stake": "0.10", "currency": "EUR", "lost_game_fee": "0.50",
            "lost_game_fee_tiers": "", "passed_deal_fee": "", "entry_fee": "1.00",
            "loss_cap": "", "version": str(evening.version)}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def post(client: Client, evening: Evening, data: dict[str, str], lang: str = "en") -> Any:
    return client.post(reverse("scoring:settlement", args=[evening.pk]), data,
                       headers={"accept-language": lang})


def test_an_admin_sets_stake_and_extras(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club, "admin")
    assert 'name="stake"' in page(client, evening)
    response = post(client, evening, form_data(evening, lost_game_fee_tiers=""))
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.stake == Decimal("0.1") and evening.version == 1
    assert evening.settlement == {
        "on": "classic", "round_totals_first": False, "lost_game_fee": "0.5",
        "lost_game_fee_tiers": None, "passed_deal_fee": "0", "entry_fee": "1",
        "loss_cap": None}
    html = client.get(response["Location"], headers=EN).content.decode()
    assert "The settlement settings were saved." in html
    assert "0.50 EUR per lost game" in html and "Stake: 0.10 EUR per point." in html


def test_german_input_and_tiers(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club, "admin")
    response = post(client, evening, form_data(
        evening, stake="0,0025", lost_game_fee="", lost_game_fee_tiers="1: 0,50; 4: 1,00",
        loss_cap="5", currency="chf"), lang="de")
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.stake == Decimal("0.0025") and evening.currency == "CHF"
    assert evening.settlement["lost_game_fee_tiers"] == [
        {"from": 1, "fee": "0.50"}, {"from": 4, "fee": "1.00"}]
    assert evening.settlement["loss_cap"] == "5"
    # and the form shows them again as typed
    html = page(client, evening, lang="de")
    assert 'value="1: 0,50; 4: 1,00"' in html and 'value="0,0025"' in html


@pytest.mark.parametrize(("field", "value"), [
    ("stake", "abc"), ("stake", "-1"), ("stake", "0.00001"), ("stake", ""),
    ("currency", "EURO"), ("currency", "€€€"), ("currency", "E1R"),
    ("lost_game_fee", "0.005"), ("entry_fee", "-2"), ("loss_cap", "ten"),
    ("lost_game_fee_tiers", "1: 0.50; whatever"), ("lost_game_fee_tiers", "0: 0.50"),
    ("lost_game_fee_tiers", "1: 0.50; 1: 1.00"), ("lost_game_fee_tiers", "1: zero"),
    ("passed_deal_fee", "9" * 20), ("version", "x"), ("version", None),
])
def test_bad_input_gets_a_message_and_saves_nothing(
        client: Client, field: str, value: str | None) -> None:
    club = make_club()
    evening = money_evening(club, settlement=EXTRAS)
    before = (evening.stake, evening.currency, evening.settlement, evening.version)
    login(client, club, "admin")
    data = form_data(evening, **{field: value}) if value is not None else {
        k: v for k, v in form_data(evening).items() if k != field}
    if field == "lost_game_fee_tiers":
        data["lost_game_fee"] = ""
    response = post(client, evening, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Nothing was saved" in html
    assert 'class="errorlist' in html
    evening.refresh_from_db()
    assert (evening.stake, evening.currency, evening.settlement, evening.version) == before


def test_a_flat_fee_and_tiers_together_are_refused(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club, "admin")
    response = post(client, evening, form_data(evening, lost_game_fee="0.50",
                                               lost_game_fee_tiers="1: 0.50"))
    assert "either a fee per lost game or tiered fees" in response.content.decode()
    evening.refresh_from_db()
    assert evening.version == 0


def test_settling_on_seeger_fabian_is_offered_where_it_is_scored(client: Client) -> None:
    club = make_club()
    classic = money_evening(club)
    tournament = money_evening(club, preset="isko_tournament")
    login(client, club, "admin")
    assert 'name="on"' not in page(client, classic)
    assert 'name="on"' in page(client, tournament)
    assert post(client, tournament, form_data(tournament, on="seeger_fabian")).status_code == 302
    tournament.refresh_from_db()
    assert tournament.settlement["on"] == "seeger_fabian"
    assert "Settled on the Seeger-Fabian points." in page(client, tournament)
    # a forged field on a classic evening is ignored, not saved
    assert post(client, classic, form_data(classic, on="seeger_fabian")).status_code == 302
    classic.refresh_from_db()
    assert classic.settlement["on"] == "classic"


def test_a_stale_form_is_refused(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club, "admin")
    first = form_data(evening, stake="0.20")
    second = form_data(evening, stake="0.30")
    assert post(client, evening, first).status_code == 302
    response = post(client, evening, second)
    html = response.content.decode()
    assert response.status_code == 200 and "Someone else changed the settlement" in html
    evening.refresh_from_db()
    assert evening.stake == Decimal("0.2") and evening.version == 1
    assert 'name="version" value="1"' in html  # sending again replaces it knowingly
    assert post(client, evening, {**second, "version": "1"}).status_code == 302


# ---------------------------------------------------------------- who may

def test_members_read_but_only_admins_change_the_money(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    url = reverse("scoring:settlement", args=[evening.pk])
    for role in ("viewer", "scorer"):
        client.force_login(make_user(club, role=role, username=f"{role}-money"))
        html = page(client, evening)
        assert "money-pairs" in html and 'name="stake"' not in html
        assert client.post(url, form_data(evening)).status_code == 403
    evening.refresh_from_db()
    assert evening.version == 0


def test_other_clubs_strangers_and_table_codes_get_404(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    url = reverse("scoring:settlement", args=[evening.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, form_data(evening)).status_code == 404
    first = Table.objects.filter(evening=evening).first()
    assert first is not None, "the evening has tables"
    grant_code(client, first)
    assert client.get(url).status_code == 404
    login(client, make_club("zwickau", "Skatclub Zwickau"), "admin")
    assert client.get(url).status_code == 404
    assert client.post(url, form_data(evening)).status_code == 404
    evening.refresh_from_db()
    assert evening.version == 0


def test_the_presets_are_untouched_by_an_evenings_settings(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club, "admin")
    post(client, evening, form_data(evening, stake="0.25"))
    profile = club.rule_profiles.get(name=PRESETS["club_evening"]["name"])
    assert profile.stake == Decimal("0.05")
