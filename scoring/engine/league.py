"""Team leagues: a match day's series scores made into Wertungspunkte, the day's table and the
league table (../shared/spec/league-day.md, "Scoring", kept exactly).

``league_standings(teams, days)`` is the one function the ``league_day`` command, the web pages
and the PDFs call; it does not care where the series scores come from (the command reads them
from JSON, the pages sum the Seeger-Fabian points of the tables). ``parse_league(obj)`` reads
and checks the command's JSON input into its typed arguments.

Every team of ``teams`` is on every day: a team that has no player in a series is placed after
every team that played it (rule 3), so a team absent all day still takes its minus points.
A day may have no series yet (every team 0:0, all sharing place 1). ``league_standings`` scores
a league still being set up (no teams yet, a team without players); the command's input
(``parse_league``) may have neither, nor a series that names nobody. Wertungspunkte are exact
inside (``Fraction``: a shared place gives a half); the rows carry them as numbers, an ``int``
when whole, else the ``float`` of the half (JSON ``2.5``).
"""

from __future__ import annotations

import itertools
import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import SkatError

__all__ = [
    "LeagueDay",
    "LeagueDayResult",
    "LeagueResult",
    "LeagueTeam",
    "SeriesRow",
    "TableRow",
    "league_standings",
    "parse_league",
]

Number = int | float

# ---------------------------------------------------------------- the input, as types


@dataclass(frozen=True)
class LeagueTeam:
    """A team and every player who may play for it (positions and substitutes alike)."""

    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class LeagueDay:
    """A match day: per series, each player who played it -> his Spielpunkte. ``teams``:
    the teams that meet on the day, where a group's teams meet in turns (a day of a group of
    eight where four meet); None, as in the command's input: every team. A team that does
    not meet on a day is in none of its rows and takes nothing from it."""

    name: str
    series: tuple[Mapping[str, int], ...]
    teams: tuple[str, ...] | None = None


# ---------------------------------------------------------------- the answers, as types


@dataclass(frozen=True)
class SeriesRow:
    """A team in one series: its score (the sum of its players' Spielpunkte), its place and
    its Wertungspunkte."""

    team: str
    points: int
    place: int
    plus: Number
    minus: Number

    def to_json(self) -> dict[str, Any]:
        return {"team": self.team, "points": self.points, "place": self.place,
                "plus": self.plus, "minus": self.minus}


@dataclass(frozen=True)
class TableRow:
    """A team in a table (a day's or the league's): place, plus and minus points summed,
    Spielpunkte summed."""

    team: str
    place: int
    plus: Number
    minus: Number
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"team": self.team, "place": self.place, "plus": self.plus,
                "minus": self.minus, "points": self.points}


@dataclass(frozen=True)
class LeagueDayResult:
    """A match day scored: each series' rows and the day's table, each in place order."""

    name: str
    series: tuple[tuple[SeriesRow, ...], ...]
    table: tuple[TableRow, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name,
                "series": [[row.to_json() for row in rows] for rows in self.series],
                "table": [row.to_json() for row in self.table]}


