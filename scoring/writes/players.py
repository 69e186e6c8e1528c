"""Players put on a club's lists by hand (issue 36: the views only show): a player added on
the club page, and the guests typed in by name when a table is set up."""

from __future__ import annotations

from django.db import transaction

from scoring.models import Club, Player


def player_create(*, club: Club, name: str, guest: bool) -> Player:
    """A new player of the club. A player of that name created a moment ago by someone else
    is an IntegrityError (the club's names are unique), and nothing is written."""
    with transaction.atomic():
        return Player.objects.create(club=club, name=name, guest=guest)


def seat_players(*, club: Club, entries: list[Player | str]) -> list[Player]:
    """The players of a table: those chosen, and for each name typed the club's player of
    that name, a new guest if there is none (a merged record: the one it was merged into)."""
    players = []
    for entry in entries:
        if isinstance(entry, Player):
            players.append(entry)
        else:
            player, _created = Player.objects.get_or_create(
                club=club, name=entry, defaults={"guest": True})
            players.append(player.merged_into or player)
    return players
