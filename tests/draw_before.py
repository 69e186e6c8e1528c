"""The seat draw's search as it was before it planned the later series too (scoring/draw/
at commit 2e06793), kept only so that tests/test_draw.py can check that the draw never ends
with more repeated opponents than this one did: a greedy swap search per series."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Generic, TypeVar

from scoring.draw.preisskat import Tables, _split, meetings, series_random, table_sizes

T = TypeVar("T")


def _draw(players: list[int], rng: random.Random,
          history: Sequence[Sequence[Sequence[int]]]) -> Tables[int]:
    sizes = table_sizes(len(players))
    order = list(players)
    rng.shuffle(order)
    if not history:
        return _split(order, sizes)
    return _Search(order, sizes, meetings(history), rng, None).run()


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


def tournament(players: int, series: int, seed: int) -> list[Tables[int]]:
    """Every series by lot, each later one by the per-series swap search."""
    numbers = list(range(1, players + 1))
    done: list[Tables[int]] = []
    for k in range(1, series + 1):
        done.append(_draw(numbers, series_random(seed, k), done))
    return done
