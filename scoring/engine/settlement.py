"""Money: settling a score sheet between the players (DECISIONS.md §6 and §8 "Money").

Pure: the standard library plus the engine's ``errors`` module, no Django. Every amount the
club can configure has at most four decimal places, so all arithmetic runs on whole numbers of
*ticks* (1/10 000 of the currency's major unit): integers are exact at any size, where
``Decimal`` would round at its context precision.
``Decimal`` appears only at the edges (parsing options and the stake); the result carries money
as strings of decimals.

Conventions of the result (``settle``):

- seats are string keys "0", "1", … in ``net``, ``fees``, ``balance`` and ``checks``;
- ``pairs`` are listed in score-sheet order: by seat pair (lower seat, higher seat), i.e.
  A–B, A–C, A–D, B–C, …; a pair is listed when the two compared totals differ (the point
  totals, or the money totals under ``round_totals_first``), even if its rounded or capped
  amount is 0;
- ``transfers`` are sorted by (from, to); ``capped`` is ascending;
- ``checks`` are computed from the point totals, before any cap; ``agree`` holds when the three
  methods give the same money and every uncapped rounded net is within the rounding the pair
  payments can introduce: ½ unit per pair, or (``round_totals_first``) just under 2 units per
  pair, since two totals truncated toward zero from opposite signs move apart by up to that.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from .errors import Phrase, SkatError

__all__ = [
    "SettlementError",
    "SettlementOptions",
    "minor_unit",
    "parse_settlement_options",
    "parse_stake",
    "settle",
]

MAX_PLACES = 4
TICKS_PER_MAJOR = 10**MAX_PLACES
# Sanity bounds: far beyond any club evening, small enough that no input can make the
# arithmetic or the string conversions blow up.
MAX_AMOUNT_DIGITS = 12  # digits before the decimal point
MAX_ABS_TOTAL = 10**12
MAX_COUNT = 10**6
# The subset DP for the shortest transfer list costs 2^k · k steps for k players with a
# nonzero balance; 12 keeps it around 50 000 steps.
OPTIMAL_TRANSFER_LIMIT = 12

SETTLEMENT_ON = ("classic", "seeger_fabian")
OPTION_KEYS = (
    "on",
    "round_totals_first",
    "lost_game_fee",
    "lost_game_fee_tiers",
    "passed_deal_fee",
    "entry_fee",
    "loss_cap",
)

# ISO 4217 currencies whose smallest unit is not the cent; every other code is taken as 0.01.
_ZERO_DECIMAL = frozenset({
    "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
    "VUV", "XAF", "XOF", "XPF",
})
_THREE_DECIMAL = frozenset({"BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"})
_CURRENCY = re.compile(r"[A-Z]{3}")
# Plain decimal notation only: no exponent, no spaces, no "NaN"; the sign is allowed so that a
# negative amount gets the clearer "cannot be negative" message.
_AMOUNT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_AMOUNT_MAX_LENGTH = 40


class SettlementError(SkatError):
    """Invalid settlement input, naming the field ("settlement.loss_cap", "stake", …).

    A ``SkatError`` (hence a ``ValueError``), so the engine's one error type covers it.
    """

    def __init__(self, field: str, template: str, /, **params: object) -> None:
        super().__init__(field, template, None, **params)

    def __repr__(self) -> str:
        return f"SettlementError(field={self.field!r}, message={self.message!r})"


# ---------------------------------------------------------------------------------------------
# Amounts


def _coefficient(digits: tuple[int, ...]) -> int:
    value = 0
    for digit in digits:
        value = value * 10 + digit
    return value


def _ticks(value: Decimal) -> int | None:
    """Exact ticks of a finite Decimal, or None when it is finer than 1/10 000."""
    sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)  # finite: callers checked
    coefficient = _coefficient(digits)
    shift = exponent + MAX_PLACES
    scale: int = 10 ** abs(shift)  # int ** int is typed Any (a negative power is a float)
    if shift >= 0:
        ticks = coefficient * scale
    else:
        ticks, rest = divmod(coefficient, scale)
        if rest:
            return None
    return -ticks if sign else ticks


def _check_amount(value: Decimal, field: str, what: Phrase) -> Decimal:
    """A finite, non-negative Decimal with at most four decimal places (-0 becomes 0)."""
    if not value.is_finite():
        raise SettlementError(field, "{what} must be a finite amount, not {value}.", what=what,
                              value=str(value))
    if len(value.as_tuple().digits) > _AMOUNT_MAX_LENGTH or value.adjusted() >= MAX_AMOUNT_DIGITS:
        raise SettlementError(field, "{what} {value} is too large.", what=what, value=str(value))
    if value < 0:
        raise SettlementError(field, "{what} cannot be negative ({value}).", what=what,
                              value=str(value))
    if _ticks(value) is None:
        raise SettlementError(field, "{what} {value} has more than {places} decimal places.",
                              what=what, value=str(value), places=MAX_PLACES)
    return value.copy_abs()


def _parse_amount(raw: object, field: str, what: Phrase) -> Decimal:
    # float is refused outright: 0.1 is not a tenth, and money must never pass through binary.
    if isinstance(raw, bool | float):
        raise SettlementError(
            field, '{what} must be written as a string of decimals such as "0.50", not {raw!r}.',
            what=what, raw=raw,
        )
    if isinstance(raw, int):
        value = Decimal(raw)
    elif isinstance(raw, Decimal):
        value = raw
    elif isinstance(raw, str):
        if len(raw) > _AMOUNT_MAX_LENGTH or not _AMOUNT.fullmatch(raw):
            raise SettlementError(
                field, '{what} must be a decimal amount such as "0.50", not {raw!r}.', what=what,
                raw=raw,
            )
        value = Decimal(raw)
    else:
        raise SettlementError(
            field, '{what} must be a string of decimals such as "0.50", not {type}.', what=what,
            type=type(raw).__name__,
        )
    return _check_amount(value, field, what)


def parse_stake(raw: object) -> Decimal:
    """The stake per point: a string of decimals ("0.05", "0.0025" = ¼ cent) or an int."""
    return _parse_amount(raw, "stake", _STAKE)


def minor_unit(currency: str) -> Decimal:
    """The currency's smallest unit: 0.01 unless ISO 4217 says otherwise (JPY, KRW, ISK: 1)."""
    if not isinstance(currency, str) or not _CURRENCY.fullmatch(currency):
        raise SettlementError(
            "currency", "The currency must be a code of three capital letters such as EUR, "
            "not {currency!r}.", currency=currency,
        )
    if currency in _ZERO_DECIMAL:
        return Decimal("1")
    if currency in _THREE_DECIMAL:
        return Decimal("0.001")
    return Decimal("0.01")


