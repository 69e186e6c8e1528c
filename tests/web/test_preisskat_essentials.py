"""Preisskat essentials (issue 24, item 4): the ISkO tournament preset found by its rules,
the unpaid warning at the draw and the mark on the prize list, the fees editable until the
first draw, prize lists per category, team and tandem, and clubs kept apart at the draw."""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.forms.tournament import TournamentForm
from scoring.models import Club, RuleProfile, Tournament
from scoring.presets import PRESETS, matches_preset
from scoring.reads.tournament import (
    Money,
    Row,
    TournamentRanking,
    series_history,
    tournament_ranking,
)
from scoring.writes import preisskat
from scoring.writes import tournament as tw

from .factories import make_club, make_user
from .pdfs import needs_poppler, text
from .tournaments import fill_series, make_tournament

pytestmark = pytest.mark.django_db

ISKO = PRESETS["isko_tournament"]["name"]


# ------------------------------------------------ 1. the ISkO tournament preset, by its rules

def _initial_profile(club: Club) -> int | None:
    initial = TournamentForm(club=club).fields["profile"].initial
    return initial if isinstance(initial, int) else None


def test_the_tournament_form_picks_the_profile_with_the_isko_tournament_rules() -> None:
    club = make_club()
    named = RuleProfile.objects.get(club=club, name=ISKO)
    named.options = {"kontra": True}  # named "ISkO tournament", but other rules
    named.save()
    ours = RuleProfile.objects.create(club=club, name="Unser Turnier", rules="isko",
                                      options={"kontra": False}, scoring="seeger_fabian")
    assert matches_preset(ours) and not matches_preset(named)
    assert _initial_profile(club) == ours.pk


def test_a_profile_named_isko_tournament_with_other_rules_is_not_chosen() -> None:
    club = make_club()
    for profile in club.rule_profiles.all():
        if profile.name == ISKO:
            profile.scoring = "classic"
            profile.save()
    assert not any(matches_preset(p) for p in club.rule_profiles.all())
    assert _initial_profile(club) is None


