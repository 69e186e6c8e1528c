"""The German catalogue must be complete: no empty msgstr, no fuzzy entry left behind."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

PO_FILE = Path(__file__).resolve().parent.parent / "scoring/locale/de/LC_MESSAGES/django.po"


@dataclass
class Entry:
    msgid: str = ""
    msgstrs: list[str] = field(default_factory=list)
    fuzzy: bool = False
    line: int = 0


def parse_po(text: str) -> list[Entry]:
    """A minimal .po reader: enough for msgid/msgid_plural/msgstr[n], continuations and flags."""
    entries: list[Entry] = []
    current = Entry()
    target: str | None = None  # which keyword the next continuation line belongs to

    def finish() -> None:
        nonlocal current, target
        if current.msgstrs:
            entries.append(current)
        current, target = Entry(), None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            finish()
        elif line.startswith("#"):
            if current.msgstrs:  # a comment after a msgstr opens the next entry
                finish()
            if line.startswith("#,"):
                flags = {flag.strip() for flag in line[2:].split(",")}
                current.fuzzy = current.fuzzy or "fuzzy" in flags
        elif line.startswith('"'):
            value = ast.literal_eval(line)
            if target == "msgid":
                current.msgid += value
            elif target == "msgstr":
                current.msgstrs[-1] += value
        else:
            keyword, _, rest = line.partition(" ")
            value = ast.literal_eval(rest)
            if keyword == "msgid":
                if current.msgstrs:
                    finish()
                current.msgid, current.line, target = value, number, "msgid"
            elif keyword.startswith("msgstr"):
                current.msgstrs.append(value)
                target = "msgstr"
            else:  # msgid_plural, msgctxt: part of the key, irrelevant for completeness
                target = None
    finish()
    return entries


def test_parser_sees_fuzzy_and_empty_entries() -> None:
    sample = (
        '#, fuzzy\nmsgid "a"\nmsgstr "b"\n\n'
        'msgid "c"\nmsgstr ""\n"d"\n\n'
        '#: home.html:3\nmsgid "e"\nmsgstr ""\n'
    )
    entries = parse_po(sample)
    assert [(e.msgid, e.msgstrs, e.fuzzy) for e in entries] == [
        ("a", ["b"], True),
        ("c", ["d"], False),
        ("e", [""], False),
    ]


def test_german_catalogue_is_complete() -> None:
    entries = [e for e in parse_po(PO_FILE.read_text(encoding="utf-8")) if e.msgid]
    assert entries, f"no messages found in {PO_FILE}"
    untranslated = [f"line {e.line}: {e.msgid!r}" for e in entries if not all(e.msgstrs)]
    fuzzy = [f"line {e.line}: {e.msgid!r}" for e in entries if e.fuzzy]
    assert not untranslated, "untranslated: " + "; ".join(untranslated)
    assert not fuzzy, "fuzzy: " + "; ".join(fuzzy)


def test_header_is_not_fuzzy() -> None:
    # makemessages marks a fresh header fuzzy, and msgfmt then ignores the whole header,
    # including the charset and plural forms.
    header = parse_po(PO_FILE.read_text(encoding="utf-8"))[0]
    assert header.msgid == ""
    assert not header.fuzzy
    assert "charset=UTF-8" in header.msgstrs[0]