def _places(unit: Decimal) -> int:
    exponent = unit.as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def _format(ticks: int, places: int) -> str:
    """Ticks as a string with at least ``places`` decimals and as many more as needed."""
    whole, fraction = divmod(abs(ticks), TICKS_PER_MAJOR)
    digits = f"{fraction:0{MAX_PLACES}d}".rstrip("0").ljust(places, "0")
    sign = "-" if ticks < 0 else ""
    return f"{sign}{whole}.{digits}" if digits else f"{sign}{whole}"


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class SettlementOptions:
    """The table's ``settlement`` object (deal-record.md "Options"), validated on creation."""

    on: str = "classic"
    round_totals_first: bool = False
    lost_game_fee: Decimal = Decimal("0.00")
    lost_game_fee_tiers: tuple[tuple[int, Decimal], ...] | None = None
    passed_deal_fee: Decimal = Decimal("0.00")
    entry_fee: Decimal = Decimal("0.00")
    loss_cap: Decimal | None = None

    def __post_init__(self) -> None:
        # Built directly or by parse_settlement_options: either way an instance is valid.
        if self.on not in SETTLEMENT_ON:
            raise SettlementError("settlement.on", "settlement.on must be one of {choices}.",
                                  choices=", ".join(SETTLEMENT_ON))
        if not isinstance(self.round_totals_first, bool):
            raise SettlementError(
                "settlement.round_totals_first", "settlement.round_totals_first must be true or "
                "false."
            )
        for key in ("lost_game_fee", "passed_deal_fee", "entry_fee", "loss_cap"):
            value = getattr(self, key)
            if key == "loss_cap" and value is None:
                continue
            _check_decimal(value, f"settlement.{key}", _LABELS[key])
        if self.lost_game_fee_tiers is not None:
            _check_tiers(self.lost_game_fee_tiers)
            if self.lost_game_fee != 0:
                raise SettlementError(
                    "settlement.lost_game_fee",
                    "Give either a flat lost-game fee or fee tiers, not both: with "
                    "lost_game_fee_tiers, lost_game_fee must be 0.",
                )


