"""Every form of the site, fuzzed: arbitrary values and missing fields never give a 500, and
a refused form writes nothing.

For each form page the test reads the field names (and the values offered for them) from
the page itself, so a field added later is fuzzed too. Hypothesis then posts mixtures of
offered values, arbitrary text, odd numbers and missing fields, as the club's admin (who may
write everywhere). Any answer but a redirect (the form's success) must leave the database
as it was.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import FailureCount, Season
from scoring.writes.services import Actor, deal_record

from .factories import make_club, make_table, make_user

pytestmark = pytest.mark.django_db

ODD = ["", " ", "0", "-1", "1", "18", "999999999999999999999", "1e309", "NaN", "-0", "1.5",
       "null", "<script>", "ä" * 300, "\x00", "2026-02-30", "9999-12-31", "on", "true"]
FORMS = ["deal", "preview", "deal edit", "deal delete", "evening", "table", "player", "members",
         "settlement", "season new", "season edit", "series", "table code", "login",
         "profile new", "profile edit", "evening, one more table"]
FIELD = re.compile(r'<(?:input|select|textarea)\b[^>]*\bname="([^"]+)"')
OFFERED = re.compile(r'<(?:input|option)\b[^>]*>')


def form_fields(html: str) -> dict[str, list[str]]:
    """Every field name on the page with the values the page offers for it."""
    fields: dict[str, list[str]] = {n: [] for n in FIELD.findall(html)}
    fields.pop("csrfmiddlewaretoken", None)
    for tag in OFFERED.findall(html):
        name = re.search(r'\bname="([^"]+)"', tag)
        value = re.search(r'\bvalue="([^"]*)"', tag)
        if name and value and name.group(1) in fields:
            fields[name.group(1)].append(value.group(1))
    return fields


def snapshot() -> dict[str, list[Any]]:
    # The limits' failure counts are what a refused sign-in or table code is meant to write.
    models = [*(m for m in apps.get_app_config("scoring").get_models() if m is not FailureCount),
              get_user_model()]
    return {m.__name__: list(m._default_manager.order_by("pk").values()) for m in models}


@pytest.fixture
def site() -> dict[str, Any]:
    club = make_club("fuzz", "Fuzz Club")
    table = make_table(club)
    deal = deal_record(
        table=table, expected_version=0, actor=Actor(None, "test"),
        record={"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
                "declarer_points": 70})
    evening = table.evening
    season = Season.objects.create(club=club, name="2026", start=evening.date,
                                   end=evening.date + datetime.timedelta(days=300),
                                   evaluation="classic")
    admin = make_user(club, "admin")
    profile = club.rule_profiles.get(name="Club evening")
    client = Client()
    client.force_login(admin)
    t, e, s = table.pk, evening.pk, season.pk
    # (name, page with the form, URL the form posts to)
    forms = [
        ("deal", f"/tables/{t}/", reverse("scoring:deal-save", args=[t])),
        ("preview", f"/tables/{t}/", reverse("scoring:deal-preview", args=[t])),
        ("deal edit", reverse("scoring:deal-edit", args=[t, deal.pk]),
         reverse("scoring:deal-edit", args=[t, deal.pk])),
        ("deal delete", reverse("scoring:deal-edit", args=[t, deal.pk]),
         reverse("scoring:deal-delete", args=[t, deal.pk])),
        ("evening", reverse("scoring:evening-create", args=[club.slug]),
         reverse("scoring:evening-create", args=[club.slug])),
        ("table", reverse("scoring:table-create", args=[e]),
         reverse("scoring:table-create", args=[e])),
        ("player", reverse("scoring:club", args=[club.slug]),
         reverse("scoring:player-create", args=[club.slug])),
        ("members", reverse("scoring:members", args=[club.slug]),
         reverse("scoring:members", args=[club.slug])),
        ("settlement", reverse("scoring:settlement", args=[e]),
         reverse("scoring:settlement", args=[e])),
        ("season new", reverse("scoring:season-create", args=[club.slug]),
         reverse("scoring:season-create", args=[club.slug])),
        ("season edit", reverse("scoring:season-edit", args=[s]),
         reverse("scoring:season-edit", args=[s])),
        ("series", reverse("scoring:series-new", args=[e]),
         reverse("scoring:series-new", args=[e])),
        ("table code", reverse("scoring:code-entry"), reverse("scoring:code-entry")),
        ("login", reverse("login"), reverse("login")),
        ("profile new", reverse("scoring:profile-create", args=[club.slug]),
         reverse("scoring:profile-create", args=[club.slug])),
        ("profile edit", reverse("scoring:profile-edit", args=[profile.pk]),
         reverse("scoring:profile-edit", args=[profile.pk])),
        # The evening form's "One more table" without script (the button's name is posted).
        ("evening, one more table", reverse("scoring:evening-create", args=[club.slug]),
         reverse("scoring:evening-create", args=[club.slug])),
    ]
    assert [f[0] for f in forms] == FORMS
    return {"client": client, "forms": {f[0]: f[1:] for f in forms}}


def values_for(offered: list[str]) -> st.SearchStrategy[str | None]:
    choices = [st.none(), st.sampled_from(ODD), st.text(max_size=40)]
    if offered:
        choices.append(st.sampled_from(offered))
    return st.one_of(*choices)


@pytest.mark.parametrize("name", FORMS)
def test_no_form_gives_a_500_or_writes_when_refused(site: dict[str, Any], name: str) -> None:
    page, action = site["forms"][name]
    client = site["client"] if name not in ("login", "table code") else Client()
    response = client.get(page)
    assert response.status_code == 200, (name, page)
    fields = form_fields(response.content.decode())
    assert fields, f"{name}: no fields on {page}"

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(st.fixed_dictionaries({k: values_for(v) for k, v in fields.items()}))
    def post(data: dict[str, str | None]) -> None:
        cache.clear()
        # the sign-in and table-code limits would soon answer 429 only
        FailureCount.objects.all().delete()
        form = {k: v for k, v in data.items() if v is not None}
        if name == "evening, one more table":
            form["add_table"] = "1"
        before = snapshot()
        response = client.post(action, form)  # an exception here (a 500) fails the test
        assert response.status_code < 500, (name, form, response.status_code)
        if response.status_code != 302:
            assert snapshot() == before, (name, form, response.status_code)

    post()


def test_a_player_id_beyond_64_bits_is_refused_not_a_500(site: dict[str, Any]) -> None:
    """Found by the fuzzing: on SQLite Django's pk__in look-up overflowed."""
    _page, action = site["forms"]["series"]
    response = site["client"].post(action, {"players": ["999999999999999999999"]})
    assert response.status_code == 200
