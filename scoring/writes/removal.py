"""Deleting a whole evening (club admins, from the evening's page).

Apart from services.py because it keeps the evening as exported (reads/export.py) in
the club's log, and writes/imports.py imports services to write what it reads.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.models import ClubLogEntry, Deal, Evening
from scoring.reads.export import evening_export
from scoring.writes.services import Actor


def evening_delete(*, evening: Any, actor: Actor, reason: str = "") -> ClubLogEntry:
    """Delete an evening with its tables, deals and audit log (club admins: the view checks).
    A closed evening is read-only for everybody: it is reopened first. The club's log keeps
    who deleted what, and the evening as exported (with its totals from paper), so that it
    can still be read, or imported again."""
    with transaction.atomic():
        evening = Evening.objects.select_for_update().filter(pk=evening.pk).first()
        if evening is None:
            raise ValidationError(_("This evening has been deleted already."))
        if evening.closed:
            raise ValidationError(_("This evening is closed: reopen it first, then delete "
                                    "it."))
        tables = evening.tables.count()
        deals = Deal.objects.filter(table__evening=evening, deleted=False).count()
        document = evening_export(evening)
        document["paper_totals"] = [
            {"player": total.player.name, "points": total.points, "won": total.won,
             "lost": total.lost, "seeger_fabian": total.seeger_fabian,
             "money": None if total.money is None else str(total.money)}
            for total in evening.imported_totals.select_related("player")]
        entry = ClubLogEntry.objects.create(
            club=evening.club, action=ClubLogEntry.Action.DELETE_EVENING,
            user=actor.user_or_none, actor=actor.label[:150], reason=reason.strip(),
            summary=_("%(name)s on %(date)s, with %(tables)d tables and %(deals)d deals") % {
                "name": evening.name, "date": date_format(evening.date, "SHORT_DATE_FORMAT"),
                "tables": tables, "deals": deals},
            before=document)
        evening.delete()
    return entry