_LABELS = {
    "lost_game_fee": Phrase("The lost-game fee"),
    "passed_deal_fee": Phrase("The passed-deal fee"),
    "entry_fee": Phrase("The entry fee"),
    "loss_cap": Phrase("The loss cap"),
}
_STAKE = Phrase("The stake")
_LOST_GAMES = Phrase("The lost games")
_PASSED_DEALS = Phrase("The passed deals")


def _tier_fee(number: int) -> Phrase:
    return Phrase("The fee of lost-game fee tier {number}", number=number)
_TIERS = "settlement.lost_game_fee_tiers"


def _check_decimal(value: object, field: str, what: Phrase) -> None:
    if not isinstance(value, Decimal):
        raise SettlementError(field, "{what} must be a Decimal amount, not {value!r}.",
                              what=what, value=value)
    _check_amount(value, field, what)


def _check_tiers(tiers: object) -> None:
    if not isinstance(tiers, tuple) or not tiers:
        raise SettlementError(
            _TIERS, "Lost-game fee tiers must be a non-empty tuple of (from, fee) pairs."
        )
    previous = 0
    for number, tier in enumerate(tiers, start=1):
        if not (isinstance(tier, tuple) and len(tier) == 2):
            raise SettlementError(_TIERS, "Lost-game fee tier {number} must be (from, fee).",
                                  number=number)
        start, fee = tier
        if isinstance(start, bool) or not isinstance(start, int) or start <= previous:
            raise SettlementError(
                _TIERS,
                "Lost-game fee tier {number}: 'from' must be a whole number above {previous}, "
                "not {start!r} (tiers go in ascending order).",
                number=number, previous=previous, start=start,
            )
        if number == 1 and start != 1:
            raise SettlementError(
                _TIERS, "The first lost-game fee tier must start from 1, not {start}.",
                start=start,
            )
        if start > MAX_COUNT:
            raise SettlementError(_TIERS, "Lost-game fee tier {number} starts too late.",
                                  number=number)
        _check_decimal(fee, _TIERS, _tier_fee(number))
        previous = start


def _parse_tiers(raw: object) -> tuple[tuple[int, Decimal], ...] | None:
    """JSON ``[{"from": 1, "fee": "0.50"}, {"from": 5, "fee": "1.00"}]`` → ((1, 0.50), (5, 1.00)).

    Lost games 1–4 then cost 0.50 each and every one from the 5th on 1.00.
    """
    if raw is None:
        return None
    if not isinstance(raw, list | tuple) or not raw:
        raise SettlementError(
            _TIERS, 'Lost-game fee tiers must be null or a non-empty list such as '
            '[{{"from": 1, "fee": "0.50"}}].'
        )
    tiers: list[tuple[int, Decimal]] = []
    for number, item in enumerate(raw, start=1):
        if not isinstance(item, Mapping) or set(item) != {"from", "fee"}:
            raise SettlementError(
                _TIERS,
                'Lost-game fee tier {number} must be an object with exactly "from" and "fee".',
                number=number,
            )
        fee = _parse_amount(item["fee"], _TIERS, _tier_fee(number))
        tiers.append((item["from"], fee))
    result = tuple(tiers)
    _check_tiers(result)
    return result


