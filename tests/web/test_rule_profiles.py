"""Rule profiles: every profile in words on the club page (German and English), and the
admins' form that creates and edits them with every option of the spec, checked by the
engine's parse_options so that nothing invalid is saved. Evenings keep their frozen rules."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.forms.rule_profile import RuleProfileForm
from scoring.models import Club, RuleProfile
from scoring.presets import PRESETS
from scoring.reads.rule_words import describe, describe_rules

from .factories import make_club, make_table, make_user

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = pytest.mark.django_db

CLUB_EVENING_DE = ("Kontra und Re · Bock nach 60:60, verlorenem Kontra und Re (Ramschrunde "
                   "nach jeder Bockrunde) · Ramsch, wenn alle passen (Jungfrau doppelt) · "
                   "Einsatz 0,05 € je Punkt")
CLUB_EVENING_EN = ("Kontra and Re · Bock after 60:60, a lost Kontra and Re (a Ramsch round "
                   "after each Bock round) · Ramsch when all pass (Jungfrau doubles) · "
                   "Stake €0.05 per point")


def admin_client(club: Club, role: str = "admin", lang: str = "en",
                 username: str | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(make_user(club, role, username))
    return client


def profile(club: Club, preset: str) -> RuleProfile:
    return RuleProfile.objects.get(club=club, name=PRESETS[preset]["name"])


def post_data(initial: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The form's fields as a browser posts them: a ticked box "on", an unticked one absent."""
    data: dict[str, Any] = {}
    for key, value in {**initial, **changes}.items():
        if value is True:
            data[key] = "on"
        elif value is False or value is None:
            if value is None:
                data[key] = ""
        elif isinstance(value, list):
            data[key] = [str(v) for v in value]
        else:
            data[key] = str(value)
    return data


def edit(client: Client, p: RuleProfile, **changes: Any) -> TestResponse:
    data = post_data(RuleProfileForm.initial_from(p), **changes)
    return client.post(reverse("scoring:profile-edit", args=[p.pk]), data)


# ---------------------------------------------------------------- in words

def test_the_presets_in_words_in_both_languages() -> None:
    club = make_club()
    evening = profile(club, "club_evening")
    assert describe(evening, "de") == CLUB_EVENING_DE
    assert describe(evening, "en") == CLUB_EVENING_EN
    isko = profile(club, "isko_tournament")
    assert describe(isko, "de") == "keine Hausregeln · Einsatz 0,05 € je Punkt"
    assert describe(isko, "en") == "no house rules · Stake €0.05 per point"
    assert describe(profile(club, "american1898"), "de") == (
        "Kontra und Re · Ramsch, wenn alle passen · Einsatz 0,05 € je Punkt")
    assert describe(profile(club, "hoyle"), "en") == (
        "Ramsch when all pass · Stake €0.05 per point")