@dataclass(frozen=True)
class LeagueResult:
    """Every match day scored and the league table over all of them."""

    days: tuple[LeagueDayResult, ...]
    table: tuple[TableRow, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``league_day`` command's output, key order and all."""
        return {"days": [day.to_json() for day in self.days],
                "table": [row.to_json() for row in self.table]}


# ---------------------------------------------------------------- places


def _name_key(name: str) -> tuple[str, str]:
    """Team names in reading order: "Äskulap" with the A, case folded; the name itself breaks
    a tie, so the order is always the same."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", name)
                     if not unicodedata.combining(ch))
    return folded.casefold(), name


def _places(keys: Mapping[str, tuple[Fraction, ...]]) -> list[tuple[int, list[str]]]:
    """The teams ranked by their keys, highest first: each group of equal keys as (its first
    place, its teams in name order). Places run 1, 1, 3."""
    order = sorted(keys, key=lambda team: (tuple(-k for k in keys[team]), _name_key(team)))
    groups: list[tuple[int, list[str]]] = []
    place = 1
    for _key, members in itertools.groupby(order, key=keys.__getitem__):
        names = list(members)
        groups.append((place, names))
        place += len(names)
    return groups


def _number(value: Fraction) -> Number:
    return int(value) if value.denominator == 1 else float(value)


# ---------------------------------------------------------------- scoring


@dataclass
class _Tally:
    plus: Fraction = Fraction(0)
    minus: Fraction = Fraction(0)
    points: int = 0

    def add(self, other: _Tally) -> None:
        self.plus += other.plus
        self.minus += other.minus
        self.points += other.points


def _series(teams: Sequence[str], scores: Mapping[str, int], played: frozenset[str],
            tally: Mapping[str, _Tally]) -> tuple[SeriesRow, ...]:
    """One series: places by score, a team without a player after every team that played
    (rule 3); place k of n gives n - k plus and k - 1 minus, a shared place the averages
    (rule 2). Adds each team's Wertungspunkte and score to ``tally``."""
    n = len(teams)
    keys = {team: (Fraction(team in played), Fraction(scores[team])) for team in teams}
    rows: list[SeriesRow] = []
    for first, members in _places(keys):
        covered = range(first, first + len(members))
        plus = Fraction(sum(n - k for k in covered), len(members))
        minus = n - 1 - plus
        for team in members:
            tally[team].add(_Tally(plus, minus, scores[team]))
            rows.append(SeriesRow(team, scores[team], first, _number(plus), _number(minus)))
    return tuple(rows)


def _table(tally: Mapping[str, _Tally]) -> tuple[TableRow, ...]:
    """Plus points summed, then Spielpunkte; equal on both share a place (rules 4 and 5)."""
    keys = {team: (t.plus, Fraction(t.points)) for team, t in tally.items()}
    return tuple(TableRow(team, first, _number(tally[team].plus), _number(tally[team].minus),
                          tally[team].points)
                 for first, members in _places(keys) for team in members)


def _day(day: LeagueDay, names: Sequence[str], team_of: Mapping[str, str]) -> tuple[
        LeagueDayResult, dict[str, _Tally]]:
    if day.teams is not None:
        names = [team for team in names if team in day.teams]
    tally = {team: _Tally() for team in names}
    series = []
    for points in day.series:
        scores = dict.fromkeys(names, 0)
        for player, value in points.items():
            scores[team_of[player]] += value
        played = frozenset(team_of[player] for player in points)
        series.append(_series(names, scores, played, tally))
    return LeagueDayResult(day.name, tuple(series), _table(tally)), tally


def league_standings(teams: Sequence[LeagueTeam], days: Sequence[LeagueDay]) -> LeagueResult:
    """Every match day's series rows and table, and the league table (league-day.md).

    ``teams`` are on every day; each series names the players who played it with their
    Spielpunkte. A league still being set up is scored as it stands (no teams: empty tables; a
    team without players: placed last in every series). What cannot be scored is a
    ``SkatError`` naming the place: two teams of one name, a player on two teams, a player in
    a series who is on no team. ``parse_league`` refuses more (the command's contract)."""
    team_of = check_league(teams, days)
    names = [team.name for team in teams]
    league = {team: _Tally() for team in names}
    results = []
    for day in days:
        result, tally = _day(day, names, team_of)
        results.append(result)
        for team, day_tally in tally.items():
            league[team].add(day_tally)
    return LeagueResult(tuple(results), _table(league))


# ---------------------------------------------------------------- checks


def check_league(teams: Sequence[LeagueTeam], days: Sequence[LeagueDay], *,
                 complete: bool = False) -> dict[str, str]:
    """Who plays for which team (player -> team name), or a ``SkatError`` naming the place.
    ``complete`` also refuses what the ``league_day`` command's input may not have: no teams,
    a team without players, a series that names nobody."""
    if complete and not teams:
        raise SkatError("teams", "A league needs one or more teams.")
    team_of: dict[str, str] = {}
    seen: set[str] = set()
    for i, team in enumerate(teams):
        if team.name in seen:
            raise SkatError(f"teams[{i}].name", 'Two teams are named "{team}".', team=team.name)
        seen.add(team.name)
        if complete and not team.players:
            raise SkatError(f"teams[{i}].players", 'The team "{team}" has no players.',
                            team=team.name)
        for player in team.players:
            if player in team_of:
                raise SkatError(f"teams[{i}].players", '"{player}" plays for "{first}" and '
                                'for "{second}".', player=player, first=team_of[player],
                                second=team.name)
            team_of[player] = team.name
    for d, day in enumerate(days):
        meeting = seen if day.teams is None else set(day.teams)
        for name in sorted(meeting - seen):
            raise SkatError(f"days[{d}].teams", 'The day names "{team}", which is not a team.',
                            team=name)
        for s, points in enumerate(day.series):
            field = f"days[{d}].series[{s}].points"
            if complete and not points:
                raise SkatError(field, "A series names the players who played it; this one "
                                "names nobody.")
            for player in points:
                if player not in team_of:
                    raise SkatError(field, '"{player}" is not on a team.', player=player)
                if team_of[player] not in meeting:
                    raise SkatError(field, '"{player}" plays for "{team}", which does not '
                                    'meet on this day.', player=player, team=team_of[player])
    return team_of


# ---------------------------------------------------------------- the command's JSON


def _json(value: object) -> str:
    """A value as the input wrote it, cut short after 40 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _dict(field: str | None, value: object) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    if field is None:
        raise SkatError(None, "The input must be a JSON object with teams and days, not "
                        "{value}.", value=_json(value))
    raise SkatError(field, "Expected a JSON object, not {value}.", value=_json(value))


def _object(field: str | None, value: object, keys: tuple[str, ...]) -> dict[str, Any]:
    """``value`` as a JSON object with exactly ``keys``."""
    obj = _dict(field, value)
    for key in obj:
        if key not in keys:
            raise SkatError(_join(field, key), "Unknown field {key!r}.", key=key)
    for key in keys:
        if key not in obj:
            raise SkatError(_join(field, key), 'The field "{key}" is missing.', key=key)
    return obj


def _join(field: str | None, key: str) -> str:
    return key if field is None else f"{field}.{key}"


def _list(field: str, value: object) -> list[Any]:
    if not isinstance(value, list):
        raise SkatError(field, "Expected a list, not {value}.", value=_json(value))
    return value


def _name(field: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SkatError(field, "Expected a name (text, not empty), not {value}.",
                        value=_json(value))
    return value


def _points(field: str, value: object) -> dict[str, int]:
    points = _dict(field, value)
    for player, number in points.items():
        _name(field, player)
        if type(number) is not int:
            raise SkatError(field, 'The Spielpunkte of "{player}" must be a whole number, '
                            "not {value}.", player=player, value=_json(number))
    return points


def _team(field: str, value: object) -> LeagueTeam:
    team = _object(field, value, ("name", "players"))
    players = _list(f"{field}.players", team["players"])
    names = tuple(_name(f"{field}.players[{i}]", p) for i, p in enumerate(players))
    return LeagueTeam(_name(f"{field}.name", team["name"]), names)


def _day_input(field: str, value: object) -> LeagueDay:
    day = _object(field, value, ("name", "series"))
    series = _list(f"{field}.series", day["series"])
    return LeagueDay(_name(f"{field}.name", day["name"]), tuple(
        _points(f"{field}.series[{s}].points",
                _object(f"{field}.series[{s}]", one, ("points",))["points"])
        for s, one in enumerate(series)))


def parse_league(obj: object) -> tuple[tuple[LeagueTeam, ...], tuple[LeagueDay, ...]]:
    """The ``league_day`` command's input read and checked: its teams and days, or a
    ``SkatError`` whose field names the place (``days[0].series[1].points``)."""
    league = _object(None, obj, ("teams", "days"))
    teams = tuple(_team(f"teams[{i}]", t) for i, t in enumerate(_list("teams", league["teams"])))
    days = tuple(_day_input(f"days[{d}]", day)
                 for d, day in enumerate(_list("days", league["days"])))
    check_league(teams, days, complete=True)
    return teams, days
