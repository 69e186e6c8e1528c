"""The treasurer's page: the evening's settlement (each table's totals, pair payments, nets,
shortest transfers, fees and cross-checks, and each person's sum over his tables), and for
club admins the form that sets the stake, currency and club extras.

Every member of the club reads it (the sheet shows each player's net money already); only
club admins change the money settings: they are the club's, and the treasurer is an admin.
Other clubs and strangers get 404, a scorer or viewer who posts gets 403.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.access import evening_for
from scoring.forms.settlement import SettlementForm
from scoring.models import Evening, Membership
from scoring.reads.sheet import evening_money, evening_tables, table_sheet
from scoring.writes import services


def _lang() -> str:
    return "en" if (get_language() or "de").startswith("en") else "de"


def _save(request: HttpRequest, evening: Evening, form: SettlementForm) -> bool:
    data = form.cleaned_data
    try:
        services.evening_settlement(
            evening=evening, stake=data["stake"], currency=data["currency"],
            settlement=form.settlement_settings(), expected_version=data["version"])
    except services.StaleEvening as stale:
        # Show what is saved now; the typed values stay in the form to be sent again.
        evening.refresh_from_db()
        assert isinstance(form.data, QueryDict)  # the form is bound to request.POST
        form.data = form.data.copy()
        form.data["version"] = str(stale.evening.version)
        form.add_error(None, _("Someone else changed the settlement meanwhile; the page shows "
                               "it as saved now. Send the form again to replace it with "
                               "your values."))
        return False
    except ValidationError as err:  # the form checks everything first: a last guard
        for message in err.messages:
            form.add_error(None, message)
        return False
    return True


def settlement(request: HttpRequest, pk: int) -> HttpResponse:
    evening, member = evening_for(request, pk)
    is_admin = member.role == Membership.Role.ADMIN
    form: SettlementForm | None = None
    if request.method == "POST":
        if not is_admin:
            raise PermissionDenied
        form = SettlementForm(request.POST, evening=evening)
        if form.is_valid() and _save(request, evening, form):
            messages.success(request, _("The settlement settings were saved."))
            return redirect("scoring:settlement", pk=evening.pk)
        messages.error(request, _("Nothing was saved: see the marked fields."))
    elif is_admin:
        form = SettlementForm(evening=evening)
    lang = _lang()
    sheets = [table_sheet(table, lang, explain=False) for table in evening_tables(evening)]
    context: dict[str, Any] = {
        "evening": evening, "member": member, "is_admin": is_admin, "form": form,
        "money": evening_money(evening, sheets),
    }
    return render(request, "scoring/settlement/settlement.html", context)


urlpatterns: list[URLPattern] = [
    path("evenings/<int:pk>/settlement/", settlement, name="settlement"),
]
