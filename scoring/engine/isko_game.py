"""Scoring a game under the International Skat Order (isko): suit games and Grand with their
levels (hand, schneider, schwarz, announcements, ouvert, Spitze, rum), and Null (DECISIONS.md
§2, §9)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .errors import SkatError, Term
from .fields import Record, flag
from .game_fields import (
    _DECLARED,
    _GAVE_UP,
    _GIVEN_UP,
    _SCHENKEN,
    _bid,
    _check_passed_18,
    _concession,
    _declarer,
    _fixed_tricks,
    _kontra,
    _matadors,
    _no_play,
    _passed_18,
    _play,
    _spitze,
    _too_low,
)
from .games import ISKO_GAMES, ISKO_NULL_VALUES
from .options import Options
from .scored import _RARE_FIELDS, KONTRA_FACTOR, Context, Scored


def _isko_game(d: Record, ctx: Context, active: tuple[int, ...] | None,
               ramsch_round: bool) -> Scored:
    o = ctx.options
    get = d.get
    key = get("game")
    game = ISKO_GAMES[o.grand_base].get(key) if type(key) is str else None
    if game is None:
        raise SkatError("game", "{key!r} is not a game of the International Skat Order: "
                        "use diamonds, hearts, spades, clubs, grand or null.", key=key)
    declarer = get("declarer")
    if type(declarer) is not int or not 0 <= declarer < ctx.players or (
            active is not None and declarer not in active):
        declarer = _declarer(d, ctx, active)  # raises the right message
    # The four declarations are read on every deal: plain booleans take the fast path.
    hand, ouvert = get("hand", False), get("ouvert", False)
    s_ann, w_ann = get("schneider_announced", False), get("schwarz_announced", False)
    if not (type(hand) is bool and type(ouvert) is bool and type(s_ann) is bool
            and type(w_ann) is bool):
        hand, ouvert = flag(d, "hand"), flag(d, "ouvert")
        s_ann, w_ann = flag(d, "schneider_announced"), flag(d, "schwarz_announced")
    if ramsch_round and not (game.key == "grand" and hand):
        raise SkatError("kind", "In a Ramsch round only Ramsch or a Grand Hand can be played.")
    kontra, kontra_by, concession, spitze, rum = "none", None, None, 0, False
    if not _RARE_FIELDS.isdisjoint(d):
        if flag(d, "passt_mir_nicht"):
            raise SkatError("passt_mir_nicht", "Passt mir nicht belongs to Hoyle's Tourné.")
        kontra, kontra_by = _kontra(d, ctx, declarer, active, o.kontra, o.kontra_requires_18)
        if kontra_by is not None and o.kontra_requires_18:
            _check_passed_18(d, ctx, kontra_by)
        elif get("passed_18") is not None:
            _passed_18(d, ctx)
        concession = _concession(d, "isko", o, game)
        spitze = _spitze(d, o, game)
        rum = flag(d, "rum")
        if rum and not o.rum:
            raise SkatError("rum", "Rum is not played under these rules (option rum).")
    bid = get("bid")
    if type(bid) is not int or bid not in ctx.legal_bids:
        bid = _bid(d, ctx, optional=ramsch_round)
    s = Scored("game")
    s.declarer, s.game, s.hand, s.ouvert, s.kontra = declarer, game, hand, ouvert, kontra

    if game.null:
        return _isko_null(d, s, o, bid, concession, s_ann or w_ann, rum)

    if (s_ann or w_ann) and not hand:
        raise SkatError("schneider_announced" if s_ann else "schwarz_announced",
                        "Schneider and Schwarz can only be announced in a Hand game.")
    if ouvert and not hand:
        raise SkatError("ouvert", "{game} ouvert must be played Hand.", game=game)
    matadors = _matadors(d, game, "isko")
    if ouvert:
        s_ann = w_ann = True
    if w_ann:
        s_ann = True
    if concession == "schenken_schneider":
        s_ann = True
    elif concession == "schenken_schwarz":
        s_ann = w_ann = True
    played = concession not in ("declarer", "schenken")
    points: int | None = None
    tricks: int | None = None
    if played:
        points, tricks = _play(d, 22, s_ann, w_ann)
        s.schneider_played = points >= 90 or points <= 30
        s.schwarz_played = tricks == 0 or tricks == 10
    else:
        _no_play(d, _GIVEN_UP if concession == "declarer" else _SCHENKEN)
    key_levels = (hand, s.schneider_played or s_ann, s_ann, s.schwarz_played or w_ann, w_ann,
                  ouvert, spitze, rum)
    levels = _LEVELS.get(key_levels) or _isko_levels(key_levels)
    multiplier = abs(matadors) + len(levels)
    value = game.base * multiplier

    reason: tuple[Any, ...]
    if concession == "declarer":
        made, reason = False, ("conceded",)
    elif concession == "schenken":
        made, reason = True, ("schenken",)
    else:
        assert points is not None
        if w_ann:
            made, reason = tricks == 10, ("schwarz_missed",)
        elif s_ann:
            made, reason = points >= 90, ("schneider_missed",)
        else:
            made, reason = points >= 61, ("points", points)
        if d.get("result") is not None:  # no counted points to show
            reason = ("sixty",) if d["result"] == "sixty" else ("quick",)
        if made and spitze and not d.get("spitze_made"):
            made, reason = False, ("spitze_missed",)
    overbid = value < bid
    won = made and not overbid
    if not overbid:
        charged = value
    elif o.overbid_charge == "bid":  # DECISIONS.md §9: charged at the bid itself
        charged = bid
    else:
        charged = -(-bid // game.base) * game.base
    factor = 1 if (o.lost_hand_single and hand) else 2
    entry = value if won else -factor * charged
    s.points, s.tricks, s.played = points, tricks, played
    s.won, s.value, s.charged, s.overbid = won, value, charged, overbid
    s.base, s.multiplier = game.base, multiplier
    s.kontra_factor = KONTRA_FACTOR[kontra]
    s.entries = {declarer: entry * s.kontra_factor}
    s.matadors, s.levels = matadors, levels[1:]
    s.explain_parts = ("game", matadors, levels, game, value, bid, won, overbid,
                       charged, factor, reason, kontra)
    return s


_LEVELS: dict[tuple[Any, ...], tuple[str, ...]] = {}


def _isko_levels(key: tuple[Any, ...]) -> tuple[str, ...]:
    """The levels that count, in the order a scorer says them ("game, hand, schneider …")."""
    hand, schneider, s_ann, schwarz, w_ann, ouvert, spitze, rum = key
    levels = ["game"]
    for on, name in ((hand, "hand"), (schneider, "schneider"), (s_ann, "schneider_announced"),
                     (schwarz, "schwarz"), (w_ann, "schwarz_announced"), (ouvert, "ouvert")):
        if on:
            levels.append(name)
    levels += ["spitze"] * spitze + ["rum"] * rum
    _LEVELS[key] = result = tuple(levels)
    return result


def _isko_null(d: Record, s: Scored, o: Options, bid: int, concession: str | None,
               announced: bool, rum: bool) -> Scored:
    hand, ouvert, kontra, declarer = s.hand, s.ouvert, s.kontra, s.declarer
    assert declarer is not None
    if announced:
        field = "schneider_announced" if d.get("schneider_announced") else "schwarz_announced"
        raise SkatError(field, "Null has no announcements.")
    if d.get("matadors") is not None:
        raise SkatError("matadors", "Null has no matadors.")
    if rum:
        raise SkatError("rum", "Rum does not apply to Null.")
    value = ISKO_NULL_VALUES[hand, ouvert]
    reason: tuple[Any, ...]
    if bid > value:
        raise _null_refusal(hand, ouvert, value, bid)
    if concession:
        _no_play(d, _GAVE_UP)
        won, reason = False, ("conceded",)
    else:
        assert s.game is not None
        tricks = _fixed_tricks(d, 0, s.game)
        if d.get("declarer_points") is not None and d.get("result") is None:
            s.points, _ = _play(d, 22)
        s.tricks, s.played = tricks, True
        won, reason = tricks == 0, ("tricks", tricks)
        if d.get("result") is not None:  # no counted tricks to show
            reason = ("quick",)
    s.value = s.charged = s.base = value
    s.overbid = False
    factor = 1 if (o.lost_hand_single and hand) else 2
    entry = value if won else -factor * value
    s.won = won
    s.kontra_factor = KONTRA_FACTOR[kontra]
    s.entries = {declarer: entry * s.kontra_factor}
    s.levels = _DECLARED[hand, ouvert]
    s.explain_parts = ("null", _null_term(hand, ouvert), value, won, reason, factor, kontra)
    return s


def game_label_null(hand: bool, ouvert: bool) -> str:
    return "Null" + (" Ouvert" if ouvert else "") + (" Hand" if hand else "")


@lru_cache(maxsize=4)
def _null_term(hand: bool, ouvert: bool) -> Term:
    """ "Null Ouvert Hand" as the rules and the spec write it, "Null ouvert Hand" in German
    (glossary.md: Null, Null Hand, Null ouvert, Null ouvert Hand)."""
    return Term(game_label_null(hand, ouvert),
                "Null" + (" ouvert" if ouvert else "") + (" Hand" if hand else ""))


def _null_refusal(hand: bool, ouvert: bool, value: int, bid: int) -> SkatError:
    can = [(h, ov, v) for (h, ov), v in sorted(ISKO_NULL_VALUES.items(), key=lambda kv: kv[1])
           if v >= bid]
    return _too_low(_null_term(hand, ouvert), value, bid,
                    (_null_term(can[0][0], can[0][1]), can[0][2]) if can else None)
