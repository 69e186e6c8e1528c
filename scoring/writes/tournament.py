"""Every change to a tournament: creating it, registration and check-in, withdrawals, and
drawing each series' seats (scoring/draw/preisskat.py) onto real tables of the tournament's evening.

One transaction each; a change the rules do not allow raises ValidationError with a message
for the organiser and changes nothing. Every change bumps the tournament's version (the
public board is cached under it and the tables' versions)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.collation import refuse_invisible, username_skeleton
from scoring.draw import preisskat as draw
from scoring.models import AuditEntry, Club, Entrant, Player, Tournament, TournamentSeries
from scoring.reads.standings import TableProgress
from scoring.reads.tournament import series_history, tournament_ranking
from scoring.writes import seating, services

CENT = Decimal("0.01")
MAX_SEED = 2**53  # shown to people and typed again: kept within a double's exact integers


def _bump(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    tournament.refresh_from_db(fields=["version"])


def fee_settlement(*, lost_fee: Decimal, lost_fee_high: Decimal | None, lost_fee_from: int,
                   passed_fee: Decimal) -> dict[str, Any]:
    """The evening's club extras for a tournament's fees: the lost-game fee, rising to
    ``lost_fee_high`` from the ``lost_fee_from``-th lost game (tiers), and the passed-deal
    fee. The engine charges them per list (table and series)."""
    settlement: dict[str, Any] = {}
    if lost_fee_high is not None and lost_fee_from > 1:
        settlement["lost_game_fee_tiers"] = [
            {"from": 1, "fee": f"{lost_fee:.2f}"},
            {"from": lost_fee_from, "fee": f"{lost_fee_high:.2f}"}]
    elif lost_fee:
        settlement["lost_game_fee"] = f"{lost_fee:.2f}"
    if passed_fee:
        settlement["passed_deal_fee"] = f"{passed_fee:.2f}"
    return settlement


def tournament_create(*, club: Any, name: str, date: Any, profile: Any, series_count: int,
                      series_rounds: int, entry_fee: Decimal, settlement: dict[str, Any],
                      categories: list[str], team_fee: Decimal | None,
                      tandem_fee: Decimal | None, reseat: str, tie_rule: str,
                      prizes: list[str], public: bool, season: Any = None) -> Tournament:
    """A tournament and its evening: the profile's rules frozen, stake 0 (the fees are the
    organiser's), the series length of ``series_rounds`` rounds."""
    if profile.club_id != club.pk:
        raise ValidationError(_("The rule profile belongs to another club."))
    with transaction.atomic():
        evening = services.evening_create(
            club=club, date=date, profile=profile, name=name, stake=Decimal("0"),
            season=season, series_rounds=series_rounds)
        evening.settlement = settlement
        evening.full_clean()
        evening.save(update_fields=["settlement"])
        tournament = Tournament(
            club=club, evening=evening, name=name, date=date, series_count=series_count,
            entry_fee=entry_fee, categories=categories, team_fee=team_fee,
            tandem_fee=tandem_fee, reseat=reseat, tie_rule=tie_rule, prizes=prizes,
            public=public)
        tournament.full_clean()
        tournament.save()
    return tournament


def tournament_settings(*, tournament: Tournament, reseat: str, tie_rule: str,
                        prizes: list[str], public: bool) -> Tournament:
    """What the organiser may change during the day: how later series are seated, the tie
    rule, the prize table and the public board."""
    tournament.reseat, tournament.tie_rule = reseat, tie_rule
    tournament.prizes, tournament.public = prizes, public
    tournament.full_clean()
    with transaction.atomic():
        tournament.save(update_fields=["reseat", "tie_rule", "prizes", "public"])
        _bump(tournament)
    return tournament


def _drawn(tournament: Tournament) -> int:
    return tournament.draws.aggregate(last=Max("number"))["last"] or 0


def _reusable(player: Player) -> bool:
    """A record a guest typed by name may take: a guest's, with no account, not merged."""
    return player.guest and player.user_id is None and player.merged_into_id is None


