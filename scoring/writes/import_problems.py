"""The words and problems of an import in the interchange format (deal-record.md) and of
the other files an upload may hold (a sheet's CSV, a paper season's totals): a sentence in
either language (``Words``), the problem that stops an import (``ImportProblem``), a file
beyond what one upload may make the site do (``OverBounds``), and the bound of time a check
may take (``budget``, ``tick``)."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from time import monotonic

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.engine import Localized, language


class Words:
    """A sentence of the reader, or a part of one ("Table 2, deal 3"), in either language:
    a template marked for translation (gettext_lazy, ``%(name)s`` placeholders) and its
    values, put together only when a language is asked for. A value that is words itself
    (Words, an engine ``SkatError`` through its own German catalogue, a model's refusal)
    renders in the same language; any other value (numbers, the file's own text, field names
    of the format) is shown as it is."""

    __slots__ = ("template", "params")

    def __init__(self, template: str | Promise, /, **params: object) -> None:
        self.template = template
        self.params = params

    def in_lang(self, lang: str) -> str:
        lang = language(lang)
        with translation.override(lang):
            values = {key: value.in_lang(lang) if isinstance(value, Localized) else value
                      for key, value in self.params.items()}
            return str(self.template) % values

    def __str__(self) -> str:
        return self.in_lang("en")

    def __repr__(self) -> str:
        return f"Words({str(self.template)!r}, {self.params!r})"


class Refusal:
    """A model's ValidationError inside a message: Django's own messages are lazy, so they
    come out in the language asked for."""

    __slots__ = ("error",)

    def __init__(self, error: ValidationError) -> None:
        self.error = error

    def in_lang(self, lang: str) -> str:
        with translation.override(language(lang)):
            return " ".join(str(m) for m in self.error.messages)


class Number:
    """A large number, grouped the way the language writes it (20,971,520 / 20.971.520)."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def in_lang(self, lang: str) -> str:
        with translation.override(language(lang)):
            return number_format(self.value, force_grouping=True)


Where = Words | str  # a place in the file ("Table 1, deal 3") or a field name ("date")


def at_place(place: Where | None, what: Where) -> Where:
    """``what`` at ``place``: "Table 1: number", "Evening 2: Table 1, deal 3: …"; at the
    top of the file just ``what``."""
    if place is None or place == "":
        return what
    return Words(_("%(where)s: %(what)s"), where=place, what=what)


class ImportProblem(Exception):
    """The file cannot be imported; says why in a sentence, naming table and deal.

    ``str()`` is the sentence in English, the language of the interchange contract and of
    the import commands (as ``SkatError.message``); ``message_in(lang)`` is it in "de" or
    "en", for a page. A problem made of text already translated (the CSV readers') is that
    text in every language."""

    def __init__(self, message: Words | Localized | str) -> None:
        super().__init__(message)
        self.words = message

    def message_in(self, lang: str | None) -> str:
        if isinstance(self.words, str):
            return self.words
        return self.words.in_lang(language(lang))

    def in_lang(self, lang: str) -> str:
        """An ImportProblem inside another's message renders like Words."""
        return self.message_in(lang)

    def __str__(self) -> str:
        return self.message_in("en")


class OverBounds(Exception):
    """A file beyond what one upload may make the site do (its entries, the time its check
    takes): refused as a whole, before anything is held or written. Not an ImportProblem, so
    that no reader turns it into one problem among others."""

    def __init__(self, message: Words) -> None:
        super().__init__(message)
        self.words = message

    def message_in(self, lang: str | None) -> str:
        return self.words.in_lang(language(lang))

    def __str__(self) -> str:
        return self.message_in("en")


# The time a check (or import) may still take, when one is bounded (budget below): a
# monotonic deadline, looked at between the steps of the reader (every table, deal and
# thousand items walked), so that a file that would keep a worker busy stops with a message.
_DEADLINE: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar(
    "import_deadline", default=None)


@contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Bound the reading and writing inside to ``seconds``: past it, OverBounds."""
    token = _DEADLINE.set((monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def tick() -> None:
    """OverBounds if the budget of the check in hand is spent."""
    bound = _DEADLINE.get()
    if bound is not None and monotonic() > bound[0]:
        raise OverBounds(Words(_("Checking the file took longer than %(seconds)s seconds, "
                                  "the most one upload may take; nothing was saved. Import a "
                                  "file this large with manage.py import_club, or split it."),
                               seconds=_Seconds(bound[1])))


class _Seconds:
    __slots__ = ("value",)

    def __init__(self, value: float) -> None:
        self.value = value

    def in_lang(self, lang: str) -> str:
        with translation.override(language(lang)):
            return number_format(self.value, decimal_pos=0 if self.value == int(self.value)
                                 else None)


def problem_at(place: Where | None, what: Words | Localized) -> ImportProblem:
    """A problem at a place of the file: "Table 1, deal 2: note must be …"."""
    if place is None or place == "":
        return ImportProblem(what)
    return ImportProblem(Words(_("%(where)s: %(what)s"), where=place, what=what))

