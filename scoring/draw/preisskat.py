"""The seat draw of a tournament (Preisskat, league match day): pure Python, no Django.

Who sits where in each series, as numbers or any hashable players:

- **Table sizes**: tables of 4, and 3-tables only as many as needed to seat everybody:
  n = 4a + 3b with b as small as possible (13 → 4 + 3 + 3 + 3, 10 → 4 + 3 + 3). Fewer
  than 3 players, or 5, cannot be seated that way (DrawError).
- **The first series** is drawn by lot. **Each later series** is either drawn again so that
  players meet as few earlier opponents as possible (``draw`` with the earlier series as
  ``history``), or seeded by the standings (``draw`` with ``standings``): the search starts
  from ``by_standings`` (places 1–4 at table 1, 5–8 at table 2 …, the 3-tables last) and a
  seat costs one per table away from its place's table, in the same search that scores
  the repeats, the 3-table share and the team mates. The 3-table share and team mates weigh
  more than any seeding (×tables), the seeding more than a second meeting: a seeded series
  moves players off their place only where the share or the mates need it, or a swap of
  neighbours spares several repeats (a third meeting).
- **The lot is a recorded seed**: the same seed, players and history give the same draw, so
  an organiser can show that a draw was fair and repeat it. Each series has its own random
  stream, ``random.Random("skat-draw:<seed>:<series>")`` (a string seed is hashed the same way
  by every Python 3 run).

What a draw weighs, in one search: repeated opponents (below), the 3-table share and team,
tandem or club mates at one table. A player's c-th series at a 3-table costs 3·(c − 1) (a
3-table plays 36 games, not 48): as that grows with c, the least cost never seats somebody
at a 3-table twice while somebody else could have had none (max − min ≤ 1 over the series).
Two of one team or tandem (``apart``) at a table cost 40, of one club (``loose``) 1. Where
3-tables are most of the tables (10, 11, 13, 14, 17 players) the even share and no repeats
exclude each other (17 over 2: each 4-table of series 2 needs players of four tables of
series 1, one of them a 4-table): the share wins.

How a draw avoids repeated opponents: a draw plans its series together with the later ones
still to come (``ahead``; ``tournament`` and the tournament service pass how many are left),
so that an early series does not leave the later ones without a seating free of repeats (16
players: some second series leave no fourth one without repeats). The plan's cost is, over
every two players meeting m times in the history and the plan, 0² + 1² + … + (m − 1)²: a
second meeting costs 1, a third 4 more, so two players meeting a third time weigh more than
two pairs meeting a second time. Where the field is the affine plane of order 3 or 4 (9
players at three 3-tables, 16 at four 4-tables) and the earlier series are parallel classes
of it, the plan starts from the plane's other classes, which repeat nobody (up to 4 and 5
series). Otherwise a seating by lot is improved by a tabu search over swaps of two players
of different tables in one planned series (``_Plan``), which stops when the cost reaches a
lower bound (none, or the pigeonhole bound below), after ten restarts in a row that found
nothing better, or after a bounded number of steps, so a draw always ends, keeping the best
plan found; only the plan's first series is returned.
Measured: no repeats for 9 over 4 series, 16 over 4 and 5, 30, 33 and 45 over 3, 20 over 4,
32 over 4, 36 over 4, 40 over 5, 1,000 over 3 (tests/test_draw.py). Where no seating without
repeats exists it ends with the fewest: 12 players at three 4-tables can never play a second
series without repeats (four players from three earlier tables: two of them sat together),
so the fewest is one repeated pair per table in series 2 and, nobody meeting anybody a third
time, two per table in series 3 (one pair from a table of series 1, another from one of
series 2).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)

Tables = list[list[T]]


class DrawError(ValueError):
    """The players cannot be seated as asked; ``code`` says why (for a translated message)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def table_sizes(players: int) -> list[int]:
    """The sizes of the tables for ``players`` people, 4-tables first: 13 → [4, 3, 3, 3]."""
    if players < 3:
        raise DrawError("too_few", f"A series needs at least 3 players; {players} are present.")
    if players == 5:
        raise DrawError("five", "5 players cannot be seated at tables of 3 and 4.")
    threes = (4 - players % 4) % 4
    fours = (players - 3 * threes) // 4
    return [4] * fours + [3] * threes


