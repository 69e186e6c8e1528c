"""The round tracker: who deals, who plays, which round, and the Bock and Ramsch rounds.

DECISIONS.md §5 and §8. The tracker only counts; whether a deal triggers Bock is decided by
``bock_triggers`` from the scored deal.
"""

from __future__ import annotations

import copy
from typing import NamedTuple

from .deal import Scored
from .fields import active_seats
from .options import BockOptions, Options


class Upcoming(NamedTuple):
    bock: int  # Bock level
    ramsch_round: bool
    deal_in_round: int  # 1…n: the k-th deal of the current round
    ramsch_deal: int  # 1…n inside a Ramsch round, else 0


class BockStanding(NamedTuple):
    position: int  # the next deal is the position-th of its Bock round; 0 where unknown
    waiting: int  # whole Bock rounds queued behind the running one (or waiting to start)
    to_go: int  # parallel stacking: Bock deals still owed (no rounds to count), else 0


def bock_standing(pending: int, level: int, players: int, parallel: bool) -> BockStanding:
    """Where the Bock rounds stand before the next deal, from the deals still owed
    (``pending``, a Doppelbock deal owing two) and the next deal's level: "Bock 2 of 3",
    "+1 Bock round waiting". One computation for the server's screens and the offline table
    in the browser (``evaluate_table``'s ``next``), so they cannot disagree."""
    n = max(players, 1)
    pending = max(pending, 0)
    position = waiting = 0
    if pending and not parallel:
        if level:
            left = (pending - 1) % n + 1  # deals left in the running round, this one included
            position = n - left + 1
            waiting = (pending - left) // n
        else:
            waiting = -(-pending // n)
    return BockStanding(position, waiting, pending if parallel and not waiting else 0)


class RoundTracker:
    """State between deals. Call ``start()`` before a record and ``finish()`` after it."""

    def __init__(self, players: int, first_dealer: int, options: Options) -> None:
        self.players = players
        self._active = [active_seats(d, players) for d in range(players)]
        self.dealer = first_dealer
        self.counted = 0  # counted deals so far (misdeals, penalties, Ramsch-round Grand Hands not)
        self.bock: BockOptions | None = options.bock
        self.forced_ramsch_every = (
            options.forced_ramsch_every if options.system == "american1898" else 0)
        # queue stacking: deals left in the running Bock round, and whole rounds waiting
        self.bock_left = 0
        self.bock_queued = 0
        # parallel stacking: deals left in each running round
        self.parallel: list[int] = []
        self.bock_rounds_done = 0
        self.ramsch_left = 0  # deals left in a running Ramsch round (after Bock)
        self.ramsch_owed = 0
        self.quiet_rounds = 0  # full rounds with no Bock deal and no trigger
        self.round_quiet = True

    # -- state for the next record
    @property
    def active(self) -> tuple[int, ...]:
        return self._active[self.dealer]

    @property
    def round(self) -> int:
        return self.counted // self.players + 1

    def begin(self, counting: bool) -> tuple[int, tuple[int, ...], int, bool, int]:
        """Before a record: (dealer, active seats, round, Ramsch round?, Bock level).

        Only a counted deal (game, passed, Ramsch) starts waiting rounds and is doubled."""
        dealer = self.dealer
        round_number = self.counted // self.players + 1
        if not counting:
            return dealer, self._active[dealer], round_number, False, 0
        if self.bock is None:
            every = self.forced_ramsch_every
            forced = bool(every) and round_number % every == 0
            return dealer, self._active[dealer], round_number, forced, 0
        self.start()
        return dealer, self._active[dealer], round_number, self.in_ramsch_round(), self.level()

    def start(self) -> None:
        """Begin the next counted deal: a waiting Ramsch or Bock round starts now."""
        if self.bock is None or self.bock.stacking != "queue":
            return
        if self.bock_left == 0 and self.ramsch_left == 0:
            if self.ramsch_owed:
                self.ramsch_owed -= 1
                self.ramsch_left = self.players
            elif self.bock_queued:
                self.bock_queued -= 1
                self.bock_left = self.players

    def upcoming(self) -> Upcoming:
        """What the next counted deal will get: its Bock level, whether it is Ramsch, and
        where it stands in its round and in a Ramsch round.

        ``level()`` and ``in_ramsch_round()`` describe the tracker before ``start()``; right
        after a trigger the waiting round has not begun yet, so ask a copy that starts it."""
        probe = copy.copy(self)
        probe.parallel = list(self.parallel)
        probe.start()
        n = self.players
        deal = self.counted % n + 1
        ramsch = probe.in_ramsch_round()
        # A Ramsch round after Bock runs n counted deals from wherever it starts; a forced
        # Ramsch round (1898) is a whole round of the table.
        ramsch_deal = (n - probe.ramsch_left + 1 if probe.ramsch_left else deal) if ramsch else 0
        return Upcoming(probe.level(), ramsch, deal, ramsch_deal)

    def in_ramsch_round(self) -> bool:
        if self.ramsch_left:
            return True
        every = self.forced_ramsch_every
        return bool(every) and self.round % every == 0

    def level(self) -> int:
        """Bock level of the next counted deal (before its own trigger)."""
        if self.bock is None or self.ramsch_left:
            return 0
        if self.bock.stacking == "queue":
            return 1 if self.bock_left else 0
        return len(self.parallel)

    def pending(self) -> int:
        """Bock-doubled deals still owed (a Doppelbock deal owes two)."""
        if self.bock is None:
            return 0
        return self.bock_left + self.bock_queued * self.players + sum(self.parallel)

    # -- after a counted deal
    def finish(self, triggered: int, level: int, counts: bool) -> int:
        """Record a deal that met ``triggered`` Bock triggers and was played at ``level``.

        Returns the level actually applied (``includes_trigger`` may raise it). A deal that
        does not count (a Grand Hand inside a Ramsch round) moves nothing but may trigger.
        """
        bock = self.bock
        n = self.players
        in_ramsch = self.ramsch_left > 0
        if bock is not None and triggered:
            if bock.one_per_deal:
                triggered = 1
            if bock.stacking == "queue":
                if bock.includes_trigger and counts and level == 0 and not in_ramsch:
                    self.bock_left = n
                    level = 1
                    triggered -= 1
                self.bock_queued += triggered
            else:
                if bock.includes_trigger and counts and not in_ramsch:
                    self.parallel.extend([n] * triggered)
                    level += triggered
                    triggered = 0
                # rounds triggered now start with the next counted deal
                waiting = [n] * triggered
            self.round_quiet = False
        else:
            waiting = []
        if level:
            self.round_quiet = False
        if not counts:
            if bock is not None and bock.stacking == "parallel":
                self.parallel.extend(waiting)
            return level
        if bock is not None:
            self._consume(bock)
            if bock.stacking == "parallel":
                self.parallel.extend(waiting)
        self.counted += 1
        self.dealer = (self.dealer + 1) % n
        if self.counted % n == 0:
            self._round_ended(bock)
        return level

    def queue_round(self) -> None:
        """A Bock round decided by hand (``bock_round`` under ``bock.manual``, DECISIONS.md
        §9): it starts with the next counted deal, like a triggered one."""
        if self.bock is None:
            return
        if self.bock.stacking == "queue":
            self.bock_queued += 1
        else:
            self.parallel.append(self.players)
        self.round_quiet = False

    def _consume(self, bock: BockOptions) -> None:
        if self.ramsch_left:
            self.ramsch_left -= 1
        elif bock.stacking == "queue":
            if self.bock_left:
                self.bock_left -= 1
                if self.bock_left == 0:
                    self.bock_rounds_done += 1
                    every = bock.ramsch_round_after
                    if every and self.bock_rounds_done % every == 0:
                        self.ramsch_owed += 1
        else:
            self.parallel = [left - 1 for left in self.parallel if left > 1]

    def _round_ended(self, bock: BockOptions | None) -> None:
        if bock is not None and "rounds_without_bock" in bock.triggers:
            self.quiet_rounds = self.quiet_rounds + 1 if self.round_quiet else 0
            if self.quiet_rounds >= bock.rounds_without_bock:
                self.quiet_rounds = 0
                if bock.stacking == "queue":
                    self.bock_queued += 1
                else:
                    self.parallel.append(self.players)
        self.round_quiet = True


def bock_triggers(s: Scored, bock: BockOptions, ramsch_round: bool) -> int:
    """How many Bock triggers of DECISIONS.md §8 the scored deal meets."""
    t = bock.triggers
    met = 0
    if s.kind == "game":
        game = s.game
        assert game is not None
        lost = not s.won
        if "sixty_sixty" in t and not game.null and s.played and s.points == 60:
            met += 1
        if "kontra_lost" in t and s.kontra != "none" and lost:
            met += 1
        if "re" in t and s.kontra == "re":
            met += 1
        if "grand_hand" in t and game.grand and s.hand:
            met += 1
        if "null_ouvert_hand" in t and game.null and s.ouvert and s.hand:
            met += 1
        if "schneider" in t and s.schneider_played:
            met += 1
        if "schwarz" in t and s.schwarz_played:
            met += 1
        if "value_at_least" in t and (s.value or 0) >= bock.value_at_least:
            met += 1
        if (
            "loss_at_least" in t and lost and s.declarer is not None
            and s.entries.get(s.declarer, 0) <= -bock.loss_at_least
        ):
            met += 1
    else:
        if "all_passed" in t and (
            s.kind == "passed" or (s.kind == "ramsch" and not ramsch_round)
        ):
            # a Ramsch outside a Ramsch round is played because all passed
            met += 1
        if "re" in t and s.kontra == "re":  # Re said on a Ramsch (ramsch_kontra)
            met += 1
    return met
