"""Reading a game record's fields, shared by every rule system's game scoring
(isko_game.py, historic_game.py): the declarer, the bid, the play (card points and tricks, or a
quick result), matadors, Spitze, Kontra, concessions. Each reader checks type and range as it
reads and names the field in its SkatError.
"""

from __future__ import annotations

from .cards import matadors as matadors_of
from .cards import parse_cards
from .errors import Phrase, SkatError, Term, who
from .fields import Record, optional_whole, seat, whole
from .games import Game
from .options import Options
from .scored import CONCESSIONS, KONTRA_FACTOR, SYSTEM_NAMES, Context

# Words that messages put in front of "must be …", "is missing" (built once, not per deal).
_DECLARER = Phrase("The declarer")
_DECLARER_POINTS = Phrase("The declarer's card points")
_DECLARER_TRICKS = Phrase("The declarer's tricks")
_SPITZE_COUNT = Phrase("The number of Spitze")
_KONTRA_SEAT = Phrase("The Kontra seat")
_PASSED_18_SEAT = Phrase("A seat in passed_18")
_GAVE_UP = Phrase("The declarer gave up")
_GIVEN_UP = Phrase("The game was given up")
_SCHENKEN = Phrase("Schenken accepted")


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


# The levels of a game without multipliers (Null, Nullo …) are its declarations.
_DECLARED: dict[tuple[bool, bool], tuple[str, ...]] = {
    (False, False): (), (True, False): ("hand",), (False, True): ("ouvert",),
    (True, True): ("hand", "ouvert"),
}
