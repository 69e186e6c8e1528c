"""Ramsch: everybody for himself, the most card points lose (DECISIONS.md §2, §3, §4, §8)."""

from __future__ import annotations

from collections.abc import Callable

from . import explain
from .deal import Context, Scored
from .errors import Phrase, SkatError, who
from .explain import WORDS, signed
from .fields import Record

SEAT_KEYS = tuple(str(p) for p in range(6))

RAMSCH_FIELDS = frozenset({"points", "tricks", "pushes", "skat_points", "jacks_pushed"})
_POINTS = Phrase("card points")
_TRICKS = Phrase("tricks")


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
                        what=what, seats=", ".join(sorted(wanted)))
    values = {}
    for s in seats:
        v = raw[str(s)]
        if type(v) is not int or not 0 <= v <= high:
            raise SkatError(field, "The {what} of {player} must be a whole number from 0 to "
                            "{high}.", what=what, player=who(names, s, start=False), high=high)
        values[s] = v
    return values


def score_ramsch(d: Record, ctx: Context, seats: tuple[int, ...]) -> Scored:
    o, system = ctx.options, ctx.system
    r = d.get("ramsch")
    if not isinstance(r, dict):
        raise SkatError("ramsch", "A Ramsch needs the card points and tricks of each player.")
    if not r.keys() <= RAMSCH_FIELDS:
        unknown = sorted(str(k) for k in r if k not in RAMSCH_FIELDS)[0]
        raise SkatError(f"ramsch.{unknown}", "Unknown Ramsch field.")
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
    skat_to_nobody = system == "american1898" or (system == "isko" and o.ramsch_skat == "nobody")
    skat = r.get("skat_points")
    if skat_to_nobody:
        if type(skat) is not int or not 0 <= skat <= 22:
            raise SkatError("ramsch.skat_points", "The skat counts for nobody here: give its "
                            "card points (0 to 22).")
    elif skat is not None and not (type(skat) is int and skat == 0):
        raise SkatError("ramsch.skat_points", "The skat goes to a player here; count it in his "
                        "card points.")
    else:
        skat = 0
    if point_sum != 120 - skat:
        raise SkatError("ramsch.points", "The card points must add up to {expected}, not "
                        "{total}.", expected=120 - skat, total=point_sum)
    pushes = r.get("pushes") or 0
    if type(pushes) is not int or not 0 <= pushes <= 3:
        raise SkatError("ramsch.pushes", "Pushes must be a whole number from 0 to 3.")
    if pushes and (system != "isko" or o.schieberamsch == "off"):
        raise SkatError("ramsch.pushes", "Schieberamsch is not played under these rules "
                        "(option schieberamsch).")
    jacks = r.get("jacks_pushed")
    if jacks is not None and not isinstance(jacks, bool):
        raise SkatError("ramsch.jacks_pushed", "jacks_pushed must be true or false.")

    if system == "isko":
        entries, steps = _isko(ctx, points, tricks, pushes)
    elif system == "american1898":
        entries, steps = _american(ctx, points, tricks)
    else:
        entries, steps = _hoyle(ctx, points, tricks)
    scored = Scored("ramsch")
    scored.entries = entries
    scored.explain_parts = ("ramsch", _explainer(entries, steps, points))
    return scored


Steps = list[tuple[str, int]]  # ("jungfrau", 2), ("push", 4), ("share", 2) …


def _isko(ctx: Context, points: dict[int, int], tricks: dict[int, int],
          pushes: int) -> tuple[dict[int, int], Steps]:
    o = ctx.options
    taker = next((s for s, t in tricks.items() if t == 10), None)
    simple = o.ramsch_scoring == "simple"
    if taker is not None:  # Durchmarsch: never doubled by pushes or Jungfrau
        if simple:
            return {taker: -20 if o.ramsch_jungfrau else -10}, [("durchmarsch", 0)]
        if o.ramsch_durchmarsch == "plus120":
            return {taker: 120}, [("durchmarsch", 0)]
        return {taker: -4 * points[taker]}, [("durchmarsch", 4)]
    most = max(points.values())
    losers = [s for s, p in points.items() if p == most]
    if len(losers) == len(points):
        return {}, [("all_tied", 0)]
    jungfrau = o.ramsch_jungfrau and 0 in tricks.values()
    steps: Steps = []
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
    if len(losers) > 1 and o.ramsch_ties == "share":
        share = -(-amount // len(losers))  # each share rounded away from zero
        steps.append(("share", len(losers)))
        return {s: -share for s in losers}, steps
    return {s: -amount for s in losers}, steps


def _american(ctx: Context, points: dict[int, int],
              tricks: dict[int, int]) -> tuple[dict[int, int], Steps]:
    most = max(points.values())
    losers = [s for s, p in points.items() if p == most]
    if ctx.options.point_ramsch:
        return {s: -most for s in losers}, []
    jungfer = 0 in tricks.values()
    return {s: -(15 if jungfer else 10) for s in losers}, [("jungfrau", 0)] if jungfer else []


def _hoyle(ctx: Context, points: dict[int, int],
           tricks: dict[int, int]) -> tuple[dict[int, int], Steps]:
    most = max(points.values())
    losers = [s for s, p in points.items() if p == most]
    virgins = sum(1 for t in tricks.values() if t == 0)
    amount = (ctx.options.ramsch_base, 30, 50)[virgins]
    return {s: -amount for s in losers}, [("jungfrau", 0)] if virgins else []


def _explainer(entries: dict[int, int], steps: Steps,
               points: dict[int, int]) -> Callable[[str, int, tuple[str, ...] | None], str]:
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
        people = ", ".join(
            f"{explain.seat_name(lang, s, names)} ({w['points'].format(n=points[s])}) "
            f"{signed(v * 2 ** bock)}" for s, v in entries.items())
        detail = f" ({', '.join(words)})" if words else ""
        return f"{w['ramsch']}{detail}: {people}"

    return render
