"""Rankings from the tables' results: the evening ranking across every table and series
(Tagesrangliste), the season table (Saisontabelle) and one player's season.

A player's result at an evening is the sum over the series he played: classic game points, or
Seeger-Fabian points when the season (or, outside a season, the evening) is scored that way.
The season table counts every evening, or each player's best N (the others are dropped
results, Streichergebnisse); players with fewer evenings than the season asks for are listed
below the ranked ones. Equal scores are decided as in DECISIONS.md §2: more games won, then
fewer games lost (as declarer, over the evenings shown); players equal in all three share the
place. Everything is derived from results.py on each call: a page costs a constant number of
queries, however many evenings and deals there are.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.collation import name_key
from scoring.engine import cyclic_gc_paused
from scoring.models import Evening, ImportedTotal, Player, Scoring, Season, Table
from scoring.reads.results import Game, TableRef, TableResult, table_refs, table_results

CLASSIC = Season.Evaluation.CLASSIC.value
SEEGER_FABIAN = Season.Evaluation.SEEGER_FABIAN.value
TENTH = Decimal("0.1")


def counting_rule(season: Season) -> str:
    """"The best 20 evenings count" / "Every evening counts", and who is ranked."""
    if season.best_of is None:
        rule = _("Every evening counts.")
    else:
        rule = ngettext("Each player's best evening counts.",
                        "Each player's best %(count)d evenings count.",
                        season.best_of) % {"count": season.best_of}
    if season.min_evenings > 1:
        rule += " " + ngettext(
            "Ranked from %(count)d evening on.", "Ranked from %(count)d evenings on.",
            season.min_evenings) % {"count": season.min_evenings}
    return rule


def tie_rule() -> str:
    return _("Equal scores: more games won, then fewer games lost.")


def evaluation_of(evening: Evening, season: Season | None = None) -> str:
    """What ranks the players of an evening: the season's evaluation, or outside a season
    the evening's own scoring (Seeger-Fabian when it is scored so, else classic points)."""
    season = season or evening.season
    if season is not None:
        return season.evaluation
    return SEEGER_FABIAN if evening.scoring == Scoring.SEEGER_FABIAN else CLASSIC


BEER_OWN = "beer"  # the evaluation of a Beer Skat evening ranked on its own


def _own_evaluation(evening: Evening) -> str:
    """An evening ranked on its own: a Beer Skat evening by its counts, whatever season it
    was put into; any other as evaluation_of says."""
    return BEER_OWN if evening.scoring == Scoring.BEER else evaluation_of(evening)


@dataclass
class TableSeat:
    """Where a player sat in one series of an evening."""

    series: int
    table: TableRef
    position: int
    result: TableResult


@dataclass
class Line:
    """One player's evening: the sum over the series he played."""

    evening: Evening
    player: Player
    score: int = 0  # in the evaluation that ranks
    points: int = 0  # classic game points
    won: int = 0
    lost: int = 0
    series: dict[int, int] = field(default_factory=dict)  # score per series
    money: dict[str, Decimal] = field(default_factory=dict)  # balance per currency
    seats: list[TableSeat] = field(default_factory=list)
    rank: int | None = None  # place in the evening ranking
    counted: bool = True  # False: a dropped result (Streichergebnis)
    paper: bool = False  # totals imported from a paper list (ImportedTotal), no deals

    @property
    def games(self) -> int:
        return self.won + self.lost