def test_every_option_has_its_words() -> None:
    isko = {
        "grand_base": 20, "lost_hand_single": True, "kontra": True, "kontra_requires_18": True,
        "spitze": True, "schenken": True, "rum": True, "ramsch": "when_all_pass",
        "ramsch_scoring": "simple", "ramsch_skat": "loser", "ramsch_ties": "share",
        "ramsch_jungfrau": False, "ramsch_durchmarsch": "times4",
        "schieberamsch": "mandatory", "ramsch_all_tied": "all_lose", "ramsch_kontra": True,
        "ramsch_cap": 200, "ramsch_round_grand_hand": "counts", "overbid_charge": "bid",
        "penalty_points": 20,
        "bock": {"triggers": ["re", "value_at_least", "loss_at_least", "rounds_without_bock",
                              "grand_hand", "null_ouvert_hand", "schneider", "schwarz",
                              "all_passed"],
                 "value_at_least": 120, "loss_at_least": 150, "rounds_without_bock": 3,
                 "stacking": "parallel", "includes_trigger": True, "one_per_deal": False,
                 "ramsch_round_after": 2, "manual": True},
    }
    de = describe_rules("isko", isko, lang="de")
    assert de == (
        "Grand zählt 20 · Kontra und Re · kein Kontra nach Passen bei 18 · Spitze · Schenken · "
        "Rum · verlorene Handspiele zählen einfach · überreiztes Spiel kostet den Reizwert · "
        "Bock nach Re, Grand Hand, Null ouvert Hand, Schneider, Schwarz, eingepasstem Spiel, "
        "Spielwert ab 120, Verlust ab 150 und 3 Runden ohne Bock (Bockrunden überlagern sich "
        "und verdoppeln erneut (Doppelbock), das auslösende Spiel zählt auch doppelt, jeder "
        "Auslöser bringt eine Runde, Ramschrunde nach jeder 2. Bockrunde, Bock auch von Hand) · "
        "Ramsch, wenn alle passen (einfacher Ramsch, Skat an den Verlierer, Gleichstand teilt den "
        "Verlust, Jungfrau nicht doppelt, Durchmarsch verliert vierfach, Schieberamsch Pflicht "
        "ohne Verdoppeln, alle drei gleich: alle verlieren, Kontra und Re im Ramsch, höchstens "
        "−200 je Ramsch, Grand Hand zählt als Spiel der Ramschrunde) · Strafe kostet 20")
    en = describe_rules("isko", isko, lang="en")
    for words in ("Grand counts 20", "an overbid game costs its bid", "Bock also set by hand",
                  "all three tied: all lose", "Kontra and Re on Ramsch", "at most −200 per Ramsch",
                  "a Grand Hand counts as a deal of the Ramsch round", "a penalty costs 20"):
        assert words in en
    am98 = {"frage": False, "revolution": False, "exceptional": ["uno", "nullo_purchase"],
            "contra": True, "overbid_charge": "bid", "point_ramsch": True,
            "forced_ramsch_every": 4, "beer_limit": 301}
    assert describe_rules("american1898", am98, lang="en") == (
        "without Call play · without Revolution · exceptional games: Nullo Purchase, Uno · Contra "
        "and Re-contra · an overbid game costs its bid · Ramsch when all pass (Point Ramsch, "
        "forced Ramsch every 4 rounds) · Beer Skat ends at 301")
    assert describe_rules("hoyle", {"frage": True, "uno_duo": False, "ramsch": "off",
                                    "ramsch_base": 25}, lang="de") == (
        "mit Frage-Spielen · ohne Uno und Duo · kein Ramsch: eingepasste Spiele werden eingeworfen")
    # A key the words do not know is shown as stored, never hidden.
    assert "future_rule: 1" in describe_rules("isko", {"future_rule": 1}, lang="en")


def test_the_club_page_lists_every_profile_in_words(client: Client) -> None:
    club = make_club()
    for lang, words in (("de", CLUB_EVENING_DE), ("en", CLUB_EVENING_EN)):
        response = admin_client(club, "viewer" if lang == "de" else "scorer", lang).get(
            reverse("scoring:club", args=[club.slug]))
        html = response.content.decode()
        assert words in html.replace("&nbsp;", " ")
        for p in club.rule_profiles.all():
            assert describe(p, lang) in html
        assert reverse("scoring:profile-edit", args=[profile(club, "hoyle").pk]) not in html
        assert reverse("scoring:profile-create", args=[club.slug]) not in html
    html = admin_client(club).get(reverse("scoring:club", args=[club.slug])).content.decode()
    for p in club.rule_profiles.all():
        assert reverse("scoring:profile-edit", args=[p.pk]) in html
    assert reverse("scoring:profile-create", args=[club.slug]) in html


# ---------------------------------------------------------------- the form

@pytest.mark.parametrize("preset", list(PRESETS))
def test_posting_a_profile_back_unchanged_keeps_its_options(preset: str) -> None:
    club = make_club()
    p = profile(club, preset)
    before = p.options
    response = edit(admin_client(club), p)
    assert response.status_code == 302
    p.refresh_from_db()
    assert p.options == before


def test_an_admin_creates_a_profile() -> None:
    club = make_club()
    client = admin_client(club)
    url = reverse("scoring:profile-create", args=[club.slug])
    page = client.get(url)
    assert page.status_code == 200
    initial = page.context["form"].initial
    data = post_data(initial, name="Dienstagsrunde", kontra=True, spitze=True,
                     ramsch="when_all_pass", ramsch_skat="nobody", bock=True,
                     bock_triggers=["re", "schwarz"], bock_stacking="parallel",
                     stake="0.02", currency="chf", penalty_points=15)
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    new = RuleProfile.objects.get(club=club, name="Dienstagsrunde")
    assert new.options == {"kontra": True, "spitze": True, "ramsch": "when_all_pass",
                           "ramsch_skat": "nobody", "penalty_points": 15,
                           "bock": {"triggers": ["re", "schwarz"], "stacking": "parallel"}}
    assert (new.stake, new.currency, new.rules, new.scoring) == (
        Decimal("0.02"), "CHF", "isko", "classic")
    # The form shows it again as it was saved.
    again = RuleProfileForm.initial_from(new)
    assert (again["ramsch_skat"], again["bock"], again["bock_triggers"],
            again["bock_stacking"], again["penalty_points"]) == (
        "nobody", True, ["re", "schwarz"], "parallel", 15)