def guest_named(club: Club, name: str, home_club: str = "") -> Player:
    """The guest record of the club a guest typed by name plays under (issue 35): the guest
    record of that name if there is one (no account, not merged), else a new guest record,
    named so that it cannot be taken for a member's: "Paula Wagner" if no record has that
    name and no member's looks like it, else "Paula Wagner (Gotha)" after the home club,
    else "Paula Wagner (2)", "(3)" … A member's record or one with an account is never
    handed to whoever types its name: a registration proves nobody's identity."""
    members = [p.name for p in club.players.filter(Q(guest=False) | Q(user__isnull=False))
               .only("name")]
    skeletons = {username_skeleton(member) for member in members}
    home = " ".join(home_club.split())
    candidates = [name, *([f"{name} ({home})"] if home else [])]
    candidates += [f"{name} ({number})" for number in range(2, 100)]
    for candidate in candidates:
        candidate = candidate[:100]
        found = Player.objects.filter(club=club, name=candidate).first()
        if found is not None:
            if found.merged_into_id is not None:  # the desk merged it: the kept record
                found = Player.objects.get(pk=found.merged_into_id)
            if _reusable(found):
                return found
            continue
        if username_skeleton(candidate) in skeletons:
            continue  # looks like a member's name: "Pаula Wagner" with a Cyrillic "а"
        return Player.objects.create(club=club, name=candidate, guest=True)
    raise ValidationError(_("%(name)s cannot be registered as a guest: too many players of "
                            "that name.") % {"name": name})


def entrant_register(*, tournament: Tournament, name: str = "", member: Player | None = None,
                     home_club: str = "", category: str = "", team: str = "",
                     tandem: str = "", paid: bool = False, at_door: bool = False,
                     online: bool = False) -> Entrant:
    """Register a member (``member``) or a guest (``name``) in advance or at the door (then
    checked in at once). A guest becomes a guest player of the organising club, found again
    by name at the next tournament (``guest_named``: never a member's record, never one with
    an account; the desk registers a member by choosing him). A latecomer registered after
    series k has started plays from the next series drawn. ``online``: a confirmed online
    registration (writes/signup.py)."""
    club = tournament.club
    if tournament.evening.closed:
        raise ValidationError(_("This tournament is closed."))
    if category and category not in tournament.categories:
        raise ValidationError(_("%(category)s is not one of this tournament's categories.")
                              % {"category": category})
    if team and tournament.team_fee is None:
        raise ValidationError(_("This tournament has no team ranking."))
    if tandem and tournament.tandem_fee is None:
        raise ValidationError(_("This tournament has no tandem ranking."))
    for text in (name, home_club, team, tandem):
        refuse_invisible(text)
    with transaction.atomic():
        if member is not None:
            if member.club_id != club.pk or member.merged_into_id is not None:
                raise ValidationError(_("Every player must belong to the club."))
            player = member
        else:
            name = " ".join(name.split())[:100]
            if not name:
                raise ValidationError(_("Give the guest's name."))
            player = guest_named(club, name, home_club)
        if tournament.entrants.filter(player=player).exists():
            raise ValidationError(_("%(name)s is registered already.") % {"name": player.name})
        for attribute, value, size in (("team", team.strip(), 4), ("tandem", tandem.strip(), 2)):
            if value and tournament.entrants.filter(**{attribute: value}).count() >= size:
                raise ValidationError(_("%(name)s has %(size)d players already.")
                                      % {"name": value, "size": size})
        number = (tournament.entrants.aggregate(last=Max("number"))["last"] or 0) + 1
        entrant = Entrant.objects.create(
            tournament=tournament, number=number, player=player, home_club=home_club.strip(),
            category=category, team=team.strip(), tandem=tandem.strip(), paid=paid,
            at_door=at_door, checked_in=at_door, online=online)
        _bump(tournament)
    return entrant