@dataclass
class Standing:
    """A row of a ranking: one player in an evening ranking or in the season table."""

    player: Player
    lines: list[Line]
    score: int = 0  # what ranks: the counted evenings in the evaluation
    total: int = 0  # every evening in the evaluation
    points: int = 0  # classic game points, every evening
    won: int = 0
    lost: int = 0
    evenings: int = 0
    counted: int = 0
    series: dict[int, int] = field(default_factory=dict)
    money: dict[str, Decimal] = field(default_factory=dict)
    ranked: bool = True
    rank: int | None = None
    position: int = 0  # 1… in the ranked order, for sorting by place
    lower_is_better: bool = False  # Beer Skat counts up: the lowest count is best

    @property
    def games(self) -> int:
        return self.won + self.lost

    @property
    def paper(self) -> int:
        """How many of the evenings are totals imported from paper."""
        return sum(1 for line in self.lines if line.paper)

    @property
    def dropped(self) -> int:
        return self.evenings - self.counted

    @property
    def average(self) -> Decimal | None:
        """Points per evening played, to one decimal."""
        if not self.evenings:
            return None
        return (Decimal(self.total) / self.evenings).quantize(TENTH)

    @property
    def name(self) -> str:
        return self.player.name

    @property
    def name_sort(self) -> tuple[str, str]:
        """For sorting by name: "Änne" with the A (scoring.collation)."""
        return name_key(self.player.name)

    @property
    def money_sort(self) -> Decimal:
        """For sorting by money: the amounts added up (a season is played in one currency)."""
        return sum(self.money.values(), Decimal(0))

    def tie_key(self) -> tuple[int, int, int]:
        return tie_key(-self.score if self.lower_is_better else self.score, self.won,
                       self.lost)


def tie_key(score: int, won: int, lost: int) -> tuple[int, int, int]:
    """Who is ahead: the higher score, then more games won, then fewer games lost
    (DECISIONS.md §2); smaller is better."""
    return (-score, -won, lost)


def rank(standings: list[Standing]) -> list[Standing]:
    """Sort best first (the ranked before the others) and number the places; players equal
    on score, games won and games lost share a place (1, 1, 3 …)."""
    standings.sort(key=lambda s: (not s.ranked, s.tie_key(), name_key(s.player.name)))
    previous: tuple[int, int, int] | None = None
    place = 0
    for index, standing in enumerate(standings, start=1):
        standing.position = index
        if not standing.ranked:
            standing.rank = None
            continue
        key = standing.tie_key()
        if key != previous:
            place, previous = index, key
        standing.rank = place
    return standings


# ---------------------------------------------------------------- reading the tables

def _tables(queryset: QuerySet[Table], evenings: dict[int, Evening],
            players: dict[int, Player]) -> list[TableRef]:
    """The tables in order of date, series and number: two queries."""
    return table_refs(queryset.order_by("evening__date", "evening_id", "series", "number"),
                      players, evenings)


def _players(club_id: int) -> dict[int, Player]:
    return {p.pk: p for p in Player.objects.filter(club_id=club_id)}


@dataclass
class Problem:
    table: TableRef
    message: str


def _collect(tables: Iterable[TableRef], results: dict[int, TableResult],
             evaluation: Callable[[Evening], str],
             ) -> tuple[dict[int, dict[int, Line]], list[Problem]]:
    """Each player's line for each evening: {evening id: {player id: Line}}."""
    lines: dict[int, dict[int, Line]] = defaultdict(dict)
    problems: list[Problem] = []
    for table in tables:
        result = results[table.pk]
        evening = table.evening
        if result.error is not None:
            problems.append(Problem(table, result.error))
            continue
        if evening.scoring == Scoring.BEER and evaluation(evening) != BEER_OWN:
            # Only an evening's own ranking reads Beer Skat (the lowest count wins); in a
            # season it would count as game points, the wrong way round (DECISIONS §3).
            # Services and forms keep it out of seasons; one put there before is left out.
            problems.append(Problem(table, _(
                "A Beer Skat evening: its lowest count wins, so it does not count toward the "
                "season.")))
            continue
        seeger = evaluation(evening) == SEEGER_FABIAN
        if seeger and result.seeger_fabian is None:
            problems.append(Problem(table, _(
                "No Seeger-Fabian points at this table (they need the International Skat "
                "Order at a table of 3 or 4); its game points are counted instead.")))
        scores = result.seeger_fabian if seeger and result.seeger_fabian else result.points
        by_player = lines[evening.pk]
        for index, seated in enumerate(table.players):
            if index >= result.seats:
                break
            line = by_player.get(seated.pk)
            if line is None:
                line = by_player[seated.pk] = Line(evening=evening, player=seated)
            score = scores[index]
            line.score += score
            line.points += result.points[index]
            line.won += result.won[index]
            line.lost += result.lost[index]
            line.series[table.series] = line.series.get(table.series, 0) + score
            if result.money is not None:
                line.money[result.currency] = (
                    line.money.get(result.currency, Decimal(0)) + Decimal(result.money[index]))
            line.seats.append(TableSeat(table.series, table, index, result))
    return lines, problems


