"""What a team league shows (issue 25): how far a match day has come, each series' team
scores and Wertungspunkte, the day's table, the league table of a group, each player's
ranking in the league, and the match-day report (Spielbericht) that the page and the PDF
both render.

Every number comes from the tables' Seeger-Fabian points (TableScore, kept by the deal
services in each change's transaction) through the engine's ``league_standings``, the
function the ``league_day`` command calls (league-day.md): one query for a whole group's
points, whatever the number of days."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, QuerySet, Sum
from django.utils import timezone

from scoring.collation import by_name, name_key
from scoring.engine import (
    LeagueDay,
    LeagueDayResult,
    LeagueResult,
    LeagueTeam,
    SeriesRow,
    TableRow,
    league_standings,
)
from scoring.models import (
    Club,
    League,
    LeagueGroup,
    Lineup,
    MatchDay,
    Player,
    ReportSignature,
    Seat,
    Table,
    TableScore,
    Team,
    TeamPlayer,
)
from scoring.reads.standings import evening_ranking

# ---------------------------------------------------------------- a day's progress


@dataclass(frozen=True)
class TableState:
    series: int
    number: int
    played: int
    length: int | None

    @property
    def complete(self) -> bool:
        return self.length is not None and self.played >= self.length


@dataclass(frozen=True)
class DayProgress:
    seated: int  # series seated so far
    tables: tuple[TableState, ...]

    def of_series(self, series: int) -> list[TableState]:
        return [t for t in self.tables if t.series == series]

    def unfinished(self, series: int) -> TableState | None:
        """The first table of ``series`` that has not played its games yet."""
        return next((t for t in self.of_series(series) if not t.complete), None)

    def finished(self, series_count: int) -> bool:
        return self.seated >= series_count and all(t.complete for t in self.tables)


def public_group(key: str, pk: int) -> LeagueGroup | None:
    """The group ``pk`` of the public league whose page key is ``key`` (its PDFs are for
    whoever has the key, as its page is); None for a wrong key, another league's group or a
    league no longer public."""
    if not key:
        return None
    return (LeagueGroup.objects.select_related("league__club")
            .filter(pk=pk, league__board_key=key, league__public=True).first())


def team_clubs(admin_of: frozenset[int]) -> list[Club]:
    """The clubs of the site whose team a league secretary may enter: those he is an admin of
    (a club comes into a league with its own consent); any other club as a guest club by
    name."""
    return by_name(Club.objects.filter(pk__in=admin_of).only("pk", "name"))


def day_progress(day: MatchDay) -> DayProgress:
    ranking = evening_ranking(day.evening)
    tables = tuple(TableState(s.number, p.table.number, p.counted, p.length)
                   for s in ranking.series for p in s.tables)
    seated = day.draws.order_by("-number").values_list("number", flat=True).first() or 0
    return DayProgress(seated, tables)


def latest_lineups(day: MatchDay, series: int) -> dict[int, tuple[int, dict[int, Player]]]:
    """team id -> (the series its line-up was checked in for, position -> player) as it
    stands for ``series``: the team's own line-up of that series, else its latest one
    before (a later series plays on with the same players unless someone was changed).
    One query."""
    found: dict[int, tuple[int, dict[int, Player]]] = {}
    for row in Lineup.objects.filter(match_day=day, series__lte=series).select_related(
            "player").order_by("series"):
        if row.team_id not in found or found[row.team_id][0] != row.series:
            found[row.team_id] = (row.series, {})
        found[row.team_id][1][row.position] = row.player
    return found


def series_meetings(day: MatchDay, before: int) -> list[list[list[Player]]]:
    """The day's series before ``before``, each its tables, each its players in seat order:
    who has met whom (the next series' seating avoids the pairs again)."""
    series: dict[int, dict[int, list[Player]]] = defaultdict(lambda: defaultdict(list))
    for seat in Seat.objects.filter(table__evening=day.evening, table__series__lt=before) \
            .select_related("player", "table").order_by("table__series", "table__number",
                                                       "position"):
        series[seat.table.series][seat.table_id].append(seat.player)
    return [list(series[number].values()) for number in sorted(series)]


def results_version(day: MatchDay) -> int:
    """The day's tables' versions summed: every recorded or corrected deal raises it."""
    return day.evening.tables.aggregate(total=Sum("version"))["total"] or 0


# ---------------------------------------------------------------- the numbers


@dataclass(frozen=True)
class PlayerScore:
    player_id: int
    name: str
    team: str
    series: int
    table: int
    points: int  # Seeger-Fabian Spielpunkte
    won: int
    lost: int


@dataclass
class GroupNumbers:
    """A group's numbers: every day's series and table, and the league table."""

    group: LeagueGroup
    teams: list[Team]
    days: list[MatchDay]
    result: LeagueResult  # days in the order of ``played``
    played: list[MatchDay]  # the days with at least one series seated
    scores: dict[int, list[PlayerScore]]  # day id -> its players' points per series

    @property
    def all_scores(self) -> list[PlayerScore]:
        return [s for day in self.played for s in self.scores[day.pk]]

    def day_result(self, day: MatchDay) -> LeagueDayResult | None:
        for played, result in zip(self.played, self.result.days, strict=True):
            if played.pk == day.pk:
                return result
        return None


def _scores(days: list[MatchDay], team_of: dict[int, str]) -> dict[int, list[PlayerScore]]:
    """day id -> every seated player's points per series, in one query."""
    by_day: dict[int, list[PlayerScore]] = defaultdict(list)
    evenings = {d.evening_id: d.pk for d in days}
    rows = TableScore.objects.filter(evening_id__in=evenings).values_list(
        "evening_id", "table__series", "table__number", "player_id", "player__name",
        "seeger_fabian", "won", "lost")
    for evening, series, table, player, name, points, won, lost in rows:
        by_day[evenings[evening]].append(PlayerScore(
            player, name, team_of.get(player, ""), series, table, points, won, lost))
    return by_day


def group_numbers(group: LeagueGroup) -> GroupNumbers:
    """The group's numbers from its tables: a constant number of queries."""
    teams = sorted(group.teams.all(), key=lambda t: (name_key(t.name), t.pk))
    members = list(TeamPlayer.objects.filter(team__group=group)
                   .values_list("team_id", "player_id"))
    team_name = {t.pk: t.name for t in teams}
    team_of = {player: team_name[team] for team, player in members}
    days = list(group.days.select_related("evening", "host").prefetch_related("teams")
                .order_by("number"))
    scores = _scores(days, team_of)
    seated = {d.pk: max((s.series for s in scores[d.pk]), default=0) for d in days}
    played = [d for d in days if seated[d.pk]]
    league_teams = [LeagueTeam(t.name, tuple(str(p) for team, p in members if team == t.pk))
                    for t in teams]
    league_days = []
    for day in played:
        series = []
        for number in range(1, seated[day.pk] + 1):
            series.append({str(s.player_id): s.points for s in scores[day.pk]
                           if s.series == number and s.team})
        league_days.append(LeagueDay(f"{day.number}", tuple(series),
                                     tuple(t.name for t in day.teams.all())))
    result = league_standings(league_teams, league_days)
    return GroupNumbers(group, teams, days, result, played,
                        {d.pk: scores[d.pk] for d in played})


# ---------------------------------------------------------------- each player's ranking


@dataclass
class PlayerRow:
    place: int
    name: str
    team: str
    points: int = 0
    won: int = 0
    lost: int = 0
    series: int = 0


def player_ranking(numbers: GroupNumbers) -> list[PlayerRow]:
    """Every player who played in the group: Spielpunkte, then more games won, then fewer
    lost (DECISIONS §2's tie-break); equal on all three share a place."""
    rows: dict[int, PlayerRow] = {}
    for score in numbers.all_scores:
        row = rows.setdefault(score.player_id, PlayerRow(0, score.name, score.team))
        row.points += score.points
        row.won += score.won
        row.lost += score.lost
        row.series += 1

    def key(row: PlayerRow) -> tuple[int, int, int]:
        return (-row.points, -row.won, row.lost)

    ordered = sorted(rows.values(), key=lambda r: (key(r), name_key(r.name)))
    for index, row in enumerate(ordered):
        same = index and key(ordered[index - 1]) == key(row)
        row.place = ordered[index - 1].place if same else index + 1
    return ordered


# ---------------------------------------------------------------- the match-day report


@dataclass
class ReportTable:
    number: int
    seats: list[PlayerScore]


@dataclass
class ReportSeries:
    number: int
    tables: list[ReportTable]
    teams: list[SeriesRow]  # the teams' scores, places and Wertungspunkte


@dataclass
class Report:
    """The match-day report (Spielbericht): what the page and the PDF both show."""

    league: League
    day: MatchDay
    teams: list[Team]
    lineups: dict[int, dict[str, list[tuple[int, str]]]]  # series -> team -> (pos, name)
    series: list[ReportSeries]
    table: list[TableRow]  # the day's table
    signatures: dict[int, ReportSignature]  # team id -> signature
    captains: dict[int, str]
    binding: bool
    binding_from: datetime.date

    results_version: int = 0

    @property
    def signed(self) -> bool:
        """Every captain has signed these numbers."""
        return bool(self.teams) and all(t.pk in self.signatures and t.pk not in self.stale
                                        for t in self.teams)

    @property
    def stale(self) -> set[int]:
        """The teams whose captain signed before a deal was changed: the signature was
        given to other numbers (the report says so)."""
        return {team for team, s in self.signatures.items()
                if s.results_version != self.results_version}


def is_binding(day: MatchDay, league: League, today: datetime.date | None = None) -> bool:
    today = today or timezone.localdate()
    return today >= day.binding_from(league)


def match_report(day: MatchDay, numbers: GroupNumbers | None = None) -> Report:
    league = day.group.league
    numbers = numbers or group_numbers(day.group)
    teams = sorted(day.teams.all(), key=lambda t: (name_key(t.name), t.pk))
    lineups: dict[int, dict[str, list[tuple[int, str]]]] = defaultdict(lambda: defaultdict(list))
    for row in Lineup.objects.filter(match_day=day).select_related("team", "player") \
            .order_by("series", "position"):
        lineups[row.series][row.team.name].append((row.position, row.player.name))
    scores = numbers.scores.get(day.pk, [])
    day_result = numbers.day_result(day)
    series: list[ReportSeries] = []
    for index, rows in enumerate(day_result.series if day_result else (), start=1):
        tables: dict[int, list[PlayerScore]] = defaultdict(list)
        for s in scores:
            if s.series == index:
                tables[s.table].append(s)
        series.append(ReportSeries(index, [ReportTable(n, sorted(
            tables[n], key=lambda s: name_key(s.team))) for n in sorted(tables)], list(rows)))
    captains = dict(TeamPlayer.objects.filter(team__in=teams, captain=True)
                    .values_list("team_id", "player__name"))
    return Report(
        league=league, day=day, teams=teams,
        lineups={k: dict(v) for k, v in lineups.items()}, series=series,
        table=list(day_result.table) if day_result else [],
        signatures={s.team_id: s for s in day.signatures.all()}, captains=captains,
        binding=is_binding(day, league), binding_from=day.binding_from(league),
        results_version=results_version(day))


# ---------------------------------------------------------------- what the league pages list
# (issue 36: the views only show; each lazy QuerySet is one query where the page reads it)


def club_leagues(club: Club) -> QuerySet[League]:
    """The leagues the club runs (lazy)."""
    return League.objects.filter(club=club)


def leagues_playing_in(club: Club) -> QuerySet[League]:
    """Other clubs' leagues a team of the club plays in, with their clubs (lazy)."""
    return (League.objects.filter(groups__teams__club=club).exclude(club=club)
            .select_related("club").distinct())


def club_members(club_id: int) -> list[Player]:
    """The club's members on its lists (no guests, no record merged into another), by name:
    whom a secretary may put into a team. One query."""
    return by_name(Player.objects.filter(club_id=club_id, guest=False,
                                         merged_into__isnull=True).only("pk", "name"))


def club_member(club_id: int, pk: int) -> Player:
    """The club's player ``pk`` (a choice the form checked against ``club_members``)."""
    return Player.objects.get(pk=pk, club_id=club_id)


def league_teams(league: League) -> list[Team]:
    """Every team of the league, with its club, by name. One query."""
    return by_name(Team.objects.filter(group__league=league).select_related("club"))


def league_team_players(league: League) -> QuerySet[TeamPlayer]:
    """Every team's players of the league, with their players (lazy)."""
    return TeamPlayer.objects.filter(team__group__league=league).select_related("player")


def league_days(league: League) -> QuerySet[MatchDay]:
    """The league's match days with their hosts and teams, in the calendar's order (lazy: two
    queries)."""
    return (MatchDay.objects.filter(group__league=league).select_related("host")
            .prefetch_related("teams").order_by("number", "date", "id"))


def league_group(league: League, pk: int) -> LeagueGroup | None:
    """The league's group ``pk`` (None: not the league's)."""
    return LeagueGroup.objects.filter(league=league, pk=pk).first()


def league_team(league: League, pk: int) -> Team | None:
    """The league's team ``pk`` with its group (None: not the league's)."""
    return Team.objects.select_related("group").filter(group__league=league, pk=pk).first()


def league_team_player(league: League, pk: int) -> TeamPlayer | None:
    """A team's player ``pk`` in the league, with his team's group and his player."""
    return TeamPlayer.objects.select_related("team__group", "player").filter(
        team__group__league=league, pk=pk).first()


def group_of(pk: int) -> LeagueGroup | None:
    """The group ``pk`` with its league and the league's club (the caller checks who may
    see it)."""
    return LeagueGroup.objects.select_related("league__club").filter(pk=pk).first()


def public_league(key: str) -> tuple[League, str] | None:
    """The opted-in league of this key and its version, in one query: the league's own
    version (teams, calendar, line-ups, seating, signatures) and its tables' (every deal).
    None: no league shows a page under this key."""
    league = (League.objects.filter(board_key=key, public=True).select_related("club")
              .annotate(tables=Count("groups__days__evening__tables"),
                        deals=Sum("groups__days__evening__tables__version")).first())
    if league is None:
        return None
    return league, (f"{league.pk}.{league.version}.{league.tables}."
                    f"{league.deals or 0}")


def team_captains(teams: list[Team]) -> dict[int, tuple[str, bool]]:
    """Each team's captain: his name and whether a captain's record of the team is linked
    to an account. One query."""
    found: dict[int, tuple[str, bool]] = {}
    for team_id, name, user_id in TeamPlayer.objects.filter(
            team__in=teams, captain=True).values_list("team_id", "player__name",
                                                      "player__user_id"):
        linked = found[team_id][1] if team_id in found else False
        found[team_id] = (name, linked or user_id is not None)
    return found


def team_rosters(teams: list[Team]) -> dict[int, list[Player]]:
    """Each team's players. One query."""
    roster: dict[int, list[Player]] = defaultdict(list)
    for member in TeamPlayer.objects.filter(team__in=teams).select_related("player"):
        roster[member.team_id].append(member.player)
    return roster


def day_tables(day: MatchDay) -> QuerySet[Table]:
    """The match day's tables by series and number, with their players (lazy: two
    queries)."""
    return Table.objects.filter(evening=day.evening).prefetch_related(
        "seats__player").order_by("series", "number")


def day_team(day: MatchDay, pk: int) -> Team | None:
    """The match day's team ``pk`` (None: it does not play that day)."""
    return day.teams.filter(pk=pk).first()


def team_players(team: Team) -> list[Player]:
    """The team's players. One query."""
    return [member.player for member in team.players.select_related("player")]
