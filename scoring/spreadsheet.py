"""Every CSV the site writes (issue 26, item 9): the one place a ``csv.writer`` is made, so
that no cell a person typed (a player named ``=HYPERLINK("http://x")``) reaches a spreadsheet
as a formula. tests/test_architecture.py fails on a csv writer anywhere else.

Pure Python: the sheet's CSV (reads/export.py), the tournament's ranking
(views/tournament.py) and any later export call ``csv_text``."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

# What a spreadsheet reads as the start of a formula (or of a DDE call): =, +, -, @, and a
# tab or carriage return before one of them.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A separator (a comma, or the semicolon German spreadsheets split on) followed, maybe after
# blanks, by a formula's first character: a reader splitting on it would start a cell there.
_FORMULA_AFTER_SEPARATOR = re.compile(r"([;,][ \t]*)([=+\-@])")
# A plain number written as text ("-3", "12,50"): a spreadsheet reads it as the number.
_PLAIN_NUMBER = re.compile(r"-?\d+([.,]\d+)?")


def cell(value: Any) -> Any:
    """A text cell as a spreadsheet must read it: one that starts like a formula gets a
    leading apostrophe so it stays text, and so does every part after a ``;`` or ``,`` (a
    player named "Anna;=1+1"), whichever separator the reader splits on. Numbers, and text
    that is only a plain number, stay as they are."""
    if not isinstance(value, str) or _PLAIN_NUMBER.fullmatch(value):
        return value
    value = _FORMULA_AFTER_SEPARATOR.sub(r"\1'\2", value)
    if value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_text(rows: Iterable[Iterable[Any]], *, delimiter: str = ",",
             quote_text: bool = False, bom: bool = True) -> str:
    """The rows as CSV, every cell through ``cell``: ``\\r\\n`` line ends, UTF-8's BOM first
    (so that Excel reads umlauts) unless ``bom`` is False; ``quote_text`` quotes every text
    cell (numbers stay numbers)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n",
                        quoting=csv.QUOTE_NONNUMERIC if quote_text else csv.QUOTE_MINIMAL)
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return ("\ufeff" if bom else "") + out.getvalue()
