"""The demo user who runs the demo clubs (an admin of each); the deals they play are the
engine's ``generate_deals``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from scoring.models import Club, Membership

USERNAME = "demo"
PASSWORD = "skat-demo"  # a demo on 127.0.0.1 only; printed so the reader can log in


def demo_admin(club: Club) -> Any:
    """The demo user (made once), as an admin of ``club``."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=USERNAME).first()
    if user is None:
        user = user_model.objects.create_user(USERNAME, password=PASSWORD)
    Membership.objects.update_or_create(user=user, club=club,
                                        defaults={"role": Membership.Role.ADMIN})
    return user
