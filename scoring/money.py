"""Amounts of money as people read them. The engine computes every amount (as strings of
decimals); this only writes them in the reader's locale: "−6,20" in German, "−6.20" in
English, always with a real minus sign and the currency's own number of decimals."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils.formats import number_format

MINUS = "\u2212"


def places_of(unit: str | Decimal) -> int:
    """Decimal places of a currency's smallest unit: "0.01" → 2, "1" → 0."""
    exponent = Decimal(unit).normalize().as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def amount(value: str | Decimal) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(value)


def money(value: str | Decimal | None, places: int | None = None) -> str:
    """``value`` localised with ``places`` decimals (default: as many as it has)."""
    if value is None or value == "":
        return ""
    try:
        number = amount(value)
    except InvalidOperation:
        return str(value)
    if places is None:
        exponent = number.as_tuple().exponent
        places = max(0, -exponent) if isinstance(exponent, int) else 2
    text = number_format(number, decimal_pos=places, use_l10n=True)
    return MINUS + text[1:] if text.startswith("-") else text


def rate(value: Decimal, unit: str | Decimal) -> Decimal:
    """A stake as written: at least the currency's decimals, more only where it has them
    (0.1 → 0.10, 0.0025 stays, 1 → 1.00 EUR; JPY 2 → 2)."""
    places = places_of(unit)
    exponent = value.normalize().as_tuple().exponent
    own = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return value.quantize(Decimal(1).scaleb(-max(places, own)))
