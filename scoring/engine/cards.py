"""Cards, card points and matadors ("with/without n").

A card is written suit letter + rank: C S H D (Kreuz, Pik, Herz, Karo) and A 10 K Q J 9 8 7,
e.g. "CJ", "H10", "D7".
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import SkatError

SUITS = ("C", "S", "H", "D")
RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
RANK_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
CARD_POINTS: dict[str, int] = {s + r: p for s in SUITS for r, p in RANK_POINTS.items()}

JACKS = ("CJ", "SJ", "HJ", "DJ")
# Trump order of a suit game below the four Jacks (the Jack is not part of its suit).
SUIT_TRUMP_RANKS = ("A", "10", "K", "Q", "9", "8", "7")


def trump_sequence(trump: str | None) -> tuple[str, ...]:
    """The trumps from the highest down: the four Jacks, then the trump suit (None = Grand)."""
    if trump is None:
        return JACKS
    return JACKS + tuple(trump + r for r in SUIT_TRUMP_RANKS)


def parse_cards(raw: object, field: str = "cards") -> frozenset[str]:
    """Check a list of distinct card codes; the field name goes into the error."""
    if not isinstance(raw, list):
        raise SkatError(field, "Cards must be a list such as [\"CJ\", \"H10\"].")
    cards = []
    for card in raw:
        if not isinstance(card, str) or card not in CARD_POINTS:
            raise SkatError(
                field, "{card!r} is not a card: write suit C S H D and rank A 10 K Q J 9 8 7.",
                card=card,
            )
        cards.append(card)
    if len(set(cards)) != len(cards):
        raise SkatError(field, "A card is listed twice.")
    return frozenset(cards)


def card_points(cards: Iterable[str]) -> int:
    """Card points (Augen) of the cards: A 11, 10 10, K 4, Q 3, J 2."""
    return sum(CARD_POINTS[c] for c in cards)


def matadors(cards: Iterable[str], trump: str | None) -> int:
    """Matadors of a holding (hand plus skat): +n "with n", -n "without n".

    Counts the unbroken run of trumps from the Jack of Clubs down: held ones when the Jack of
    Clubs is held, missing ones when it is not.
    """
    held = set(cards)
    sequence = trump_sequence(trump)
    with_top = sequence[0] in held
    run = 0
    for card in sequence:
        if (card in held) != with_top:
            break
        run += 1
    return run if with_top else -run