def entrant_mark(*, entrant: Entrant, paid: bool | None = None,
                 checked_in: bool | None = None) -> Entrant:
    """Mark an entrant paid (or not) and checked in (or not). Checking out someone who
    already sits at a table of a drawn series is refused: withdraw him instead."""
    tournament = entrant.tournament
    if checked_in is False and entrant.checked_in and _drawn(tournament) and \
            entrant.player.seats.filter(table__evening=tournament.evening).exists():
        raise ValidationError(_("%(name)s is seated already: withdraw the player after a "
                                "series instead.") % {"name": entrant.player.name})
    with transaction.atomic():
        if paid is not None:
            entrant.paid = paid
        if checked_in is not None:
            entrant.checked_in = checked_in
        entrant.save(update_fields=["paid", "checked_in"])
        _bump(tournament)
    return entrant


def entrant_withdraw(*, entrant: Entrant, undo: bool = False) -> Entrant:
    """Withdraw an entrant after the last series drawn (he plays no later series), or take
    the withdrawal back while no later series is drawn."""
    tournament = entrant.tournament
    drawn = _drawn(tournament)
    with transaction.atomic():
        if undo:
            if entrant.withdrawn_after is not None and entrant.withdrawn_after < drawn:
                raise ValidationError(_("A later series is drawn already without %(name)s.")
                                      % {"name": entrant.player.name})
            entrant.withdrawn_after = None
        else:
            if entrant.withdrawn_after is not None:
                raise ValidationError(_("%(name)s has withdrawn already.")
                                      % {"name": entrant.player.name})
            entrant.withdrawn_after = drawn
        entrant.save(update_fields=["withdrawn_after"])
        _bump(tournament)
    return entrant


def new_seed() -> int:
    return secrets.randbelow(MAX_SEED)


def _mates(entrants: list[Entrant]) -> list[list[int]]:
    """The start numbers of each team and each tandem: the draw keeps them at other tables."""
    groups: dict[tuple[str, str], list[int]] = {}
    for entrant in entrants:
        for kind, name in (("team", entrant.team), ("tandem", entrant.tandem)):
            if name.strip():
                groups.setdefault((kind, name.strip().casefold()), []).append(entrant.number)
    return [members for members in groups.values() if len(members) > 1]


def _club_mates(tournament: Tournament, entrants: list[Entrant]) -> list[list[int]]:
    """The start numbers of each home club (issue 24: "Spieler eines Vereins möglichst
    trennen"): the home club as typed, a member without one of the organising club; a guest
    without one belongs to no club."""
    clubs: dict[str, list[int]] = {}
    for entrant in entrants:
        club = " ".join(entrant.home_club.split()).casefold()
        if not club and not entrant.player.guest:
            club = tournament.club.name.casefold()
        if club:
            clubs.setdefault(club, []).append(entrant.number)
    return [members for members in clubs.values() if len(members) > 1]


