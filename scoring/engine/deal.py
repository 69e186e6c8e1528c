"""Scoring one record of a table: a game, a passed-in deal, a penalty or a misdeal.

Ramsch is in ramsch.py. The functions here validate as they read, so a record that is scored
is a record that is valid; every refusal is a SkatError naming the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import explain
from .cards import matadors as matadors_of
from .cards import parse_cards
from .errors import Phrase, SkatError, Term, who
from .explain import WORDS, signed
from .fields import Record, flag, optional_whole, seat, whole
from .games import HISTORIC_GAMES, ISKO_GAMES, ISKO_NULL_VALUES, Game
from .options import Options

KINDS = ("game", "passed", "ramsch", "penalty", "misdeal")
RECORD_FIELDS = frozenset({
    "result", "kind", "declarer", "game", "hand", "ouvert", "schneider_announced",
    "schwarz_announced",
    "matadors", "cards", "bid", "declarer_points", "declarer_tricks", "kontra", "kontra_by",
    "spitze", "spitze_made", "passt_mir_nicht", "rum", "passed_18", "dealer", "concession",
    "bock", "ramsch", "penalty", "number", "note",
    # DECISIONS.md §9 bock.manual: a Bock round queued by hand; the export's mark of a level
    # set by hand (so that an import keeps it and leaves the others to the tracker)
    "bock_round", "bock_manual",
})
LONE_FIELDS = RECORD_FIELDS | {"rules", "options", "players"}
# Fields that belong to a game; on any other record they must be absent, null or false.
GAME_FIELDS = (
    "result", "declarer", "game", "hand", "ouvert", "schneider_announced", "schwarz_announced",
    "matadors", "cards", "bid", "declarer_points", "declarer_tricks", "kontra_by", "spitze",
    "spitze_made", "passt_mir_nicht", "rum", "passed_18", "concession",
)
# Fields most deals leave out: one set test skips all of their checks.
_RARE_FIELDS = frozenset({
    "passt_mir_nicht", "kontra", "kontra_by", "passed_18", "concession", "spitze",
    "spitze_made", "rum",
})
_GAME_FIELD_SET = frozenset(GAME_FIELDS) | {"kontra"}
CONCESSIONS = (None, "declarer", "schenken", "schenken_schneider", "schenken_schwarz")
KONTRA_FACTOR = {"none": 1, "kontra": 2, "re": 4}
# The systems as messages name them; the German is the form that follows "nach".
SYSTEM_NAMES = {
    "isko": Term("the International Skat Order", "der Internationalen Skatordnung"),
    "american1898": Term("American Skat (1898)", "dem amerikanischen Skat von 1898"),
    "hoyle": Term("Hoyle's Skat", "Hoyles Skat"),
}
# The kinds of record as messages name them: the code in English, a word in German.
KIND_NAMES = {
    "game": Term("game", "Spiel"), "passed": Term("passed", "Eingepasst"),
    "ramsch": Term("ramsch", "Ramsch"), "penalty": Term("penalty", "Strafe"),
    "misdeal": Term("misdeal", "Vergeben"),
}
# Words that messages put in front of "must be …", "is missing" (built once, not per deal).
_DECLARER = Phrase("The declarer")
_DECLARER_POINTS = Phrase("The declarer's card points")
_DECLARER_TRICKS = Phrase("The declarer's tricks")
_SPITZE_COUNT = Phrase("The number of Spitze")
_KONTRA_SEAT = Phrase("The Kontra seat")
_PASSED_18_SEAT = Phrase("A seat in passed_18")
_PENALISED_SEAT = Phrase("The penalised seat")
_GAVE_UP = Phrase("The declarer gave up")
_GIVEN_UP = Phrase("The game was given up")
_SCHENKEN = Phrase("Schenken accepted")


@dataclass(frozen=True, slots=True)
class Context:
    """What every record of one table (or one lone deal) is scored against."""

    system: str
    options: Options
    players: int
    names: tuple[str, ...] | None
    legal_bids: frozenset[int]

    @property
    def score_game(self) -> Callable[[Record, Context, tuple[int, ...] | None, bool], Scored]:
        return _isko_game if self.system == "isko" else _historic_game


class Scored:
    """One scored record, before Bock. ``entries`` maps seat -> points.

    Defaults live on the class, so a record sets only what applies to it (this object is
    made once per deal on the hot path)."""

    won: bool | None = None
    value: int | None = None
    charged: int | None = None
    overbid: bool | None = None
    base: int | None = None
    multiplier: int | None = None
    declarer: int | None = None
    game: Game | None = None
    hand = False
    ouvert = False
    points: int | None = None
    tricks: int | None = None
    kontra = "none"
    kontra_factor = 1  # what Kontra/Re did to the declarer's entry
    played = False  # the cards were played (no concession, no Schenken accepted)
    schneider_played = False
    schwarz_played = False
    # What a printed sheet ticks: the matadors (None where a game has none) and the levels
    # that counted beyond "game", in the order a scorer says them ("hand", "schneider" …).
    matadors: int | None = None
    levels: tuple[str, ...] = ()
    # (kind, *data) read by explanation(), rendered per language only when asked for
    explain_parts: tuple[Any, ...] = ()
    # ramsch_cap (DECISIONS.md §9): no entry below -cap after every doubling, Bock included
    cap: int | None = None
    # A Ramsch's outcome, whichever form recorded it: (losers, players without a trick, the
    # seat that took every trick or None); the sheet names them (issue 23)
    ramsch: tuple[tuple[int, ...], int, int | None] | None = None

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.entries: dict[int, int] = {}


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


def game_enabled(system: str, game: Game, o: Options) -> bool:
    option = game.option
    if option is None:
        return True
    if option in ("frage", "revolution", "uno_duo"):
        return bool(getattr(o, option))
    return option in o.exceptional


# ---------------------------------------------------------------- shared readers

def _declarer(d: Record, ctx: Context, active: tuple[int, ...] | None) -> int:
    declarer = seat(d.get("declarer"), "declarer", ctx.players, _DECLARER)
    if active is not None and declarer not in active:
        raise SkatError("declarer", "{player} sits out this deal and cannot declare.",
                        player=who(ctx.names, declarer))
    return declarer


def _bid(d: Record, ctx: Context, optional: bool) -> int:
    bid = d.get("bid")
    if bid is None and optional:
        return 0
    if type(bid) is not int:
        if bid is None:
            raise SkatError("bid", "The bid is missing.")
        raise SkatError("bid", "The bid must be a number.")
    if bid not in ctx.legal_bids:
        lower = max((b for b in ctx.legal_bids if b < bid), default=None)
        higher = min((b for b in ctx.legal_bids if b > bid), default=None)
        near: object = Phrase("{lower} or {higher}", lower=lower, higher=higher)
        if lower is None or higher is None:
            near = lower if higher is None else higher
        raise SkatError("bid", "{bid} cannot be bid under {system}; the nearest bids are {near}.",
                        bid=bid, system=SYSTEM_NAMES[ctx.system], near=near)
    return bid


# A quick result ("won", "lost schneider" …) stands for card points the scorer did not count.
# Each is turned into a representative play that lies inside the result's range under every
# system's thresholds (schneider from 90 or 91, schneidered at 30 or less); the record keeps
# the quick result, never these numbers.
QUICK_RESULTS: dict[str, tuple[int, int | None]] = {
    "won": (75, None), "won_schneider": (100, None), "won_schwarz": (120, 10),
    "lost": (45, None), "lost_schneider": (25, None), "lost_schwarz": (0, 0),
    "sixty": (60, None),
}


def _quick_result(d: Record, s_ann: bool, w_ann: bool) -> tuple[int, int | None]:
    result = d.get("result")
    if type(result) is not str or result not in QUICK_RESULTS:
        raise SkatError("result", "A quick result is one of {choices}.",
                        choices=", ".join(QUICK_RESULTS))
    for key in ("declarer_points", "declarer_tricks"):
        if d.get(key) is not None:
            raise SkatError("result", "Give the card points or a quick result, not both.")
    if result == "won" and w_ann:
        result = "won_schwarz"  # winning an announced Schwarz means taking every trick
    elif result == "won" and s_ann:
        result = "won_schneider"
    return QUICK_RESULTS[result]


def _fixed_tricks(d: Record, win_tricks: int, game: Game) -> int:
    """Tricks of a Null/Nullo/Uno/Duo player, from the count or a quick won/lost."""
    result = d.get("result")
    if result is None:
        tricks = d.get("declarer_tricks")
        if type(tricks) is int and 0 <= tricks <= 10:
            return tricks
        return whole(d, "declarer_tricks", 0, 10,
                     Phrase("The {game} player's tricks", game=game))
    if result not in ("won", "lost"):
        raise SkatError("result", "This game is won or lost: no Schneider or Schwarz.")
    if d.get("declarer_tricks") is not None or d.get("declarer_points") is not None:
        raise SkatError("result", "Give the tricks or a quick result, not both.")
    if result == "won":
        return win_tricks
    return 1 if win_tricks == 0 else 0


def _play(d: Record, zero_trick_points: int, s_ann: bool = False,
          w_ann: bool = False) -> tuple[int, int | None]:
    if "result" in d and d["result"] is not None:
        return _quick_result(d, s_ann, w_ann)
    points, tricks = d.get("declarer_points"), d.get("declarer_tricks")
    if type(points) is not int or not 0 <= points <= 120:
        points = whole(d, "declarer_points", 0, 120, _DECLARER_POINTS)
    if tricks is not None and (type(tricks) is not int or not 0 <= tricks <= 10):
        tricks = optional_whole(d, "declarer_tricks", 0, 10, _DECLARER_TRICKS)
    if tricks is None:
        if points <= 22 or points == 120:
            raise SkatError("declarer_tricks", "With {points} card points say how many tricks "
                            "the declarer took: it decides Schwarz.", points=points)
    elif tricks == 10 and points != 120:
        raise SkatError("declarer_points", "All ten tricks make 120 card points.")
    elif tricks == 0 and points > zero_trick_points:
        raise SkatError("declarer_points", "Without a trick the declarer can have at most "
                        "{most} card points, not {points}.", most=zero_trick_points,
                        points=points)
    return points, tricks


def _no_play(d: Record, why: Phrase) -> None:
    """Nothing was played: points and tricks are absent or 0 (a form sends 0)."""
    if d.get("result") is not None:
        raise SkatError("result", "{why}: there is no result to record.", why=why)
    for key in ("declarer_points", "declarer_tricks"):
        value = d.get(key)
        if value is not None and not (type(value) is int and value == 0):
            raise SkatError(key, "{why}: no card points or tricks are recorded.", why=why)


def _matadors(d: Record, game: Game, system_name: str) -> int:
    raw = d.get("matadors")
    limit = 4 if game.grand else 11
    if type(raw) is int and raw and -limit <= raw <= limit and "cards" not in d:
        return raw
    if d.get("cards") is not None:
        cards = parse_cards(d["cards"])
        if len(cards) != 12:
            raise SkatError("cards", "Give the declarer's ten cards and the two of the skat: "
                            "12 cards, not {count}.", count=len(cards))
        derived = matadors_of(cards, game.trump)
        if raw is not None and raw != derived:
            raise SkatError("matadors", "The cards give {derived}, not {said}.",
                            derived=_with(derived), said=_with(raw))
        return derived
    if raw is None:
        raise SkatError("matadors", "Say with or without how many (matadors), or give the cards.")
    if type(raw) is not int or raw == 0 or not -limit <= raw <= limit:
        raise SkatError("matadors", "In {game} the matadors are with or without 1 to "
                        "{limit} (+n with, −n without), not {raw!r}.", game=game, limit=limit,
                        raw=raw)
    return raw


def _with(n: object) -> Phrase | str:
    if type(n) is int and n:
        return Phrase("with {n}", n=n) if n > 0 else Phrase("without {n}", n=-n)
    return repr(n)


def _spitze(d: Record, o: Options, game: Game) -> int:
    spitze = optional_whole(d, "spitze", 0, 4, _SPITZE_COUNT) or 0
    made = d.get("spitze_made")
    if spitze:
        if not o.spitze:
            raise SkatError("spitze", "Spitze is not played under these rules (option spitze).")
        if game.null or not game.multiplied:
            raise SkatError("spitze", "Spitze cannot be played in a Null game.")
        if not isinstance(made, bool):
            raise SkatError("spitze_made", "Say whether the declarer made the Spitze.")
    elif made is not None and made is not False:
        raise SkatError("spitze_made", "No Spitze was announced.")
    return spitze


def _kontra(d: Record, ctx: Context, declarer: int, active: tuple[int, ...] | None,
            allowed: bool, by_required: bool) -> tuple[str, int | None]:
    kontra = d.get("kontra", "none")
    if kontra is None:
        kontra = "none"
    if type(kontra) is not str or kontra not in KONTRA_FACTOR:
        raise SkatError("kontra", "Kontra must be \"none\", \"kontra\" or \"re\".")
    by = d.get("kontra_by")
    if kontra == "none":
        if by is not None:
            raise SkatError("kontra_by", "Nobody said Kontra, so no seat can have said it.")
        return kontra, None
    if not allowed:
        raise SkatError("kontra", "Kontra and Re are not played under these rules "
                        "(option kontra or contra).")
    if by is None:
        if by_required:
            raise SkatError("kontra_by", "Say which opponent said Kontra.")
        return kontra, None
    by = seat(by, "kontra_by", ctx.players, _KONTRA_SEAT)
    if by == declarer:
        raise SkatError("kontra_by", "The declarer cannot say Kontra against himself.")
    if active is not None and by not in active:
        raise SkatError("kontra_by", "{player} sits out this deal and cannot say Kontra.",
                        player=who(ctx.names, by))
    return kontra, by


def _concession(d: Record, system: str, o: Options, game: Game) -> str | None:
    concession = d.get("concession")
    if concession not in CONCESSIONS:
        raise SkatError("concession", "Concession must be null, \"declarer\", \"schenken\", "
                        "\"schenken_schneider\" or \"schenken_schwarz\".")
    if concession is None or concession == "declarer":
        if concession and not game.abandon:
            raise SkatError("concession", "A {game} cannot be abandoned.", game=game)
        return concession
    if system != "isko" or not o.schenken:
        raise SkatError("concession", "Schenken is not played under these rules (option schenken).")
    if game.null:
        raise SkatError("concession", "Schenken does not apply to Null.")
    return str(concession)


# ---------------------------------------------------------------- games

def score_game(d: Record, ctx: Context, active: tuple[int, ...] | None,
               ramsch_round: bool) -> Scored:
    if ctx.system == "isko":
        return _isko_game(d, ctx, active, ramsch_round)
    return _historic_game(d, ctx, active, ramsch_round)


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


# The levels of a game without multipliers (Null, Nullo …) are its declarations.
_DECLARED: dict[tuple[bool, bool], tuple[str, ...]] = {
    (False, False): (), (True, False): ("hand",), (False, True): ("ouvert",),
    (True, True): ("hand", "ouvert"),
}


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


def _too_low(game: Term, value: int, bid: int, other: tuple[Term, int] | None) -> SkatError:
    """A fixed game worth less than the bid, and the one that would do."""
    if other is None:
        return SkatError("bid", "{game} ({value}) cannot be declared after a bid of {bid}.",
                         game=game, value=value, bid=bid)
    return SkatError("bid", "{game} ({value}) cannot be declared after a bid of {bid}; "
                     "{other} ({other_value}) can.", game=game, value=value, bid=bid,
                     other=other[0], other_value=other[1])


def _passed_18(d: Record, ctx: Context) -> frozenset[int]:
    raw = d.get("passed_18")
    if raw is None:
        return frozenset()
    if not isinstance(raw, list):
        raise SkatError("passed_18", "passed_18 must be a list of seats.")
    return frozenset(seat(v, "passed_18", ctx.players, _PASSED_18_SEAT) for v in raw)


def _check_passed_18(d: Record, ctx: Context, kontra_by: int) -> None:
    if d.get("passed_18") is None:
        raise SkatError("passed_18", "With Kontra only after 18, say which seats passed at 18 "
                        "(passed_18, may be empty).")
    if kontra_by in _passed_18(d, ctx):
        raise SkatError("kontra_by", "{player} passed when he could have said or held "
                        "18, so he may not say Kontra.", player=who(ctx.names, kontra_by))


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


__all__ = ["KINDS", "Context", "Scored", "score_game", "explanation", "legal_bids"]
