"""The deal record as types: the closed vocabularies as enums and one frozen dataclass per kind
of record (game, Ramsch, passed-in, penalty, misdeal), ``DealRecord`` their union.

JSON (deal-record.md) is read and written only at the edges: ``deal_record(d)`` (a record of
any kind; ``GameRecord.from_json(d)`` … where only one kind will do) and ``record.to_json()``.
A record keeps which keys it was given and in which order, and which of them were ``null``, so
``to_json(from_json(x)) == x`` byte for byte: what a database, an export or the spec holds
never changes by passing through the types. The enums' values are the spec's strings (``str``
enums), so ``Kontra.RE == "re"``; ``to_json`` writes them as plain strings, as the engine reads
them.

``from_json`` checks the shape only (types, known keys, the vocabularies); whether a record is
a deal that can have happened under a table's rules is the engine's judgement (``evaluate``,
``evaluate_table``), with the scorer's words in its ``SkatError``. A ``RecordError`` is a
programmer's error: a record that no writer of this project produces.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Self, TypeAlias

Json: TypeAlias = Any  # a value json.loads gives: None, bool, int, float, str, list, dict


class DealKind(StrEnum):
    GAME = "game"
    PASSED = "passed"  # all passed, thrown in
    RAMSCH = "ramsch"
    PENALTY = "penalty"
    MISDEAL = "misdeal"


class GameType(StrEnum):
    """Every game key of every rule system (deal-record.md ``game``); which of them a system
    plays, and under which options, is the engine's (games.py)."""

    # isko
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"
    CLUBS = "clubs"
    GRAND = "grand"
    NULL = "null"
    # american1898 and hoyle: the suit families
    FRAGE_DIAMONDS = "frage_diamonds"
    FRAGE_HEARTS = "frage_hearts"
    FRAGE_SPADES = "frage_spades"
    FRAGE_CLUBS = "frage_clubs"
    TOURNE_DIAMONDS = "tourne_diamonds"
    TOURNE_HEARTS = "tourne_hearts"
    TOURNE_SPADES = "tourne_spades"
    TOURNE_CLUBS = "tourne_clubs"
    SOLO_DIAMONDS = "solo_diamonds"
    SOLO_HEARTS = "solo_hearts"
    SOLO_SPADES = "solo_spades"
    SOLO_CLUBS = "solo_clubs"
    # american1898 and hoyle: Grands, Nullos and the exceptional games
    GRAND_SOLO = "grand_solo"
    GRAND_TOURNE = "grand_tourne"
    GUCKSER_GRAND = "guckser_grand"
    GUCKI_GRAND = "gucki_grand"
    GRAND_OUVERT = "grand_ouvert"
    NULLO = "nullo"
    NULLO_OUVERT = "nullo_ouvert"
    GUCKI_NULLO = "gucki_nullo"
    GUCKI_NULLO_OUVERT = "gucki_nullo_ouvert"
    REVOLUTION = "revolution"
    NULLO_PURCHASE = "nullo_purchase"
    NULLO_TOURNE = "nullo_tourne"
    NULLO_TOURNE_OUVERT = "nullo_tourne_ouvert"
    UNO = "uno"
    DUO = "duo"
    NULLO_TRICKS = "nullo_tricks"


class Kontra(StrEnum):
    NONE = "none"
    KONTRA = "kontra"
    RE = "re"


class Concession(StrEnum):
    DECLARER = "declarer"  # the declarer gave up
    SCHENKEN = "schenken"  # the opponents gave up, accepted
    SCHENKEN_SCHNEIDER = "schenken_schneider"  # declined: the declarer played on
    SCHENKEN_SCHWARZ = "schenken_schwarz"


class QuickResult(StrEnum):
    """A result the scorer tapped instead of counting card points (``result``)."""

    WON = "won"
    WON_SCHNEIDER = "won_schneider"
    WON_SCHWARZ = "won_schwarz"
    LOST = "lost"
    LOST_SCHNEIDER = "lost_schneider"
    LOST_SCHWARZ = "lost_schwarz"
    SIXTY = "sixty"