def series_random(seed: int, series: int) -> random.Random:
    """The random stream of one series of a draw with this seed."""
    return random.Random(f"skat-draw:{seed}:{series}")


def _split(ordered: Sequence[T], sizes: list[int]) -> Tables[T]:
    tables: Tables[T] = []
    start = 0
    for size in sizes:
        tables.append(list(ordered[start:start + size]))
        start += size
    return tables


def by_standings(ranked: Sequence[T]) -> Tables[T]:
    """A later series seated by the standings, best first: places 1–4 at table 1 …"""
    _check_unique(ranked)
    return _split(ranked, table_sizes(len(ranked)))


def _check_unique(players: Sequence[T]) -> None:
    if len(set(players)) != len(players):
        raise DrawError("twice", "A player is listed twice.")


def meetings(history: Sequence[Sequence[Sequence[T]]]) -> dict[T, dict[T, int]]:
    """How often each two players sat at one table in the series of ``history``."""
    met: dict[T, dict[T, int]] = {}
    for series in history:
        for table in series:
            for a in table:
                row = met.setdefault(a, {})
                for b in table:
                    if a != b:
                        row[b] = row.get(b, 0) + 1
    return met


def repeated_pairs(tables: Sequence[Sequence[T]],
                   history: Sequence[Sequence[Sequence[T]]]) -> int:
    """Pairs at one table of ``tables`` who met before in ``history``."""
    met = meetings(history)
    count = 0
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                count += met.get(a, {}).get(b, 0) > 0
    return count


def draw(players: Sequence[T], rng: random.Random,
         history: Sequence[Sequence[Sequence[T]]] = (), *, max_steps: int | None = None,
         ahead: int = 0, apart: Sequence[Sequence[T]] = (),
         loose: Sequence[Sequence[T]] = (),
         standings: Sequence[T] | None = None) -> Tables[T]:
    """Seat ``players`` by lot, meeting as few opponents of ``history`` again as the search
    finds (none where that is possible and found). With ``ahead`` > 0 the search plans that
    many later series too (of the same players) and returns only this one, so that this
    series leaves the later ones a seating without repeats where one exists. ``apart`` lists
    groups (a team, a tandem) whose members are not to share a table, ``loose`` groups (a
    club) kept apart where that costs nothing else. Deterministic for a given ``rng`` state.

    With ``standings`` (every player, best first) the series is seeded by the standings in
    the same search: it starts from ``by_standings`` and each player's seat costs how many
    tables he sits from his place's table (players of similar standing at one table), beside
    the repeats, the 3-table share and the team mates; the seeding weighs more than a
    second meeting, less than a fair 3-table share or team mates apart (see ``_Plan``).
    Nothing is planned ahead (later standings are not known)."""
    _check_unique(players)
    if ahead < 0:
        raise DrawError("series", "A draw cannot plan a negative number of later series.")
    sizes = table_sizes(len(players))
    order = list(players)
    rng.shuffle(order)
    if standings is not None:
        _check_unique(standings)
        if set(standings) != set(players):
            raise DrawError("standings", "The standings must list every player exactly once.")
        return _Plan(order, sizes, history, 1, rng, max_steps, apart, loose,
                     standings=standings).run()
    if not history and not apart and not loose:
        # without earlier series every seating is as good as any other for the later ones
        return _split(order, sizes)
    return _Plan(order, sizes, history, ahead + 1, rng, max_steps, apart, loose).run()


def _gf_mul(q: int) -> list[list[int]]:
    """The multiplication table of the field with q = 3 or 4 elements (0..q-1; for 4 the
    elements are 0, 1, a, a + 1 as 0, 1, 2, 3 with a² = a + 1, addition being XOR)."""
    if q == 3:
        return [[a * b % 3 for b in range(3)] for a in range(3)]
    log = {1: 0, 2: 1, 3: 2}
    exp = [1, 2, 3]
    return [[0 if a == 0 or b == 0 else exp[(log[a] + log[b]) % 3] for b in range(4)]
            for a in range(4)]


