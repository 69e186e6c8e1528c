"""The demo club of `manage.py demo`: a played evening at a 3-table and a 4-table.

Every deal goes through the same service a tablet uses, so the demo's audit log is real too.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, override

from scoring.demo.user import demo_admin
from scoring.engine import generate_deals
from scoring.models import Club, Player, RuleProfile, Season
from scoring.presets import PRESETS
from scoring.writes.onboarding import DEMO_SLUG as SLUG
from scoring.writes.services import Actor, deal_record, evening_create, table_create

__all__ = ["PLAYERS", "SLUG", "build_demo"]

PLAYERS = ["Jürgen", "Käthe", "Björn", "Özlem", "Ludwig", "Grete", "Heinz"]


@transaction.atomic
def build_demo() -> None:
    """The demo club (made anew; the caller deletes an old one first)."""
    club = Club.objects.create(slug=SLUG, name="Skatfreunde Altenburg (Demo)", language="de")
    # The preset profiles named in the club's language, as the admin names a new club's.
    with override(club.language):
        names = {key: gettext(preset["name"]) for key, preset in PRESETS.items()}
    for key, preset in PRESETS.items():
        RuleProfile.objects.create(club=club, name=names[key], rules=preset["rules"],
                                   options=preset["options"], scoring=preset["scoring"],
                                   stake="0.05", currency="EUR")
    players = [Player.objects.create(club=club, name=name) for name in PLAYERS]
    user = demo_admin(club)
    profile = RuleProfile.objects.get(club=club, name=names["club_evening"])
    today = timezone.localdate()
    # The evening opens the club's season, so the season table has something to show; its
    # list stays open (no series length) so that play can go on at the demo's tables.
    season = Season.objects.create(
        club=club, name=str(today.year), start=today.replace(month=1, day=1),
        end=today.replace(month=12, day=31), evaluation=Season.Evaluation.CLASSIC)
    evening = evening_create(club=club, date=today, profile=profile, name="Clubabend",
                             season=season, series_rounds=None)
    actor = Actor(user, user.get_username())
    # A 3-table and a 4-table, a few deals short of a full series so play can go on.
    for seats, count, seed in ((players[:3], 33, 3), (players[3:7], 45, 4)):
        table = table_create(evening=evening, players=seats)
        for version, record in enumerate(
                generate_deals(count, len(seats), "isko", evening.options, seed=seed)):
            deal_record(table=table, record=record, expected_version=version, actor=actor)

