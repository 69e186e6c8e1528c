"""The Django admin: every model is there; deals and the audit log cannot be changed."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

from scoring.models import (
    AuditEntry,
    Club,
    Deal,
    Evening,
    Membership,
    Player,
    RuleProfile,
    Table,
)
from scoring.presets import PRESETS
from scoring.writes.services import Actor, deal_record

from .factories import make_club, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client: Client) -> Client:
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(user)
    return client


@pytest.fixture
def deal() -> Deal:
    table = make_table(make_club())
    return deal_record(table=table, expected_version=0, actor=Actor(None, "test"),
                       record={"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1,
                               "bid": 18, "declarer_points": 70})


def test_every_model_is_registered() -> None:
    for model in (Club, Membership, Player, RuleProfile, Evening, Table, Deal, AuditEntry):
        assert admin.site.is_registered(model), model


def test_the_changelists_and_forms_open(superuser_client: Client, deal: Deal) -> None:
    table = deal.table
    for model, obj in ((Club, table.evening.club), (Membership, None), (Player, None),
                       (RuleProfile, None), (Evening, table.evening), (Table, table),
                       (Deal, deal), (AuditEntry, deal.audit.first())):
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        assert superuser_client.get(url).status_code == 200, url
        if obj is not None:
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
            assert superuser_client.get(url).status_code == 200, url


def test_the_evening_shows_its_tables_and_the_table_its_seats(
        superuser_client: Client, deal: Deal) -> None:
    table = deal.table
    html = superuser_client.get(
        reverse("admin:scoring_evening_change", args=[table.evening.pk])).content.decode()
    assert table.access_code in html
    html = superuser_client.get(
        reverse("admin:scoring_table_change", args=[table.pk])).content.decode()
    assert "Anna Altenburg" in html


def test_a_deal_shows_its_record_pretty_and_cannot_be_changed(
        superuser_client: Client, deal: Deal) -> None:
    html = superuser_client.get(
        reverse("admin:scoring_deal_change", args=[deal.pk])).content.decode()
    assert '<pre class="readonly">{\n  &quot;bid&quot;: 18,' in html
    assert superuser_client.get(reverse("admin:scoring_deal_add")).status_code == 403
    assert superuser_client.post(reverse("admin:scoring_deal_delete", args=[deal.pk]),
                                 {"post": "yes"}).status_code == 403
    superuser_client.post(reverse("admin:scoring_deal_change", args=[deal.pk]),
                          {"deleted": "on", "position": 9})
    deal.refresh_from_db()
    assert (deal.deleted, deal.position) == (False, 1)


def test_the_audit_log_is_read_only(superuser_client: Client, deal: Deal) -> None:
    entry = deal.audit.get()
    assert superuser_client.get(reverse("admin:scoring_auditentry_add")).status_code == 403
    assert superuser_client.post(reverse("admin:scoring_auditentry_delete", args=[entry.pk]),
                                 {"post": "yes"}).status_code == 403
    superuser_client.post(reverse("admin:scoring_auditentry_change", args=[entry.pk]),
                          {"actor": "someone else", "reason": "x"})
    entry.refresh_from_db()
    assert entry.actor == "test"
    changelist = superuser_client.post(
        reverse("admin:scoring_auditentry_changelist"),
        {"action": "delete_selected", "_selected_action": [entry.pk]})
    assert changelist.status_code in (200, 302)
    assert AuditEntry.objects.filter(pk=entry.pk).exists()
    model_admin = admin.site._registry[AuditEntry]
    assert "delete_selected" not in model_admin.get_actions(
        changelist.wsgi_request)


def test_a_new_club_is_german_and_gets_the_preset_profiles(superuser_client: Client) -> None:
    response = superuser_client.post(reverse("admin:scoring_club_add"), {
        "name": "Skatfreunde Jena", "slug": "jena", "language": "de", "departed_names": "keep",
        "memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0", "memberships-MAX_NUM_FORMS": "1000",
    })
    assert response.status_code == 302
    club = Club.objects.get(slug="jena")
    assert club.language == "de"
    assert club.rule_profiles.count() == len(PRESETS)
    assert club.rule_profiles.filter(name="Hoyle").exists()
    assert Club(name="x", slug="x").language == "de"


def test_changing_the_money_in_the_admin_bumps_the_evenings_version(deal: Deal) -> None:
    evening = deal.table.evening
    model_admin = admin.site._registry[Evening]
    request = RequestFactory().post("/")
    evening.stake = Decimal("0.10")
    model_admin.save_model(request, evening, SimpleNamespace(changed_data=["stake"]), True)
    evening.name = "Pokalabend"
    model_admin.save_model(request, evening, SimpleNamespace(changed_data=["name"]), True)
    evening.refresh_from_db()
    assert (evening.version, evening.stake, evening.name) == (1, Decimal("0.10"), "Pokalabend")