def test_historic_options_round_trip_and_other_systems_options_are_ignored() -> None:
    club = make_club()
    p = profile(club, "american1898")
    response = edit(admin_client(club), p, frage=False, exceptional=["duo", "uno"],
                    point_ramsch=True, forced_ramsch_every=3, beer_limit=251,
                    overbid_charge="bid", kontra=True, uno_duo=False)
    assert response.status_code == 302
    p.refresh_from_db()
    assert p.options == {"frage": False, "exceptional": ["uno", "duo"], "contra": True,
                         "point_ramsch": True, "forced_ramsch_every": 3, "beer_limit": 251,
                         "overbid_charge": "bid"}
    hoyle = profile(club, "hoyle")
    # A wrong value in another system's options (hidden on the page) does not block saving.
    response = edit(admin_client(club, username="second"), hoyle, frage=True,
                    ramsch_base=30, ramsch="off", ramsch_cap="viel", bock_value_at_least="")
    assert response.status_code == 302
    hoyle.refresh_from_db()
    assert hoyle.options == {"frage": True, "ramsch_base": 30, "ramsch": "off"}


def refused(client: Client, p: RuleProfile, **changes: Any) -> str:
    before = RuleProfile.objects.get(pk=p.pk)
    response = edit(client, p, **changes)
    assert response.status_code == 200
    after = RuleProfile.objects.get(pk=p.pk)
    assert (after.name, after.options, after.rules, after.scoring, after.stake) == (
        before.name, before.options, before.rules, before.scoring, before.stake)
    form = response.context["form"]
    return " | ".join(str(e) for errors in form.errors.values() for e in errors)


def test_invalid_combinations_are_refused_and_nothing_is_saved() -> None:
    club = make_club()
    client = admin_client(club)
    isko = profile(club, "isko_tournament")
    errors = refused(client, isko, ramsch_skat="loser", ramsch_cap=100)
    assert "Ramsch, which is off" in errors and "The skat in Ramsch goes to" in errors
    assert "Most a Ramsch can cost" in errors
    errors = refused(client, isko, ramsch="when_all_pass", ramsch_kontra=True)
    assert "need Kontra and Re" in errors
    errors = refused(client, isko, bock_manual=True)
    assert "Bock rounds, which are off" in errors
    errors = refused(client, isko, bock=True, bock_ramsch_round_after=1)
    assert "ramsch" in errors.lower()  # the engine: Ramsch rounds after Bock need Ramsch
    errors = refused(client, profile(club, "hoyle"), scoring="seeger_fabian")
    assert "Seeger-Fabian" in errors
    errors = refused(client, isko, name=PRESETS["hoyle"]["name"].upper())
    assert "already has a rule profile" in errors
    errors = refused(client, isko, currency="€€€")
    assert "three letters" in errors
    errors = refused(client, isko, bock=True, bock_triggers=["nonsense"])
    assert errors


def test_german_messages_for_a_refused_combination() -> None:
    club = make_club()
    errors = refused(admin_client(club, lang="de"), profile(club, "isko_tournament"),
                     ramsch="when_all_pass", ramsch_kontra=True)
    assert "Kontra und Re im Ramsch" in errors and "Kontra und Re" in errors


def test_evenings_keep_their_frozen_rules_when_the_profile_changes() -> None:
    club = make_club()
    table = make_table(club, preset="club_evening", date=datetime.date(2026, 1, 9))
    evening = table.evening
    frozen = (evening.rules, dict(evening.options), evening.stake, evening.profile_name)
    p = profile(club, "club_evening")
    response = edit(admin_client(club), p, name="Clubabend neu", kontra=False,
                    ramsch="off", bock=False, bock_ramsch_round_after=0, stake="0.10")
    assert response.status_code == 302, response.context["form"].errors
    p.refresh_from_db()
    assert p.options == {} and p.name == "Clubabend neu"
    evening.refresh_from_db()
    assert (evening.rules, evening.options, evening.stake, evening.profile_name) == frozen


# ---------------------------------------------------------------- who may

@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_only_club_admins_edit_profiles(role: str) -> None:
    club = make_club()
    p = profile(club, "club_evening")
    client = admin_client(club, role)
    before = list(RuleProfile.objects.values())
    for url in (reverse("scoring:profile-edit", args=[p.pk]),
                reverse("scoring:profile-create", args=[club.slug])):
        assert client.get(url).status_code == 403
        data = post_data(RuleProfileForm.initial_from(p), name="Gekapert")
        assert client.post(url, data).status_code == 403
    assert list(RuleProfile.objects.values()) == before


