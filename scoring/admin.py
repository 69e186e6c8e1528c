"""The Django admin: clubs, accounts and rule profiles are set up here; deals and the audit
log can be read but not changed (every change to a deal goes through the table screen, so it
is checked by the engine and written to the audit log)."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext, override
from django.utils.translation import gettext_lazy as _

from scoring.models import (
    AuditEntry,
    Club,
    Deal,
    Evening,
    HeldOperation,
    Invitation,
    Membership,
    Player,
    RuleProfile,
    Season,
    Seat,
    Table,
)
from scoring.presets import PRESETS

_M = TypeVar("_M", bound=Model)


def pretty_json(value: Any) -> str:
    if value is None:
        return "—"
    return format_html("<pre class=\"readonly\">{}</pre>",
                       json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))


class ReadOnlyAdmin(admin.ModelAdmin[_M]):
    """View only: no add, change or delete, not even for superusers."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False


class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "slug", "language", "created"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change and not obj.rule_profiles.exists():
            # A new club starts with the preset profiles, named in the club's language.
            with override(obj.language):
                for preset in PRESETS.values():
                    RuleProfile.objects.create(
                        club=obj, name=gettext(preset["name"]), rules=preset["rules"],
                        options=preset["options"], scoring=preset["scoring"])


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin[Membership]):
    list_display = ["user", "club", "role"]
    list_filter = ["club", "role"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "club", "guest", "user"]
    list_filter = ["club", "guest"]
    search_fields = ["name"]
    autocomplete_fields = ["user"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin[Invitation]):
    list_display = ["club", "role", "email", "created", "expires", "used_at", "revoked_at"]
    list_filter = ["club", "role"]
    readonly_fields = ["token", "created", "sent_at", "send_failed_at", "used_at", "used_by"]
    autocomplete_fields = ["club", "invited_by"]


@admin.register(RuleProfile)
class RuleProfileAdmin(admin.ModelAdmin[RuleProfile]):
    list_display = ["name", "club", "rules", "scoring", "stake", "currency"]
    list_filter = ["club", "rules", "scoring"]
    search_fields = ["name"]


class TableInline(admin.TabularInline[Table, Evening]):
    model = Table
    extra = 0
    fields = ["series", "number", "first_dealer", "access_code", "version"]
    readonly_fields = ["access_code", "version"]
    show_change_link = True


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    list_display = ["name", "club", "start", "end", "evaluation", "best_of", "min_evenings"]
    list_filter = ["club", "evaluation"]
    search_fields = ["name", "club__name"]


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin[Evening]):
    list_display = ["date", "name", "club", "season", "profile_name", "closed"]
    list_filter = ["club", "season", "closed", "rules", "scoring"]
    date_hierarchy = "date"
    search_fields = ["name", "club__name"]
    readonly_fields = ["version"]
    inlines = [TableInline]

    def save_model(self, request: HttpRequest, obj: Evening, form: Any, change: bool) -> None:
        # Money changed here, as on the settlement page, makes an open settlement form stale.
        if change and {"stake", "currency", "settlement"} & set(form.changed_data):
            obj.version += 1
        super().save_model(request, obj, form, change)
        if change and {"rules", "options", "scoring"} & set(form.changed_data):
            # The federation ranking's rows follow from the rules as the deals do.
            from scoring.writes import scores
            scores.rebuild(obj.tables.all())
        if change and "closed" in form.changed_data:
            # Closed or reopened here as on the evening page: the audit log says who did it.
            from scoring.writes.services import Actor, evening_audit
            evening_audit(obj, AuditEntry.Action.CLOSE if obj.closed else
                          AuditEntry.Action.REOPEN,
                          Actor(request.user, request.user.get_username()),
                          gettext("in the site administration"))


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ["__str__", "series", "number", "access_code"]
    list_filter = ["evening__club"]
    readonly_fields = ["access_code", "version"]
    inlines = [SeatInline]

    def save_related(self, request: HttpRequest, form: Any, formsets: Any,
                     change: bool) -> None:
        super().save_related(request, form, formsets, change)
        # A seat corrected here moves the table's scores to the right player (the federation
        # ranking's rows); the first dealer changes them too.
        from scoring.writes import scores
        scores.rebuild(Table.objects.filter(pk=form.instance.pk))


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin[Deal]):
    list_display = ["__str__", "position", "deleted", "updated"]
    list_filter = ["deleted", "table__evening__club"]
    fields = readonly_fields = ("table", "position", "deleted", "record_pretty", "request_id",
                                "created", "updated")

    @admin.display(description=_("record"))
    def record_pretty(self, obj: Deal) -> str:
        return pretty_json(obj.record)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin[AuditEntry]):
    list_display = ["at", "actor", "action", "evening", "table", "deal"]
    list_filter = ["action", "evening__club"]
    search_fields = ["actor", "reason"]
    date_hierarchy = "at"
    fields = readonly_fields = ("at", "actor", "user", "action", "evening", "table", "deal",
                                "reason", "request_id", "version", "before_pretty",
                                "after_pretty")

    @admin.display(description=_("before"))
    def before_pretty(self, obj: AuditEntry) -> str:
        return pretty_json(obj.before)

    @admin.display(description=_("after"))
    def after_pretty(self, obj: AuditEntry) -> str:
        return pretty_json(obj.after)


@admin.register(HeldOperation)
class HeldOperationAdmin(ReadOnlyAdmin[HeldOperation]):
    """Decided on the club's page (Evening → Held operations), through the services."""

    list_display = ["at", "actor", "op", "table", "why", "state"]
    list_filter = ["state", "why", "table__evening__club"]
    fields = readonly_fields = ("at", "actor", "user", "table", "op", "deal",
                                "deal_request_id", "request_id", "base_version", "reason",
                                "why", "state", "resolved_by", "resolved_at", "resolution",
                                "record_pretty")

    @admin.display(description=_("record"))
    def record_pretty(self, obj: HeldOperation) -> str:
        return pretty_json(obj.record)
