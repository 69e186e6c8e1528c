"""The engine's one error type, and how its message is put into English or German.

A raise site gives an English template with named parameters::

    raise SkatError("declarer", "Seat {seat} sits out this deal and cannot declare.", seat=2)

Nothing is formatted until a message is asked for: ``err.message`` is the English sentence (the
``score`` command's contract), ``err.message_in("de")`` the German one, looked up in
``messages_de.MESSAGES`` by the English template. A parameter that is itself words says so by
being a ``Phrase`` (words from the catalogue, "The declarer") or a ``Term`` (a name that brings
both spellings, a game's ``Term("Clubs", "Kreuz")``); a nested ``SkatError`` renders too. Other
parameters (numbers, seat numbers, the scorer's own input, field names, JSON codes) are shown as
they are, in every language.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from .messages_de import MESSAGES as MESSAGES_DE

__all__ = ["Listing", "Localized", "Phrase", "SkatError", "Term", "language", "render"]


def language(lang: object) -> str:
    """ "de", "de-at", "de_DE" -> "de"; anything else (None, "en-gb", "fr") -> "en"."""
    if isinstance(lang, str) and lang[:2].lower() == "de" and lang[2:3] in ("", "-", "_"):
        return "de"
    return "en"


@runtime_checkable
class Localized(Protocol):
    """Words that render themselves in a language ("de" or "en")."""

    def in_lang(self, lang: str) -> str: ...


def render(template: str, params: dict[str, object], lang: str) -> str:
    """The template in ``lang`` (normalised by ``language``) with its parameters filled in.

    A template without a German entry, or a German entry whose placeholders do not fit (the
    tests forbid both), falls back to English rather than failing on the error path."""
    lang = language(lang)
    values = {
        key: value.in_lang(lang) if isinstance(value, Localized) else value
        for key, value in params.items()
    }
    if lang == "de":
        german = MESSAGES_DE.get(template)
        if german is not None:
            try:
                return german.format_map(values)
            except (KeyError, IndexError, ValueError):
                pass
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError):
        return template


class Phrase:
    """Words inside a message that need translating too: ``Phrase("The declarer")`` or
    ``Phrase("with {n}", n=3)``; the German comes from the same catalogue as the messages."""

    __slots__ = ("template", "params")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def in_lang(self, lang: str) -> str:
        return render(self.template, self.params, lang)

    def __str__(self) -> str:
        return self.in_lang("en")

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, {self.params!r})"


def who(names: tuple[str, ...] | None, seat: int, *, start: bool = True) -> str | Phrase:
    """A player as a message names him: his name where the table gave names, else his seat
    ("Seat 2" to start a sentence, "seat 2" inside one)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return Phrase("Seat {seat}", seat=seat) if start else Phrase("seat {seat}", seat=seat)


class Listing:
    """Several words inside a message, joined by commas, each in the message's language:
    ``Listing(who(names, s, start=False) for s in seats)`` names players, not seat numbers."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[object]) -> None:
        self.items = tuple(items)

    def in_lang(self, lang: str) -> str:
        return ", ".join(i.in_lang(lang) if isinstance(i, Localized) else str(i)
                         for i in self.items)

    def __str__(self) -> str:
        return self.in_lang("en")

    def __repr__(self) -> str:
        return f"Listing({self.items!r})"


class Term:
    """A name that brings both spellings with it: ``Term("Clubs", "Kreuz")``."""

    __slots__ = ("en", "de")

    def __init__(self, en: str, de: str) -> None:
        self.en = en
        self.de = de

    def in_lang(self, lang: str) -> str:
        return self.de if language(lang) == "de" else self.en

    def __str__(self) -> str:
        return self.en

    def __repr__(self) -> str:
        return f"Term({self.en!r}, {self.de!r})"


class SkatError(ValueError):
    """Invalid input: names the offending field and says what is wrong in a scorer's words.

    ``field`` is the record's field ("bid", "ramsch.points", "options.kontra", …) or None when
    the input as a whole is wrong; ``deal`` is the 1-based number of the record in a table.
    ``template`` and ``params`` are the message before formatting; ``message`` is it in
    English, ``message_in(lang)`` in "en" or "de".
    """

    def __init__(self, field: str | None, template: str, /, deal: int | None = None,
                 **params: object) -> None:
        super().__init__(field, template)
        self.field = field
        self.template = template
        self.params = params
        self.deal = deal

    @property
    def message(self) -> str:
        """The message in English, the language of the interchange contract."""
        return render(self.template, self.params, "en")

    def message_in(self, lang: str | None) -> str:
        """The message in ``lang``: "de" (or "de-at" …) gives German, anything else English."""
        return render(self.template, self.params, language(lang))

    def in_lang(self, lang: str) -> str:
        """A SkatError inside another's message ("Table 2: …") renders like a Phrase."""
        return self.message_in(lang)

    def as_dict(self, lang: str = "en") -> dict[str, object]:
        return {"field": self.field, "message": self.message_in(lang), "deal": self.deal}

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"SkatError(field={self.field!r}, message={self.message!r}, deal={self.deal!r})"