class RecordError(ValueError):
    """A record of the wrong shape (a key no record has, a value of the wrong type)."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


# ---------------------------------------------------------------- readers of one value

Reader: TypeAlias = Callable[[str, Json], Any]
Writer: TypeAlias = Callable[[Any], Json]


def _int(key: str, v: Json) -> int:
    if type(v) is not int:
        raise RecordError(key, f"a whole number, not {v!r}")
    return v


def _bool(key: str, v: Json) -> bool:
    if type(v) is not bool:
        raise RecordError(key, f"true or false, not {v!r}")
    return v


def _str(key: str, v: Json) -> str:
    if not isinstance(v, str):
        raise RecordError(key, f"text, not {v!r}")
    return v


def _enum(cls: type[StrEnum]) -> Reader:
    def read(key: str, v: Json) -> StrEnum:
        try:
            if isinstance(v, str):
                return cls(v)
        except ValueError:
            pass
        raise RecordError(key, f"one of {', '.join(cls)}, not {v!r}")
    return read


def _ints(key: str, v: Json) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise RecordError(key, f"a list of whole numbers, not {v!r}")
    return tuple(_int(key, x) for x in v)


def _strs(key: str, v: Json) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise RecordError(key, f"a list of text, not {v!r}")
    return tuple(_str(key, x) for x in v)


def _seat_map(key: str, v: Json) -> tuple[tuple[str, int | None], ...]:
    """``{"0": 50, "1": 40}``, kept as pairs in the given order (seat keys as written)."""
    if not isinstance(v, dict):
        raise RecordError(key, f"an object of seat -> number, not {v!r}")
    return tuple((k, None if x is None else _int(f"{key}.{k}", x)) for k, x in v.items())


def _raw(key: str, v: Json) -> Json:
    return v


def _same(v: Any) -> Json:
    return v


def _value(v: Any) -> Json:
    return v.value


def _list(v: Any) -> Json:
    return list(v)


def _dict(v: Any) -> Json:
    return dict(v)


def _nested(v: Any) -> Json:
    return v.to_json()


def _spec(key: str, read: Reader, write: Writer = _same) -> dict[str, Any]:
    """Dataclass metadata: the JSON key and how the value is read and written."""
    return {"json": (key, read, write)}


def _shape(cls: type) -> dict[str, tuple[str, Reader, Writer]]:
    """JSON key -> (attribute, reader, writer) of a record class (cached per class)."""
    cached = _SHAPES.get(cls)
    if cached is None:
        cached = {}
        for f in dataclasses.fields(cls):
            spec = f.metadata.get("json")
            if spec is not None:
                key, read, write = spec
                cached[key] = (f.name, read, write)
        _SHAPES[cls] = cached
    return cached


_SHAPES: dict[type, dict[str, tuple[str, Reader, Writer]]] = {}


class _Keyed:
    """What every typed part of a record shares: the JSON keys it was given, in order, and
    which of them were ``null``; ``to_json`` writes exactly these."""

    keys: tuple[str, ...]
    nulls: frozenset[str]
    blanks: tuple[tuple[str, Json], ...]

    # Keys another kind of record owns that this one may carry empty (null, false, [],
    # Kontra "none"): what a form or an older export writes; kept as given.
    BLANK_KEYS: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def _read(cls, d: Mapping[str, Json], where: str = "") -> dict[str, Any]:
        shape = _shape(cls)
        values: dict[str, Any] = {}
        nulls = []
        blanks = []
        for key, raw in d.items():
            if not isinstance(key, str):
                raise RecordError(where + str(key), "keys are text")
            spec = shape.get(key)
            if spec is None:
                if key in cls.BLANK_KEYS and (raw is None or raw is False or raw == []
                                              or (key == "kontra" and raw == "none")):
                    blanks.append((key, () if raw == [] else raw))  # () keeps it hashable
                    continue
                raise RecordError(where + key, f"not a field of a {cls.__name__}")
            name, read, _write = spec
            if raw is None:
                nulls.append(key)
            else:
                values[name] = read(where + key, raw)
        values["keys"] = tuple(d)
        values["nulls"] = frozenset(nulls)
        values["blanks"] = tuple(blanks)
        return values

    def to_json(self) -> dict[str, Json]:
        shape = _shape(type(self))
        blanks = dict(self.blanks)
        out: dict[str, Json] = {}
        for key in self.keys:
            if key in blanks:
                blank = blanks[key]
                out[key] = [] if blank == () else blank
            elif key in self.nulls:
                out[key] = None
            else:
                name, _read, write = shape[key]
                value = getattr(self, name)
                out[key] = None if value is None else write(value)
        return out


# ---------------------------------------------------------------- the nested parts

@dataclass(frozen=True, slots=True)
class RamschPlay(_Keyed):
    """A Ramsch's ``ramsch`` object: the full form (every player's card points and tricks) or
    the short one (losers, Jungfrau, Durchmarsch). Seat maps are (seat key, number) pairs."""

    points: tuple[tuple[str, int | None], ...] | None = field(
        default=None, metadata=_spec("points", _seat_map, _dict))
    tricks: tuple[tuple[str, int | None], ...] | None = field(
        default=None, metadata=_spec("tricks", _seat_map, _dict))
    losers: tuple[tuple[str, int | None], ...] | None = field(
        default=None, metadata=_spec("losers", _seat_map, _dict))
    jungfrau: int | None = field(default=None, metadata=_spec("jungfrau", _int))
    durchmarsch: int | None = field(default=None, metadata=_spec("durchmarsch", _int))
    pushes: int | None = field(default=None, metadata=_spec("pushes", _int))
    skat_points: int | None = field(default=None, metadata=_spec("skat_points", _int))
    jacks_pushed: bool | None = field(default=None, metadata=_spec("jacks_pushed", _bool))
    keys: tuple[str, ...] = ()
    nulls: frozenset[str] = frozenset()
    blanks: tuple[tuple[str, Json], ...] = ()

    @classmethod
    def from_json(cls, d: Json) -> RamschPlay:
        if not isinstance(d, dict):
            raise RecordError("ramsch", "an object")
        return cls(**cls._read(d, "ramsch."))

    @property
    def short(self) -> bool:
        return any(k in self.keys for k in ("losers", "jungfrau", "durchmarsch"))


@dataclass(frozen=True, slots=True)
class PenaltyOrder(_Keyed):
    """A penalty's ``penalty`` object: the seat, its points (the rules' default if absent)
    and why."""

    seat: int | None = field(default=None, metadata=_spec("seat", _int))
    points: int | None = field(default=None, metadata=_spec("points", _int))
    reason: str | None = field(default=None, metadata=_spec("reason", _str))
    keys: tuple[str, ...] = ()
    nulls: frozenset[str] = frozenset()
    blanks: tuple[tuple[str, Json], ...] = ()

    @classmethod
    def from_json(cls, d: Json) -> PenaltyOrder:
        if not isinstance(d, dict):
            raise RecordError("penalty", "an object")
        return cls(**cls._read(d, "penalty."))


def _ramsch(key: str, v: Json) -> RamschPlay:
    return RamschPlay.from_json(v)


def _penalty(key: str, v: Json) -> PenaltyOrder:
    return PenaltyOrder.from_json(v)


# ---------------------------------------------------------------- the records

_GAME_KEYS = frozenset({
    "result", "declarer", "game", "hand", "ouvert", "schneider_announced",
    "schwarz_announced", "matadors", "cards", "bid", "declarer_points", "declarer_tricks",
    "kontra", "kontra_by", "spitze", "spitze_made", "passt_mir_nicht", "rum", "passed_18",
    "concession",
})


@dataclass(frozen=True, slots=True)
class _Record(_Keyed):
    """What every kind of record may carry besides its own fields; each kind's dataclass adds
    ``kind`` and those (a field's place does not matter: ``to_json`` writes ``keys``' order)."""

    KIND: ClassVar[DealKind]

    # where the deal stands and what the tracker may be told (all kinds)
    dealer: int | None = field(default=None, metadata=_spec("dealer", _int))
    bock: int | None = field(default=None, metadata=_spec("bock", _int))
    bock_round: bool = field(default=False, metadata=_spec("bock_round", _bool))
    bock_manual: bool = field(default=False, metadata=_spec("bock_manual", _bool))
    number: int | None = field(default=None, metadata=_spec("number", _int))
    note: str | None = field(default=None, metadata=_spec("note", _str))
    # a lone deal's own table (deal-record.md: rules, options, players), kept as JSON
    rules: str | None = field(default=None, metadata=_spec("rules", _str))
    # (JSON objects and lists: compared, but left out of the hash)
    options: Json = field(default=None, hash=False, metadata=_spec("options", _raw))
    players: Json = field(default=None, hash=False, metadata=_spec("players", _raw))
    keys: tuple[str, ...] = ()
    nulls: frozenset[str] = frozenset()
    blanks: tuple[tuple[str, Json], ...] = ()

    @classmethod
    def from_json(cls, d: Json) -> Self:
        """The record of this kind that ``d`` is (``deal_record`` for any kind)."""
        record = deal_record(d)
        if not isinstance(record, cls):
            raise RecordError("kind", f"a {cls.KIND.value} record, not {record.kind.value}")
        return record

    @classmethod
    def _of(cls, d: Mapping[str, Json]) -> Any:
        if "kind" not in d:
            raise RecordError("kind", "missing")
        return cls(**cls._read(d))

    def to_json(self) -> dict[str, Json]:
        """The record as deal-record.md writes it: the keys it was given, in their order."""
        return _Keyed.to_json(self)


@dataclass(frozen=True, slots=True)
class GameRecord(_Record):
    """A game played (or given up) by a declarer against the others."""

    KIND: ClassVar[DealKind] = DealKind.GAME
    BLANK_KEYS: ClassVar[frozenset[str]] = frozenset({"ramsch", "penalty"})

    kind: DealKind = field(default=DealKind.GAME, metadata=_spec("kind", _enum(DealKind), _value))
    declarer: int | None = field(default=None, metadata=_spec("declarer", _int))
    game: GameType | None = field(default=None, metadata=_spec("game", _enum(GameType), _value))
    hand: bool = field(default=False, metadata=_spec("hand", _bool))
    ouvert: bool = field(default=False, metadata=_spec("ouvert", _bool))
    schneider_announced: bool = field(default=False,
                                      metadata=_spec("schneider_announced", _bool))
    schwarz_announced: bool = field(default=False, metadata=_spec("schwarz_announced", _bool))
    matadors: int | None = field(default=None, metadata=_spec("matadors", _int))
    cards: tuple[str, ...] | None = field(default=None, metadata=_spec("cards", _strs, _list))
    bid: int | None = field(default=None, metadata=_spec("bid", _int))
    declarer_points: int | None = field(default=None, metadata=_spec("declarer_points", _int))
    declarer_tricks: int | None = field(default=None, metadata=_spec("declarer_tricks", _int))
    result: QuickResult | None = field(default=None,
                                       metadata=_spec("result", _enum(QuickResult), _value))
    kontra: Kontra = field(default=Kontra.NONE, metadata=_spec("kontra", _enum(Kontra), _value))
    kontra_by: int | None = field(default=None, metadata=_spec("kontra_by", _int))
    spitze: int | None = field(default=None, metadata=_spec("spitze", _int))
    spitze_made: bool | None = field(default=None, metadata=_spec("spitze_made", _bool))
    passt_mir_nicht: bool = field(default=False, metadata=_spec("passt_mir_nicht", _bool))
    rum: bool = field(default=False, metadata=_spec("rum", _bool))
    passed_18: tuple[int, ...] | None = field(default=None,
                                              metadata=_spec("passed_18", _ints, _list))
    concession: Concession | None = field(
        default=None, metadata=_spec("concession", _enum(Concession), _value))


@dataclass(frozen=True, slots=True)
class RamschRecord(_Record):
    """A Ramsch: everybody for himself, the most card points lose (DECISIONS §9)."""

    KIND: ClassVar[DealKind] = DealKind.RAMSCH
    BLANK_KEYS: ClassVar[frozenset[str]] = (_GAME_KEYS - {"kontra", "kontra_by"}) | {"penalty"}

    kind: DealKind = field(default=DealKind.RAMSCH,
                           metadata=_spec("kind", _enum(DealKind), _value))
    ramsch: RamschPlay | None = field(default=None, metadata=_spec("ramsch", _ramsch, _nested))
    kontra: Kontra = field(default=Kontra.NONE, metadata=_spec("kontra", _enum(Kontra), _value))
    kontra_by: int | None = field(default=None, metadata=_spec("kontra_by", _int))


@dataclass(frozen=True, slots=True)
class PenaltyRecord(_Record):
    """Penalty points for one seat (a misdeal by hand, a revoke …), outside the rounds."""

    KIND: ClassVar[DealKind] = DealKind.PENALTY
    BLANK_KEYS: ClassVar[frozenset[str]] = _GAME_KEYS | {"ramsch"}

    kind: DealKind = field(default=DealKind.PENALTY,
                           metadata=_spec("kind", _enum(DealKind), _value))
    penalty: PenaltyOrder | None = field(default=None,
                                         metadata=_spec("penalty", _penalty, _nested))


@dataclass(frozen=True, slots=True)
class PassedRecord(_Record):
    """All passed: the cards are thrown in, no score (a passed-deal fee may apply)."""

    KIND: ClassVar[DealKind] = DealKind.PASSED
    BLANK_KEYS: ClassVar[frozenset[str]] = _GAME_KEYS | {"ramsch", "penalty"}

    kind: DealKind = field(default=DealKind.PASSED,
                           metadata=_spec("kind", _enum(DealKind), _value))


@dataclass(frozen=True, slots=True)
class MisdealRecord(_Record):
    """A misdeal: the same dealer deals again, nothing counts."""

    KIND: ClassVar[DealKind] = DealKind.MISDEAL
    BLANK_KEYS: ClassVar[frozenset[str]] = _GAME_KEYS | {"ramsch", "penalty"}

    kind: DealKind = field(default=DealKind.MISDEAL,
                           metadata=_spec("kind", _enum(DealKind), _value))


DealRecord: TypeAlias = GameRecord | RamschRecord | PenaltyRecord | PassedRecord | MisdealRecord
RECORD_TYPES: dict[DealKind, type[_Record]] = {
    DealKind.GAME: GameRecord, DealKind.RAMSCH: RamschRecord, DealKind.PENALTY: PenaltyRecord,
    DealKind.PASSED: PassedRecord, DealKind.MISDEAL: MisdealRecord,
}


def deal_record(d: Json) -> DealRecord:
    """The typed record of a deal's JSON (deal-record.md "A deal"); raises ``RecordError``
    on a shape no record has."""
    if isinstance(d, _Record):
        return d  # type: ignore[return-value]
    if not isinstance(d, dict):
        raise RecordError(None, "a deal record is a JSON object")
    kind = _enum(DealKind)("kind", d.get("kind"))
    record: DealRecord = RECORD_TYPES[DealKind(kind)]._of(d)
    return record


def record_json(record: DealRecord | Mapping[str, Json]) -> dict[str, Json]:
    """The JSON of a typed record; a record already JSON is given back as a plain dict (the
    one place where both are accepted: a service fed by a form or by the offline tablet)."""
    if isinstance(record, _Record):
        return record.to_json()
    return dict(record)


def game_record(**fields: Any) -> GameRecord:
    """A game built in code: the given fields are written, in the spec's order."""
    record: GameRecord = _built(GameRecord, fields)
    return record


def _built(cls: type[Any], fields: Mapping[str, Any]) -> Any:
    shape = _shape(cls)
    order = {name: key for key, (name, _r, _w) in shape.items()}
    given = {"kind": None, **fields}
    keys = tuple(order[name] for name in order if name in given)
    nulls = frozenset(order[name] for name, value in given.items()
                      if value is None and name != "kind")
    values = {k: v for k, v in fields.items() if v is not None}
    return cls(keys=keys, nulls=nulls, **values)


def iter_records(table: Mapping[str, Json]) -> Iterator[DealRecord]:
    """The typed deals of a table document (deal-record.md "A table")."""
    for d in table.get("deals") or ():
        yield deal_record(d)


def is_record(value: object) -> bool:
    """Whether ``value`` is a typed deal record (rather than its JSON)."""
    return isinstance(value, _Record)


__all__ = [
    "Concession", "DealKind", "DealRecord", "GameRecord", "GameType", "Kontra",
    "MisdealRecord", "PassedRecord", "PenaltyOrder", "PenaltyRecord", "QuickResult",
    "RamschPlay", "RamschRecord", "RecordError", "deal_record", "game_record", "is_record",
    "iter_records", "record_json",
]
