"""Scoring a game of the historical systems: American Skat of 1898 (american1898) and
Hoyle's Skat (hoyle): Frage, Tourné, Solo, Grand, Gucki, the Nullos, Revolution, Uno, Duo, and
1898 Contra (DECISIONS.md §3, §7)."""

from __future__ import annotations

from typing import Any

from .errors import SkatError, Term
from .fields import Record, flag
from .game_fields import (
    _DECLARED,
    _GAVE_UP,
    _bid,
    _concession,
    _declarer,
    _fixed_tricks,
    _kontra,
    _matadors,
    _no_play,
    _passed_18,
    _play,
    _too_low,
    game_enabled,
)
from .games import HISTORIC_GAMES, Game
from .scored import SYSTEM_NAMES, Context, Scored


def _historic_game(d: Record, ctx: Context, active: tuple[int, ...] | None,
                   ramsch_round: bool) -> Scored:
    o, system = ctx.options, ctx.system
    games = HISTORIC_GAMES[system]
    key = d.get("game")
    game = games.get(key) if type(key) is str else None
    if game is None:
        raise SkatError("game", "{key!r} is not a game of {system}: use {choices}.", key=key,
                        system=SYSTEM_NAMES[system],
                        choices=", ".join(k for k, g in games.items()
                                          if game_enabled(system, g, o)))
    if not game_enabled(system, game, o):
        option = game.option if game.option in ("frage", "revolution", "uno_duo") else "exceptional"
        raise SkatError("game", "{game} is not played under these rules (option {option}).",
                        game=game, option=option)
    if ramsch_round and game.key != "grand_solo":
        raise SkatError("kind", "In a forced Ramsch round only Ramsch or a Grand Solo can be "
                        "played.")
    declarer = _declarer(d, ctx, active)
    if flag(d, "hand"):
        raise SkatError("hand", "In the historical systems Hand is part of the game (Solo, "
                        "Gucki …): leave hand false.")
    ouvert = flag(d, "ouvert")
    if ouvert and game.ouvert_value is None:
        raise SkatError("ouvert", "Only Uno and Duo are declared ouvert here; Nullo Ouvert and "
                        "Grand Ouvert are games of their own.")
    s_ann = flag(d, "schneider_announced")
    w_ann = flag(d, "schwarz_announced")
    if (s_ann or w_ann) and not (game.announce or game.all_levels):
        raise SkatError("schneider_announced" if s_ann else "schwarz_announced",
                        "Schneider and Schwarz can only be announced in a Solo or Grand Solo.")
    for key in ("spitze", "rum"):
        if d.get(key):
            raise SkatError(key, "{key} is an option of the International Skat Order only.",
                            key=key)
    if d.get("spitze_made") is not None:
        raise SkatError("spitze_made", "Spitze is an option of the International Skat Order only.")
    pmn = flag(d, "passt_mir_nicht")
    if pmn and not (system == "hoyle" and game.tourne):
        raise SkatError("passt_mir_nicht", "Passt mir nicht applies only to a Hoyle Tourné.")
    if d.get("passed_18") is not None:
        _passed_18(d, ctx)
    contra_on = system == "american1898" and o.contra
    kontra, kontra_by = _kontra(d, ctx, declarer, active, contra_on, True)
    concession = _concession(d, system, o, game)
    bid = _bid(d, ctx, optional=False)
    s = Scored("game")
    s.declarer, s.game, s.ouvert, s.kontra = declarer, game, ouvert, kontra
    double = game.double_loss or pmn
    factor = 2 if double else 1

    if not game.multiplied:
        return _historic_fixed(d, s, game, bid, concession, kontra_by, factor)

    matadors = _matadors(d, game, system)
    if game.all_levels:
        s_ann = w_ann = True
    if w_ann:
        s_ann = True
    played = concession is None
    points: int | None = None
    tricks: int | None = None
    if played:
        points, tricks = _play(d, 0, s_ann, w_ann)
        s.schneider_played = points >= 91 or points <= 30
        s.schwarz_played = tricks == 0 or tricks == 10
    else:
        _no_play(d, _GAVE_UP)
    # The 1898 contingencies and Hoyle's classes (game 1, schneider 2, announced or schwarz 3,
    # schwarz after announcing 4, schwarz announced 5) give the same count.
    levels = ["game"]
    if s.schneider_played or s_ann or s.schwarz_played:
        levels.append("schneider")
    if s_ann:
        levels.append("schneider_announced")
    if s.schwarz_played or w_ann:
        levels.append("schwarz")
    if w_ann:
        levels.append("schwarz_announced")
    multiplier = abs(matadors) + len(levels)
    value = game.base * multiplier
    reason: tuple[Any, ...]
    if not played:
        made, reason = False, ("conceded",)
    else:
        assert points is not None
        if w_ann:
            made, reason = tricks == 10, ("schwarz_missed",)
        elif s_ann:
            made, reason = points >= 91, ("schneider_missed",)
        else:
            made, reason = points >= 61, ("points", points)
        if d.get("result") is not None:  # no counted points to show
            reason = ("sixty",) if d["result"] == "sixty" else ("quick",)
    overbid = value < bid
    won = made and not overbid
    if not overbid:
        charged = value
    elif o.overbid_charge == "bid":
        charged = bid
    else:
        charged = -(-bid // game.base) * game.base
    entry = value if won else -factor * charged
    s.points, s.tricks, s.played = points, tricks, played
    s.won, s.value, s.charged, s.overbid = won, value, charged, overbid
    s.base, s.multiplier = game.base, multiplier
    s.entries = _contra_entries(declarer, entry, kontra, kontra_by)
    s.kontra_factor = abs(s.entries[declarer] // entry)
    s.matadors, s.levels = matadors, tuple(levels[1:])
    s.explain_parts = ("game", matadors, tuple(levels), game, value, bid, won, overbid,
                       charged, factor, reason, kontra)
    return s


def _historic_fixed(d: Record, s: Scored, game: Game, bid: int, concession: str | None,
                    kontra_by: int | None, factor: int) -> Scored:
    """Nullo, Revolution, Uno, Duo, Gucki Nullo …: one value, no multipliers."""
    ouvert, kontra, declarer = s.ouvert, s.kontra, s.declarer
    assert declarer is not None
    if d.get("matadors") is not None:
        raise SkatError("matadors", "{game} has no matadors.", game=game)
    value = game.ouvert_value if ouvert and game.ouvert_value else game.base
    opened = Term(f"{game.name_en} Ouvert", f"{game.name_de} ouvert")
    name = opened if ouvert else game  # both bring their German name (in_lang)
    if bid > value:
        better = sorted(v for v in (game.base, game.ouvert_value) if v and v >= bid)
        raise _too_low(opened if ouvert else Term(game.name_en, game.name_de), value, bid,
                       (opened, better[0]) if better else None)
    charged = value
    reason: tuple[Any, ...]
    if concession:
        _no_play(d, _GAVE_UP)
        won, reason = False, ("conceded",)
    else:
        if game.nullo_tricks and d.get("result") == "lost":
            raise SkatError("declarer_tricks", "Nullo with tricks is scored by the number of "
                            "tricks: give declarer_tricks.")
        tricks = _fixed_tricks(d, game.win_tricks or 0, game)
        if d.get("declarer_points") is not None:
            s.points, _ = _play(d, 0)
        s.tricks, s.played = tricks, True
        won, reason = tricks == game.win_tricks, ("tricks", tricks)
        if d.get("result") is not None:  # no counted tricks to show
            reason = ("quick",)
        if game.nullo_tricks and not won:
            charged = game.base + 10 * (tricks - 1)
            reason = ("nullo_tricks", tricks)
    entry = value if won else -factor * charged
    s.won, s.value, s.charged, s.overbid, s.base = won, value, charged, False, value
    s.levels = _DECLARED[False, ouvert]
    s.explain_parts = ("fixed", name, value, won, reason, factor, charged)
    s.entries = _contra_entries(declarer, entry, kontra, kontra_by)
    s.kontra_factor = abs(s.entries[declarer] // entry)
    return s


def _contra_entries(declarer: int, entry: int, kontra: str, by: int | None) -> dict[int, int]:
    """1898 Contra and Re-contra (DECISIONS.md §3, §7 R-08/R-09): V = the single entry."""
    if kontra == "none":
        return {declarer: entry}
    assert by is not None
    v = abs(entry)
    if kontra == "kontra":
        return {declarer: v} if entry > 0 else {declarer: -2 * v, by: v}
    return {declarer: 3 * v, by: -2 * v} if entry > 0 else {declarer: -3 * v, by: 2 * v}
