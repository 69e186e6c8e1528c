"""What a signed-in person's own pages read of his account (issue 36: the views only show):
his memberships, whether he has a signing PIN and a player on the lists, the player linked
to him in a club, whether he is a member of a club, and whether the site has any club yet."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from scoring.models import Club, Membership, Player, SigningPin


def any_club() -> bool:
    """Whether the site has a club (none: the first run's set-up is next). One query."""
    return Club.objects.exists()


def memberships_of(user: Any) -> QuerySet[Membership]:
    """The user's memberships with their clubs, by the club's name (lazy: one query)."""
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name")


def has_signing_pin(user: Any) -> bool:
    return SigningPin.objects.filter(user=user).exists()


def has_linked_player(user: Any) -> bool:
    """Whether a player on some club's lists is linked to the account."""
    return Player.objects.filter(user=user).exists()


def linked_player(club: Club, user: Any) -> Player | None:
    """The player of ``club``'s lists linked to the account (None: none is)."""
    return Player.objects.filter(club=club, user=user).first()


def membership_in(user: Any, club_id: int) -> Membership | None:
    """The user's membership of the club (None: not a member)."""
    return Membership.objects.filter(user=user, club_id=club_id).first()


def is_member(user: Any, club: Club) -> bool:
    return Membership.objects.filter(user=user, club=club).exists()