def _add_paper(lines: dict[int, dict[int, Line]], totals: Iterable[ImportedTotal],
               evenings: dict[int, Evening], players: dict[int, Player],
               evaluation: Callable[[Evening], str]) -> None:
    """The totals of evenings played on paper (issue 16), as lines beside the tables' ones:
    Seeger-Fabian points where the evaluation asks for them and the list gave them, else the
    game points."""
    for total in totals:
        evening = evenings[total.evening_id]
        player = players[total.player_id]
        score = total.points
        if evaluation(evening) == SEEGER_FABIAN and total.seeger_fabian is not None:
            score = total.seeger_fabian
        line = lines[evening.pk].get(player.pk)
        if line is None:
            line = lines[evening.pk][player.pk] = Line(evening=evening, player=player)
        line.paper = True
        line.score += score
        line.points += total.points
        line.won += total.won
        line.lost += total.lost
        line.series[1] = line.series.get(1, 0) + score
        if total.money is not None:
            line.money[evening.currency] = (
                line.money.get(evening.currency, Decimal(0)) + total.money)


def _evening_standings(lines: Iterable[Line], *, lower_is_better: bool = False,
                       ) -> list[Standing]:
    standings = []
    for line in lines:
        standings.append(Standing(
            player=line.player, lines=[line], score=line.score, total=line.score,
            points=line.points, won=line.won, lost=line.lost, evenings=1, counted=1,
            series=dict(line.series), money=dict(line.money),
            lower_is_better=lower_is_better))
    rank(standings)
    for standing in standings:
        standing.lines[0].rank = standing.rank
    return standings


# ---------------------------------------------------------------- the evening ranking

@dataclass
class TableProgress:
    table: TableRef
    counted: int
    length: int | None  # games in the series at this table, None for an open list
    recorded: int = 0  # live records, also those that are no game of the series

    @property
    def complete(self) -> bool:
        return self.length is not None and self.counted >= self.length


@dataclass
class Series:
    number: int
    tables: list[TableProgress]

    @property
    def complete(self) -> bool:
        """Every table has played its series (an open list is never complete)."""
        return bool(self.tables) and all(t.complete for t in self.tables)

    @property
    def open_list(self) -> bool:
        return any(t.length is None for t in self.tables)


@dataclass
class EveningRanking:
    evening: Evening
    evaluation: str
    rows: list[Standing]
    series: list[Series]
    problems: list[Problem]

    @property
    def series_numbers(self) -> list[int]:
        return [s.number for s in self.series]

    @property
    def money(self) -> bool:
        return any(row.money and any(row.money.values()) for row in self.rows)

    @property
    def paper(self) -> bool:
        """Totals imported from a paper list rank this evening (or some of its players)."""
        return any(line.paper for row in self.rows for line in row.lines)


def evening_ranking(evening: Evening) -> EveningRanking:
    """The ranking across all tables and series of the evening so far (what the next series
    is seeded by), and how far each table's series has come."""
    with cyclic_gc_paused():  # many small, acyclic objects: see season_standings
        return _evening_ranking(evening)


def _evening_ranking(evening: Evening) -> EveningRanking:
    tables = _tables(evening.tables.all(), {evening.pk: evening}, _players(evening.club_id))
    results = table_results(tables)
    lines, problems = _collect(tables, results, _own_evaluation)
    _add_paper(lines, ImportedTotal.objects.filter(evening=evening), {evening.pk: evening},
               _players(evening.club_id), _own_evaluation)
    series: dict[int, list[TableProgress]] = defaultdict(list)
    for table in tables:
        length = evening.series_length(len(table.players))
        result = results[table.pk]
        series[table.series].append(TableProgress(table, result.counted, length,
                                                  result.recorded))
    return EveningRanking(
        evening=evening, evaluation=evaluation_of(evening),
        # A Beer Skat evening ranks as it is played: the lowest count wins.
        rows=_evening_standings(lines.get(evening.pk, {}).values(),
                                lower_is_better=evening.scoring == Scoring.BEER),
        series=[Series(number, series[number]) for number in sorted(series)],
        problems=problems)


