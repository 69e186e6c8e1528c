"""Who a player on the lists is (issue 35): a record is linked to an account only by an
explicit act, each in the club log: a club admin's desk action (link, unlink), the
player's own claim link (made by a club admin, one-time, 14 days, withdrawable), an
invitation. Never by name. Besides: a player's member number (unique on the site), and
merging two records of one person, undone exactly (``PlayerMerge.moved`` lists every row
that moved).

One transaction each; what cannot be done raises ``Refused`` (onboarding's) with the
message for the person who asked, and nothing is written."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Model, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.collation import invisible_characters
from scoring.models import (
    AccountSettings,
    ClubLogEntry,
    Entrant,
    Evening,
    ImportedTotal,
    League,
    Lineup,
    MatchDay,
    Membership,
    Player,
    PlayerClaim,
    PlayerMerge,
    Seat,
    Signature,
    Table,
    TableScore,
    TeamPlayer,
    Tournament,
)
from scoring.reads import live
from scoring.writes.onboarding import Refused as Refused

MEMBER_NUMBER_LENGTH = 20


def _log(player: Player, action: str, by: Any, summary: str, reason: str = "",
         before: Any = None) -> ClubLogEntry:
    user = by if by is not None and getattr(by, "is_authenticated", False) else None
    if action in (ClubLogEntry.Action.LINK, ClubLogEntry.Action.UNLINK,
                  ClubLogEntry.Action.CLAIM):
        # the match-day pages show whose captain signs with his account
        League.objects.filter(pk__in=TeamPlayer.objects.filter(player_id=player.pk).values(
            "team__group__league_id")).update(version=F("version") + 1)
    return ClubLogEntry.objects.create(
        club_id=player.club_id, action=action, user=user,
        actor=(user.get_username() if user is not None else _("system"))[:150],
        summary=summary, reason=reason.strip(), before=before)


def _locked(player: Player) -> Player:
    """The player as he is now, under a lock on his row (PostgreSQL; SQLite's transaction
    holds the write lock), so that two desks or a desk and a claim are served in turn."""
    # of=self: the account is an outer join, which PostgreSQL does not lock
    fresh = Player.objects.select_for_update(of=("self",)).select_related(
        "club", "user").filter(pk=player.pk).first()
    if fresh is None:
        raise Refused(_("This player no longer exists: nothing was changed."))
    return fresh


def _name(user: Any) -> str:
    return str(user.get_username()) if user is not None else "–"


# ---------------------------------------------------------------- the desk links

def link(*, player: Player, user: Any, by: Any) -> Player:
    """A club admin links a player of his club to a member account of the club (``by`` is
    checked by the view: an admin of the player's club). An account has one player per club:
    a player of the club linked to it before is unlinked, logged too."""
    with transaction.atomic():
        fresh = _locked(player)
        if fresh.merged_into_id is not None:
            raise Refused(_("%(name)s was merged into another record: link that one.")
                          % {"name": fresh.name})
        if not Membership.objects.filter(club_id=fresh.club_id, user=user).exists():
            raise Refused(_("Only a member of the club can be linked."))
        if fresh.user_id == user.pk:
            return fresh
        for other in Player.objects.select_for_update().filter(
                club_id=fresh.club_id, user=user).exclude(pk=fresh.pk):
            other.user = None
            other.save(update_fields=["user"])
            _log(other, ClubLogEntry.Action.UNLINK, by,
                 _("%(player)s unlinked from %(user)s") % {
                     "player": other.name, "user": _name(user)})
        if fresh.user_id is not None:
            _log(fresh, ClubLogEntry.Action.UNLINK, by,
                 _("%(player)s unlinked from %(user)s") % {
                     "player": fresh.name, "user": _name(fresh.user)})
        fresh.user = user
        fresh.save(update_fields=["user"])
        _log(fresh, ClubLogEntry.Action.LINK, by, _("%(player)s linked to %(user)s") % {
            "player": fresh.name, "user": _name(user)})
    player.user = user
    return fresh


def unlink(*, player: Player, by: Any) -> Player:
    """A club admin unlinks a player of his club from its account (the lists stay)."""
    with transaction.atomic():
        fresh = _locked(player)
        if fresh.user_id is None:
            return fresh
        _log(fresh, ClubLogEntry.Action.UNLINK, by, _("%(player)s unlinked from %(user)s") % {
            "player": fresh.name, "user": _name(fresh.user)})
        fresh.user = None
        fresh.save(update_fields=["user"])
    player.user = None
    return fresh


# ---------------------------------------------------------------- member numbers

def member_number(*, player: Player, number: str, by: Any) -> Player:
    """Set (or clear, with "") a player's member number: unique on the site. The refusal
    names nothing of another club."""
    # as the site compares names: another width of the same digits is the same number, and
    # an invisible character would make a second "12345" that reads like the first
    number = " ".join(unicodedata.normalize("NFKC", number).split())
    bad = invisible_characters(number)
    if bad:
        raise Refused(_("A member number may not contain invisible or control characters "
                        "(%(codes)s): type it again without them.") % {"codes": ", ".join(bad)})
    if len(number) > MEMBER_NUMBER_LENGTH:
        raise Refused(_("A member number has at most %(count)d characters.")
                      % {"count": MEMBER_NUMBER_LENGTH})
    taken = _("The member number %(number)s is already given to another player on this "
              "site.") % {"number": number}
    with transaction.atomic():
        fresh = _locked(player)
        if fresh.member_number == number:
            return fresh
        if number and Player.objects.filter(member_number__iexact=number).exclude(
                pk=fresh.pk).exists():
            raise Refused(taken)
        old = fresh.member_number
        fresh.member_number = number
        try:
            with transaction.atomic():
                fresh.save(update_fields=["member_number"])
        except IntegrityError:  # given a moment ago
            raise Refused(taken) from None
        _log(fresh, ClubLogEntry.Action.MEMBER_NUMBER, by,
             _("%(player)s: member number %(old)s → %(new)s") % {
                 "player": fresh.name, "old": old or "–", "new": number or "–"},
             before={"member_number": old})
    player.member_number = number
    return fresh


# ---------------------------------------------------------------- claim links

def claim_create(*, player: Player, by: Any) -> PlayerClaim:
    with transaction.atomic():
        fresh = _locked(player)
        if fresh.merged_into_id is not None:
            raise Refused(_("%(name)s was merged into another record: make the link for "
                            "that one.") % {"name": fresh.name})
        return PlayerClaim.objects.create(player=fresh, created_by=by)


def claim_revoke(*, claim: PlayerClaim) -> bool:
    """Withdraw an open claim link; False if it was used or withdrawn already."""
    return bool(PlayerClaim.objects.filter(pk=claim.pk, used_at=None, revoked_at=None)
                .update(revoked_at=timezone.now()))


def claim_refusal(claim: PlayerClaim | None, user: Any = None) -> str | None:
    """Why this claim link cannot be used (by ``user``, when given); None: it can."""
    if claim is None:
        return _("This claim link is not valid. Ask your club admin for a new one.")
    if claim.used_at is not None:
        return _("This claim link has been used already. Each claim link works once: ask "
                 "your club admin for a new one.")
    if claim.revoked_at is not None:
        return _("This claim link was withdrawn by the club admin. Ask them for a new one.")
    if not claim.usable():
        return _("This claim link has expired (a claim link works for 14 days). Ask your "
                 "club admin for a new one.")
    player = claim.player
    if player.merged_into_id is not None:
        return _("This record was merged into another one. Ask your club admin for a new "
                 "link.")
    if user is not None:
        if player.user_id == user.pk:
            return _("This record is yours already.")
        if player.user_id is not None:
            return _("This record is linked to another account. Ask your club admin.")
        if Player.objects.filter(club_id=player.club_id, user=user).exclude(
                pk=player.pk).exists():
            return _("Your account is linked to another player of %(club)s already. Ask your "
                     "club admin to merge the two records or to unlink the other one.") % {
                "club": player.club.name}
    return None


def claim_use(*, token: str, user: Any) -> Player:
    """The signed-in person confirms the claim: the record is linked to his account, once.
    It does not make him a member of the club (an invitation does)."""
    with transaction.atomic():
        claim = PlayerClaim.objects.select_related("player__club").filter(token=token).first()
        message = claim_refusal(claim, None)
        if claim is None or message:
            raise Refused(message or "")
        fresh = _locked(claim.player)
        claim.player = fresh
        message = claim_refusal(claim, user)
        if message:
            raise Refused(message)
        now = timezone.now()
        if not PlayerClaim.objects.filter(pk=claim.pk, used_at=None, revoked_at=None,
                                          expires__gt=now).update(used_at=now, used_by=user):
            raise Refused(_("This claim link has been used already. Each claim link works "
                            "once: ask your club admin for a new one."))
        fresh.user = user
        try:
            with transaction.atomic():
                fresh.save(update_fields=["user"])
        except IntegrityError:
            raise Refused(_("Your account is linked to another player of %(club)s already.")
                          % {"club": fresh.club.name}) from None
        made_by = claim.created_by
        _log(fresh, ClubLogEntry.Action.CLAIM, user,
             _("%(player)s claimed by %(user)s with the link of %(admin)s") % {
                 "player": fresh.name, "user": _name(user), "admin": _name(made_by)},
             before={"claim": claim.pk})
    return fresh


# ---------------------------------------------------------------- merging two records

# Every row that points at a player, by kind: its model, and the fields that make it unique
# with the player (two rows of one person there cannot become one).
_KINDS: dict[str, type[Model]] = {
    "seat": Seat, "signature": Signature, "score": TableScore, "total": ImportedTotal,
    "entrant": Entrant, "team": TeamPlayer, "lineup": Lineup,
}


def _clashes(kept: Player, merged: Player) -> list[str]:
    """Where the two records cannot become one, in words (nothing is moved then)."""
    problems = []
    tables = set(Seat.objects.filter(player=kept).values_list("table_id", flat=True))
    both = Seat.objects.filter(player=merged, table_id__in=tables).select_related(
        "table__evening").order_by("table__evening__date", "table_id")
    for seat in both[:5]:
        table = seat.table
        problems.append(_("both sat at table %(number)d of %(evening)s (%(date)s)") % {
            "number": table.number, "evening": table.evening.name,
            "date": table.evening.date.isoformat()})
    evenings = ImportedTotal.objects.filter(player=kept).values("evening_id")
    for total in ImportedTotal.objects.filter(player=merged, evening_id__in=evenings) \
            .select_related("evening")[:5]:
        problems.append(_("both have a total from paper for %(evening)s (%(date)s)") % {
            "evening": total.evening.name, "date": total.evening.date.isoformat()})
    tournaments = Entrant.objects.filter(player=kept).values("tournament_id")
    for entrant in Entrant.objects.filter(player=merged, tournament_id__in=tournaments) \
            .select_related("tournament")[:5]:
        problems.append(_("both entered %(tournament)s") % {
            "tournament": entrant.tournament.name})
    leagues = TeamPlayer.objects.filter(player=kept).values("team__group__league_id")
    for member in TeamPlayer.objects.filter(
            player=merged, team__group__league_id__in=leagues).select_related(
            "team__group__league")[:5]:
        problems.append(_("both play in %(league)s") % {
            "league": member.team.group.league.name})
    days = Lineup.objects.filter(player=kept).values_list("match_day_id", "series")
    pairs = set(days)
    for lineup in Lineup.objects.filter(player=merged).select_related("match_day"):
        if (lineup.match_day_id, lineup.series) in pairs:
            problems.append(_("both are in the line-up of series %(series)d of a match day "
                              "(%(date)s)") % {"series": lineup.series,
                                               "date": lineup.match_day.date.isoformat()})
            break
    return problems


def _rows(kind: str, player: Player) -> QuerySet[Any]:
    return _KINDS[kind]._default_manager.filter(player=player)


def _forget(moved: dict[str, list[int]], club_id: int) -> None:
    """Every cache that shows the moved rows' names or sums reads them again: the evenings'
    and seasons' polled states, the tournaments' and leagues' versions (boards, PDFs), the
    evenings' versions (printed documents)."""
    seats = Seat.objects.filter(pk__in=moved.get("seat", []))
    totals = ImportedTotal.objects.filter(pk__in=moved.get("total", []))
    evening_ids = set(seats.values_list("table__evening_id", flat=True)) | set(
        totals.values_list("evening_id", flat=True))
    evenings = list(Evening.objects.filter(pk__in=evening_ids))
    Evening.objects.filter(pk__in=evening_ids).update(version=F("version") + 1)
    tournaments = set(Entrant.objects.filter(pk__in=moved.get("entrant", [])).values_list(
        "tournament_id", flat=True)) | set(Tournament.objects.filter(
            evening_id__in=evening_ids).values_list("pk", flat=True))
    Tournament.objects.filter(pk__in=tournaments).update(version=F("version") + 1)
    leagues = set(TeamPlayer.objects.filter(pk__in=moved.get("team", [])).values_list(
        "team__group__league_id", flat=True)) | set(Lineup.objects.filter(
            pk__in=moved.get("lineup", [])).values_list(
            "match_day__group__league_id", flat=True)) | set(League.objects.filter(
                groups__days__evening_id__in=evening_ids).values_list("pk", flat=True))
    League.objects.filter(pk__in=leagues).update(version=F("version") + 1)
    seasons = set(Evening.objects.filter(club_id=club_id, season__isnull=False)
                  .values_list("season_id", flat=True))
    pairs = [(e.pk, e.season_id) for e in evenings] + [(0, s) for s in seasons]

    def forget() -> None:
        for evening_id, season_id in pairs:
            live.forget_states(evening_id, season_id)

    forget()
    transaction.on_commit(forget)


def merge(*, kept: Player, merged: Player, reason: str, by: Any) -> PlayerMerge:
    """Merge ``merged`` into ``kept`` (two records of one person of the club): every row
    that points at ``merged`` moves to ``kept``, and so does its account link if only
    ``merged`` had one. Refused where the two cannot be one (both at one table, in one
    tournament, in one league, …) or are linked to different accounts."""
    reason = reason.strip()
    if not reason:
        raise Refused(_("Give a reason for the merge: the club log keeps it."))
    with transaction.atomic():
        kept_now, merged_now = _locked(kept), _locked(merged)
        if kept_now.pk == merged_now.pk:
            raise Refused(_("Choose two different records."))
        if kept_now.club_id != merged_now.club_id:
            raise Refused(_("Only two records of the same club can be merged."))
        if kept_now.merged_into_id is not None or merged_now.merged_into_id is not None:
            raise Refused(_("One of the two records was merged already: undo that merge "
                            "first."))
        if Player.objects.filter(merged_into=merged_now).exists():
            raise Refused(_("Other records were merged into %(name)s: keep it, or undo those "
                            "merges first.") % {"name": merged_now.name})
        if (kept_now.user_id is not None and merged_now.user_id is not None
                and kept_now.user_id != merged_now.user_id):
            raise Refused(_("The two records are linked to different accounts: unlink one of "
                            "them first."))
        problems = _clashes(kept_now, merged_now)
        if problems:
            raise Refused(_("%(kept)s and %(merged)s cannot be merged: %(problems)s.") % {
                "kept": kept_now.name, "merged": merged_now.name,
                "problems": "; ".join(problems)})
        moved: dict[str, Any] = {}
        for kind in _KINDS:
            ids = list(_rows(kind, merged_now).order_by("pk").values_list("pk", flat=True))
            if ids:
                _KINDS[kind]._default_manager.filter(pk__in=ids).update(player=kept_now)
                moved[kind] = ids
        if merged_now.user_id is not None and kept_now.user_id is None:
            moved["user"] = merged_now.user_id
            Player.objects.filter(pk=merged_now.pk).update(user=None)
            Player.objects.filter(pk=kept_now.pk).update(user_id=merged_now.user_id)
        Player.objects.filter(pk=merged_now.pk).update(merged_into=kept_now)
        record = PlayerMerge.objects.create(club_id=kept_now.club_id, kept=kept_now,
                                            merged=merged_now, moved=moved, reason=reason,
                                            by=by if by.is_authenticated else None)
        _log(kept_now, ClubLogEntry.Action.MERGE, by,
             _("%(merged)s merged into %(kept)s (%(rows)d rows moved)") % {
                 "merged": merged_now.name, "kept": kept_now.name,
                 "rows": sum(len(v) for k, v in moved.items() if k != "user")},
             reason=reason, before={"merge": record.pk, "moved": moved})
        _forget(moved, kept_now.club_id)
    return record


def unmerge(*, record: PlayerMerge, reason: str, by: Any) -> PlayerMerge:
    """Undo a merge: exactly the rows it moved go back to the merged record (those deleted
    meanwhile, with their evening, are gone), and its account link if it moved."""
    reason = reason.strip()
    if not reason:
        raise Refused(_("Give a reason for undoing the merge: the club log keeps it."))
    with transaction.atomic():
        fresh = PlayerMerge.objects.select_for_update(of=("self",)).select_related(
            "kept", "merged").filter(pk=record.pk).first()
        if fresh is None or fresh.undone_at is not None:
            raise Refused(_("This merge was undone already."))
        kept, merged = _locked(fresh.kept), _locked(fresh.merged)
        moved: dict[str, Any] = fresh.moved or {}
        for kind, model in _KINDS.items():
            ids = moved.get(kind) or []
            if ids:
                model._default_manager.filter(pk__in=ids, player=kept).update(player=merged)
        user_id = moved.get("user")
        if user_id is not None and kept.user_id == user_id:
            Player.objects.filter(pk=kept.pk).update(user=None)
            Player.objects.filter(pk=merged.pk).update(user_id=user_id)
        followed = _follow_seats(moved, kept, merged)
        Player.objects.filter(pk=merged.pk).update(merged_into=None)
        fresh.undone_at = timezone.now()
        fresh.undone_by = by if by.is_authenticated else None
        fresh.undo_reason = reason
        fresh.save(update_fields=["undone_at", "undone_by", "undo_reason"])
        _log(kept, ClubLogEntry.Action.UNMERGE, by,
             _("merge of %(merged)s into %(kept)s undone") % {
                 "merged": merged.name, "kept": kept.name},
             reason=reason, before={"merge": fresh.pk, "moved": moved, "followed": followed})
        # the evenings of the seats that went back, and of those that followed them
        _forget({**moved, "seat": [*(moved.get("seat") or []), *followed.get("seat", [])],
                 "lineup": [*(moved.get("lineup") or []), *followed.get("lineup", [])]},
                kept.club_id)
    return fresh


def _follow_seats(moved: dict[str, Any], kept: Player, merged: Player,
                  ) -> dict[str, list[int]]:
    """The rows the lists made for the kept record while the merge stood, that belong to
    what goes back to the merged record: at the tables whose seats go back, a deal changed
    there recomputed the table scores (new rows) and a player signed again (a new
    signature); a tournament entry that goes back was drawn meanwhile (new seats at the
    tournament's tables); a team place that goes back was put in line-ups and seated at the
    league's match days. They follow it back (the kept record could not hold a seat there
    beside the moved one: one entry per tournament, one team per league), so no table is
    counted, signed or seated for a record that is not the one entered. Their ids, by kind,
    for the club log."""
    returned = Seat.objects.filter(pk__in=moved.get("seat") or [], player=merged)
    entries = Entrant.objects.filter(pk__in=moved.get("entrant") or [], player=merged)
    places = TeamPlayer.objects.filter(pk__in=moved.get("team") or [], player=merged)
    leagues = set(places.values_list("team__group__league_id", flat=True))
    days = list(MatchDay.objects.filter(group__league_id__in=leagues).values_list(
        "pk", flat=True))
    tables = set(returned.values_list("table_id", flat=True))
    tables |= set(Table.objects.filter(
        Q(evening__tournament__in=entries.values("tournament_id"))
        | Q(evening__match_day__in=days)).filter(seats__player=kept).values_list(
            "pk", flat=True))
    if not tables:
        return {}
    # a table where the merged record sits already keeps the kept record's rows there
    tables -= set(Seat.objects.filter(table_id__in=tables, player=merged).exclude(
        pk__in=moved.get("seat") or []).values_list("table_id", flat=True))
    followed: dict[str, list[int]] = {}
    rows: list[tuple[str, Any]] = [
        ("seat", Seat.objects.filter(table_id__in=tables, player=kept)),
        ("score", TableScore.objects.filter(table_id__in=tables, player=kept)),
        ("signature", Signature.objects.filter(table_id__in=tables, player=kept)),
        ("lineup", Lineup.objects.filter(match_day_id__in=days, player=kept).exclude(
            pk__in=moved.get("lineup") or [])),
    ]
    for kind, found in rows:
        ids = list(found.order_by("pk").values_list("pk", flat=True))
        if ids:
            _KINDS[kind]._default_manager.filter(pk__in=ids).update(player=merged)
            followed[kind] = ids
    return followed


# ---------------------------------------------------------------- the person's own choice

def results_visible(*, user: Any, visible: bool) -> None:
    """Whether members of other clubs may see the person's results across clubs."""
    AccountSettings.objects.update_or_create(user=user, defaults={"results_visible": visible})
