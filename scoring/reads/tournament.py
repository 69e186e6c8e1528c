"""What a tournament's pages, PDFs and public board show, derived from its evening's tables
by the existing evaluation (standings.evening_ranking: Seeger-Fabian points per table from
the engine, cached per table version): the ranking after each series and overall with the
organiser's tie rule, category, team and tandem rankings, the prize table, payouts and the
organiser's fee income.

Money is Decimal to the cent. The prize table: each place has a fixed amount ("100.00") or a
share of the pot ("25%", rounded down to the cent); players sharing a place share the prizes
of the places they cover, each the same amount rounded down to the cent; whatever of the pot
is not paid out (shares below 100 %, cents of a split) is carried (Übertrag). So the payouts
and the carried rest add up to the pot exactly."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from functools import cached_property
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.db.models import Count, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from scoring.models import Entrant, Player, Seat, Table, Tournament, TournamentSeries
from scoring.money import money
from scoring.reads.signing import FINISHED, PLAYING, SIGNED, STATUS_WORDS
from scoring.reads.standings import Standing, TableProgress, evening_ranking

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def series_history(tournament: Tournament) -> list[list[list[int]]]:
    """The drawn series as start numbers: [[table 1's numbers in seat order, …], …]."""
    numbers = dict(tournament.entrants.values_list("player_id", "number"))
    series: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for s, t, player in Seat.objects.filter(table__evening_id=tournament.evening_id).order_by(
            "table__series", "table__number", "position").values_list(
            "table__series", "table__number", "player_id"):
        if player in numbers:
            series[s][t].append(numbers[player])
    return [[series[s][t] for t in sorted(series[s])] for s in sorted(series)]


@dataclass
class SeatedTable:
    """A drawn table and its players in seat order."""

    table: Table
    players: list[Player]


def series_tables(tournament: Tournament, series: int | None = None,
                  ) -> list[tuple[int, list[SeatedTable]]]:
    """Each drawn series with its tables and their players: one query joining seats, tables
    and players, grouped here (no ``prefetch_related``: its ``IN`` list of one parameter per
    table or seat exceeds SQLite's expression depth of 1,000 at 250 tables)."""
    tables: dict[int, SeatedTable] = {}
    seats = Seat.objects.filter(table__evening_id=tournament.evening_id)
    if series is not None:
        seats = seats.filter(table__series=series)
    for seat in seats.select_related(
            "table", "player").order_by("table__series", "table__number", "position"):
        seated = tables.get(seat.table_id)
        if seated is None:
            seated = tables[seat.table_id] = SeatedTable(seat.table, [])
        seated.players.append(seat.player)
    by_series: dict[int, list[SeatedTable]] = defaultdict(list)
    for seated in tables.values():
        by_series[seated.table.series].append(seated)
    return sorted(by_series.items())


ENTRANTS_PER_PAGE = 50


@dataclass
class SeriesSummary:
    """A drawn series folded for the desk: its counts, not its tables."""

    number: int
    tables: int = 0
    four: int = 0
    three: int = 0
    players: int = 0
    status: dict[str, int] = field(default_factory=dict)  # table state -> tables
    draw: TournamentSeries | None = None

    @property
    def states(self) -> list[tuple[str, int, str]]:
        """(state, tables, the state's words), playing first."""
        return [(s, self.status[s], str(STATUS_WORDS[s]))
                for s in (PLAYING, FINISHED, SIGNED) if s in self.status]


def series_summaries(tournament: Tournament, statuses: dict[int, tuple[str, str]],
                     ) -> list[SeriesSummary]:
    """Per drawn series its tables (4- and 3-tables), players and tables by state: one
    grouped query, whatever the field."""
    found: dict[int, SeriesSummary] = {}
    for pk, series, seats in Table.objects.filter(
            evening_id=tournament.evening_id).annotate(n=Count("seats")).values_list(
            "pk", "series", "n"):
        summary = found.setdefault(series, SeriesSummary(series))
        summary.tables += 1
        summary.players += seats
        summary.four += seats == 4
        summary.three += seats == 3
        status = statuses.get(pk)
        if status is not None:
            summary.status[status[0]] = summary.status.get(status[0], 0) + 1
    draws = {d.number: d for d in tournament.draws.all()}
    for summary in found.values():
        summary.draw = draws.get(summary.number)
    return [found[n] for n in sorted(found)]


def current_seats(tournament: Tournament, series: int, player_ids: Sequence[int],
                  ) -> dict[int, tuple[int, int]]:
    """For these players (a page of the desk: at most a few dozen) their (table, seat 1…)
    in ``series`` (the latest drawn): the desk's search shows where each found player sits.
    One query."""
    if not series or not player_ids:
        return {}
    return {
        player: (table, position + 1) for player, table, position in Seat.objects.filter(
            table__evening_id=tournament.evening_id, table__series=series,
            player_id__in=list(player_ids)).values_list("player_id", "table__number",
                                                        "position")}


def seat_list_search(tournament: Tournament, tables: list[SeatedTable], query: str,
                     ) -> tuple[dict[int, int], list[tuple[Player, int | None, int, int]]]:
    """The start number of every entrant (player id -> number) and the players of a
    series' seat list whom ``query`` finds, as the desk's search does: a start number that
    one, any other text the names containing it (any case); each with his start number,
    table and seat. One query (the numbers)."""
    numbers = dict(tournament.entrants.values_list("player_id", "number"))
    query = " ".join(query.split())[:100]
    if not query:
        return numbers, []
    found = []
    text = query.casefold()
    for seated in tables:
        for position, player in enumerate(seated.players, start=1):
            number = numbers.get(player.pk)
            if (number == int(query)) if query.isdigit() else text in player.name.casefold():
                found.append((player, number, seated.table.number, position))
    return numbers, found


def entrant_search(tournament: Tournament, query: str) -> QuerySet[Entrant]:
    """The entrants found by the desk's search: a start number finds that number, any other
    text the names and home clubs containing it (case-insensitive); empty: everybody."""
    entrants = tournament.entrants.select_related("player").order_by("number")
    query = " ".join(query.split())[:100]
    if not query:
        return entrants
    if query.isdigit():
        return entrants.filter(number=int(query))
    return entrants.filter(Q(player__name__icontains=query) | Q(home_club__icontains=query))


def entrants_before(tournament: Tournament, query: str, number: int) -> int:
    """How many of the entrants the desk's search finds come before start number
    ``number``. One query."""
    return entrant_search(tournament, query).filter(number__lt=number).count()


def entrant_of(tournament: Tournament, pk: int) -> Entrant | None:
    """The tournament's entrant ``pk`` with his player (None: not the tournament's)."""
    return Entrant.objects.select_related("player", "tournament").filter(
        pk=pk, tournament=tournament).first()


def public_tournament(key: str) -> Tournament | None:
    """The tournament whose public board has the key ``key`` and is switched on."""
    return Tournament.objects.select_related("evening", "club").filter(
        board_key=key, public=True).first()


def tournament_again(pk: int) -> Tournament:
    """The tournament ``pk`` read afresh, with its evening and club."""
    return Tournament.objects.select_related("evening", "club").get(pk=pk)


def has_table(tournament: Tournament, series: int, number: int | None = None) -> bool:
    """Whether the series (its table ``number``) has been drawn onto tables."""
    tables = tournament.evening.tables.filter(series=series)
    return (tables if number is None else tables.filter(number=number)).exists()


def drawn_series(tournament: Tournament, series: int) -> TournamentSeries | None:
    """The draw of a series (its seed, its repeated opponents); None: not drawn."""
    return tournament.draws.filter(number=series).first()


def is_drawn(tournament: Tournament) -> bool:
    """Whether series 1 has been drawn. One query."""
    return tournament.draws.exists()


def table_statuses(tournament: Tournament) -> dict[int, tuple[str, str]]:
    """Each drawn table's state for the desk (issue 23): playing, finished or signed, with
    the words; from the ranking's progress (the tables' results, cached) and the tables'
    signatures: a constant number of queries, however many tables."""
    if not is_drawn(tournament):
        return {}
    complete = {progress.table.pk: progress.complete
                for series in tournament_ranking(tournament).progress for progress in series}
    found = {}
    for pk, signed_at, changed in tournament.evening.tables.values_list(
            "pk", "signed_at", "changed_after_signing"):
        status = SIGNED if signed_at else FINISHED if complete.get(pk) else PLAYING
        words = str(STATUS_WORDS[status])
        if changed and status != SIGNED:
            words = f"{words} · {_('changed after signing')}"
        found[pk] = (status, words)
    return found


RANKING_PER_PAGE = 50


def ranking_search(rows: list[Row], query: str) -> list[Row]:
    """The ranking's rows found by the results page's search, like the desk's: a start
    number finds that number, any other text the names and home clubs containing it
    (case-insensitive); empty: every row. The full ranking stays in the CSV and PDF."""
    query = " ".join(query.split())[:100]
    if not query:
        return rows
    if query.isdigit():
        return [r for r in rows if r.entrant.number == int(query)]
    text = query.casefold()
    return [r for r in rows
            if text in r.name.casefold() or text in r.entrant.home_club.casefold()]


def place_page(rows: list[Row], user_id: int | None) -> tuple[int, Row] | None:
    """The page (of RANKING_PER_PAGE) and row of the signed-in member's own place, if he
    plays: "my place" on the results page."""
    if user_id is None:
        return None
    for index, row in enumerate(rows):
        if row.entrant.player.user_id == user_id:
            return index // RANKING_PER_PAGE + 1, row
    return None


@dataclass
class EntrantCounts:
    total: int
    checked_in: int  # present: checked in and not withdrawn
    paid: int
    playing: int  # checked in and not withdrawn before ``series``
    withdrawn: int = 0


def entrant_counts(tournament: Tournament, series: int) -> EntrantCounts:
    """The desk's counts in one aggregate query (not the field loaded to count it). A player
    who withdrew keeps ``checked_in`` (the record of having been there) but is no longer
    present: counted as withdrawn, not as checked in."""
    row = tournament.entrants.aggregate(
        n_total=Count("pk"), n_checked_in=Count("pk", filter=Q(
            checked_in=True, withdrawn_after__isnull=True)),
        n_paid=Count("pk", filter=Q(paid=True)),
        n_playing=Count("pk", filter=Q(checked_in=True) & (
            Q(withdrawn_after__isnull=True) | Q(withdrawn_after__gte=series))),
        n_withdrawn=Count("pk", filter=Q(withdrawn_after__isnull=False)))
    return EntrantCounts(row["n_total"], row["n_checked_in"], row["n_paid"],
                         row["n_playing"], row["n_withdrawn"])


def unpaid_players(tournament: Tournament, series: int) -> list[int]:
    """The start numbers of those who play ``series`` (checked in, not withdrawn before it)
    and have not paid: the draw's warning (issue 24). One query of numbers only."""
    return list(tournament.entrants.filter(
        Q(withdrawn_after__isnull=True) | Q(withdrawn_after__gte=series),
        checked_in=True, paid=False).order_by("number").values_list("number", flat=True))


def board_version(tournament: Tournament) -> str:
    """What the public board's cache, its ETag and the printed documents are keyed by: the
    tournament's own version (registration, seating, settings), its evening's (the club
    extras: the fees) and its tables' versions (every saved deal). One query, read fresh."""
    row = Tournament.objects.filter(pk=tournament.pk).annotate(
        tables=Count("evening__tables"), deals=Sum("evening__tables__version"),
        signing=Sum("evening__tables__signing")).values(
        "version", "evening__version", "tables", "deals", "signing").get()
    # ``signing``: the players' signatures (issue 23), printed on the standard lists
    return (f"{tournament.pk}.{row['version']}.{row['evening__version']}.{row['tables']}."
            f"{row['deals'] or 0}.{row['signing'] or 0}")


@dataclass
class Row:
    """One entrant's line of a ranking."""

    entrant: Entrant
    score: int = 0
    won: int = 0
    lost: int = 0
    series: dict[int, int] = field(default_factory=dict)
    fees: Decimal = ZERO  # lost-game and passed-deal fees over the lists played
    rank: int = 0
    prize: Decimal = ZERO
    # (table, seat 1…) in the latest series drawn, if he plays it: the board's "find me"
    seat: tuple[int, int] | None = None

    @property
    def name(self) -> str:
        return self.entrant.player.name

    @property
    def games(self) -> int:
        return self.won + self.lost


@dataclass
class Group:
    """A team or tandem in its ranking."""

    name: str
    members: list[Row]
    score: int = 0
    won: int = 0
    lost: int = 0
    rank: int = 0
    prize: Decimal = ZERO


def tie_key(tie_rule: str) -> Callable[[Row | Group], tuple[int, ...]]:
    """Who is ahead: the higher score; under the rule "won" (DECISIONS.md §2) then more games
    won, then fewer games lost; under "shared" equal scores share the place."""
    if tie_rule == Tournament.TieRule.SHARED:
        return lambda r: (-r.score,)
    return lambda r: (-r.score, -r.won, r.lost)


Ranked = TypeVar("Ranked", Row, Group)


def _rank(rows: list[Ranked], key: Callable[[Row | Group], tuple[int, ...]],
          order: Callable[[Ranked], str | int]) -> None:
    rows.sort(key=lambda r: (key(r), order(r)))
    previous: tuple[int, ...] | None = None
    place = 0
    for index, row in enumerate(rows, start=1):
        k = key(row)
        if k != previous:
            place, previous = index, k
        row.rank = place


@dataclass
class Payout:
    place: int
    prize: str  # as the organiser wrote it: "100.00" or "25%"
    amount: Decimal  # that place's prize in money


@dataclass
class Money:
    pot: Decimal  # the entry fees paid
    payouts: Decimal
    carried: Decimal
    fees: Decimal  # lost-game and passed-deal fees: the organiser's
    team_fees: Decimal
    tandem_fees: Decimal
    paid: int
    currency: str

    @property
    def income(self) -> Decimal:
        """The organiser's fee income: lost-game and passed-deal fees (team and tandem fees
        and the carried rest are shown apart)."""
        return self.fees


def parse_prizes(text: str) -> list[str]:
    """The prize table as typed, one place per line: "100" or "100.00" a fixed amount, "25%"
    a share of the pot. Shares may add up to 100 % at most."""
    prizes: list[str] = []
    shares = Decimal(0)
    for number, raw in enumerate(text.replace(";", "\n").splitlines(), start=1):
        line = raw.strip().replace(",", ".").replace("€", "").strip()
        if not line:
            continue
        share = line.endswith("%")
        try:
            value = Decimal(line.rstrip("%").strip())
        except InvalidOperation:
            raise ValidationError(_("Prize line %(number)d is neither an amount nor a share "
                                    "such as 25%%.") % {"number": number}) from None
        if not value.is_finite() or value < 0 or value != value.quantize(CENT):
            raise ValidationError(_("Prize line %(number)d: give an amount of at least 0 to "
                                    "the cent.") % {"number": number})
        if share:
            shares += value
            prizes.append(f"{value}%")
        else:
            prizes.append(f"{value.quantize(CENT)}")
    if shares > 100:
        raise ValidationError(_("The shares of the pot add up to more than 100%."))
    return prizes


def prize_amounts(pot: Decimal, prizes: Sequence[str]) -> list[Decimal]:
    """Each place's prize in money: a share of the pot rounded down to the cent, or fixed."""
    amounts = []
    for prize in prizes:
        if prize.endswith("%"):
            amounts.append((pot * Decimal(prize[:-1]) / 100).quantize(CENT, ROUND_DOWN))
        else:
            amounts.append(Decimal(prize).quantize(CENT))
    return amounts


def prize_inversions(pot: Decimal, prizes: Sequence[str]) -> list[int]:
    """The places whose prize exceeds the prize of the place just above them (checking
    neighbours finds every inversion). Shares are compared with shares, amounts with amounts;
    a share and a fixed amount only while there is a pot to take the share of (before
    anybody paid, 10 % of nothing says nothing)."""
    amounts = prize_amounts(pot, prizes)
    found = []
    for place in range(2, len(prizes) + 1):
        lower, higher = prizes[place - 1], prizes[place - 2]
        if lower.endswith("%") and higher.endswith("%"):
            above = Decimal(lower[:-1]) > Decimal(higher[:-1])
        elif lower.endswith("%") != higher.endswith("%") and pot <= 0:
            above = False
        else:
            above = amounts[place - 1] > amounts[place - 2]
        if above:
            found.append(place)
    return found


def prize_warnings(tournament: Tournament, paid: int) -> list[str]:
    """The desk's warnings about the prize tables (not refusals: a club may mean it): a
    lower place paying more than the one above, with the pot of the ``paid`` entry fees.
    The other lists' tables (their pots are their own) compare amount with amount and share
    with share."""
    currency = tournament.evening.currency
    pot = (tournament.entry_fee * paid).quantize(CENT)
    tables: list[tuple[str, Decimal, list[str]]] = [(_("Prizes"), pot, tournament.prizes)]
    for name in tournament.categories or []:
        tables.append((_("Prizes of category %(name)s") % {"name": name}, ZERO,
                       list_prize_table(tournament, "category", name)))
    tables.append((_("Team prizes"), ZERO, list_prize_table(tournament, "team")))
    tables.append((_("Tandem prizes"), ZERO, list_prize_table(tournament, "tandem")))

    def shown(prize: str, amount: Decimal, table_pot: Decimal) -> str:
        """The prize as the page writes numbers: "30,00 EUR", "10 % = 13,00 EUR"."""
        if not prize.endswith("%"):
            return f"{money(prize, 2)} {currency}"
        share = f"{money(prize[:-1])}%"
        return f"{share} = {money(amount, 2)} {currency}" if table_pot > 0 else share

    warnings = []
    for title, table_pot, table in tables:
        amounts = prize_amounts(table_pot, table)
        for place in prize_inversions(table_pot, table):
            warnings.append(_(
                "%(table)s: place %(place)d (%(prize)s) pays more than place %(higher)d "
                "(%(above)s).") % {
                    "table": title, "place": place, "higher": place - 1,
                    "prize": shown(table[place - 1], amounts[place - 1], table_pot),
                    "above": shown(table[place - 2], amounts[place - 2], table_pot)})
    return warnings


def split_prizes(pot: Decimal, prizes: Sequence[str], ranks: Sequence[int],
                 ) -> tuple[list[Decimal], Decimal]:
    """The payout of each ranked row (``ranks``: their places, best first, equal places
    shared) and the carried rest; sum(payouts) + carried == pot to the cent. Fixed amounts
    above the pot make the rest negative (the organiser adds the difference)."""
    amounts = prize_amounts(pot, prizes)
    payouts = [ZERO] * len(ranks)
    index = 0
    while index < len(ranks):
        end = index
        while end < len(ranks) and ranks[end] == ranks[index]:
            end += 1
        covered = sum(amounts[index:end], ZERO)
        each = (covered / (end - index)).quantize(CENT, ROUND_DOWN)
        for i in range(index, end):
            payouts[i] = each
        index = end
    return payouts, pot - sum(payouts, ZERO)


@dataclass
class PrizeList:
    """A ranking of its own besides the overall one (issue 24): a category's players, the
    teams or the tandems, ranked by the tournament's tie rule, with the prizes the organiser
    set for it (``Tournament.list_prizes``) split like the overall ones (ties share). A
    share is of the list's own pot: the entry fees paid by the category's players, or the
    team or tandem fees."""

    kind: str  # "category", "team" or "tandem"
    key: str  # the CSV's ?list=: "team", "tandem", "c0" for the first category …
    title: str
    rows: Sequence[Row | Group]
    prizes: list[Payout]
    pot: Decimal
    payouts: Decimal
    carried: Decimal

    @property
    def money(self) -> bool:
        return bool(self.prizes)


def list_prize_table(tournament: Tournament, kind: str, name: str = "") -> list[str]:
    """The prize table the organiser set for one list ([] when none)."""
    raw = tournament.list_prizes if isinstance(tournament.list_prizes, dict) else {}
    found = raw.get("categories", {}).get(name) if kind == "category" else raw.get(kind)
    return [str(p) for p in found] if isinstance(found, list) else []


@dataclass
class TournamentRanking:
    tournament: Tournament
    after: int  # the series counted (0: none played)
    rows: list[Row]
    progress: list[list[TableProgress]]  # per series drawn, its tables
    tie_rule: str
    money: Money
    prizes: list[Payout]
    problems: list[str]
    entrants: list[Entrant] = field(default_factory=list)

    def unfinished(self, series: int) -> TableProgress | None:
        """The first table of ``series`` that has not played its series yet."""
        return next(iter(self.unfinished_tables(series)), None)

    def unfinished_tables(self, series: int) -> list[TableProgress]:
        """Every table of ``series`` that has not played its series yet, in table order."""
        if series < 1 or series > len(self.progress):
            return []
        return [t for t in self.progress[series - 1]
                if t.length is not None and not t.complete]

    def finished(self, series: int) -> bool:
        return 1 <= series <= len(self.progress) and self.unfinished(series) is None

    @property
    def series_numbers(self) -> list[int]:
        return list(range(1, self.after + 1))

    def category(self, name: str) -> list[Row]:
        rows = [Row(r.entrant, r.score, r.won, r.lost, r.series, r.fees)
                for r in self.rows if r.entrant.category == name]
        _rank(rows, tie_key(self.tie_rule), lambda r: r.entrant.number)
        return rows

    @property
    def categories(self) -> list[tuple[str, list[Row]]]:
        return [(name, self.category(name)) for name in self.tournament.categories]

    def _groups(self, attribute: str) -> list[Group]:
        groups: dict[str, list[Row]] = defaultdict(list)
        for row in self.rows:
            name = getattr(row.entrant, attribute)
            if name:
                groups[name].append(row)
        result = [Group(name, members, sum(m.score for m in members),
                        sum(m.won for m in members), sum(m.lost for m in members))
                  for name, members in groups.items()]
        _rank(result, tie_key(self.tie_rule), lambda g: g.name.casefold())
        return result

    @property
    def teams(self) -> list[Group]:
        return self._groups("team") if self.tournament.team_fee is not None else []

    @property
    def tandems(self) -> list[Group]:
        return self._groups("tandem") if self.tournament.tandem_fee is not None else []

    @cached_property
    def prize_lists(self) -> list[PrizeList]:
        """The category rankings, the team and the tandem ranking, each with its prizes:
        computed from the rows in memory, whatever the field (no query)."""
        t = self.tournament
        found: list[PrizeList] = []

        def add(kind: str, key: str, title: str, rows: Sequence[Row | Group], pot: Decimal,
                name: str = "") -> None:
            table = list_prize_table(t, kind, name)
            payouts, carried = split_prizes(pot, table, [r.rank for r in rows])
            for row, payout in zip(rows, payouts, strict=True):
                row.prize = payout
            found.append(PrizeList(
                kind, key, title, rows,
                [Payout(place, prize, amount) for place, (prize, amount) in enumerate(
                    zip(table, prize_amounts(pot, table), strict=True), start=1)],
                pot, sum(payouts, ZERO), carried if table else ZERO))

        for index, name in enumerate(t.categories):
            paid = sum(1 for e in self.entrants if e.category == name and e.paid)
            add("category", f"c{index}", name, self.category(name),
                (t.entry_fee * paid).quantize(CENT), name)
        if t.team_fee is not None:
            add("team", "team", _("Team ranking"), self.teams, self.money.team_fees)
        if t.tandem_fee is not None:
            add("tandem", "tandem", _("Tandem ranking"), self.tandems, self.money.tandem_fees)
        return found


def tournament_ranking(tournament: Tournament, after: int | None = None) -> TournamentRanking:
    """The ranking over the series 1..``after`` (default: every series drawn, live while the
    last is played); a constant number of queries."""
    evening = tournament.evening
    entrants = {e.player_id: e for e in tournament.entrants.select_related("player")}
    result = evening_ranking(evening)
    drawn = len(result.series)
    after = drawn if after is None else max(0, min(after, drawn))
    rows: list[Row] = []
    standings: list[Standing] = result.rows
    for standing in standings:
        entrant = entrants.get(standing.player.pk)
        if entrant is None:
            continue
        row = Row(entrant)
        for seat in standing.lines[0].seats:
            if seat.series == drawn:
                row.seat = (seat.table.number, seat.position + 1)
            if seat.series > after:
                continue
            res = seat.result
            score = (res.seeger_fabian or res.points)[seat.position]
            row.series[seat.series] = row.series.get(seat.series, 0) + score
            row.score += score
            row.won += res.won[seat.position]
            row.lost += res.lost[seat.position]
            if res.money is not None:
                # stake 0: a seat's balance is minus its fees
                row.fees -= Decimal(res.money[seat.position])
        rows.append(row)
    _rank(rows, tie_key(tournament.tie_rule), lambda r: r.entrant.number)
    paid = sum(1 for e in entrants.values() if e.paid)
    pot = (tournament.entry_fee * paid).quantize(CENT)
    payouts, carried = split_prizes(pot, tournament.prizes, [r.rank for r in rows])
    for row, payout in zip(rows, payouts, strict=True):
        row.prize = payout
    teams = {e.team for e in entrants.values() if e.team}
    tandems = {e.tandem for e in entrants.values() if e.tandem}
    money = Money(
        pot=pot, payouts=sum(payouts, ZERO), carried=carried,
        fees=sum((r.fees for r in rows), ZERO),
        team_fees=(tournament.team_fee or ZERO) * len(teams),
        tandem_fees=(tournament.tandem_fee or ZERO) * len(tandems),
        paid=paid, currency=evening.currency)
    prizes = [Payout(place, prize, amount) for place, (prize, amount) in enumerate(
        zip(tournament.prizes, prize_amounts(pot, tournament.prizes), strict=True), start=1)]
    return TournamentRanking(
        tournament=tournament, after=after, rows=rows,
        progress=[s.tables for s in result.series], tie_rule=tournament.tie_rule,
        money=money, prizes=prizes,
        problems=[f"{p.table.series}/{p.table.number}: {p.message}" for p in result.problems],
        entrants=list(entrants.values()))
