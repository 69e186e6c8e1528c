"""A member's own results (issue 16): every table the member's player sat at, across
evenings and seasons, with what the engine gives that seat there. Table results come from
the same cache as the rankings (reads/results.py): a constant number of queries however
many evenings the player has played."""

from __future__ import annotations

from typing import NamedTuple

from scoring.models import Evening, Player, Table
from scoring.reads.results import TableRef, table_refs, table_results


class PlayerTable(NamedTuple):
    table: TableRef
    points: int | None  # game points at the table (None: the engine refused its deals)
    seeger_fabian: int | None
    won: int
    lost: int


def player_tables(player: Player) -> list[PlayerTable]:
    """The player's tables, the latest evening first: five queries, and a sixth for the
    deals of tables the cache does not hold."""
    tables = Table.objects.filter(seats__player=player).order_by(
        "-evening__date", "-evening_id", "series", "number")
    evenings = {e.pk: e for e in Evening.objects.filter(tables__seats__player=player)}
    players = {p.pk: p for p in Player.objects.filter(
        seats__table__seats__player=player).distinct()}
    refs = table_refs(tables, players, evenings)
    results = table_results(refs)
    rows = []
    for ref in refs:
        seat = [p.pk for p in ref.players].index(player.pk)
        result = results[ref.pk]
        if result.error:
            rows.append(PlayerTable(ref, None, None, 0, 0))
            continue
        rows.append(PlayerTable(
            ref, result.points[seat],
            result.seeger_fabian[seat] if result.seeger_fabian is not None else None,
            result.won[seat], result.lost[seat]))
    return rows
