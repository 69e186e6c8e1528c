"""The engine's one error type."""

from __future__ import annotations


class SkatError(ValueError):
    """Invalid input: names the offending field and says what is wrong in a scorer's words.

    ``field`` is the record's field ("bid", "ramsch.points", "options.kontra", …) or None when
    the input as a whole is wrong; ``deal`` is the 1-based number of the record in a table.
    """

    def __init__(self, field: str | None, message: str, deal: int | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.deal = deal

    def as_dict(self) -> dict[str, object]:
        return {"field": self.field, "message": self.message, "deal": self.deal}

    def __repr__(self) -> str:
        return f"SkatError(field={self.field!r}, message={self.message!r}, deal={self.deal!r})"