def _affine_classes(q: int) -> list[list[list[tuple[int, int]]]]:
    """The q + 1 parallel classes of the affine plane AG(2, q) for q = 3 or 4: points (x, y),
    class 0 the lines x = c, class 1 + m the lines y = m·x + c. Two points lie on exactly one
    line, so seating each series by one class, nobody meets anybody twice."""
    mul = _gf_mul(q)

    def add(a: int, b: int) -> int:
        return a ^ b if q == 4 else (a + b) % 3

    classes = [[[(c, y) for y in range(q)] for c in range(q)]]
    for m in range(q):
        classes.append([[(x, add(mul[m][x], c)) for x in range(q)] for c in range(q)])
    return classes


def _affine_start(n: int, sizes: list[int], history: list[list[list[int]]],
                  planned: int, rng: random.Random) -> list[list[list[int]]] | None:
    """Seatings of the planned series from the affine plane AG(2, q) when n = q² (9 or 16
    players at 3- or 4-tables) and the history is a set of its parallel classes for some
    naming of the points: the first earlier series as the lines x = c, the second as
    y = c, each further one a class of the plane. None where that does not fit."""
    q = {9: 3, 16: 4}.get(n)
    if q is None or sizes != [q] * q or not history:
        return None
    for series in history:
        if sorted(len(t) for t in series) != [q] * q or sum(len(t) for t in series) != n:
            return None
    first = [0] * n
    for t, table in enumerate(history[0]):
        for i in table:
            first[i] = t
    if len(history) >= 2:
        second = [0] * n
        for t, table in enumerate(history[1]):
            for i in table:
                second[i] = t
        if len({(first[i], second[i]) for i in range(n)}) != n:
            return None  # the second series is not orthogonal to the first
    else:
        second = [0] * n
        for table in history[0]:
            column = list(range(q))
            rng.shuffle(column)
            for i, y in zip(table, column, strict=True):
                second[i] = y
    classes = _affine_classes(q)
    line_of = [{p: c for c, line in enumerate(cls) for p in line} for cls in classes]
    xs: list[tuple[int, ...]] = list(itertools.permutations(range(q)))
    ys: list[tuple[int, ...]] = list(itertools.permutations(range(q)))
    rng.shuffle(xs)
    rng.shuffle(ys)
    for gx in xs:
        for gy in ys:
            point = [(gx[first[i]], gy[second[i]]) for i in range(n)]
            used = {0, 1} if len(history) >= 2 else {0}
            for series in history[2:]:
                found = None
                for k in range(2, q + 1):
                    if k not in used and all(
                            len({line_of[k][point[i]] for i in table}) == 1
                            for table in series):
                        found = k
                        break
                if found is None:
                    break
                used.add(found)
            else:
                free = [k for k in range(q + 1) if k not in used]
                rng.shuffle(free)
                at = {p: i for i, p in enumerate(point)}
                return [[[at[p] for p in line] for line in classes[k]]
                        for k in free[:planned]]
    return None