def parse_settlement_options(raw: object) -> SettlementOptions:
    """The ``settlement`` object of a table (None or absent keys → defaults)."""
    if raw is None:
        return SettlementOptions()
    if not isinstance(raw, Mapping):
        raise SettlementError("settlement", "settlement must be an object (or null).")
    for key in raw:
        if key not in OPTION_KEYS:
            raise SettlementError(
                f"settlement.{key}", "Unknown settlement option {key!r}; known: {choices}.",
                key=key, choices=", ".join(OPTION_KEYS),
            )
    on = raw.get("on", "classic")
    if not isinstance(on, str) or on not in SETTLEMENT_ON:
        raise SettlementError(
            "settlement.on", "settlement.on must be one of {choices}, not {on!r}.",
            choices=", ".join(SETTLEMENT_ON), on=on,
        )
    round_first = raw.get("round_totals_first", False)
    if not isinstance(round_first, bool):
        raise SettlementError(
            "settlement.round_totals_first",
            "settlement.round_totals_first must be true or false, not {value!r}.",
            value=round_first,
        )
    amounts = {
        key: _parse_amount(raw.get(key, "0.00"), f"settlement.{key}", _LABELS[key])
        for key in ("lost_game_fee", "passed_deal_fee", "entry_fee")
    }
    cap_raw = raw.get("loss_cap")
    loss_cap = (
        None if cap_raw is None
        else _parse_amount(cap_raw, "settlement.loss_cap", _LABELS["loss_cap"])
    )
    return SettlementOptions(
        on=on,
        round_totals_first=round_first,
        lost_game_fee=amounts["lost_game_fee"],
        lost_game_fee_tiers=_parse_tiers(raw.get("lost_game_fee_tiers")),
        passed_deal_fee=amounts["passed_deal_fee"],
        entry_fee=amounts["entry_fee"],
        loss_cap=loss_cap,
    )


# ---------------------------------------------------------------------------------------------
# Input checks of settle()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_totals(totals: object) -> list[int]:
    if not isinstance(totals, Sequence) or isinstance(totals, str | bytes):
        raise SettlementError("totals", "The totals must be a list of points, one per seat.")
    if len(totals) < 2:
        raise SettlementError("totals", "A settlement needs at least two players.")
    for seat, total in enumerate(totals):
        if not _is_int(total):
            raise SettlementError(
                "totals", "Seat {seat}'s total must be a whole number of points, not {total!r}.",
                seat=seat, total=total,
            )
        if abs(total) > MAX_ABS_TOTAL:
            raise SettlementError(
                "totals", "Seat {seat}'s total {total} is not a plausible score.", seat=seat,
                total=total,
            )
    return list(totals)


def _check_counts(counts: object, players: int, field: str,
                  what: Phrase) -> list[int] | None:
    if counts is None:
        return None
    if not isinstance(counts, Sequence) or isinstance(counts, str | bytes):
        raise SettlementError(field, "{what} must be a list with one number per seat.",
                              what=what)
    if len(counts) != players:
        raise SettlementError(
            field, "{what} must have one number per seat: {players}, not {count}.", what=what,
            players=players, count=len(counts),
        )
    for seat, count in enumerate(counts):
        if not _is_int(count) or not 0 <= count <= MAX_COUNT:
            raise SettlementError(
                field, "{what}: seat {seat} needs a whole number of at least 0, not {count!r}.",
                what=what, seat=seat, count=count,
            )
    return list(counts)


def _stake_ticks(stake: object) -> int:
    if not isinstance(stake, Decimal):
        raise SettlementError(
            "stake", "The stake must be a Decimal (see parse_stake), not {stake!r}.", stake=stake
        )
    ticks = _ticks(_check_amount(stake, "stake", _STAKE))
    assert ticks is not None  # _check_amount guarantees at most four places
    return ticks


def _check_whole_units(amount: Decimal, unit: int, currency: str, field: str,
                       what: Phrase) -> None:
    """Fees and the cap are real coins changing hands: whole units of the currency."""
    if _must_ticks(amount) % unit:
        raise SettlementError(
            field, "{what} {amount} is finer than the smallest unit of {currency} ({unit}).",
            what=what, amount=str(amount), currency=currency, unit=_format(unit, 0),
        )


# ---------------------------------------------------------------------------------------------
# Pairwise payments


@dataclass(frozen=True)
class _Pair:
    payer: int
    payee: int
    points: int
    ticks: int


