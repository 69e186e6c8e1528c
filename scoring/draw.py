"""The seat draw of a tournament (Preisskat, league match day): pure Python, no Django.

Who sits where in each series, as numbers or any hashable players:

- **Table sizes**: tables of 4, and 3-tables only as many as needed to seat everybody:
  n = 4a + 3b with b as small as possible (13 → 4 + 3 + 3 + 3, 10 → 4 + 3 + 3). Fewer
  than 3 players, or 5, cannot be seated that way (DrawError).
- **The first series** is drawn by lot. **Each later series** is either drawn again so that
  players meet as few earlier opponents as possible (``draw`` with the earlier series as
  ``history``), or seated by the standings (``by_standings``: places 1–4 at table 1, 5–8 at
  table 2 …, the 3-tables last).
- **The lot is a recorded seed**: the same seed, players and history give the same draw, so
  an organiser can show that a draw was fair and repeat it. Each series has its own random
  stream, ``random.Random("skat-draw:<seed>:<series>")`` (a string seed is hashed the same way
  by every Python 3 run).

How a draw avoids repeated opponents: a random seating is improved by a local search. The
cost of a table is, over its pairs of players, the square of how often the two met before
(so a third meeting weighs more than two second ones); a conflicted player is swapped with
the player of another table whose swap lowers the cost most (sideways moves allowed, an
occasional worse one to leave a dead end), and the best seating found is kept. The search
stops at cost 0 or after a bounded number of steps, so a draw always ends. Where no seating
without repeats exists it ends with the fewest it found: 12 players at three 4-tables can
never play a second series without repeats (four players from three earlier tables: two of
them sat together), and the fewest is one repeated pair per table.
"""

from __future__ import annotations

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
         ) -> Tables[T]:
    """Seat ``players`` by lot, meeting as few opponents of ``history`` again as the search
    finds (none where that is possible and found). Deterministic for a given ``rng`` state."""
    _check_unique(players)
    sizes = table_sizes(len(players))
    order = list(players)
    rng.shuffle(order)
    if not history:
        return _split(order, sizes)
    return _Search(order, sizes, meetings(history), rng, max_steps).run()


class _Search(Generic[T]):
    """Local search over seatings by swapping two players of different tables."""

    def __init__(self, order: list[T], sizes: list[int], met: dict[T, dict[T, int]],
                 rng: random.Random, max_steps: int | None) -> None:
        self.players = order
        n = len(order)
        self.rng = rng
        index = {p: i for i, p in enumerate(order)}
        # weights between player indexes: the square of earlier meetings
        self.weight: list[dict[int, int]] = [{} for _ in range(n)]
        for p, row in met.items():
            i = index.get(p)
            if i is None:
                continue
            for q, times in row.items():
                j = index.get(q)
                if j is not None:
                    self.weight[i][j] = times * times
        self.tables: list[list[int]] = _split(list(range(n)), sizes)
        self.where = [0] * n
        for t, table in enumerate(self.tables):
            for i in table:
                self.where[i] = t
        self.max_steps = max_steps if max_steps is not None else 4000 + 40 * n
        # at most this many candidates are tried per step (all players for small fields)
        self.sample = n if n <= 120 else 120

    def _cost_in(self, i: int, t: int, without: int = -1) -> int:
        w = self.weight[i]
        if not w:
            return 0
        return sum(w.get(k, 0) for k in self.tables[t] if k != i and k != without)

    def _total(self) -> int:
        return sum(self._cost_in(i, self.where[i]) for i in range(len(self.players))) // 2

    def _swap(self, i: int, j: int) -> None:
        ti, tj = self.where[i], self.where[j]
        a, b = self.tables[ti], self.tables[tj]
        a[a.index(i)] = j
        b[b.index(j)] = i
        self.where[i], self.where[j] = tj, ti

    def run(self) -> Tables[T]:
        n = len(self.players)
        cost = self._total()
        best, best_tables = cost, [list(t) for t in self.tables]
        step = 0
        rng = self.rng
        everyone = list(range(n))
        while cost > 0 and step < self.max_steps:
            step += 1
            conflicted = [i for i in everyone if self._cost_in(i, self.where[i]) > 0]
            i = rng.choice(conflicted)
            ti = self.where[i]
            here = self._cost_in(i, ti)
            candidates = (everyone if self.sample >= n
                          else rng.sample(everyone, self.sample))
            best_delta, best_j = None, -1
            for j in candidates:
                tj = self.where[j]
                if tj == ti:
                    continue
                delta = (self._cost_in(i, tj, without=j) + self._cost_in(j, ti, without=i)
                         - here - self._cost_in(j, tj))
                if best_delta is None or delta < best_delta or (
                        delta == best_delta and rng.random() < 0.5):
                    best_delta, best_j = delta, j
            if best_delta is None:
                break
            if best_delta <= 0 or rng.random() < 0.05:
                self._swap(i, best_j)
                cost += best_delta
                if cost < best:
                    best, best_tables = cost, [list(t) for t in self.tables]
        chosen = self.tables if cost <= best else best_tables
        return [[self.players[i] for i in table] for table in chosen]


def tournament(players: int, series: int, seed: int,
               standings: Sequence[Sequence[int]] | None = None) -> list[Tables[int]]:
    """Every series of a tournament of ``players`` numbered 1..n: the first by lot, each later
    one drawn again against repeats, or, with ``standings`` (the ranking after each series but
    the last, best first, each a permutation of 1..n), seated by the standings."""
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
            done.append(by_standings(list(standings[k - 2])))
        else:
            done.append(draw(numbers, series_random(seed, k), done))
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
