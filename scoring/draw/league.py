"""The seating of a team league's match day (issue 25): pure Python, seeded, no models.

On a match day a group of teams meets over several series (3, or 4 in the Bundesliga). A team
plays a series with up to four players, one per position (1..4); a team may start with three,
and a substitute may replace a player between series.

**A lineup** is one team's players of one series by position: ``lineup[0]`` plays position 1,
``lineup[1]`` position 2 … A missing position is ``None``, and a list shorter than 4 lacks its
last positions (``["Anna", None, "Clara"]``: positions 2 and 4 are empty). A team whose
lineup names nobody is not present in that series. ``lineups`` lists the teams in the day's
fixed order; players are any hashable values but ``None``, each on one team only.

**Three or four teams present**: each table seats one player of each team.

- Four teams play at 4-tables; a team short of a player leaves one table without its player,
  a 3-table. As a table needs three players, at most one team's player may be missing at a
  table: over the k tables (k the most players any team brings) at most k seats may be
  empty.
- Three teams play at 3-tables, so all three must bring the same number of players.
- **Series 1** is seated by positions: table k seats the players at position k of each team
  (a table lacks the team whose position k is empty). Where that would leave a table with
  fewer than three players (two teams short at one position), the fewest players move away
  from their position's table.
- **A later series** seats each team's players at the tables so that as few pairs as possible
  meet again who sat at one table in an earlier series of the day (``earlier``), then so that
  those who meet again met as seldom as possible, then so that the 3-table seats go to those
  who sat at a 3-table least often. The search is exact (branch and bound over each team's
  order at the tables, the first team's order fixed as the tables have no numbers yet). The
  equally good seatings are then weighed by the best next series each leaves (with the same
  lineups; a few dozen of them, in the lot's order), as some leave none without repeats
  (whether a series follows or not: the tie is broken either way): with 4 full teams,
  a series 2 seated by the cyclic Latin square leaves every series 3 with repeats, one seated
  by an orthogonal Latin square does not (and a series 2 and 3 without repeats always leave a
  series 4 without: the teams, series 1, 2 and 3 are four parallel classes of a net of
  order 4, which completes to the affine plane of order 4, whose fifth class is series 4).
  The tables come 4-tables first, 3-tables last; a table's players in the teams' order.

**Five or more teams present**: tables of 4 (3 only where the count needs it,
``draw.table_sizes``) with no two players of one team at a table, seated by
``draw.draw`` with the teams kept apart, the earlier series as its history and ``ahead``
(how many series are still to come after this one) planned with it (series 1 by lot as
well: positions mean nothing when a table cannot hold one of each team). Its search is
bounded (``_STEPS``): a day of 6 teams of 4 over 4 series seats in about 0.1–0.4 s, mostly
without a repeat; 5 teams of 4 over 4 series, which could play without one (a resolvable
transversal design), end with a few.

The lot is ``rng`` (a ``random.Random`` the caller seeds, e.g. ``draw.series_random``): it
breaks ties only, so the same seed and inputs give the same seating. ``repeated_pairs``
(from ``draw``) counts the pairs of a seating who met before, the number a series records.

What cannot be seated is refused with a ``ValidationError`` saying what is wrong and what
to do: fewer than three teams present, a lineup of more than four, a player listed twice,
three teams of unequal size, four teams short of too many players, a team with more players
than five or more teams' players fill tables.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Sequence
from typing import Generic, TypeVar

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.draw.preisskat import DrawError, draw, meetings, repeated_pairs, table_sizes

__all__ = ["MAX_POSITIONS", "repeated_pairs", "seat_series"]

P = TypeVar("P", bound=Hashable)

MAX_POSITIONS = 4
# the steps of draw's search for five or more teams (its default, 20,000 and more, takes
# seconds where no seating reaches its lower bound, as for 5 teams of 4 over 4 series)
_STEPS = 400
# the lookahead weighs at most this many of the equally good seatings (in the lot's order)
_LOOKAHEAD = 48

Cost = tuple[int, int, int]


def seat_series(lineups: Sequence[Sequence[P | None]], series: int,
                earlier: Sequence[Sequence[Sequence[P]]], rng: random.Random, *,
                ahead: int = 0, names: Sequence[str] | None = None) -> list[list[P]]:
    """The tables of series ``series`` (1, 2 …) of a match day: ``lineups`` the teams'
    players of this series by position, ``earlier`` the tables of the day's earlier series,
    ``ahead`` how many series are still to come after this one (five or more teams plan
    them along; three or four teams always look one series ahead), ``names`` the teams'
    names for the messages (else "Team 1" …). The count of repeated pairs to record is
    ``repeated_pairs(tables, earlier)``. Raises ``ValidationError`` where the players
    cannot be seated. See the module's docstring for the rules."""
    if series < 1:
        raise ValueError("series are numbered from 1")
    label = _labels(lineups, names)
    teams = _check(lineups, label)
    present = [t for t, players in enumerate(teams) if players]
    if len(present) < 3:
        raise ValidationError(
            _("A match day's series needs at least three teams with players; %(count)d "
              "have players. Seat the series when three teams are present."),
            code="too_few_teams", params={"count": len(present)})
    if len(present) > 4:
        return _seat_apart([teams[t] for t in present], [label[t] for t in present],
                           earlier, rng, ahead)
    lineups_present = [_padded(lineups[t]) for t in present]
    k = max(len(teams[t]) for t in present)
    if len(present) == 3:
        sizes = {len(teams[t]) for t in present}
        if len(sizes) > 1:
            small = min(present, key=lambda t: len(teams[t]))
            large = max(present, key=lambda t: len(teams[t]))
            raise ValidationError(
                _("With three teams every table seats one player of each team, so the three "
                  "must bring the same number of players: %(small)s has %(small_count)d, "
                  "%(large)s has %(large_count)d. Bring a substitute for %(small)s."),
                code="unequal_teams",
                params={"small": label[small], "small_count": len(teams[small]),
                        "large": label[large], "large_count": len(teams[large])})
    else:
        missing = sum(k - len(teams[t]) for t in present)
        if missing > k:
            raise ValidationError(
                _("With four teams a table may lack at most one team's player, but %(missing)d "
                  "players are missing at %(tables)d tables, so a table would seat two. Bring "
                  "substitutes until at most %(tables)d are missing."),
                code="too_many_missing", params={"missing": missing, "tables": k})
    if series == 1:
        return _by_positions(lineups_present, k, rng)
    return _rotated([teams[t] for t in present], k, earlier, rng)