def series_draw(*, tournament: Tournament, seed: int | None = None,
                unsigned_reason: str = "", actor: services.Actor | None = None,
                unpaid_confirmed: bool = True) -> TournamentSeries:
    """Seat the next series: the first by lot, each later one as the organiser chose (drawn
    again against repeated opponents, or by the standings). Everyone checked in and not
    withdrawn plays; the previous series must be finished and signed at every table
    (issue 23), unless the director draws all the same with ``unsigned_reason``, which the
    evening's audit log keeps with the tables that had not signed. The seed is recorded.
    The desk draws with ``unpaid_confirmed`` as the organiser ticked it: without it,
    players who play and have not paid refuse the draw with their start numbers (issue 24:
    no silent draw)."""
    evening = tournament.evening
    if evening.closed:
        raise ValidationError(_("This tournament is closed."))
    with transaction.atomic():
        # the row lock keeps two organisers' clicks from drawing the same series twice
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        number = _drawn(locked) + 1
        if number > locked.series_count:
            raise ValidationError(_("All %(count)d series are drawn.")
                                  % {"count": locked.series_count})
        entrants = [e for e in locked.entrants.select_related("player") if e.plays_in(number)]
        unpaid = sorted(e.number for e in entrants if not e.paid)
        if unpaid and not unpaid_confirmed:
            raise ValidationError(ngettext(
                "%(count)d player checked in has not paid: start number %(numbers)s. "
                "Confirm to draw all the same.",
                "%(count)d players checked in have not paid: start numbers %(numbers)s. "
                "Confirm to draw all the same.", len(unpaid)) % {
                    "count": len(unpaid), "numbers": ", ".join(map(str, unpaid))})
        seating.table_sizes(len(entrants))  # the clear message for too few, or five
        seed = new_seed() if seed is None else seed
        if not 0 <= seed < MAX_SEED:
            raise ValidationError(_("The seed must be a whole number from 0 to %(max)d.")
                                  % {"max": MAX_SEED - 1})
        by_number = {e.number: e for e in entrants}
        numbers = sorted(by_number)
        history = series_history(locked)
        method = "lot"
        if number > 1:
            ranking = tournament_ranking(locked)
            waiting = ranking.unfinished_tables(number - 1)
            if waiting:
                raise ValidationError(_unfinished_message(number - 1, waiting))
            method = locked.reseat
            unsigned = list(evening.tables.filter(
                series=number - 1, signed_at__isnull=True).order_by("number"))
            if unsigned and not unsigned_reason.strip():
                raise ValidationError(_(
                    "Series %(series)d is not signed at every table yet: %(tables)s. Wait "
                    "for the signatures, or draw all the same with a reason.") % {
                        "series": number - 1,
                        "tables": ", ".join(_("table %(number)d") % {"number": t.number}
                                            for t in unsigned)})
            if unsigned:
                who = actor or services.Actor(None, "tournament")
                services.evening_audit(
                    evening, AuditEntry.Action.DRAW_UNSIGNED, who, unsigned_reason,
                    after={"series": number, "unsigned_tables": [t.number for t in unsigned]})
        if method == Tournament.Reseat.STANDINGS:
            order = [row.entrant.number for row in ranking.rows
                     if row.entrant.number in by_number]
            order += [n for n in numbers if n not in order]  # latecomers after the others
            # seeded in the one search: the standings' seating, moved where the 3-table
            # share or team/tandem mates need it (and repeats where a swap of neighbours does)
            groups = draw.draw(numbers, draw.series_random(seed, number), history,
                               apart=_mates(entrants), standings=order)
        else:
            # planning the series still to come too keeps them free of repeats where possible
            # one search: repeats, the 3-table share and team/tandem mates at one table
            groups = draw.draw(numbers, draw.series_random(seed, number), history,
                               ahead=locked.series_count - number, apart=_mates(entrants),
                               loose=_club_mates(locked, entrants) if locked.clubs_apart
                               else ())
        for table_number, group in enumerate(groups, start=1):
            services.table_create(evening=evening, players=[by_number[n].player for n in group],
                                  number=table_number, series=number)
        drawn = TournamentSeries.objects.create(
            tournament=locked, number=number, method=method, seed=seed,
            repeated_pairs=draw.repeated_pairs(groups, history))
        _bump(tournament)
    return drawn


UNFINISHED_NAMED = 10  # tables the draw's refusal names before "and N more"


def _unfinished_message(series: int, waiting: Sequence[TableProgress]) -> str:
    """The draw's refusal while tables of ``series`` still play: how many, and which (the
    first few and how many more, so 168 tables do not make a page of text)."""
    named = ", ".join(_("table %(table)d (%(count)d of %(length)d games)") % {
        "table": t.table.number, "count": t.counted, "length": t.length or 0}
        for t in waiting[:UNFINISHED_NAMED])
    more = len(waiting) - UNFINISHED_NAMED
    if more > 0:
        named += " " + ngettext("and %(count)d more table", "and %(count)d more tables",
                                more) % {"count": more}
    return ngettext(
        "Series %(series)d is not finished yet: %(count)d table has not played all its "
        "games: %(tables)s.",
        "Series %(series)d is not finished yet: %(count)d tables have not played all their "
        "games: %(tables)s.", len(waiting)) % {
            "series": series, "count": len(waiting), "tables": named}
