"""Names of people, clubs, teams, leagues, groups and tournaments refuse bidi controls,
zero-width and other invisible characters (issue 35, item 3) on every path that writes one:
the form shows the message on the field, the service refuses, an import names the place;
nothing is written."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from scoring.forms.club import PlayerForm, TableForm
from scoring.forms.league import GroupForm, LeagueForm, TeamForm, TeamPlayerForm
from scoring.forms.setup import ClubSetupForm
from scoring.forms.signup import SignupForm
from scoring.forms.tournament import EntrantForm, TournamentForm
from scoring.models import Club, League, LeagueGroup, Player, Signup, Team, TeamPlayer, Tournament
from scoring.presets import PRESETS
from scoring.writes import league as lw
from scoring.writes import onboarding
from scoring.writes import signup as signups
from scoring.writes import tournament as tw
from scoring.writes.import_problems import ImportProblem
from scoring.writes.imports import import_club, import_evening
from scoring.writes.paper import plan_totals
from scoring.writes.sheetcsv import plan_sheet

from .factories import make_club, make_user
from .interchange_data import build_club
from .seasons import START, make_evening, make_season
from .test_import_checks import exported
from .tournaments import make_tournament

pytestmark = pytest.mark.django_db

BIDI = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: "Anna" + it + "reteP" reads "Anna Peter" backwards
ZERO = "\u200b"  # ZERO WIDTH SPACE: "Anna" and "An\u200bna" look the same
CHARACTERS = pytest.mark.parametrize("bad", [BIDI, ZERO], ids=["U+202E", "U+200B"])
MESSAGE = "invisible or control characters"


def code(bad: str) -> str:
    return f"U+{ord(bad):04X}"


def named(bad: str) -> str:
    return f"An{bad}na Wolf"


def field_says(form: Any, field: str, bad: str) -> None:
    assert not form.is_valid()
    words = " ".join(form.errors.get(field, []))
    assert MESSAGE in words and code(bad) in words, form.errors


# ---------------------------------------------------------------- forms: on the field

@CHARACTERS
def test_the_forms_show_the_message_on_the_field(bad: str, settings: Any) -> None:
    settings.LANGUAGE_CODE = "en"
    club = make_club()
    field_says(PlayerForm({"name": named(bad)}, club=club), "name", bad)
    field_says(TableForm({"guest_0": named(bad), "first_dealer": "0"}, club=club),
               "guest_0", bad)
    field_says(ClubSetupForm({"club_name": f"SC{bad} Gera"}), "club_name", bad)
    tournament = make_tournament(club, players=4)
    for field in ("name", "home_club", "team", "tandem"):
        field_says(EntrantForm({field: named(bad)}, tournament=tournament), field, bad)
        field_says(SignupForm({field: named(bad), "email": "a@example.org"},
                              tournament=tournament), field, bad)
    field_says(TournamentForm({"name": f"Preis{bad}skat"}, club=club), "name", bad)
    field_says(LeagueForm({"name": f"Liga{bad}"}, club=club), "name", bad)
    field_says(GroupForm({"name": f"Gruppe{bad} A"}), "name", bad)
    field_says(TeamForm({"name": f"Team{bad}", "club_name": "SC"}, clubs=[]), "name", bad)
    field_says(TeamForm({"name": "Team", "club_name": f"SC{bad}"}, clubs=[]), "club_name", bad)
    field_says(TeamPlayerForm({"name": named(bad)}, members=[]), "name", bad)


# ---------------------------------------------------------------- pages: nothing written

@CHARACTERS
def test_the_club_page_adds_no_such_player(bad: str) -> None:
    club = make_club()
    client = Client()
    client.force_login(make_user(club, "scorer"))
    before = Player.objects.count()
    answer = client.post(reverse("scoring:player-create", args=[club.slug]),
                         {"name": named(bad)}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and MESSAGE in answer.content.decode()
    assert Player.objects.count() == before


@CHARACTERS
def test_the_desk_registers_no_such_guest(bad: str) -> None:
    tournament = make_tournament(make_club(), players=4)
    client = Client()
    client.force_login(make_user(tournament.club, "admin"))
    before = (Player.objects.count(), tournament.entrants.count())
    for field in ("name", "home_club", "team", "tandem"):
        data = {"name": "Gast Gut", field: named(bad)}
        answer = client.post(reverse("scoring:tournament", args=[tournament.pk]), data,
                             HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 200
        assert answer.context["entrant_form"].errors.get(field), field
    assert (Player.objects.count(), tournament.entrants.count()) == before


@CHARACTERS
def test_online_registration_holds_no_such_name(bad: str) -> None:
    tournament = signups.signup_settings(
        tournament=make_tournament(make_club(), players=4), open=True, closes=None,
        limit=None)
    for field in ("name", "home_club", "team", "tandem"):
        data = {"name": "Paula Pik", "email": "p@example.org", field: named(bad)}
        answer = Client().post(reverse("scoring:signup", args=[tournament.signup_key]),
                               data, REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 200
        assert MESSAGE in " ".join(answer.context["form"].errors.get(field, [])), field
    assert not Signup.objects.exists()


@CHARACTERS
def test_the_set_up_page_makes_no_such_club(bad: str) -> None:
    answer = Client().post(reverse("scoring:setup"), {
        "club_name": f"SC{bad} Gera", "slug": "gera", "language": "de",
        "preset": "club_evening", "stake": "0", "currency": "EUR", "username": "anna",
        "email": "a@example.org", "password1": "Kreuz-Bube-1923",
        "password2": "Kreuz-Bube-1923"}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and answer.context["form"].errors.get("club_name")
    assert not Club.objects.exists()


# ---------------------------------------------------------------- services: refused

@CHARACTERS
def test_the_services_refuse(bad: str) -> None:
    club = make_club()
    tournament = signups.signup_settings(tournament=make_tournament(club, players=4),
                                         open=True, closes=None, limit=None)
    for field in ("name", "home_club", "team", "tandem"):
        with pytest.raises(ValidationError, match=MESSAGE):
            texts: dict[str, Any] = {"name": "Gast Gut", field: named(bad)}
            tw.entrant_register(tournament=tournament, **texts)
        with pytest.raises(ValidationError, match=MESSAGE):
            signups.signup_create(tournament=tournament, email="p@example.org",
                                  **{"name": "Paula Pik", field: named(bad)})
    assert tournament.entrants.count() == 4 and not Signup.objects.exists()
    profile = club.rule_profiles.get(name=PRESETS["isko_tournament"]["name"])
    with pytest.raises(ValidationError, match=MESSAGE):
        tw.tournament_create(
            club=club, name=f"Preis{bad}skat", date=START, profile=profile, series_count=1,
            series_rounds=1, entry_fee=Decimal("0"), settlement={}, categories=[],
            team_fee=None, tandem_fee=None, reseat="draw", tie_rule="won", prizes=[],
            public=False)
    assert Tournament.objects.count() == 1
    with pytest.raises(ValidationError, match=MESSAGE):
        lw.league_create(club=club, name=f"Liga{bad}", season="2026", profile=profile)
    assert not League.objects.exists()
    league = lw.league_create(club=club, name="Liga", season="2026", profile=profile)
    with pytest.raises(ValidationError, match=MESSAGE):
        lw.group_create(league=league, name=f"A{bad}")
    group = lw.group_create(league=league, name="A")
    with pytest.raises(ValidationError, match=MESSAGE):
        lw.team_create(group=group, name=f"Team{bad}", club_name="SC")
    with pytest.raises(ValidationError, match=MESSAGE):
        lw.team_create(group=group, name="Team", club_name=f"SC{bad}")
    team = lw.team_create(group=group, name="Team", club_name="SC")
    with pytest.raises(ValidationError, match=MESSAGE):
        lw.team_player_add(team=team, name=named(bad))
    assert (LeagueGroup.objects.count(), Team.objects.count(), TeamPlayer.objects.count()) \
        == (1, 1, 0)
    assert not Player.objects.filter(name__contains=bad).exists()
    with pytest.raises(onboarding.Refused, match=MESSAGE):
        onboarding.club_create(club=onboarding.NewClub(
            name=f"SC{bad} Gera", slug="gera", language="de", preset="club_evening",
            stake=Decimal("0"), currency="EUR"), username="gera-admin",
            password="Kreuz-Bube-1923")
    assert not Club.objects.filter(slug="gera").exists()


# ---------------------------------------------------------------- imports: the place named

@CHARACTERS
def test_an_evening_file_names_the_table(bad: str) -> None:
    club = build_club()
    doc = exported(club)
    doc["name"] = "Unsichtbar"
    doc["tables"][0]["players"][1] = named(bad)
    before = Player.objects.count()
    with pytest.raises(ImportProblem) as info:
        import_evening(doc)
    assert str(info.value).startswith("Table 1: players may not contain invisible or "
                                      f"control characters ({code(bad)})"), str(info.value)
    assert "Tisch 1" in info.value.message_in("de")
    assert Player.objects.count() == before


@CHARACTERS
def test_a_club_file_names_the_player_and_the_club(bad: str) -> None:
    club = build_club()
    document: dict[str, Any] = {"club": club.slug, "name": club.name,
                                "players": [{"name": "Anna"}, {"name": named(bad)}]}
    with pytest.raises(ImportProblem, match="Player 2: name may not contain invisible"):
        import_club(document)
    document = {"club": club.slug, "name": f"SC{bad}"}
    with pytest.raises(ImportProblem, match="name may not contain invisible"):
        import_club(document)
    assert not Player.objects.filter(name__contains=bad).exists()


@CHARACTERS
def test_a_paper_csv_names_the_line(bad: str, settings: Any) -> None:
    settings.LANGUAGE_CODE = "en"
    season = make_season(make_club())
    text = ("Spieler;Datum;Punkte;gewonnen;verloren\n"
            f"Anna;{START:%d.%m.%Y};10;1;0\n{named(bad)};{START:%d.%m.%Y};5;1;1\n")
    plan = plan_totals(text.encode(), season)
    assert any(p.startswith("Line 3: the player's name contains invisible") for p in
               plan.problems), plan.problems


@CHARACTERS
def test_a_sheet_csv_names_the_header(bad: str, settings: Any) -> None:
    settings.LANGUAGE_CODE = "en"
    season = make_season(make_club())
    evening = make_evening(season, 1)
    head = ("Nr.;Geber;Spieler;Spiel;Details;Reizwert;Ergebnis;Kontra/Re;Bock;"
            f"Anna;;Bernd;;{named(bad)};\n")
    plan = plan_sheet(head.encode(), evening)
    assert any("contains invisible or control characters" in p for p in plan.problems), \
        plan.problems
    assert not Player.objects.filter(name__contains=bad).exists()


def test_imports_never_link_a_player_to_an_account() -> None:
    """An import finds the club's players by name or makes them; it never gives one an
    account (issue 35: never by name)."""
    club = build_club()
    owner = make_user(club, "admin", "anna-account")
    doc = exported(club)
    doc["name"] = "Mit neuen Namen"
    doc["tables"][0]["players"][0] = "anna-account"
    import_evening(doc)
    document: dict[str, Any] = {"club": club.slug, "name": club.name,
                                "players": [{"name": "anna-account"}, {"name": "Neu"}]}
    import_club(document)
    assert not Player.objects.filter(user__isnull=False).exists()
    assert not owner.players.exists()


@CHARACTERS
def test_renaming_a_club_or_a_player_in_the_admin_is_refused(bad: str) -> None:
    """The site renames clubs and players only in the Django admin: its forms run the
    model's validators (collation.refuse_invisible)."""
    from django.contrib.auth import get_user_model

    club = make_club()
    player = club.players.get(name="Anna Altenburg")
    operator = get_user_model().objects.create_superuser("operator", "", "pw-for-tests-only")
    client = Client()
    client.force_login(operator)
    answer = client.post(reverse("admin:scoring_club_change", args=[club.pk]), {
        "name": f"Skat{bad}freunde", "slug": club.slug, "language": club.language,
        "departed_names": club.departed_names}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and MESSAGE in answer.content.decode()
    answer = client.post(reverse("admin:scoring_player_change", args=[player.pk]), {
        "club": club.pk, "name": named(bad), "member_number": ""},
        HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and MESSAGE in answer.content.decode()
    club.refresh_from_db()
    player.refresh_from_db()
    assert (club.name, player.name) == ("Skatfreunde Altenburg", "Anna Altenburg")
