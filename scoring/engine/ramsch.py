"""Ramsch: everybody for himself, the most card points lose (DECISIONS.md §2, §3, §4, §8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from . import explain
from .deal import KIND_NAMES, KONTRA_FACTOR, Context, Scored
from .errors import Listing, Phrase, SkatError, who
from .explain import WORDS, signed
from .fields import Record, seat

SEAT_KEYS = tuple(str(p) for p in range(6))

RAMSCH_FIELDS = frozenset({"points", "tricks", "pushes", "skat_points", "jacks_pushed",
                           "losers", "jungfrau", "durchmarsch"})
_POINTS = Phrase("card points")
_TRICKS = Phrase("tricks")
_LOSER_SEAT = Phrase("A loser's seat")
_DURCHMARSCH_SEAT = Phrase("The Durchmarsch seat")
_KONTRA_SEAT = Phrase("The Kontra seat")


def _per_seat(r: Record, key: str, seats: tuple[int, ...], high: int,
              what: Phrase, names: tuple[str, ...] | None) -> dict[int, int]:
    raw = r.get(key)
    if type(raw) is dict and len(raw) == len(seats):  # fast path for well-formed input
        try:
            values = {s: raw[SEAT_KEYS[s]] for s in seats}
        except KeyError:
            pass
        else:
            for v in values.values():
                if type(v) is not int or not 0 <= v <= high:
                    break
            else:
                return values
    field = f"ramsch.{key}"
    if not isinstance(raw, dict):
        raise SkatError(field, "Give the {what} of each player in the Ramsch.", what=what)
    wanted = {str(s) for s in seats}
    if set(raw) != wanted:
        raise SkatError(field, "Give the {what} of exactly the seats who played: {seats}.",
                        what=what, seats=Listing(who(names, s, start=False)
                                                 for s in sorted(seats)))
    values = {}
    for s in seats:
        v = raw[str(s)]
        if type(v) is not int or not 0 <= v <= high:
            raise SkatError(field, "The {what} of {player} must be a whole number from 0 to "
                            "{high}.", what=what, player=who(names, s, start=False), high=high)
        values[s] = v
    return values


class Outcome(NamedTuple):
    """What a Ramsch is scored from, whichever form recorded it: both the full record (every
    player's points and tricks) and the short one (DECISIONS.md §9) come down to this, so the
    two score alike by construction."""

    losers: tuple[int, ...]  # the seats with most card points; empty on a Durchmarsch
    most: int  # their card points (on a Durchmarsch the taker's)
    jungfrau: int  # players without a trick, 0-2
    taker: int | None  # the seat that took every trick


SHORT_FIELDS = frozenset({"losers", "jungfrau", "durchmarsch"})


def short_form(r: object) -> bool:
    """Whether a ``ramsch`` object is the short record (losers, jungfrau, durchmarsch)."""
    return isinstance(r, dict) and not SHORT_FIELDS.isdisjoint(r)


def score_ramsch(d: Record, ctx: Context, seats: tuple[int, ...] | None) -> Scored:
    """Score a Ramsch; ``seats`` are the three who played (None only for a short record at a
    lone deal of 4 or more whose dealer is not given)."""
    o, system = ctx.options, ctx.system
    r = d.get("ramsch")
    if not isinstance(r, dict):
        raise SkatError("ramsch", "A Ramsch needs the card points and tricks of each player.")
    if not r.keys() <= RAMSCH_FIELDS:
        unknown = sorted(str(k) for k in r if k not in RAMSCH_FIELDS)[0]
        raise SkatError(f"ramsch.{unknown}", "Unknown Ramsch field.")
    skat_to_nobody = system == "american1898" or (system == "isko" and o.ramsch_skat == "nobody")
    if short_form(r):
        if "points" in r or "tricks" in r:
            raise SkatError("ramsch", "Give the Ramsch either as every player's card points "
                            "and tricks or in the short form (losers, jungfrau, durchmarsch), "
                            "not both.")
        outcome = _short(r, ctx, seats, skat_to_nobody)
    else:
        if seats is None:  # the table always knows; a lone full record names its seats
            raise SkatError("dealer", "Say who dealt, so that the three players of the "
                            "Ramsch are known.")
        outcome = _full(r, ctx, seats, skat_to_nobody)
    pushes = r.get("pushes") or 0
    if type(pushes) is not int or not 0 <= pushes <= 3:
        raise SkatError("ramsch.pushes", "Pushes must be a whole number from 0 to 3.")
    if pushes and (system != "isko" or o.schieberamsch == "off"):
        raise SkatError("ramsch.pushes", "Schieberamsch is not played under these rules "
                        "(option schieberamsch).")
    jacks = r.get("jacks_pushed")
    if jacks is not None and not isinstance(jacks, bool):
        raise SkatError("ramsch.jacks_pushed", "jacks_pushed must be true or false.")
    kontra = _kontra(d, ctx, seats)

    if system == "isko":
        entries, steps = _isko(ctx, outcome, pushes, kontra)
    elif system == "american1898":
        entries, steps = _american(ctx, outcome)
    else:
        entries, steps = _hoyle(ctx, outcome)
    scored = Scored("ramsch")
    scored.entries = entries
    scored.ramsch = (outcome.losers, outcome.jungfrau, outcome.taker)
    if kontra != "none":
        scored.kontra, scored.kontra_factor = kontra, KONTRA_FACTOR[kontra]
    if system == "isko":
        scored.cap = o.ramsch_cap
    scored.explain_parts = ("ramsch", _explainer(entries, steps, outcome.most, scored.cap))
    return scored


def _kontra(d: Record, ctx: Context, seats: tuple[int, ...] | None) -> str:
    """Kontra or Re said on a Ramsch (option ramsch_kontra, DECISIONS.md §9). Any player may
    say it (there is no declarer), so ``kontra_by`` is optional; kontra_requires_18 is about
    a game's opponents and does not apply here (everyone passed)."""
    kontra = d.get("kontra")
    by = d.get("kontra_by")
    if by is not None and not ctx.options.ramsch_kontra:
        raise SkatError("kontra_by", "{key} does not apply to a {kind} record.", key="kontra_by",
                        kind=KIND_NAMES["ramsch"])
    if kontra is None or kontra == "none":
        if by is not None:
            raise SkatError("kontra_by", "Nobody said Kontra, so no seat can have said it.")
        return "none"
    if type(kontra) is not str or kontra not in KONTRA_FACTOR:
        raise SkatError("kontra", "Kontra must be \"none\", \"kontra\" or \"re\".")
    if not ctx.options.ramsch_kontra:
        raise SkatError("kontra", "Kontra on a Ramsch is not played under these rules (option "
                        "ramsch_kontra).")
    if by is not None:
        s = seat(by, "kontra_by", ctx.players, _KONTRA_SEAT)
        if seats is not None and s not in seats:
            raise SkatError("kontra_by", "{player} sits out this deal and did not play the "
                            "Ramsch.", player=who(ctx.names, s))
    return kontra


def _skat_points(r: Record, skat_to_nobody: bool, required: bool) -> int | None:
    """The skat's card points where it counts for nobody (else 0); None when the short
    record leaves them out."""
    skat = r.get("skat_points")
    if skat_to_nobody:
        if skat is None and not required:
            return None
        if type(skat) is not int or not 0 <= skat <= 22:
            raise SkatError("ramsch.skat_points", "The skat counts for nobody here: give its "
                            "card points (0 to 22).")
        return skat
    if skat is not None and not (type(skat) is int and skat == 0):
        raise SkatError("ramsch.skat_points", "The skat goes to a player here; count it in his "
                        "card points.")
    return 0


def _full(r: Record, ctx: Context, seats: tuple[int, ...], skat_to_nobody: bool) -> Outcome:
    points = _per_seat(r, "points", seats, 120, _POINTS, ctx.names)
    tricks = _per_seat(r, "tricks", seats, 10, _TRICKS, ctx.names)
    trick_sum = point_sum = 0
    for p in seats:
        took, got = tricks[p], points[p]
        if took == 0 and got:
            raise SkatError("ramsch.points", "{player} took no trick but has {points} card "
                            "points.", player=who(ctx.names, p), points=got)
        trick_sum += took
        point_sum += got
    if trick_sum != 10:
        raise SkatError("ramsch.tricks", "The tricks must add up to 10, not {total}.",
                        total=trick_sum)
    skat = _skat_points(r, skat_to_nobody, required=True)
    assert skat is not None
    if point_sum != 120 - skat:
        raise SkatError("ramsch.points", "The card points must add up to {expected}, not "
                        "{total}.", expected=120 - skat, total=point_sum)
    most = max(points.values())
    taker = next((s for s, t in tricks.items() if t == 10), None)
    jungfrau = sum(1 for t in tricks.values() if t == 0)
    if taker is not None:
        return Outcome((), most, jungfrau, taker)
    return Outcome(tuple(s for s, p in points.items() if p == most), most, jungfrau, None)


def _short_seat(raw: object, field: str, ctx: Context, seats: tuple[int, ...] | None,
                what: Phrase) -> int:
    if type(raw) is str and field == "ramsch.losers" and raw in SEAT_KEYS[:ctx.players]:
        s = int(raw)  # a JSON object's key
    elif type(raw) is int and 0 <= raw < ctx.players:
        s = raw
    else:
        raise SkatError(field, "{what} must be a seat number (0 to {top}).", what=what,
                        top=ctx.players - 1)
    if seats is not None and s not in seats:
        raise SkatError(field, "{player} sits out this deal and did not play the Ramsch.",
                        player=who(ctx.names, s))
    return s


def _short(r: Record, ctx: Context, seats: tuple[int, ...] | None,
           skat_to_nobody: bool) -> Outcome:
    """The short record (deal-record.md "A deal", DECISIONS.md §9), refused wherever no full
    record could give the same facts.

    Judgements (DECISIONS.md says only "it scores exactly as the full record would"):
    - The record holds facts of play, never of scoring, so it is the same under every option:
      the losers' card points are required in simple Ramsch too (they do not change the
      score there, but the explanation shows them and a re-score under other options needs
      them); ``jungfrau`` is counted whether or not ramsch_jungfrau doubles; ties list every
      tied seat, and ramsch_ties "share" divides as for the full record.
    - A player without a trick has no card points, so ``jungfrau`` 2 is a Durchmarsch and
      the losers' number must be one a full record can reach (``_plausible``).
    - Where the skat counts for nobody ``skat_points`` may be left out (any 0-22 is then
      assumed possible), except on a Durchmarsch, whose taker holds 120 minus the skat.
    - ``jungfrau`` left out is 0 (2 with a Durchmarsch); ``losers`` left out is empty."""
    raw_taker = r.get("durchmarsch")
    taker = None if raw_taker is None else _short_seat(
        raw_taker, "ramsch.durchmarsch", ctx, seats, _DURCHMARSCH_SEAT)
    raw_losers = r.get("losers")
    if raw_losers is None:
        raw_losers = {}
    if not isinstance(raw_losers, dict):
        raise SkatError("ramsch.losers", "losers maps each losing seat to his card points, "
                        "e.g. {example}.", example='{"1": 70}')
    losers: dict[int, int] = {}
    for key, value in raw_losers.items():
        if type(key) is not str or key not in SEAT_KEYS[:ctx.players]:
            raise SkatError("ramsch.losers", "{what} must be a seat number (0 to {top}).",
                            what=_LOSER_SEAT, top=ctx.players - 1)
        s = _short_seat(key, "ramsch.losers", ctx, seats, _LOSER_SEAT)
        if type(value) is not int or not 0 <= value <= 120:
            raise SkatError("ramsch.losers", "The {what} of {player} must be a whole number "
                            "from 0 to {high}.", what=_POINTS,
                            player=who(ctx.names, s, start=False), high=120)
        losers[s] = value
    raw_jungfrau = r.get("jungfrau")
    if raw_jungfrau is None:
        jungfrau = 2 if taker is not None else 0
    elif type(raw_jungfrau) is not int or not 0 <= raw_jungfrau <= 2:
        raise SkatError("ramsch.jungfrau", "jungfrau is the number of players without a "
                        "trick: 0, 1 or 2.")
    else:
        jungfrau = raw_jungfrau
    skat = _skat_points(r, skat_to_nobody, required=False)
    if taker is not None:
        if losers:
            raise SkatError("ramsch.losers", "After a Durchmarsch nobody else loses: leave "
                            "losers empty.")
        if jungfrau != 2:
            raise SkatError("ramsch.jungfrau", "After a Durchmarsch the other two took no "
                            "trick: jungfrau is 2.")
        if skat is None:  # the taker's card points are all but the skat's
            raise SkatError("ramsch.skat_points", "The skat counts for nobody here: give its "
                            "card points (0 to 22).")
        return Outcome((), 120 - skat, 2, taker)
    if not losers:
        raise SkatError("ramsch.losers", "Name the player(s) with the most card points "
                        "(losers), or the Durchmarsch.")
    if jungfrau == 2:
        raise SkatError("ramsch.jungfrau", "Two players without a trick means the third took "
                        "every trick: record it as a Durchmarsch.")
    numbers = sorted(set(losers.values()), reverse=True)
    if len(numbers) > 1:
        raise SkatError("ramsch.losers", "Tied losers have the same card points, not "
                        "{numbers}.", numbers=", ".join(str(n) for n in numbers))
    most = numbers[0]
    count = len(losers)
    if count == 3 and jungfrau:
        raise SkatError("ramsch.jungfrau", "All three tied with card points, so each took a "
                        "trick: jungfrau is 0.")
    # The card points in the players' tricks: 120, or 120 minus the skat where it counts for
    # nobody (any 98-120 when the short record leaves the skat out).
    totals = range(98, 121) if skat is None else (120 - skat,)
    possible = [m for m in range(121) if any(_plausible(m, count, jungfrau, t) for t in totals)]
    if most not in possible:
        low, high = possible[0], possible[-1]
        span: object = low if low == high else Phrase("{low} to {high}", low=low, high=high)
        if count == 1:
            raise SkatError("ramsch.losers", "A single loser has {span} card points here, not "
                            "{points}.", span=span, points=most)
        if count == 2:
            raise SkatError("ramsch.losers", "Two tied losers have {span} card points each "
                            "here, not {points}.", span=span, points=most)
        raise SkatError("ramsch.losers", "Three tied players have {span} card points each "
                        "here, not {points}.", span=span, points=most)
    order = seats if seats is not None else tuple(sorted(losers))
    return Outcome(tuple(s for s in order if s in losers), most, jungfrau, None)


def _plausible(most: int, count: int, jungfrau: int, total: int) -> bool:
    """Whether ``count`` players can tie at the top with ``most`` card points while
    ``jungfrau`` players took no trick (and so have 0) and the three hold ``total``.

    A player without a trick has no card points; one with tricks may have any number, 0
    included (a trick of Sevens, Eights and Nines)."""
    rest = total - count * most  # card points of the 3 - count players below the top
    others = 3 - count
    if rest < 0 or most == 0:
        return False
    if others == 0:
        return rest == 0 and jungfrau == 0
    # Every other player has fewer than ``most``; the ``jungfrau`` ones have none.
    with_tricks = others - jungfrau
    if with_tricks < 0:
        return False
    if with_tricks == 0:
        return rest == 0
    return rest <= with_tricks * (most - 1)


Steps = list[tuple[str, int]]  # ("jungfrau", 2), ("push", 4), ("share", 2) …


def _isko(ctx: Context, oc: Outcome, pushes: int,
          kontra: str) -> tuple[dict[int, int], Steps]:
    o = ctx.options
    taker = oc.taker
    simple = o.ramsch_scoring == "simple"
    # Kontra and Re double a Ramsch entry like a game's, won or lost (ramsch_kontra, §9).
    k = KONTRA_FACTOR[kontra]
    said: Steps = [(kontra, k)] if k > 1 else []
    if taker is not None:  # Durchmarsch: never doubled by pushes or Jungfrau
        if simple:
            return {taker: (-20 if o.ramsch_jungfrau else -10) * k}, [("durchmarsch", 0), *said]
        if o.ramsch_durchmarsch == "plus120":
            return {taker: 120 * k}, [("durchmarsch", 0), *said]
        return {taker: -4 * oc.most * k}, [("durchmarsch", 4), *said]
    most, losers = oc.most, oc.losers
    steps: Steps = []
    if len(losers) == 3:
        if o.ramsch_all_tied == "none":
            return {}, [("all_tied", 0)]
        # ramsch_all_tied "all_lose" (§9): all three are tied losers and lose as any tied
        # losers do (each the full amount; ramsch_ties "share" divides it among them).
        steps.append(("all_lose", 0))
    jungfrau = o.ramsch_jungfrau and oc.jungfrau > 0
    if simple:
        amount = 15 if jungfrau else 10
    else:
        amount = most
        if jungfrau:
            amount *= 2
            steps.append(("jungfrau", 2))
    if pushes and o.schieberamsch == "optional_double":
        amount *= 2**pushes
        steps.append(("push", 2**pushes))
    amount *= k
    steps += said
    if len(losers) > 1 and o.ramsch_ties == "share":
        share = -(-amount // len(losers))  # each share rounded away from zero
        steps.append(("share", len(losers)))
        return {s: -share for s in losers}, steps
    return {s: -amount for s in losers}, steps


def _american(ctx: Context, oc: Outcome) -> tuple[dict[int, int], Steps]:
    losers = oc.losers or (oc.taker,)  # the taker has every card point
    most = oc.most
    if ctx.options.point_ramsch:
        return {s: -most for s in losers if s is not None}, []
    jungfer = oc.jungfrau > 0
    return ({s: -(15 if jungfer else 10) for s in losers if s is not None},
            [("jungfrau", 0)] if jungfer else [])


def _hoyle(ctx: Context, oc: Outcome) -> tuple[dict[int, int], Steps]:
    losers = oc.losers or (oc.taker,)
    virgins = oc.jungfrau
    amount = (ctx.options.ramsch_base, 30, 50)[virgins]
    return {s: -amount for s in losers if s is not None}, [("jungfrau", 0)] if virgins else []


def _explainer(entries: dict[int, int], steps: Steps, most: int,
               cap: int | None) -> Callable[[str, int, tuple[str, ...] | None], str]:
    def render(lang: str, bock: int, names: tuple[str, ...] | None) -> str:
        w = WORDS[lang]
        keys = [k for k, _ in steps]
        if "all_tied" in keys:
            return f"{w['ramsch']}: {w['all_tied']}"
        words = []
        for key, factor in steps:
            if key == "share":
                words.append(f"÷ {factor}")
            elif factor:
                words.append(f"{w[key]} × {factor}")
            else:
                words.append(w[key])
        if bock:
            words.append(f"{w['bock']} × {2 ** bock}")
        def entry(v: int) -> str:
            v *= 2**bock
            if cap is not None and v < -cap:  # ramsch_cap (§9), after every doubling
                return f"{signed(v)} → {w['capped'].format(n=cap)}: {signed(-cap)}"
            return signed(v)

        people = ", ".join(
            f"{explain.seat_name(lang, s, names)} ({w['points'].format(n=most)}) "
            f"{entry(v)}" for s, v in entries.items())
        detail = f" ({', '.join(words)})" if words else ""
        return f"{w['ramsch']}{detail}: {people}"

    return render