def test_without_a_matching_profile_the_form_offers_it_and_makes_it_in_one_step(
        client: Client) -> None:
    club = make_club()
    RuleProfile.objects.filter(club=club, name=ISKO).update(options={"spitze": True})
    client.force_login(make_user(club, "admin"))
    create = reverse("scoring:tournament-create", args=[club.slug])
    page = client.get(create, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    preset_url = reverse("scoring:profile-preset", args=[club.slug])
    assert preset_url in page
    response = client.post(preset_url, {"preset": "isko_tournament"},
                           HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302 and response["Location"] == create
    made = club.rule_profiles.exclude(name__in=[p["name"] for p in PRESETS.values()]).get()
    assert matches_preset(made) and made.options == {} and made.scoring == "seeger_fabian"
    assert _initial_profile(club) == made.pk
    assert preset_url not in client.get(create).content.decode()  # no second offer


def test_a_new_rule_profile_can_start_from_a_preset(client: Client) -> None:
    club = make_club()
    client.force_login(make_user(club, "admin"))
    url = reverse("scoring:profile-create", args=[club.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "?preset=isko_tournament" in page
    form = client.get(url + "?preset=isko_tournament").context["form"]
    assert form.initial["scoring"] == "seeger_fabian" and form.initial["kontra"] is False
    assert form.initial["ramsch"] == "off"
    form = client.get(url + "?preset=club_evening").context["form"]
    assert form.initial["kontra"] is True and form.initial["scoring"] == "classic"
    assert client.get(url + "?preset=nonsense").status_code == 200


def test_only_the_clubs_admins_create_a_profile_from_a_preset(client: Client) -> None:
    club = make_club()
    url = reverse("scoring:profile-preset", args=[club.slug])
    before = club.rule_profiles.count()
    response = client.post(url, {"preset": "isko_tournament"})  # anonymous
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for role in ("scorer", "viewer"):
        client.force_login(make_user(club, role))
        assert client.post(url, {"preset": "isko_tournament"}).status_code == 403
    client.force_login(make_user(make_club("zwickau", "Skatclub Zwickau"), "admin"))
    assert client.post(url, {"preset": "isko_tournament"}).status_code == 404
    client.force_login(make_user(club, "admin"))
    assert client.get(url).status_code == 405
    response = client.post(url, {"preset": "nonsense"}, follow=True)
    assert response.status_code == 200
    assert club.rule_profiles.count() == before
    assert client.post(url, {"preset": "isko_tournament"}).status_code == 302
    assert club.rule_profiles.count() == before + 1


def test_a_preset_profile_whose_name_is_taken_gets_a_number() -> None:
    from scoring.writes.preisskat import profile_from_preset

    club = make_club()
    first = profile_from_preset(club=club, key="isko_tournament")
    second = profile_from_preset(club=club, key="isko_tournament")
    assert second.name == f"{first.name} (2)" and matches_preset(second)


# ------------------------------------------------ 2. unpaid players: the draw's warning, the mark

def _unpaid(t: Tournament, *numbers: int) -> None:
    for entrant in t.entrants.filter(number__in=numbers):
        tw.entrant_mark(entrant=entrant, paid=False)


def test_the_draw_lists_the_unpaid_and_waits_for_the_organisers_confirmation(
        client: Client) -> None:
    t = make_tournament(make_club())
    _unpaid(t, 3, 11)
    client.force_login(make_user(t.club, "admin"))
    desk = reverse("scoring:tournament", args=[t.pk])
    page = client.get(desk, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    warning = re.search(r'<fieldset class="plain draw-unpaid".*?</fieldset>', page, re.S)
    assert warning is not None
    assert "2 Spieler sind anwesend und haben noch nicht bezahlt" in warning.group(0)
    assert '<span class="unpaid-numbers">3, 11</span>' in warning.group(0)
    draw = reverse("scoring:tournament-draw", args=[t.pk])
    response = client.post(draw, {"seed": "5"}, follow=True, HTTP_ACCEPT_LANGUAGE="de")
    assert not t.draws.exists() and not t.evening.tables.exists()  # no silent draw
    shown = [str(m) for m in response.context["messages"]]
    assert any("Startnummern 3, 11" in m for m in shown), shown
    client.post(draw, {"seed": "5", "unpaid_ok": "on"})
    assert t.draws.filter(number=1).exists()  # confirmed: drawn all the same
    page = client.get(desk).content.decode()
    assert "draw-unpaid" in page  # series 2: the two still have not paid
    for entrant in t.entrants.filter(paid=False):
        tw.entrant_mark(entrant=entrant, paid=True)
    assert "draw-unpaid" not in client.get(desk).content.decode()


def test_the_service_refuses_an_unconfirmed_draw_with_unpaid_players() -> None:
    t = make_tournament(make_club())
    _unpaid(t, 7)
    with pytest.raises(ValidationError, match="7"):
        tw.series_draw(tournament=t, seed=1, unpaid_confirmed=False)
    assert not t.draws.exists()
    t.entrants.filter(number=7).update(checked_in=False)  # not playing: no warning
    tw.series_draw(tournament=t, seed=1, unpaid_confirmed=False)
    assert t.draws.count() == 1


@needs_poppler
def test_unpaid_winners_are_marked_on_the_prize_list(client: Client) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    fill_series(t, 1)
    rows = tournament_ranking(t).rows
    winner, second = rows[0], rows[1]
    assert winner.prize > 0 and second.prize > 0
    _unpaid(t, winner.entrant.number)
    client.force_login(make_user(t.club, "viewer"))
    page = client.get(reverse("scoring:tournament-results", args=[t.pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    marked = re.findall(r"<tr[^>]*><td>\d+\.</td><td class=\"muted\">(\d+)</td>(?:(?!</tr>).)*"
                        r"nicht bezahlt", page, re.S)
    assert marked == [str(winner.entrant.number)]
    pdf = client.get(reverse("scoring:tournament-results-pdf", args=[t.pk]),
                     HTTP_ACCEPT_LANGUAGE="de").content
    lines = [line for line in text(pdf).splitlines() if "nicht bezahlt" in line]
    assert len(lines) == 1 and winner.name in lines[0]


# ------------------------------------------------ 3. the fees, editable until series 1 is drawn

def _settings(t: Tournament, **changes: str) -> dict[str, str]:
    data = {"reseat": "draw", "tie_rule": "won", "prizes": "50%\n30%\n10.00", "public": "",
            "entry_fee": "10.00", "lost_fee": "0.50", "lost_fee_from": "4",
            "lost_fee_high": "1.00", "passed_fee": "0.50", "team_fee": "20.00",
            "tandem_fee": "8.00"}
    data.update(changes)
    return data


def test_the_fees_are_editable_until_series_1_is_drawn(client: Client) -> None:
    t = make_tournament(make_club())
    client.force_login(make_user(t.club, "admin"))
    desk = reverse("scoring:tournament", args=[t.pk])
    page = client.get(desk).content.decode()
    assert 'name="entry_fee"' in page and 'value="10.00"' in page
    assert 'name="lost_fee_high"' in page
    url = reverse("scoring:tournament-settings", args=[t.pk])
    client.post(url, _settings(t, entry_fee="12.50", lost_fee="0.30", lost_fee_from="5",
                               lost_fee_high="0.60", passed_fee="0", team_fee="24",
                               tandem_fee="10"))
    t.refresh_from_db()
    t.evening.refresh_from_db()
    assert t.entry_fee == Decimal("12.50") and t.team_fee == Decimal("24.00")
    assert t.tandem_fee == Decimal("10.00")
    assert t.evening.settlement == {"lost_game_fee_tiers": [
        {"from": 1, "fee": "0.30"}, {"from": 5, "fee": "0.60"}]}
    # one flat lost-game fee, no tier; the ranking's pot follows the entry fee
    client.post(url, _settings(t, entry_fee="12.50", lost_fee="0.40", lost_fee_from="",
                               lost_fee_high="", passed_fee="0.20"))
    t.evening.refresh_from_db()
    assert t.evening.settlement == {"lost_game_fee": "0.40", "passed_deal_fee": "0.20"}
    assert tournament_ranking(Tournament.objects.get(pk=t.pk)).money.pot == Decimal("162.50")
    # bad input: a clear message, nothing changed
    response = client.post(url, _settings(t, lost_fee_high="2.00", lost_fee_from=""),
                           follow=True, HTTP_ACCEPT_LANGUAGE="de")
    assert any("höhere" in str(m) or "beides" in str(m)
               for m in response.context["messages"])
    t.evening.refresh_from_db()
    assert t.evening.settlement == {"lost_game_fee": "0.40", "passed_deal_fee": "0.20"}
    # teams are registered: the team fee (the team ranking) cannot be removed
    response = client.post(url, _settings(t, team_fee=""), follow=True)
    t.refresh_from_db()
    assert t.team_fee == Decimal("20.00")


def test_after_the_first_draw_the_fees_are_read_only_and_a_change_is_refused(
        client: Client) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    client.force_login(make_user(t.club, "admin"))
    page = client.get(reverse("scoring:tournament", args=[t.pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'name="entry_fee"' not in page and 'name="lost_fee"' not in page
    assert "fees-fixed" in page and "10.00" in page
    url = reverse("scoring:tournament-settings", args=[t.pk])
    settlement, version = dict(t.evening.settlement), t.version
    for change in ({"entry_fee": "15.00"}, {"lost_fee": "0.60"}, {"team_fee": ""},
                   {"lost_fee_high": "", "lost_fee_from": ""}, {"tandem_fee": "9"}):
        response = client.post(url, _settings(t, prizes="100%", tie_rule="shared", **change),
                               follow=True, HTTP_ACCEPT_LANGUAGE="de")
        shown = [str(m) for m in response.context["messages"]]
        assert any("Serie 1" in m and "Gebühren" in m for m in shown), (change, shown)
        fresh = Tournament.objects.select_related("evening").get(pk=t.pk)
        assert fresh.entry_fee == Decimal("10.00") and fresh.team_fee == Decimal("20.00")
        assert fresh.tandem_fee == Decimal("8.00") and fresh.evening.settlement == settlement
        assert fresh.prizes == ["50%", "30%", "10.00"] and fresh.tie_rule == "won"
        assert fresh.version == version  # nothing changed
    # the same fees again, or none in the form: the other settings are saved
    client.post(url, _settings(t, tie_rule="shared"))
    assert Tournament.objects.get(pk=t.pk).tie_rule == "shared"
    client.post(url, {"reseat": "draw", "tie_rule": "won", "prizes": "", "public": ""})
    assert Tournament.objects.get(pk=t.pk).tie_rule == "won"
    with pytest.raises(ValidationError):
        preisskat.tournament_fees(tournament=t, fees=dataclasses.replace(
            preisskat.current_fees(t), passed_fee=Decimal("1.00")))


def _settlement_post(t: Tournament, **changes: str) -> dict[str, str]:
    """The treasurer's settlement form as the evening stands, with ``changes``."""
    from scoring.forms.settlement import initial_for

    t.evening.refresh_from_db()
    form = {k: "" if v is None else str(v) for k, v in initial_for(t.evening).items()}
    form["version"] = str(t.evening.version)
    form.pop("round_totals_first", None)
    return {**form, **changes}


def test_the_treasurers_page_cannot_change_the_fees_after_the_first_draw(
        client: Client) -> None:
    """The evening's settlement page is the other way to the lost-game fee: before the draw
    it changes the fee the desk shows; once series 1 is drawn it is refused with a message
    and nothing changes, as on the desk."""
    t = make_tournament(make_club())
    client.force_login(make_user(t.club, "admin"))
    url = reverse("scoring:settlement", args=[t.evening.pk])
    response = client.post(url, _settlement_post(t, lost_game_fee_tiers="1: 0,40; 4: 1,00"),
                           HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302
    t.evening.refresh_from_db()
    assert preisskat.current_fees(t).lost_fee == Decimal("0.40")
    tw.series_draw(tournament=t, seed=1)
    t.evening.refresh_from_db()
    settlement, version = dict(t.evening.settlement), t.evening.version
    for change in ({"lost_game_fee_tiers": "1: 0,60; 4: 1,00"}, {"passed_deal_fee": "1,00"},
                   {"stake": "0,01"}):
        response = client.post(url, _settlement_post(t, **change), HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 200, change
        assert "Serie 1" in response.content.decode(), change
        t.evening.refresh_from_db()
        assert t.evening.settlement == settlement and t.evening.version == version
    # the same values again are no change
    response = client.post(url, _settlement_post(t), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302


# ------------------------------------------------ 4. prize lists per category, team and tandem

def test_prize_lists_per_category_team_and_tandem(client: Client) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    fill_series(t, 1)
    client.force_login(make_user(t.club, "admin"))
    desk = client.get(reverse("scoring:tournament", args=[t.pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    for name in ("prizes_category_0", "prizes_category_1", "prizes_team", "prizes_tandem"):
        assert f'name="{name}"' in desk, name
    url = reverse("scoring:tournament-settings", args=[t.pk])
    data = {"reseat": "draw", "tie_rule": "won", "prizes": "50%\n30%\n10.00",
            "prizes_category_0": "20.00\n10,00", "prizes_category_1": "",
            "prizes_team": "60%\n40%", "prizes_tandem": "16.00"}
    client.post(url, data)
    t.refresh_from_db()
    assert t.list_prizes == {"categories": {"Damen": ["20.00", "10.00"]},
                             "team": ["60%", "40%"], "tandem": ["16.00"]}
    ranking = tournament_ranking(t)
    lists = {p.key: p for p in ranking.prize_lists}
    assert [(p.kind, p.key) for p in ranking.prize_lists] == [
        ("category", "c0"), ("category", "c1"), ("team", "team"), ("tandem", "tandem")]
    assert [p.title for p in ranking.prize_lists][:2] == ["Damen", "Senioren"]
    damen, teams, tandems = lists["c0"], lists["team"], lists["tandem"]
    assert damen.money and not lists["c1"].money
    # the category's players ranked on their own by the tie rule, prizes by place
    assert [r.entrant.category for r in damen.rows if isinstance(r, Row)] == ["Damen"] * 3
    assert [r.rank for r in damen.rows] == [1, 2, 2]  # these two are level on every count
    assert [r.prize for r in damen.rows] == [Decimal("20.00"), Decimal("5.00"),
                                             Decimal("5.00")]
    # teams: a share of the team fees (3 teams of 20.00)
    assert teams.pot == Decimal("60.00") and len(teams.rows) == 3
    assert [g.prize for g in teams.rows] == [Decimal("36.00"), Decimal("24.00"), Decimal(0)]
    assert tandems.rows[0].prize == Decimal("16.00") and tandems.carried == Decimal("32.00")
    best_team = teams.rows[0]
    assert best_team.score >= teams.rows[1].score
    # the page and its PDF show each list with its prizes; a CSV per list
    page = client.get(reverse("scoring:tournament-results", args=[t.pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    for kind in ("category", "team", "tandem"):
        assert f'class="prize-list-{kind}"' in page
    assert "36,00" in page and "Topf 60,00 EUR" in page
    pdf = text(client.get(reverse("scoring:tournament-results-pdf", args=[t.pk]),
                          HTTP_ACCEPT_LANGUAGE="de").content)
    assert "Mannschaftswertung" in pdf or "Mannschaften" in pdf
    assert "36,00" in pdf and "16,00" in pdf and "Topf 60,00 EUR" in pdf
    csv_url = reverse("scoring:tournament-results-csv", args=[t.pk])
    team_rows = list(csv.reader(io.StringIO(client.get(
        csv_url + "?list=team", HTTP_ACCEPT_LANGUAGE="de").content.decode("utf-8-sig")),
        delimiter=";"))
    assert team_rows[1][:2] == ["1", best_team.name] and team_rows[1][-1] == "36,00"
    damen_rows = list(csv.reader(io.StringIO(client.get(
        csv_url + "?list=c0", HTTP_ACCEPT_LANGUAGE="de").content.decode("utf-8-sig")),
        delimiter=";"))
    assert len(damen_rows) == 4 and damen_rows[1][-2:] == ["20,00", "ja"]
    assert client.get(csv_url + "?list=c9").status_code == 404
    overall = client.get(csv_url).content.decode("utf-8-sig")
    assert len(list(csv.reader(io.StringIO(overall), delimiter=";"))) == 1 + 13
    # bad input: a clear message, nothing changed
    response = client.post(url, {**data, "prizes_team": "viel"}, follow=True,
                           HTTP_ACCEPT_LANGUAGE="de")
    assert any("Mannschaft" in str(m) for m in response.context["messages"])
    t.refresh_from_db()
    assert t.list_prizes["team"] == ["60%", "40%"]


def test_a_category_list_shares_prizes_by_the_tie_rule() -> None:
    t = make_tournament(make_club(), players=4)
    t.categories, t.tie_rule = ["Damen"], "shared"
    t.list_prizes = {"categories": {"Damen": ["20.00", "10.00"]}}
    entrants = list(t.entrants.select_related("player"))
    for e in entrants:
        e.category = "Damen"
    rows = [Row(e, score=s, won=w, lost=0) for e, s, w in zip(
        entrants, [500, 500, 300, 100], [5, 3, 2, 1], strict=True)]
    ranking = TournamentRanking(
        tournament=t, after=1, rows=rows, progress=[], tie_rule="shared",
        money=Money(Decimal(40), Decimal(0), Decimal(0), Decimal(0), Decimal(0), Decimal(0),
                    4, "EUR"), prizes=[], problems=[], entrants=entrants)
    damen = ranking.prize_lists[0]
    assert [r.rank for r in damen.rows] == [1, 1, 3, 4]
    assert [r.prize for r in damen.rows][:3] == [Decimal("15.00"), Decimal("15.00"),
                                                 Decimal(0)]
    t.tie_rule = "won"  # more games won breaks the tie
    ranking = dataclasses.replace(ranking, tie_rule="won")
    damen = ranking.prize_lists[0]
    assert [r.rank for r in damen.rows] == [1, 2, 3, 4]
    assert [r.prize for r in damen.rows][:2] == [Decimal("20.00"), Decimal("10.00")]


# ------------------------------------------------ 5. players of one club kept apart at the draw

def _club_field(club: Club, *, apart: bool) -> Tournament:
    """16 guests of four home clubs (four each), no teams: four 4-tables."""
    profile = next(p for p in club.rule_profiles.all() if matches_preset(p))
    t = tw.tournament_create(
        club=club, name="Vereinsturnier", date=timezone.localdate(), profile=profile,
        series_count=1, series_rounds=1, entry_fee=Decimal("10.00"), settlement={},
        categories=[], team_fee=None, tandem_fee=None, reseat="draw", tie_rule="won",
        prizes=[], public=False)
    homes = ["SC Nord", "Herz Bube", "Grand Hand", "Kreuz As"]
    for index in range(16):
        tw.entrant_register(tournament=t, name=f"Gast {index:02d}",
                            home_club=homes[index % 4], paid=True, at_door=True)
    preisskat.tournament_clubs_apart(tournament=t, on=apart)
    return t


def _club_pairs(t: Tournament) -> int:
    home = dict(t.entrants.values_list("number", "home_club"))
    pairs = 0
    for series in series_history(t):
        for table in series:
            for i, a in enumerate(table):
                pairs += sum(1 for b in table[i + 1:] if home[a] == home[b])
    return pairs


def test_the_setting_keeps_players_of_one_club_apart_at_the_draw(client: Client) -> None:
    club = make_club()
    together = [_club_field(make_club(f"c{seed}", f"Club {seed}"), apart=False)
                for seed in range(3)]
    for seed, t in enumerate(together):
        tw.series_draw(tournament=t, seed=seed)
    # by lot, the same seeds seat club mates together
    assert sum(_club_pairs(t) for t in together) > 0
    t = _club_field(club, apart=False)
    client.force_login(make_user(club, "admin"))
    desk = client.get(reverse("scoring:tournament", args=[t.pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Spieler eines Vereins möglichst trennen" in desk
    client.post(reverse("scoring:tournament-settings", args=[t.pk]),
                {"reseat": "draw", "tie_rule": "won", "prizes": "", "clubs_apart": "on"})
    t.refresh_from_db()
    assert t.clubs_apart
    for seed in range(3):
        fresh = _club_field(make_club(f"d{seed}", f"Dub {seed}"), apart=True)
        tw.series_draw(tournament=fresh, seed=seed)
        assert _club_pairs(fresh) == 0, seed
    tw.series_draw(tournament=t, seed=0)
    assert _club_pairs(t) == 0
    # switched off again by the form (an unticked box)
    client.post(reverse("scoring:tournament-settings", args=[t.pk]),
                {"reseat": "draw", "tie_rule": "won", "prizes": ""})
    assert not Tournament.objects.get(pk=t.pk).clubs_apart


def test_who_reads_the_prize_list_csvs(client: Client) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    url = reverse("scoring:tournament-results-csv", args=[t.pk]) + "?list=team"
    response = client.get(url)  # anonymous: the sign-in page
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for role in ("viewer", "scorer", "admin"):
        client.force_login(make_user(t.club, role))
        assert client.get(url).status_code == 200, role
    client.force_login(make_user(make_club("zwickau", "Skatclub Zwickau"), "admin"))
    assert client.get(url).status_code == 404
    settings = reverse("scoring:tournament-settings", args=[t.pk])
    for role in ("viewer", "scorer"):
        client.force_login(make_user(t.club, role, username=f"{role}-2"))
        assert client.post(settings, {"reseat": "draw", "tie_rule": "won",
                                      "prizes_team": "100%", "clubs_apart": "on"}
                           ).status_code == 403
    fresh = Tournament.objects.get(pk=t.pk)
    assert fresh.list_prizes == {} and not fresh.clubs_apart