# ---------------------------------------------------------------- the season table

@dataclass
class SeasonStandings:
    season: Season
    rows: list[Standing]
    evenings: list[Evening]  # the evenings with results, in date order
    problems: list[Problem]

    @property
    def ranked(self) -> list[Standing]:
        return [row for row in self.rows if row.ranked]

    @property
    def unranked(self) -> list[Standing]:
        return [row for row in self.rows if not row.ranked]

    @property
    def money(self) -> bool:
        return any(row.money and any(row.money.values()) for row in self.rows)

    @property
    def currencies(self) -> list[str]:
        return sorted({c for row in self.rows for c in row.money})

    @cached_property
    def paper_evenings(self) -> set[int]:
        """The evenings whose totals were imported from paper."""
        return {line.evening.pk for row in self.rows for line in row.lines if line.paper}

    def row_for(self, player: Player) -> Standing | None:
        return next((row for row in self.rows if row.player.pk == player.pk), None)


def season_tables(season: Season) -> QuerySet[Table]:
    return Table.objects.filter(evening__season=season)


def _season_rows(season: Season, lines: dict[int, dict[int, Line]],
                 evening_ids: list[int]) -> list[Standing]:
    """The season table over these evenings: best N, totals, averages, places."""
    by_player: dict[int, list[Line]] = defaultdict(list)
    for evening_id in evening_ids:
        for player_id, line in lines.get(evening_id, {}).items():
            by_player[player_id].append(line)
    rows = []
    for player_lines in by_player.values():
        best = sorted(player_lines, key=lambda line: (-line.score, line.evening.date))
        kept = {id(line) for line in (best if season.best_of is None else best[:season.best_of])}
        row = Standing(player=player_lines[0].player, lines=player_lines)
        for line in player_lines:
            line.counted = id(line) in kept
            row.total += line.score
            row.points += line.points
            row.won += line.won
            row.lost += line.lost
            for currency, amount in line.money.items():
                row.money[currency] = row.money.get(currency, Decimal(0)) + amount
            if line.counted:
                row.score += line.score
        row.evenings = len(player_lines)
        row.counted = len(kept)
        row.ranked = row.evenings >= season.min_evenings
        rows.append(row)
    return rank(rows)


def season_standings(season: Season) -> SeasonStandings:
    """The season table: five queries (evenings, players, tables, seats, totals from paper),
    and a sixth for the deals of the tables that changed since they were cached.

    A season makes some ten thousand small objects (cached results, lines, rows), none of
    them in a reference cycle; the cyclic collector, set off by so many allocations, would
    scan them again and again (it doubled the page's p95), so it waits, as in the engine."""
    with cyclic_gc_paused():
        return _season_standings(season)


def _season_standings(season: Season) -> SeasonStandings:
    source = season_tables(season)
    all_evenings = {e.pk: e for e in season.evenings.order_by("date", "pk")}
    players = _players(season.club_id)
    tables = _tables(source, all_evenings, players)
    results = table_results(tables, source)
    lines, problems = _collect(tables, results, lambda e: season.evaluation)
    _add_paper(lines, ImportedTotal.objects.filter(evening__season=season), all_evenings,
               players, lambda e: season.evaluation)
    evenings = {pk: evening for pk, evening in all_evenings.items() if lines.get(pk)}
    for evening_id in evenings:
        _evening_standings(lines[evening_id].values())  # places of each evening
    rows = _season_rows(season, lines, list(evenings))
    return SeasonStandings(season=season, rows=rows, evenings=list(evenings.values()),
                           problems=problems)


# ---------------------------------------------------------------- a player's season

@dataclass
class Highlight:
    """A player's biggest single win or loss of the season, and where it happened."""

    entry: int
    deal: int
    game: str  # the game's name, "Ramsch" …
    evening: Evening
    table: TableRef


