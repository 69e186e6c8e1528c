"""What a club's own pages read besides its lists (issue 36: the views only show): a rule
profile, the names seated in a series, an invitation and a membership of the club, an
upload awaiting confirmation, the club's log, and the language of the club whose table a
device holds a code for."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import QuerySet

from scoring.collation import by_name
from scoring.models import (
    Club,
    ClubLogEntry,
    Evening,
    Invitation,
    Membership,
    PendingImport,
    Player,
    RuleProfile,
    Table,
)

CLUB_LOG_ROWS = 200


def club_evenings(club: Club) -> QuerySet[Evening]:
    """The club's evenings, the latest first, with their tables and paper totals (lazy)."""
    return club.evenings.prefetch_related("tables", "imported_totals").order_by("-date", "-id")


def club_players(club: Club) -> list[Player]:
    """The club's players by name, without the records merged into others. One query."""
    return by_name(club.players.filter(merged_into__isnull=True))


def club_memberships(club: Club) -> list[Membership]:
    """The club's members with their accounts, by user name. One query."""
    return list(club.memberships.select_related("user").order_by("user__username"))


def open_invitations(club: Club, now: datetime.datetime) -> QuerySet[Invitation]:
    """The club's invitations neither used, withdrawn nor expired at ``now`` (lazy)."""
    return club.invitations.filter(used_at=None, revoked_at=None,
                                   expires__gt=now).select_related("invited_by")


def rule_profile(pk: int) -> RuleProfile | None:
    """The rule profile ``pk`` with its club (the caller checks who may see it)."""
    return RuleProfile.objects.select_related("club").filter(pk=pk).first()


def names_seated(evening: Evening, series: int) -> set[str]:
    """The names (case-folded) of the players seated in a series of the evening."""
    return {name.casefold() for name in Player.objects.filter(
        seats__table__evening=evening, seats__table__series=series,
    ).values_list("name", flat=True)}


def invitation_of(club: Club, pk: int) -> Invitation | None:
    """The club's invitation ``pk`` with who sent it (None: not the club's)."""
    return Invitation.objects.select_related("club", "invited_by").filter(
        pk=pk, club=club).first()


def invitation_by_token(token: str) -> Invitation | None:
    """The invitation of a link, with its club (None: no such link)."""
    return Invitation.objects.select_related("club").filter(token=token).first()


def invitation_again(invitation: Invitation) -> Invitation:
    """The invitation read afresh (after a refusal: was it used or withdrawn meanwhile?)."""
    return Invitation.objects.get(pk=invitation.pk)


def membership_of(club: Club, pk: int) -> Membership | None:
    """The club's membership ``pk`` with its account (None: not the club's)."""
    return Membership.objects.select_related("user").filter(pk=pk, club=club).first()


def pending_import(club: Club, user_id: int, pk: int,
                   since: datetime.datetime) -> PendingImport | None:
    """The upload ``pk`` this user left for the club to confirm, not older than ``since``
    (its content is read only when it is imported)."""
    return PendingImport.objects.defer("content").filter(
        pk=pk, club=club, user_id=user_id, created__gte=since).first()


def club_log_entries(club: Club) -> QuerySet[ClubLogEntry]:
    """The club's log, the latest ``CLUB_LOG_ROWS`` entries (lazy: one query)."""
    return ClubLogEntry.objects.filter(club=club)[:CLUB_LOG_ROWS]


def table_language(pks: Iterable[int]) -> str | None:
    """The language of the club of the latest of these tables (None: none of them is)."""
    language: str | None = Table.objects.filter(pk__in=list(pks)).order_by("-pk").values_list(
        "evening__club__language", flat=True).first()
    return language
