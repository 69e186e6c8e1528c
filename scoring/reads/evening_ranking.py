"""Reads: an evening's ranking, every player of the evening best first, from the score
sheets of its tables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.collation import name_key
from scoring.models import Evening
from scoring.reads.score_sheet import ScoreSheet


@dataclass(frozen=True)
class Standing:
    rank: int
    player_id: int
    name: str
    tables: tuple[int, ...]
    points: int
    seeger_fabian: int | None
    won: int
    lost: int


def evening_ranking(evening: Evening, sheets: list[ScoreSheet]) -> list[Standing]:
    """All players of the evening, best first: by Seeger-Fabian points where the evening is
    scored so (ties: more games won, then fewer lost, DECISIONS.md §2), by classic points
    otherwise; in Beer Skat the lowest count is best. Equal places share a rank."""
    people: dict[int, dict[str, Any]] = {}
    for sheet in sheets:
        seats = list(sheet.table.seats.all())
        for p, name in enumerate(sheet.players):
            person = people.setdefault(seats[p].player_id, {
                "name": name, "tables": [], "points": 0, "sf": None, "won": 0, "lost": 0})
            person["tables"].append(sheet.table.number)
            person["points"] += sheet.totals[p]
            person["won"] += sheet.won[p]
            person["lost"] += sheet.lost[p]
            if sheet.seeger_fabian_totals is not None:
                person["sf"] = (person["sf"] or 0) + sheet.seeger_fabian_totals[p]
    scoring = evening.scoring

    def key(person: dict[str, Any]) -> tuple[int, ...]:
        if scoring == "seeger_fabian":
            return (-(person["sf"] or 0), -person["won"], person["lost"])
        if scoring == "beer":
            return (person["points"],)
        return (-person["points"],)

    ordered = sorted(people.items(), key=lambda item: (key(item[1]), name_key(item[1]["name"])))
    standings: list[Standing] = []
    for index, (pid, person) in enumerate(ordered):
        rank = index + 1
        if standings and key(person) == key(ordered[index - 1][1]):
            rank = standings[-1].rank
        standings.append(Standing(rank, pid, person["name"], tuple(person["tables"]),
                                  person["points"], person["sf"], person["won"],
                                  person["lost"]))
    return standings