@dataclass
class PlayerSeason:
    season: Season
    player: Player
    standing: Standing | None
    players: int  # ranked players in the season table
    lines: list[Line]  # the player's evenings, in date order
    games: list[tuple[str, Game]]  # by game, most played first
    played: int
    won: int
    value: int
    best: Highlight | None
    worst: Highlight | None
    places: list[tuple[Evening, int | None]]  # place in the season table after each evening

    @property
    def win_rate(self) -> Decimal | None:
        return (Decimal(100 * self.won) / self.played).quantize(TENTH) if self.played else None

    @property
    def average_value(self) -> Decimal | None:
        return (Decimal(self.value) / self.played).quantize(TENTH) if self.played else None


def player_season(season: Season, player: Player, game_name: Callable[[Evening, str, str], str],
                  ) -> PlayerSeason:
    """The player's season: his row, his evenings, his games as declarer and his highlights.
    ``game_name(evening, kind, game key)`` names a game in the reader's language."""
    with cyclic_gc_paused():  # see season_standings
        return _player_season(season, player, game_name)


def _player_season(season: Season, player: Player,
                   game_name: Callable[[Evening, str, str], str]) -> PlayerSeason:
    standings = _season_standings(season)
    row = standings.row_for(player)
    lines = sorted(row.lines, key=lambda line: line.evening.date) if row else []
    totals: dict[str, Game] = {}
    best: Highlight | None = None
    worst: Highlight | None = None
    for line in lines:
        for seat in line.seats:
            stats = seat.result.stats[seat.position]
            for key, game in stats.games.items():
                total = totals.get(key, Game(0, 0, 0))
                totals[key] = Game(total.played + game.played, total.won + game.won,
                                   total.value + game.value)
            if stats.best is not None and (best is None or stats.best.entry > best.entry):
                best = Highlight(stats.best.entry, stats.best.deal,
                                 game_name(line.evening, stats.best.kind, stats.best.game),
                                 line.evening, seat.table)
            if stats.worst is not None and (worst is None or stats.worst.entry < worst.entry):
                worst = Highlight(stats.worst.entry, stats.worst.deal,
                                  game_name(line.evening, stats.worst.kind, stats.worst.game),
                                  line.evening, seat.table)
    games = sorted(totals.items(), key=lambda item: (-item[1].played, item[0]))
    return PlayerSeason(
        season=season, player=player, standing=row, players=len(standings.ranked),
        lines=lines, games=games, played=sum(g.played for _k, g in games),
        won=sum(g.won for _k, g in games), value=sum(g.value for _k, g in games),
        best=best, worst=worst, places=_places(season, standings, player))


def _places(season: Season, standings: SeasonStandings,
            player: Player) -> list[tuple[Evening, int | None]]:
    """The player's place in the season table after each evening of the season: the season
    table is brought up to date evening by evening (best N kept in a sorted list per player)
    instead of being built forty times."""
    by_evening: dict[int, list[tuple[int, Line]]] = defaultdict(list)
    for row in standings.rows:
        for line in row.lines:
            by_evening[line.evening.pk].append((row.player.pk, line))
    scores: dict[int, list[int]] = defaultdict(list)  # ascending
    total: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    lost: dict[int, int] = defaultdict(int)
    best_of = season.best_of
    places: list[tuple[Evening, int | None]] = []
    for evening in standings.evenings:
        for player_id, line in by_evening[evening.pk]:
            bisect.insort(scores[player_id], line.score)
            total[player_id] += line.score
            won[player_id] += line.won
            lost[player_id] += line.lost
        mine = scores.get(player.pk)
        if not mine or len(mine) < season.min_evenings:
            places.append((evening, None))
            continue
        keys = {
            pid: tie_key(total[pid] if best_of is None else sum(played[-best_of:]),
                         won[pid], lost[pid])
            for pid, played in scores.items() if len(played) >= season.min_evenings}
        key = keys[player.pk]
        places.append((evening, 1 + sum(1 for other in keys.values() if other < key)))
    return places


__all__ = [
    "EveningRanking", "Line", "PlayerSeason", "SeasonStandings", "Standing", "counting_rule",
    "evaluation_of", "evening_ranking", "player_season", "rank", "season_standings",
    "tie_key", "tie_rule",
]