def _labels(lineups: Sequence[Sequence[object]], names: Sequence[str] | None) -> list[str]:
    if names is not None:
        if len(names) != len(lineups):
            raise ValueError("one name per lineup")
        return list(names)
    return [_("Team %(number)d") % {"number": t} for t in range(1, len(lineups) + 1)]


def _check(lineups: Sequence[Sequence[P | None]], label: list[str]) -> list[list[P]]:
    """Each team's players (without the empty positions); a lineup of more than four or a
    player listed twice is refused."""
    seen: set[P] = set()
    teams: list[list[P]] = []
    for t, lineup in enumerate(lineups):
        if len(lineup) > MAX_POSITIONS:
            raise ValidationError(
                _("%(team)s lists %(count)d positions; a team plays a series with at most four "
                  "players, one per position. Leave the others out of this series."),
                code="too_many_players", params={"team": label[t], "count": len(lineup)})
        players = [p for p in lineup if p is not None]
        for p in players:
            if p in seen:
                raise ValidationError(
                    _("%(player)s is listed twice in this series; a player plays for one team "
                      "at one position."), code="twice", params={"player": str(p)})
            seen.add(p)
        teams.append(players)
    return teams


def _padded(lineup: Sequence[P | None]) -> list[P | None]:
    return list(lineup) + [None] * (MAX_POSITIONS - len(lineup))


def _placements(slots: Sequence[P | None]) -> list[tuple[P | None, ...]]:
    """Every distinct order of a team's players and empty seats at the tables."""
    return list(dict.fromkeys(itertools.permutations(slots)))


def _ordered(tables: list[list[P | None]]) -> list[list[P]]:
    """The tables without the empty seats, 4-tables first (a stable order otherwise)."""
    seated = [[p for p in table if p is not None] for table in tables]
    return sorted(seated, key=lambda table: -len(table))


def _by_positions(lineups: list[list[P | None]], k: int, rng: random.Random) -> list[list[P]]:
    """Series 1: table j seats position j + 1 of each team, moving the fewest players where
    a table would otherwise seat fewer than three."""
    options = []
    for lineup in lineups:
        players = [(p, pos) for pos, p in enumerate(lineup) if p is not None]
        slots: list[tuple[P, int] | None] = list(players)
        slots += [None] * (k - len(players))
        options.append(_placements(slots))
    tables: list[list[tuple[P, int] | None]] = [[] for _ in range(k)]
    best: list[int] = [k * MAX_POSITIONS + 1]
    found: list[list[list[tuple[P, int] | None]]] = []

    def place(t: int, moved: int) -> None:
        if t == len(options):
            if moved < best[0]:
                best[0] = moved
                found.clear()
            found.append([list(table) for table in tables])
            return
        for placement in options[t]:
            cost = moved
            for j, seat in enumerate(placement):
                if seat is not None and seat[1] != j:
                    cost += 1
            if cost > best[0] or not _room(tables, placement, len(options) - t - 1):
                continue
            for j, seat in enumerate(placement):
                tables[j].append(seat)
            place(t + 1, cost)
            for table in tables:
                table.pop()

    place(0, 0)
    chosen = found[0] if len(found) == 1 else rng.choice(found)
    return [[seat[0] for seat in table if seat is not None] for table in chosen]


def _room(tables: Sequence[Sequence[object | None]], placement: Sequence[object | None],
          rest: int) -> bool:
    """Whether every table can still reach three players after this placement, with
    ``rest`` teams still to place."""
    for table, seat in zip(tables, placement, strict=False):
        seated = sum(1 for s in table if s is not None) + (seat is not None)
        if seated + rest < 3:
            return False
    return True