def _round_half_up(ticks: int, unit: int) -> int:
    # Pair payments are never negative, and every unit is an even number of ticks.
    return (ticks + unit // 2) // unit * unit


def _truncate(ticks: int, unit: int) -> int:
    """Toward zero (DECISIONS.md §8 "Money"): −21.25 cents becomes −21, not −22."""
    whole = abs(ticks) // unit * unit
    return -whole if ticks < 0 else whole


def _pairs(totals: list[int], stake: int, unit: int, round_totals_first: bool) -> list[_Pair]:
    """Every pair whose compared totals differ, in score-sheet order (A–B, A–C, …, B–C, …)."""
    money = [_truncate(total * stake, unit) for total in totals] if round_totals_first else None
    pairs = []
    for low_seat in range(len(totals)):
        for high_seat in range(low_seat + 1, len(totals)):
            a, b = totals[low_seat], totals[high_seat]
            payer, payee = (low_seat, high_seat) if a < b else (high_seat, low_seat)
            points = abs(a - b)
            if money is None:
                ticks = _round_half_up(points * stake, unit)
                listed = points != 0
            else:
                ticks = money[payee] - money[payer]
                listed = ticks != 0
            if listed:
                pairs.append(_Pair(payer, payee, points, ticks))
    return pairs


def _nets(pairs: list[_Pair], players: int) -> list[int]:
    nets = [0] * players
    for pair in pairs:
        nets[pair.payee] += pair.ticks
        nets[pair.payer] -= pair.ticks
    return nets


# ---------------------------------------------------------------------------------------------
# Loss cap


def _largest_remainder(amounts: list[int], target: int) -> list[int]:
    """Scale whole ``amounts`` (sum > target ≥ 0) to whole shares summing exactly to ``target``.

    Each share is floored; the units left over go to the largest remainders (ties: the larger
    original amount, then list order), so the result is as close to pro rata as whole units allow.
    """
    total = sum(amounts)
    shares = [amount * target // total for amount in amounts]
    remainders = [amount * target % total for amount in amounts]
    left = target - sum(shares)
    order = sorted(range(len(amounts)), key=lambda i: (-remainders[i], -amounts[i], i))
    for index in order[:left]:
        shares[index] += 1
    return shares


def _cap_seat(pairs: list[_Pair], seat: int, cap: int, unit: int) -> list[_Pair] | None:
    """Scale down what ``seat`` pays so his net is exactly −cap; None when he is within it."""
    income = sum(pair.ticks for pair in pairs if pair.payee == seat)
    paying = [index for index, pair in enumerate(pairs) if pair.payer == seat]
    outgoing = sum(pairs[index].ticks for index in paying)
    if outgoing - income <= cap:
        return None
    # Units, not ticks: every amount, the cap and the income are whole units already.
    shares = _largest_remainder(
        [pairs[index].ticks // unit for index in paying], (income + cap) // unit
    )
    result = list(pairs)
    for index, share in zip(paying, shares, strict=True):
        old = pairs[index]
        result[index] = _Pair(old.payer, old.payee, old.points, share * unit)
    return result


def _apply_loss_cap(
    pairs: list[_Pair], players: int, cap: int, unit: int
) -> tuple[list[_Pair], list[int]]:
    """Cap every loss at ``cap``, seat by seat, until nobody is over it.

    Capping a seat lowers his creditors' income, which can push one of them (already visited)
    over the cap in turn, so passes repeat; each capping strictly lowers the total paid, so
    this ends.
    """
    capped: set[int] = set()
    changed = True
    while changed:
        changed = False
        for seat in range(players):
            reduced = _cap_seat(pairs, seat, cap, unit)
            if reduced is not None:
                pairs, changed = reduced, True
                capped.add(seat)
    return pairs, sorted(capped)


# ---------------------------------------------------------------------------------------------
# Fees


def _lost_game_fees(lost: int, options: SettlementOptions) -> int:
    """Ticks owed for ``lost`` lost games; tiers charge the n-th lost game at its own tier."""
    tiers = options.lost_game_fee_tiers
    if tiers is None:
        return lost * _must_ticks(options.lost_game_fee)
    owed = 0
    for index, (start, fee) in enumerate(tiers):
        end = tiers[index + 1][0] - 1 if index + 1 < len(tiers) else lost
        owed += max(0, min(end, lost) - start + 1) * _must_ticks(fee)
    return owed


def _must_ticks(amount: Decimal) -> int:
    ticks = _ticks(amount)
    assert ticks is not None  # validated by SettlementOptions
    return ticks


def _charges(options: SettlementOptions) -> tuple[bool, bool]:
    """Whether the options charge lost games and passed deals (then the counts are needed)."""
    tiers = options.lost_game_fee_tiers or ()
    lost = options.lost_game_fee > 0 or any(fee > 0 for _, fee in tiers)
    return lost, options.passed_deal_fee > 0


def _fees(
    players: int, options: SettlementOptions, lost: list[int] | None, passed: list[int] | None
) -> list[int]:
    entry = _must_ticks(options.entry_fee)
    per_passed = _must_ticks(options.passed_deal_fee)
    fees = []
    for seat in range(players):
        owed = entry
        if lost is not None:
            owed += _lost_game_fees(lost[seat], options)
        if passed is not None:
            owed += passed[seat] * per_passed
        fees.append(owed)
    return fees


def _check_fee_units(options: SettlementOptions, unit: int, currency: str) -> None:
    for key, what in _LABELS.items():
        value = getattr(options, key)
        if value is not None:
            _check_whole_units(value, unit, currency, f"settlement.{key}", what)
    for number, (_, fee) in enumerate(options.lost_game_fee_tiers or (), start=1):
        _check_whole_units(fee, unit, currency, _TIERS, _tier_fee(number))


# ---------------------------------------------------------------------------------------------
# Shortest list of transfers


def _greedy(nets: dict[int, int]) -> list[tuple[int, int, int]]:
    """Largest debtor pays the largest creditor (ties: lower seat); ≤ k − 1 transfers for k."""
    left = dict(nets)
    transfers = []
    while any(left.values()):
        debtor = min(left, key=lambda seat: (left[seat], seat))
        creditor = max(left, key=lambda seat: (left[seat], -seat))
        amount = min(-left[debtor], left[creditor])
        transfers.append((debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
    return transfers


def _zero_sum_groups(seats: list[int], nets: list[int]) -> list[list[int]]:
    """Split ``seats`` into as many zero-sum groups as possible (subset DP over bitmasks).

    dp[mask] = the most zero-sum prefixes an ordering of ``mask`` can have; an ordering that
    attains dp[full] cut at its zero-sum prefixes gives the groups. Each group of g seats then
    settles in g − 1 transfers, so more groups means fewer transfers: k − groups is optimal.
    """
    count = len(seats)
    full = (1 << count) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + nets[seats[low]]
        members = [bit for bit in range(count) if mask >> bit & 1]
        best[mask] = max(best[mask ^ (1 << bit)] for bit in members) + (sums[mask] == 0)
    order: list[int] = []
    mask = full
    while mask:
        bonus = sums[mask] == 0
        bit = next(
            bit for bit in range(count)
            if mask >> bit & 1 and best[mask ^ (1 << bit)] + bonus == best[mask]
        )
        order.append(bit)
        mask ^= 1 << bit
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for bit in reversed(order):
        current.append(seats[bit])
        running += nets[seats[bit]]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _transfers(nets: list[int]) -> list[tuple[int, int, int]]:
    seats = [seat for seat, net in enumerate(nets) if net]
    # Too many for the DP: one greedy pass over everybody, still at most k − 1 transfers.
    small = len(seats) <= OPTIMAL_TRANSFER_LIMIT
    groups = _zero_sum_groups(seats, nets) if small else [seats]
    transfers = []
    for group in groups:
        transfers.extend(_greedy({seat: nets[seat] for seat in group}))
    return sorted(transfers)


# ---------------------------------------------------------------------------------------------
# Cross-checks (DECISIONS.md §6; seed cases S-05, S-06, H-16)


def _exact(totals: list[int], stake: int) -> list[int]:
    """stake × (n·S_i − ΣS), in ticks: the unrounded net."""
    players, whole = len(totals), sum(totals)
    return [stake * (players * total - whole) for total in totals]


def _lowest_zero(totals: list[int], stake: int) -> list[int]:
    """000's method: lowest score = 0; his loss T = Σ adjusted; others get n·a_i − T."""
    lowest = min(totals)
    adjusted = [total - lowest for total in totals]
    loss = sum(adjusted)
    return [(len(totals) * points - loss) * stake for points in adjusted]


def _average(totals: list[int], stake: int) -> list[Fraction]:
    """000's average method: (S_i − mean) × n × stake, computed with the (inexact) mean."""
    mean = Fraction(sum(totals), len(totals))
    return [(total - mean) * len(totals) * stake for total in totals]


def _checks(
    totals: list[int], stake: int, unit: int, rounded: list[int], round_first: bool, places: int
) -> dict[str, object]:
    exact = _exact(totals, stake)
    lowest = _lowest_zero(totals, stake)
    average = _average(totals, stake)
    # Half-up pair payments are each off by at most half a unit. Truncating the totals toward
    # zero can shift a pair by almost two units (the two totals truncated in opposite
    # directions when their signs differ).
    per_pair = 4 if round_first else 1  # in half units
    limit = (len(totals) - 1) * per_pair * unit
    agree = (
        lowest == exact
        and average == exact
        and all(2 * abs(net - value) <= limit for net, value in zip(rounded, exact, strict=True))
    )
    return {
        "exact": _seat_map(exact, places),
        "lowest_zero": _seat_map(lowest, places),
        "average": {str(seat): _format_fraction(value, places) for seat, value in
                    enumerate(average)},
        "agree": agree,
    }


def _format_fraction(value: Fraction, places: int) -> str:
    if value.denominator == 1:
        return _format(value.numerator, places)
    # Cannot happen (n·mean = ΣS); shown rather than hidden if it ever did.
    return str(Decimal(value.numerator) / Decimal(value.denominator * TICKS_PER_MAJOR))


def _seat_map(ticks: list[int], places: int) -> dict[str, str]:
    return {str(seat): _format(value, places) for seat, value in enumerate(ticks)}


# ---------------------------------------------------------------------------------------------
# The settlement


def settle(
    totals: Sequence[int],
    *,
    stake: Decimal,
    currency: str = "EUR",
    options: SettlementOptions = SettlementOptions(),  # noqa: B008 - frozen, safe to share
    lost_games: Sequence[int] | None = None,
    passed_deals: Sequence[int] | None = None,
) -> dict[str, object]:
    """Settle the totals (points per seat) in money; see the module docstring for the shape."""
    unit_value = minor_unit(currency)
    unit, places = _must_ticks(unit_value), _places(unit_value)
    scores = _check_totals(totals)
    stake_ticks = _stake_ticks(stake)
    if not isinstance(options, SettlementOptions):
        raise SettlementError("settlement", "The options must be SettlementOptions.")
    lost = _check_counts(lost_games, len(scores), "lost_games", _LOST_GAMES)
    passed = _check_counts(passed_deals, len(scores), "passed_deals", _PASSED_DEALS)
    _check_fee_units(options, unit, currency)
    charges_lost, charges_passed = _charges(options)
    if charges_lost and lost is None:
        raise SettlementError("lost_games", "The lost-game fee needs each seat's lost games.")
    if charges_passed and passed is None:
        raise SettlementError("passed_deals", "The passed-deal fee needs each seat's passed deals.")

    pairs = _pairs(scores, stake_ticks, unit, options.round_totals_first)
    rounded = _nets(pairs, len(scores))
    capped: list[int] = []
    if options.loss_cap is not None:
        cap = _must_ticks(options.loss_cap)
        pairs, capped = _apply_loss_cap(pairs, len(scores), cap, unit)
    nets = _nets(pairs, len(scores))
    fees = _fees(len(scores), options, lost, passed)
    return {
        "currency": currency,
        "on": options.on,
        "stake": _format(stake_ticks, places),
        "unit": _format(unit, places),
        "pairs": [
            {
                "payer": pair.payer,
                "payee": pair.payee,
                "points": pair.points,
                "amount": _format(pair.ticks, places),
            }
            for pair in pairs
        ],
        "net": _seat_map(nets, places),
        "fees": _seat_map(fees, places),
        "pot": _format(sum(fees), places),
        "balance": _seat_map([net - fee for net, fee in zip(nets, fees, strict=True)], places),
        "transfers": [
            {"from": debtor, "to": creditor, "amount": _format(amount, places)}
            for debtor, creditor, amount in _transfers(nets)
        ],
        "checks": _checks(
            scores, stake_ticks, unit, rounded, options.round_totals_first, places
        ),
        "capped": capped,
    }
