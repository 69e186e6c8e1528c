"""Names in the order a reader expects: "Änne" with the A, "Özlem" with the O, "Groß" as
"Gross" (DIN 5007-1, the dictionary order German lists use), accents folded the same way for
English readers. Plain Python (unicodedata), no ICU; the database's ordering is byte order,
which puts every umlaut after "Z"."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar, overload

from django.db.models import Case, IntegerField, Model, QuerySet, Value, When

T = TypeVar("T")
M = TypeVar("M", bound=Model)

_SPECIAL = str.maketrans({"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O",
                          "œ": "oe", "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D",
                          "ı": "i"})


def name_key(name: str) -> tuple[str, str]:
    """A sort key for a person's name: letters without their accents and umlaut dots,
    case-folded; the full name (case-folded) breaks ties, so "Müller" and "Muller" keep a
    fixed order."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_SPECIAL))
    base = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return base.casefold(), unicodedata.normalize("NFC", name).casefold()


class Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=Named)


@overload
def by_name(items: Iterable[N], name: None = None) -> list[N]: ...
@overload
def by_name(items: Iterable[T], name: Callable[[T], str]) -> list[T]: ...
def by_name(items: Iterable[Any], name: Callable[[Any], str] | None = None) -> list[Any]:
    """``items`` sorted by their name (``name(item)``, else ``item.name``) in reading order."""
    get = name or (lambda item: str(item.name))
    return sorted(items, key=lambda item: name_key(get(item)))


def ordered_by_name(queryset: QuerySet[M], first: str | None = None) -> QuerySet[M]:
    """The rows of ``queryset`` in reading order of their ``name`` (after the boolean field
    ``first``, if given: False before True), still a queryset, as form fields need: the order
    is worked out here and handed to the database as a CASE over the primary keys."""
    rows = list(queryset.values_list("pk", "name", *([first] if first else [])))
    rows.sort(key=lambda row: ((bool(row[2]),) if first else ()) + name_key(row[1]))
    if not rows:
        return queryset
    place = Case(*[When(pk=row[0], then=Value(i)) for i, row in enumerate(rows)],
                 output_field=IntegerField())
    return queryset.order_by(place, "pk")


# ---------------------------------------------------------------- names that can be read

# Characters that change how text looks without being seen themselves: bidi controls
# (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) reorder a list's names, zero-width ones
# (U+200B–U+200D, U+2060, U+FEFF) make two equal-looking names different. Unicode's
# categories Cf (format) and Cc (control), Co (private use), Cs (surrogates) and Cn
# (unassigned) cover them and everything else a name has no use for.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Cn"})
# Letters that look like blanks but are not white space to str.split().
_BLANK_LOOKING = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"})


def invisible_characters(text: str) -> list[str]:
    """The invisible or control characters in ``text`` as code points ("U+202E"), each
    once, in the order found; [] for a clean name."""
    found: list[str] = []
    for ch in text:
        if ch in _BLANK_LOOKING or unicodedata.category(ch) in _INVISIBLE_CATEGORIES:
            code = f"U+{ord(ch):04X}"
            if code not in found:
                found.append(code)
    return found


def refuse_invisible(value: str) -> None:
    """A model field's validator for the names of people, clubs, teams, tournaments and
    leagues: no bidi controls, zero-width or other invisible characters."""
    from django.core.exceptions import ValidationError
    from django.utils.translation import gettext as _

    bad = invisible_characters(value)
    if bad:
        raise ValidationError(
            _("A name may not contain invisible or control characters (%(codes)s): type "
              "it again without them.") % {"codes": ", ".join(bad)},
            code="invisible")


# ---------------------------------------------------------------- user names (issue 35)

def username_key(name: str) -> str:
    """A user name as the site compares it: NFKC (a fullwidth "ａ_ａｄｍｉｎ" is "a_admin"),
    case-folded, NFKC again (folding may undo it) and stripped. Two names with one key are
    one name: registration, invitations, sign-in and the limits on wrong passwords all
    compare keys."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return folded.strip()


# Letters of other scripts drawn like Latin ones (a small part of Unicode's confusables,
# UTS #39, the part a club's user names meet: Cyrillic and Greek), each mapped to the Latin
# letter of the same case before case folding, so that a Cyrillic "В" is a "B" and a Greek
# "ν" a "v". Unicode's full table (the confusable_homoglyphs package carries it) would add a
# dependency and a megabyte of data for scripts Django's user names hardly meet.
_LATIN_LOOKING = str.maketrans({
    # Cyrillic
    "А": "A", "а": "a", "В": "B", "Е": "E", "е": "e", "Ё": "E", "ё": "e", "К": "K",
    "к": "k", "М": "M", "Н": "H", "О": "O", "о": "o", "Р": "P", "р": "p", "С": "C",
    "с": "c", "Т": "T", "У": "Y", "у": "y", "Х": "X", "х": "x", "І": "I", "і": "i",
    "Ї": "I", "ї": "i", "Ј": "J", "ј": "j", "Ѕ": "S", "ѕ": "s", "Ԁ": "D", "ԁ": "d",
    "Ԛ": "Q", "ԛ": "q", "Ԝ": "W", "ԝ": "w", "Һ": "h", "һ": "h", "ь": "b", "Ү": "Y",
    "ү": "y", "Ӏ": "l", "ӏ": "l",
    # Greek
    "Α": "A", "α": "a", "Β": "B", "β": "b", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I",
    "ι": "i", "Κ": "K", "κ": "k", "Μ": "M", "Ν": "N", "ν": "v", "Ο": "O", "ο": "o",
    "Ρ": "P", "ρ": "p", "Τ": "T", "τ": "t", "Υ": "Y", "υ": "u", "Χ": "X", "χ": "x",
    "ϲ": "c", "Ϲ": "C", "ϳ": "j",
})
# After case folding: the letters and digits drawn alike in a name (0 and O; 1, l and a
# capital I, which folds to i), each to one of them.
_ONE_SHAPE = str.maketrans({"0": "o", "1": "l", "i": "l", "ı": "l"})


def username_skeleton(name: str) -> str:
    """What a user name looks like: its key with the look-alike letters of other scripts
    made Latin, 0/O, 1/l/I made one, "rn" an "m" and "vv" a "w". Two names with one
    skeleton are refused as look-alikes. Idempotent, and equal for NFKC-equivalent names."""
    text = name
    for _round in range(4):  # two rounds reach the fixed point; four bound it
        step = unicodedata.normalize("NFKC", text).translate(_LATIN_LOOKING)
        step = username_key(step).translate(_ONE_SHAPE)
        step = step.replace("rn", "m").replace("vv", "w")
        if step == text:
            break
        text = step
    return text