class _Search(Generic[P]):
    """Branch and bound over each team's order at the tables of a later series."""

    def __init__(self, teams: list[list[P]], k: int,
                 earlier: Sequence[Sequence[Sequence[P]]]) -> None:
        self.options = [_placements(list(players) + [None] * (k - len(players)))
                        for players in teams]
        self.options[0] = self.options[0][:1]  # the tables have no numbers yet
        self.k = k
        self.met = meetings(earlier)
        self.three: dict[P, int] = {}
        for tables in earlier:
            if len(tables) > 1:
                for table in tables:
                    if len(table) == 3:
                        for p in table:
                            self.three[p] = self.three.get(p, 0) + 1

    def run(self, stop_at_zero: bool = False) -> tuple[Cost, list[list[list[P | None]]]]:
        """The least cost and every seating of that cost (only the first with
        ``stop_at_zero`` once one repeats nobody)."""
        tables: list[list[P | None]] = [[] for _ in range(self.k)]
        teams = len(self.options)
        best: list[Cost] = [(1 << 30, 0, 0)]
        found: list[list[list[P | None]]] = []
        met, three = self.met, self.three

        def place(t: int, repeats: int, again: int) -> bool:
            if t == teams:
                share = sum(three.get(p, 0) for table in tables
                            if sum(1 for p in table if p is not None) == 3
                            for p in table if p is not None)
                cost = (repeats, again, share)
                if cost < best[0]:
                    best[0] = cost
                    found.clear()
                if cost == best[0]:
                    found.append([list(table) for table in tables])
                return stop_at_zero and repeats == 0
            for placement in self.options[t]:
                r, a = repeats, again
                for j, p in enumerate(placement):
                    if p is None:
                        continue
                    row = met.get(p)
                    if row:
                        for q in tables[j]:
                            if q is not None:
                                c = row.get(q, 0)
                                if c:
                                    r += 1
                                    a += c - 1
                if (r, a) > best[0][:2] or not _room(tables, placement, teams - t - 1):
                    continue
                for j, p in enumerate(placement):
                    tables[j].append(p)
                done = place(t + 1, r, a)
                for table in tables:
                    table.pop()
                if done:
                    return True
            return False

        place(0, 0, 0)
        return best[0], found


def _rotated(teams: list[list[P]], k: int, earlier: Sequence[Sequence[Sequence[P]]],
             rng: random.Random) -> list[list[P]]:
    """A later series of three or four teams: the fewest repeats (see the module)."""
    _, found = _Search(teams, k, earlier).run()
    if len(found) > 1:
        rng.shuffle(found)
        best: tuple[int, int] | None = None
        chosen = found[0]
        for seating in found[:_LOOKAHEAD]:
            tables = _ordered(seating)
            cost, _ = _Search(teams, k, [*earlier, tables]).run(stop_at_zero=True)
            if best is None or cost[:2] < best:
                best, chosen = cost[:2], seating
                if best == (0, 0):
                    break
        return _ordered(chosen)
    return _ordered(found[0] if len(found) == 1 else rng.choice(found))


def _seat_apart(teams: list[list[P]], label: list[str],
                earlier: Sequence[Sequence[Sequence[P]]], rng: random.Random,
                ahead: int) -> list[list[P]]:
    """Five or more teams: tables of 4 (3 as needed) without two players of one team."""
    players = [p for team in teams for p in team]
    try:
        sizes = table_sizes(len(players))
    except DrawError:
        raise ValidationError(
            _("%(count)d players cannot be seated at tables of three and four. Bring a "
              "substitute."), code="cannot_seat", params={"count": len(players)}) from None
    for t, team in enumerate(teams):
        if len(team) > len(sizes):
            raise ValidationError(
                _("%(team)s brings %(count)d players, but the %(players)d players of the "
                  "series fill only %(tables)d tables, so two of %(team)s would share a "
                  "table. Bring substitutes for the other teams."),
                code="team_too_large",
                params={"team": label[t], "count": len(team), "players": len(players),
                        "tables": len(sizes)})
    team_of = {p: t for t, team in enumerate(teams) for p in team}
    order = {p: i for i, p in enumerate(players)}
    tables = draw(players, rng, earlier, ahead=ahead, apart=teams, max_steps=_STEPS)
    if any(len({team_of[p] for p in table}) < len(table) for table in tables):
        tables = _dealt(teams, sizes)  # the search missed: a seating that keeps them apart
    return [sorted(table, key=lambda p: order[p]) for table in tables]


def _dealt(teams: list[list[P]], sizes: list[int]) -> list[list[P]]:
    """The players team after team dealt round the tables (4-tables first), a seat at each
    table per round: as no team has more players than there are tables, a team's players
    take consecutive seats of the round order, at different tables."""
    seats = [j for row in range(max(sizes)) for j, size in enumerate(sizes) if size > row]
    tables: list[list[P]] = [[] for _ in sizes]
    for j, p in zip(seats, (p for team in teams for p in team), strict=True):
        tables[j].append(p)
    return tables