class _Plan(Generic[T]):
    """A search over the seatings of one or more series together. The cost of a plan is, over
    every two players who meet m times in the history and the plan, 0² + 1² + … + (m − 1)²:
    a second meeting costs 1, a third 4 more, so that two players meeting a third time weigh
    more than two pairs meeting a second time. A move swaps two players of different tables
    in one planned series. Tabu search: a player of a repeated pair is swapped where the cost
    falls most (sideways and worse moves allowed; players just moved stay put for a few
    steps unless a move beats the best plan), restarting from the best plan, shaken by a few
    random swaps, when it stalls. It stops at no repeats or after a bounded number of steps
    and keeps the best plan found."""

    def __init__(self, order: list[T], sizes: list[int],
                 history: Sequence[Sequence[Sequence[T]]], planned: int,
                 rng: random.Random, max_steps: int | None,
                 apart: Sequence[Sequence[T]] = (), loose: Sequence[Sequence[T]] = (),
                 standings: Sequence[T] | None = None) -> None:
        self.players = order
        n = len(order)
        self.n = n
        self.rng = rng
        index = {p: i for i, p in enumerate(order)}
        past = [[[index[p] for p in table if p in index] for table in series]
                for series in history]
        # meetings of every two players, the history's and the plan's (a byte: at most 255)
        self.met = [bytearray(n) for _ in range(n)]
        for series in past:
            for table in series:
                for a in table:
                    row = self.met[a]
                    for b in table:
                        if a != b:
                            row[b] = min(row[b] + 1, 200)
        # the series each player sat at a 3-table, the history's and the plan's
        self.three = [0] * n
        for series in past:
            for table in series:
                if len(table) == 3 and len(series) > 1:
                    for a in table:
                        self.three[a] += 1
        past_three = list(self.three)
        self.three_varies = len(sizes) > 1 and 3 in sizes
        # seeded by the standings: each player's table by his place (``by_standings``), and
        # a seat costs one per table away from it. One swap moves two players at most
        # len(sizes) - 1 tables each, so the 3-table share and team mates weigh len(sizes)
        # times their usual cost: they always beat the seeding, which beats a second
        # meeting (a swap of neighbours costs 2, a second meeting 1)
        self.target: list[int] | None = None
        scale = 1
        if standings is not None:
            self.target = [0] * n
            for t, placed in enumerate(_split(list(standings), sizes)):
                for who in placed:
                    self.target[index[who]] = t
            scale = len(sizes)
        self.w_three = _THREE * scale
        # what two players at one table cost for being of one team or tandem (or club)
        self.bond: dict[int, dict[int, int]] = {}
        for groups, weight in ((loose, _CLUB), (apart, _TEAM * scale)):
            for group in groups:
                members = [index[p] for p in group if p in index]
                for a in members:
                    bonds = self.bond.setdefault(a, {})
                    for b in members:
                        if a != b:
                            bonds[b] = max(bonds.get(b, 0), weight)
        start = [] if self.target is None else [
            _split([index[p] for p in standings or ()], sizes)]
        start = start or _affine_start(n, sizes, past, planned, rng) or []
        while len(start) < planned:  # beyond the plane's q + 1 classes: by lot, then search
            shuffled = list(range(n))
            rng.shuffle(shuffled)
            start.append(_split(shuffled, sizes))
        self.tables = start
        self.where = [[0] * n for _ in range(planned)]
        self.cost = 0
        for s, series in enumerate(self.tables):
            for t, table in enumerate(series):
                for a in table:
                    self.where[s][a] = t
                for x, a in enumerate(table):
                    for b in table[x + 1:]:
                        self.cost += _SQUARE[self.met[a][b]]
                        self.met[a][b] += 1
                        self.met[b][a] += 1
                        self.cost += self.bond.get(a, {}).get(b, 0)
                if len(table) == 3 and self.three_varies:
                    for a in table:
                        self.three[a] += 1
        if self.three_varies:
            self.cost += self.w_three * sum(_PAIRS[t] for t in self.three)
        if self.target is not None:
            self.cost += sum(abs(self.where[0][a] - self.target[a]) for a in range(n))
        self.floor = (_floor(n, sizes, past, planned)
                      + self.w_three * _three_floor(past_three, sizes, planned)
                      + _CLUB * planned * _club_floor(n, sizes, [
                          [p for p in group if p in index] for group in loose]))
        self.max_steps = max_steps if max_steps is not None else 20000 + 40 * n * planned
        # the search restarts after this many steps without a better plan
        self.patience = 150 + 10 * n
        if self.target is not None:
            # seeded: the standings' seating is nearly the best already, and the repeats a
            # swap could spare cost more seeding than they save, so the search would run its
            # whole budget for nothing (40 s at 1,001 players): it looks around the start
            # for a shorter while (the 3-table share and team mates are settled early)
            self.max_steps = max_steps if max_steps is not None else 1000 + 2 * n
            self.patience = 30 + n // 10
        # the search ends after this many restarts in a row that found no better plan
        self.give_up = _GIVE_UP
        # at most this many partners are tried per step (all players for small fields)
        self.sample = 120

    def _conflicted(self) -> list[tuple[int, int]]:
        """Every (series, player) of the plan whose seat costs something."""
        return [(s, a) for s, series in enumerate(self.tables) for table in series
                for a in table if self._still(s, a)]

    def _conflicted_in(self, s: int) -> list[int]:
        """The players of planned series ``s`` whose seat costs something."""
        return [a for table in self.tables[s] for a in table if self._still(s, a)]

    def _still(self, s: int, i: int) -> bool:
        """Whether player ``i`` sits in series ``s`` with somebody met before, with a member
        of their team, tandem or club, at a 3-table for the second time or more, or (seeded
        by the standings) away from his place's table."""
        if self.target is not None and self.where[s][i] != self.target[i]:
            return True
        table = self.tables[s][self.where[s][i]]
        row = self.met[i]
        if any(row[b] > 1 for b in table if b != i):
            return True
        if len(table) == 3 and self.three[i] > 1 and self.three_varies:
            return True
        bond = self.bond.get(i)
        return bond is not None and any(b in bond for b in table)

    def _delta(self, s: int, i: int, j: int) -> int:
        met, sq = self.met, _SQUARE
        a = self.tables[s][self.where[s][i]]
        b = self.tables[s][self.where[s][j]]
        mi, mj = met[i], met[j]
        d = 0
        for k in a:
            if k != i:
                d += sq[mj[k]] - sq[mi[k] - 1]
        for k in b:
            if k != j:
                d += sq[mi[k]] - sq[mj[k] - 1]
        if len(a) != len(b) and self.three_varies:
            three = self.three
            if len(a) == 3:  # i leaves a 3-table, j takes the seat
                d += self.w_three * (three[j] - three[i] + 1)
            else:
                d += self.w_three * (three[i] - three[j] + 1)
        target = self.target
        if target is not None:
            ti, tj = self.where[s][i], self.where[s][j]
            d += (abs(tj - target[i]) + abs(ti - target[j])
                  - abs(ti - target[i]) - abs(tj - target[j]))
        if self.bond:
            bi, bj = self.bond.get(i, {}), self.bond.get(j, {})
            for k in a:
                if k != i:
                    d += bj.get(k, 0) - bi.get(k, 0)
            for k in b:
                if k != j:
                    d += bi.get(k, 0) - bj.get(k, 0)
        return d

    def _swap(self, s: int, i: int, j: int) -> None:
        met = self.met
        where = self.where[s]
        ti, tj = where[i], where[j]
        a, b = self.tables[s][ti], self.tables[s][tj]
        for k in a:
            if k != i:
                met[i][k] -= 1
                met[k][i] -= 1
                met[j][k] += 1
                met[k][j] += 1
        for k in b:
            if k != j:
                met[j][k] -= 1
                met[k][j] -= 1
                met[i][k] += 1
                met[k][i] += 1
        a[a.index(i)] = j
        b[b.index(j)] = i
        where[i], where[j] = tj, ti
        if len(a) != len(b):
            moved = 1 if len(a) == 3 else -1
            self.three[i] -= moved
            self.three[j] += moved

    def _near(self, s: int, i: int) -> list[int]:
        """The players at the tables within a few of player ``i``'s table and of his place's
        table (about ``self.sample`` of them)."""
        assert self.target is not None
        tables = self.tables[s]
        reach = max(1, self.sample // 8)
        near: set[int] = set()
        for centre in (self.where[s][i], self.target[i]):
            near.update(range(max(0, centre - reach), min(len(tables), centre + reach + 1)))
        return [p for t in sorted(near) for p in tables[t]]

    def _snapshot(self) -> list[list[list[int]]]:
        return [[list(t) for t in series] for series in self.tables]

    def _restore(self, plan: list[list[list[int]]]) -> None:
        """Go back to ``plan`` by swaps (keeping the meeting counts right)."""
        for s, series in enumerate(plan):
            for t, table in enumerate(series):
                for p in table:
                    if self.where[s][p] != t:
                        q = next(k for k in self.tables[s][t] if k not in table)
                        self._swap(s, q, p)
                self.tables[s][t] = list(table)

    def run(self) -> Tables[T]:
        n, rng = self.n, self.rng
        planned = len(self.tables)
        everyone = list(range(n))
        best, best_plan = self.cost, self._snapshot()
        tabu = [[0] * n for _ in range(planned)]
        patience = self.patience
        stalled = 0
        fruitless = 0  # restarts since the best plan last improved
        bad: list[tuple[int, int]] = []
        step = 0
        while self.cost > self.floor and step < self.max_steps:
            step += 1
            if n <= self.sample:
                # a small field: every swap of a conflicted player of one series
                s, movers = -1, []
                for s in rng.sample(range(planned), planned):
                    movers = self._conflicted_in(s)
                    if movers:
                        break
                if not movers:
                    break
                if len(movers) > 12:
                    movers = rng.sample(movers, 12)
                partners = everyone
            else:
                # a large field: one conflicted player, a sample of partners
                while bad:
                    pick = rng.randrange(len(bad))
                    s, i = bad[pick]
                    if self._still(s, i):
                        break
                    bad[pick] = bad[-1]
                    bad.pop()
                if not bad:
                    bad = self._conflicted()
                    if not bad:
                        break
                    s, i = bad[rng.randrange(len(bad))]
                movers = [i]
                if self.target is not None:
                    # seeded: partners from the tables near his and near his place's, as a
                    # far partner costs the seeding more than any repeat saves
                    partners = self._near(s, i)
                else:
                    partners = rng.sample(everyone, self.sample)
            where, banned = self.where[s], tabu[s]
            ties: list[tuple[int, int]] = []
            low = 0
            for i in movers:
                ti = where[i]
                for j in partners:
                    if where[j] == ti:
                        continue
                    d = self._delta(s, i, j)
                    if (banned[j] > step or banned[i] > step) and self.cost + d >= best:
                        continue
                    if not ties or d < low:
                        ties, low = [(i, j)], d
                    elif d == low:
                        ties.append((i, j))
            if not ties:
                continue
            i, j = rng.choice(ties)
            ti = where[i]
            self._swap(s, i, j)
            self.cost += low
            tabu[s][i] = tabu[s][j] = step + _TENURE + rng.randrange(8)
            for k in self.tables[s][self.where[s][i]] + self.tables[s][ti]:
                if self._still(s, k):
                    bad.append((s, k))
            if self.cost < best:
                best, best_plan, stalled, fruitless = self.cost, self._snapshot(), 0, 0
            else:
                stalled += 1
            if stalled > patience:
                fruitless += 1
                if fruitless > self.give_up:
                    break
                # start again from the best plan, shaken by a few random swaps
                self._restore(best_plan)
                self.cost = best
                for _ in range(_SHAKE + rng.randrange(4)):
                    s = rng.randrange(planned)
                    i, j = rng.sample(everyone, 2)
                    if self.where[s][i] != self.where[s][j]:
                        self.cost += self._delta(s, i, j)
                        self._swap(s, i, j)
                tabu = [[0] * n for _ in range(planned)]
                bad, stalled = [], 0
        # seeded: an equal plan found later does not replace the standings' seating
        chosen = self.tables if self.cost <= best and self.target is None else best_plan
        return [[self.players[i] for i in table] for table in chosen[0]]


_SQUARE = [k * k for k in range(256)]
# a player's c-th series at a 3-table costs _THREE·(c − 1) more (c(c − 1)/2 in all): nobody
# sits at one twice while somebody could sit at none, as the cost of that is never least
_PAIRS = [k * (k - 1) // 2 for k in range(256)]
_THREE = 3
# two of one team or tandem at a table outweigh any repeated opponents they could spare;
# two of one club cost as little as a second meeting
_TEAM = 40
_CLUB = 1
# the search's settings, tried on 14 players over 4 series and 18 and 19 over 5: it gives
# up after this many restarts in a row without a better plan, shakes the best plan by this
# many random swaps (and up to 3 more) to restart, and leaves a swapped player alone for
# this many steps (and up to 7 more)
_GIVE_UP = 10
_SHAKE = 2
_TENURE = 1


def _fewest_pairs(size: int, groups: int) -> int:
    """The fewest pairs of one group when ``size`` players come from ``groups`` groups."""
    each, extra = divmod(size, groups)
    return extra * (each + 1) * each // 2 + (groups - extra) * each * (each - 1) // 2


def _floor(n: int, sizes: list[int], past: list[list[list[int]]], planned: int) -> int:
    """A lower bound of the plan's cost: a table of a planned series whose players come from
    fewer tables of an earlier series than it has seats holds pairs who sat together there
    (pigeonhole), and each such earlier meeting costs at least 1."""
    groups = []
    for series in past:
        seated = sum(len(t) for t in series)
        groups.append(sum(1 for t in series if t) + n - seated)  # the unseen sit alone
    groups += [len(sizes)] * (planned - 1)
    bound = 0
    for s in range(planned):
        for g in groups[:len(past) + s]:
            bound += sum(_fewest_pairs(size, g) for size in sizes)
    return bound


def _club_floor(n: int, sizes: list[int], clubs: list[list[T]]) -> int:
    """The fewest pairs of one club (``loose``) any one series seats together: the larger of
    two bounds, a table holding more players than there are clubs (the players of none
    counting as clubs of one) and a club larger than the number of tables. Without it the
    search, not knowing that 248 pairs are the least for 1,001 players of three clubs, would
    search on for a minute."""
    clubs = [c for c in clubs if c]
    alone = n - sum(len(c) for c in clubs)
    colours = len(clubs) + alone
    by_tables = sum(_fewest_pairs(size, colours) for size in sizes) if colours else 0
    tables = len(sizes)
    by_clubs = 0
    for club in clubs:
        each, extra = divmod(len(club), tables)
        by_clubs += extra * (each + 1) * each // 2 + (tables - extra) * each * (each - 1) // 2
    return max(by_tables, by_clubs)


def _three_floor(history: list[int], sizes: list[int], planned: int) -> int:
    """The least 3-table cost of a plan: each planned series' 3-table seats go to the players
    who sat at the fewest so far (``history`` counts each player's earlier 3-table series)."""
    seats = sum(size for size in sizes if size == 3) if len(sizes) > 1 else 0
    counts = list(history)
    for _ in range(planned):
        counts.sort()
        for k in range(seats):
            counts[k] += 1
    return sum(_PAIRS[t] for t in counts)


def tournament(players: int, series: int, seed: int,
               standings: Sequence[Sequence[int]] | None = None, *,
               apart: Sequence[Sequence[int]] = (),
               loose: Sequence[Sequence[int]] = ()) -> list[Tables[int]]:
    """Every series of a tournament of ``players`` numbered 1..n: the first by lot, each later
    one drawn again against repeats, or, with ``standings`` (the ranking after each series but
    the last, best first, each a permutation of 1..n), seeded by the standings in the same
    search (``draw`` with ``standings``: the 3-table share and team mates apart first)."""
    if series < 1:
        raise DrawError("series", "A tournament has at least one series.")
    numbers = list(range(1, players + 1))
    if standings is not None:
        if len(standings) < series - 1:
            raise DrawError("standings", f"The standings must list the ranking after each "
                            f"series but the last: {series - 1} rankings are needed, "
                            f"{len(standings)} given.")
        for k, ranking in enumerate(standings[:series - 1], start=1):
            if sorted(ranking) != numbers:
                raise DrawError("standings", f"The ranking after series {k} must list every "
                                f"player 1..{players} exactly once.")
    done: list[Tables[int]] = []
    for k in range(1, series + 1):
        if k > 1 and standings is not None:
            done.append(draw(numbers, series_random(seed, k), done, apart=apart, loose=loose,
                             standings=list(standings[k - 2])))
        else:
            ahead = 0 if standings is not None else series - k
            done.append(draw(numbers, series_random(seed, k), done, ahead=ahead,
                             apart=apart, loose=loose))
    return done


def parse_standings(text: str) -> list[list[int]]:
    """The ``--by-standings`` file: one line per finished series (the ranking after series 1,
    after series 2 …), each the players' numbers best first, separated by spaces or commas.
    Empty lines and lines starting with # are skipped."""
    rankings: list[list[int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            rankings.append([int(x) for x in line.replace(",", " ").split()])
        except ValueError:
            raise DrawError("standings", f"Line {number} of the standings holds something "
                            f"that is not a player number.") from None
    return rankings