def test_another_clubs_admin_gets_404_and_anonymous_the_sign_in() -> None:
    club, other = make_club(), make_club("other", "Other Club")
    p = profile(club, "club_evening")
    client = admin_client(other)
    data = post_data(RuleProfileForm.initial_from(p), name="Gekapert")
    url = reverse("scoring:profile-edit", args=[p.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, data).status_code == 404
    assert client.post(reverse("scoring:profile-create", args=[club.slug]),
                       data).status_code == 404
    anonymous = Client().post(url, data)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert not RuleProfile.objects.filter(name="Gekapert").exists()


# ---------------------------------------------------------------- DECISIONS §9 options

SECTION_9 = {"ramsch_all_tied": "all_lose", "ramsch_kontra": True, "ramsch_cap": 300,
             "ramsch_round_grand_hand": "counts", "overbid_charge": "bid"}


def test_the_section_9_options_round_trip() -> None:
    club = make_club()
    client = admin_client(club)
    p = profile(club, "club_evening")
    response = edit(client, p, bock_manual=True, **SECTION_9)
    assert response.status_code == 302, response.context["form"].errors
    p.refresh_from_db()
    assert p.options == {
        "kontra": True, "ramsch": "when_all_pass", **SECTION_9,
        "bock": {"triggers": ["sixty_sixty", "kontra_lost", "re"], "ramsch_round_after": 1,
                 "manual": True}}
    initial = RuleProfileForm.initial_from(p)
    assert {k: initial[k] for k in SECTION_9} == SECTION_9
    assert initial["bock_manual"] is True
    # The edit page shows each of them as saved, and posting it back changes nothing.
    html = client.get(reverse("scoring:profile-edit", args=[p.pk])).content.decode()
    assert 'name="ramsch_cap" value="300"' in html
    assert '<option value="all_lose" selected>' in html
    assert '<option value="counts" selected>' in html
    assert '<option value="bid" selected>' in html
    assert re.search(r'<input type="checkbox" name="ramsch_kontra"[^>]* checked>', html)
    assert 'name="bock_manual" id="id_bock_manual" checked' in html
    before = p.options
    assert edit(client, p).status_code == 302
    p.refresh_from_db()
    assert p.options == before
    # Each in words, in both languages.
    de = describe(p, "de")
    for words in ("alle drei gleich: alle verlieren", "Kontra und Re im Ramsch",
                  "höchstens −300 je Ramsch", "Grand Hand zählt als Spiel der Ramschrunde",
                  "überreiztes Spiel kostet den Reizwert", "Bock auch von Hand"):
        assert words in de
    en = describe(p, "en")
    for words in ("all three tied: all lose", "Kontra and Re on Ramsch",
                  "at most −300 per Ramsch", "a Grand Hand counts as a deal of the Ramsch round",
                  "an overbid game costs its bid", "Bock also set by hand"):
        assert words in en
    # And back to the defaults, one at a time: each key leaves the options.
    for key, default in (("ramsch_all_tied", "none"), ("ramsch_kontra", False),
                         ("ramsch_cap", None), ("ramsch_round_grand_hand", "deals_again"),
                         ("overbid_charge", "next_multiple"), ("bock_manual", False)):
        assert edit(client, p, **{key: default}).status_code == 302
        p.refresh_from_db()
        assert key.removeprefix("bock_") not in {**p.options, **p.options["bock"]}


def test_overbid_charge_for_the_historic_systems_too() -> None:
    club = make_club()
    p = profile(club, "hoyle")
    assert edit(admin_client(club), p, overbid_charge="bid").status_code == 302
    p.refresh_from_db()
    assert p.options == {"overbid_charge": "bid"}


def test_section_9_options_that_cannot_apply_are_refused() -> None:
    club = make_club()
    client = admin_client(club)
    evening = profile(club, "club_evening")
    errors = refused(client, evening, kontra=False, ramsch_kontra=True)
    assert "need Kontra and Re" in errors
    isko = profile(club, "isko_tournament")
    for key, value in SECTION_9.items():
        if key == "overbid_charge":
            continue
        errors = refused(client, isko, **{key: value})
        assert "Ramsch, which is off" in errors, key
    # A Grand Hand in a Ramsch round needs Ramsch rounds after Bock.
    errors = refused(client, evening, bock_ramsch_round_after=0,
                     ramsch_round_grand_hand="counts")
    assert "Ramsch rounds after Bock rounds" in errors
    assert "A Ramsch round after every … Bock rounds" in errors
    errors = refused(client, isko, bock_manual=True)
    assert "Bock rounds, which are off" in errors
