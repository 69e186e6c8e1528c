"""Who a player on the lists is (issue 35), read: the members page's players (their
accounts, member numbers, open claim links, merges), a claim link's facts, and a person's
results across every club he played for (all player records linked to his account), with
who may see them.

The results read a constant number of queries however many evenings: the tables in one
query, their seats and players in two, the results from the cache of reads/results.py (one
query more for the tables it does not hold)."""

from __future__ import annotations

import datetime
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from scoring.collation import name_key
from scoring.models import (
    AccountSettings,
    Evening,
    Membership,
    Player,
    PlayerClaim,
    PlayerMerge,
    Seat,
    Table,
)
from scoring.reads.results import table_refs, table_results


def linked_players(club: Any, user: Any) -> list[Player]:
    return list(Player.objects.filter(club=club, user=user))


def club_player(club: Any, pk: int) -> Player | None:
    return Player.objects.select_related("user", "merged_into").filter(
        club=club, pk=pk).first()


def club_merge(club: Any, pk: int) -> PlayerMerge | None:
    return PlayerMerge.objects.select_related("kept", "merged").filter(club=club, pk=pk).first()


def club_claim(club: Any, pk: int) -> PlayerClaim | None:
    return PlayerClaim.objects.select_related("player").filter(player__club=club, pk=pk).first()


def players_by_name(club: Any) -> dict[str, Player]:
    """The club's players by name, as the desk reads a typed name (forms.club.find_player):
    a record merged into another one is the one it was merged into, so that a file read in
    after a merge (a sheet's CSV, totals from paper) does not bring the merged record back
    beside the kept one. One query."""
    return {p.name: p.merged_into if p.merged_into is not None else p
            for p in Player.objects.filter(club=club).select_related("merged_into")}


def claim_by_token(token: str) -> PlayerClaim | None:
    return PlayerClaim.objects.select_related("player__club", "player__merged_into",
                                              "created_by").filter(token=token).first()


def tables_of(player: Player) -> int:
    """How many lists the player sat at."""
    return Seat.objects.filter(player=player).count()


@dataclass
class DeskPlayer:
    player: Player
    claims: list[PlayerClaim] = field(default_factory=list)
    merge: PlayerMerge | None = None  # the merge that hid this record (merged ones only)


def matches(player: Player, query: str) -> bool:
    """The desk's search: a part of the name (any case) or the member number."""
    query = unicodedata.normalize("NFKC", query).strip().casefold()  # as numbers are kept
    return (not query or query in player.name.casefold()
            or (bool(player.member_number) and query == player.member_number.casefold()))


def desk_players(club: Any, query: str = "") -> list[DeskPlayer]:
    """The club's players for its members page, in name order, each with its open claim
    links and (merged records) the merge that can be undone: three queries."""
    players = [p for p in Player.objects.filter(club=club).select_related(
        "user", "merged_into") if matches(p, query)]
    rows = {p.pk: DeskPlayer(p) for p in sorted(players, key=lambda p: name_key(p.name))}
    now = timezone.now()
    for claim in PlayerClaim.objects.filter(
            player__club=club, used_at=None, revoked_at=None, expires__gt=now).order_by(
            "created", "pk"):
        if claim.player_id in rows:
            rows[claim.player_id].claims.append(claim)
    for merge in PlayerMerge.objects.filter(club=club, undone_at=None).select_related("kept"):
        if merge.merged_id in rows:
            rows[merge.merged_id].merge = merge
    return list(rows.values())


# ---------------------------------------------------------------- results across clubs

@dataclass(frozen=True)
class ResultRow:
    date: datetime.date
    club: str
    kind: str  # "evening", "tournament", "league"
    what: str  # the evening's, tournament's or league's name
    series: int
    table_pk: int
    table: int
    name: str  # the player's name on that list
    points: int | None
    seeger_fabian: int | None
    link: bool  # the viewer may open the list


@dataclass(frozen=True)
class PersonResults:
    names: list[tuple[str, str]]  # (player's name, club's name) of the visible records
    rows: list[ResultRow]
    seeger_fabian: bool


def _kind(evening: Evening) -> tuple[str, str]:
    tournament = getattr(evening, "tournament", None)
    if tournament is not None:
        return "tournament", tournament.name
    day = getattr(evening, "match_day", None)
    if day is not None:
        return "league", day.group.league.name
    return "evening", evening.name


def account_of(player_pk: int) -> int | None:
    """The account a player record (not a merged one) is linked to."""
    user_id: int | None = Player.objects.filter(
        pk=player_pk, merged_into__isnull=True).values_list("user_id", flat=True).first()
    return user_id


def viewer_clubs(viewer: Any) -> set[int]:
    if not viewer.is_authenticated:
        return set()
    return set(Membership.objects.filter(user=viewer).values_list("club_id", flat=True))


def results_visible(user_pk: int) -> bool:
    return bool(AccountSettings.objects.filter(user_id=user_pk, results_visible=True)
                .exists())


def person_results(user_pk: int, viewer: Any) -> PersonResults | None:
    """Every list the person (the account ``user_pk``) sat at, in every club he played for,
    the latest first, as ``viewer`` may see them; None where ``viewer`` may not see the
    page (then the view answers 404: it tells nobody whether the account exists).

    The person sees all of his own. Another signed-in member sees the lists of the clubs he
    is a member of where the person plays, and all of them if the person let other clubs'
    members see his results (AccountSettings.results_visible); nobody else sees any. Seven
    queries, however many lists."""
    if not viewer.is_authenticated:
        return None
    own = viewer.pk == user_pk
    players = {p.pk: p for p in Player.objects.filter(user_id=user_pk).select_related("club")}
    mine = viewer_clubs(viewer)
    if own:
        shown = set(players)
    else:
        if not mine:
            return None
        everything = results_visible(user_pk)
        shown = {pk for pk, p in players.items() if everything or p.club_id in mine}
        if not shown:
            return None
    tables = Table.objects.filter(seats__player__in=shown).select_related(
        "evening__club", "evening__tournament", "evening__match_day__group__league").order_by(
        "-evening__date", "-evening_id", "series", "number")
    listed = list(tables)
    evenings = {t.evening_id: t.evening for t in listed}
    seated = {p.pk: p for p in Player.objects.filter(
        seats__table__in=[t.pk for t in listed]).distinct()}
    refs = table_refs(Table.objects.filter(pk__in=[t.pk for t in listed]).order_by(
        "-evening__date", "-evening_id", "series", "number"), seated, evenings)
    results = table_results(refs)
    rows = []
    for ref in refs:
        seat = next(i for i, p in enumerate(ref.players) if p.pk in shown)
        result = results[ref.pk]
        evening = ref.evening
        kind, what = _kind(evening)
        failed = result.error is not None
        rows.append(ResultRow(
            date=evening.date, club=evening.club.name, kind=kind, what=what,
            series=ref.series, table_pk=ref.pk, table=ref.number, name=ref.players[seat].name,
            points=None if failed else result.points[seat],
            seeger_fabian=None if failed or result.seeger_fabian is None
            else result.seeger_fabian[seat],
            link=evening.club_id in mine))
    names = sorted(((p.name, p.club.name) for pk, p in players.items() if pk in shown),
                   key=lambda n: (name_key(n[1]), name_key(n[0])))
    return PersonResults(names, rows, any(r.seeger_fabian is not None for r in rows))

