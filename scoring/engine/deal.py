"""Scoring one record of a table: a game, a passed-in deal, a penalty or a misdeal.

Ramsch is in ramsch.py. The functions here validate as they read, so a record that is scored
is a record that is valid; every refusal is a SkatError naming the field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import explain
from .errors import Phrase, SkatError
from .explain import WORDS, signed
from .fields import Record, seat
from .game_fields import QUICK_RESULTS, game_enabled
from .games import HISTORIC_GAMES, ISKO_NULL_VALUES
from .historic_game import _historic_game
from .isko_game import _isko_game, game_label_null
from .options import Options
from .scored import (
    _GAME_FIELD_SET,
    CONCESSIONS,
    GAME_FIELDS,
    KIND_NAMES,
    KINDS,
    KONTRA_FACTOR,
    LONE_FIELDS,
    RECORD_FIELDS,
    SYSTEM_NAMES,
    Context,
    Scored,
)

_PENALISED_SEAT = Phrase("The penalised seat")
GameScorer = Callable[[Record, Context, tuple[int, ...] | None, bool], Scored]


# ---------------------------------------------------------------- legal bids

def legal_bids(system: str, o: Options) -> frozenset[int]:
    """Every bid that can be said: the values a game of the system can reach."""
    if system == "isko":
        extra = (4 if o.spitze else 0) + (1 if o.rum else 0)
        bids = set(ISKO_NULL_VALUES.values())
        for base, top in ((9, 18), (10, 18), (11, 18), (12, 18), (o.grand_base, 11)):
            bids.update(base * k for k in range(2, top + extra + 1))
        return frozenset(bids)
    bids = set()
    for game in HISTORIC_GAMES[system].values():
        if not game_enabled(system, game, o):
            continue
        if not game.multiplied:
            bids.add(game.base)
            if game.ouvert_value:
                bids.add(game.ouvert_value)
            continue
        top_matadors = 4 if game.grand else 11
        if game.all_levels:
            low, high = 6, top_matadors + 5
        else:
            low, high = 2, top_matadors + (5 if game.announce else 3)
        bids.update(game.base * k for k in range(low, high + 1))
    return frozenset(bids)


# ---------------------------------------------------------------- games

def game_scorer(system: str) -> GameScorer:
    """The function that scores a game of ``system`` (bound once per table)."""
    return _isko_game if system == "isko" else _historic_game


def score_game(d: Record, ctx: Context, active: tuple[int, ...] | None,
               ramsch_round: bool) -> Scored:
    if ctx.system == "isko":
        return _isko_game(d, ctx, active, ramsch_round)
    return _historic_game(d, ctx, active, ramsch_round)


def bocked(s: Scored, bock: int) -> dict[int, int]:
    """The entries at a Bock level: doubled, then held at the Ramsch cap where one applies."""
    factor = 1 << bock
    cap = s.cap
    if cap is None:
        return {k: v * factor for k, v in s.entries.items()}
    return {k: max(v * factor, -cap) for k, v in s.entries.items()}


# ---------------------------------------------------------------- other records

def check_not_a_game(d: Record, kind: str) -> None:
    if _GAME_FIELD_SET.isdisjoint(d):
        return
    ramsch = kind == "ramsch"  # Kontra on a Ramsch is ramsch.py's to judge (ramsch_kontra)
    for key in GAME_FIELDS:
        if ramsch and key == "kontra_by":
            continue
        value = d.get(key)
        if value is not None and value is not False and value != []:
            raise SkatError(key, "{key} does not apply to a {kind} record.", key=key,
                            kind=KIND_NAMES[kind])
    if d.get("kontra") not in (None, "none") and not ramsch:
        raise SkatError("kontra", "Kontra does not apply to a {kind} record.",
                        kind=KIND_NAMES[kind])


def score_penalty(d: Record, ctx: Context) -> Scored:
    p = d.get("penalty")
    if not isinstance(p, dict):
        raise SkatError("penalty",
                        "A penalty needs {{\"seat\": …, \"points\": …, \"reason\": …}}.")
    unknown = set(p) - {"seat", "points", "reason"}
    if unknown:
        raise SkatError(f"penalty.{sorted(unknown)[0]}", "Unknown penalty field.")
    offender = seat(p.get("seat"), "penalty.seat", ctx.players, _PENALISED_SEAT)
    points = p.get("points", ctx.options.penalty_points)
    if points is None:
        points = ctx.options.penalty_points
    if type(points) is not int or not 0 < points <= 10_000:
        raise SkatError("penalty.points", "Penalty points must be a whole number above 0.")
    reason = p.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise SkatError("penalty.reason", "The reason must be text.")
    s = Scored("penalty")
    s.entries = {offender: -points}
    s.explain_parts = ("penalty", offender, points, reason)
    return s


def score_passed(kind: str) -> Scored:
    s = Scored(kind)
    s.explain_parts = (kind,)
    return s


# ---------------------------------------------------------------- explanation

def explanation(s: Scored, lang: str, bock: int, names: tuple[str, ...] | None) -> str:
    """ "with 1, game 2, hand 3 × Clubs 12 = 36 < bid 46 → overbid: 48 × 2 = −96" """
    w = WORDS[lang]
    parts = s.explain_parts
    head = parts[0]
    if head == "ramsch":
        return str(parts[1](lang, bock, names))
    if head == "penalty":
        _, offender, points, _reason_text = parts
        return w["penalty"].format(seat=explain.seat_name(lang, offender, names),
                                   points=signed(-points))
    if head in ("passed", "misdeal"):
        return w[head]
    if head == "game":
        _, matadors, levels, game, value, bid, won, overbid, charged, factor, reason, _ = parts
        text = explain.prefix(lang, matadors, levels, game.key, game.name_de if lang == "de"
                              else game.name_en, game.base)
        if overbid:
            text += f" < {w['bid']} {bid} → {w['overbid']}: "
        else:
            text += " → " if won else f" → {w['lost']}{_reason(w, reason)}: "
    else:  # "null" / "fixed": a single value
        term, value, won, reason, factor, charged = (
            (parts[1], parts[2], parts[3], parts[4], parts[5], parts[2]) if head == "null"
            else parts[1:7])
        label = term.in_lang(lang)
        text = f"{label} {value} → " if won else (
            f"{label} {value} → {w['lost']}{_reason(w, reason)}: ")
    amount = value if won else charged
    factors = ""
    if not won and factor > 1:
        factors += f" × {factor}"
    if s.kontra_factor != 1:
        factors += f" × {w[s.kontra]} {s.kontra_factor}"
    if bock:
        factors += f" × {w['bock']} {2 ** bock}"
    declarer = s.declarer if s.declarer is not None else -1
    entry = s.entries.get(declarer, 0) * 2 ** bock
    if factors:
        text += f"{amount}{factors} = {signed(entry)}"
    else:
        text += signed(entry)
    if len(s.entries) > 1:  # 1898 Contra: the Contra-sayer's entry too
        text += "; " + ", ".join(
            f"{explain.seat_name(lang, k, names)} {signed(v * 2 ** bock)}"
            for k, v in s.entries.items() if k != declarer)
    return text


def _reason(w: dict[str, str], reason: tuple[Any, ...]) -> str:
    key = reason[0]
    if key == "quick":
        return ""
    if key == "points":
        return f" ({w['points'].format(n=reason[1])})"
    if key == "tricks" and reason[1] == 1:
        return f" ({w['trick']})"
    if key in ("tricks", "nullo_tricks"):
        return f" ({w[key].format(n=reason[1])})"
    return f" ({w[key]})"


__all__ = [
    "CONCESSIONS", "GAME_FIELDS", "KINDS", "KIND_NAMES", "KONTRA_FACTOR", "LONE_FIELDS",
    "QUICK_RESULTS", "RECORD_FIELDS", "SYSTEM_NAMES", "Context", "GameScorer", "Scored",
    "bocked", "check_not_a_game", "explanation", "game_enabled", "game_label_null",
    "game_scorer", "legal_bids", "score_game", "score_passed", "score_penalty",
]