"""Reads: an evening's money, from the score sheets of its tables.

Every amount here is the engine's (evaluate_table → settle): pair payments, nets, fees,
transfers and cross-checks per table. Money is settled per table (DECISIONS.md §5/§6); the
evening's money of a person is the sum over his tables, added up here in Decimal."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scoring.engine import SettlementOptions, SkatError, minor_unit, parse_settlement_options
from scoring.models import Evening, Table
from scoring.money import rate
from scoring.reads.score_sheet import ScoreSheet


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Decimal
    points: int | None = None  # a pair's difference in points (None for a transfer)


@dataclass(frozen=True)
class SeatMoney:
    seat: int
    player_id: int
    name: str
    points: int  # the total settled on: classic points, or Seeger-Fabian points
    won: int
    lost: int
    passed: int
    net: Decimal  # the sum of his rounded (and capped) pair payments
    fees: Decimal  # lost-game, passed-deal and entry fees, into the club's pot
    balance: Decimal  # net − fees: what he receives (+) or pays (−) in all
    exact: Decimal  # cross-check: stake × (n·S − ΣS), unrounded
    lowest_zero: Decimal  # cross-check: the lowest score taken as zero
    average: Decimal  # cross-check: each score against the average
    capped: bool  # his loss was cut to the loss cap


@dataclass
class TableMoney:
    sheet: ScoreSheet
    seats: list[SeatMoney]
    pairs: list[Payment]
    transfers: list[Payment]
    pot: Decimal
    agree: bool  # the cross-checks give the same money as the pair payments

    @property
    def table(self) -> Table:
        return self.sheet.table

    @property
    def capped(self) -> bool:
        return any(seat.capped for seat in self.seats)


@dataclass(frozen=True)
class PlayerMoney:
    player_id: int
    name: str
    tables: tuple[int, ...]
    net: Decimal
    fees: Decimal
    balance: Decimal


@dataclass
class EveningMoney:
    evening: Evening
    currency: str
    stake: Decimal
    unit: Decimal
    options: SettlementOptions
    tables: list[TableMoney]
    unsettled: list[ScoreSheet]  # tables that settle no money (Beer Skat) or do not score
    players: list[PlayerMoney]
    pot: Decimal

    @property
    def places(self) -> int:
        exponent = self.unit.as_tuple().exponent
        return max(0, -exponent) if isinstance(exponent, int) else 2

    @property
    def agree(self) -> bool:
        return all(t.agree for t in self.tables)

    @property
    def on_seeger_fabian(self) -> bool:
        return self.options.on == "seeger_fabian"

    @property
    def has_fees(self) -> bool:
        o = self.options
        return bool(o.lost_game_fee or o.lost_game_fee_tiers or o.passed_deal_fee
                    or o.entry_fee)


def _table_money(sheet: ScoreSheet) -> TableMoney | None:
    settlement = sheet.settlement
    if not settlement or sheet.error is not None:
        return None
    names = sheet.players
    ids = [seat.player_id for seat in sheet.table.seats.all()]
    basis = (sheet.seeger_fabian_totals if settlement["on"] == "seeger_fabian"
             and sheet.seeger_fabian_totals is not None else sheet.totals)
    checks = settlement["checks"]
    passed = sheet.passed or [0] * len(names)
    seats = [
        SeatMoney(
            seat=p, player_id=ids[p], name=names[p], points=basis[p], won=sheet.won[p],
            lost=sheet.lost[p], passed=passed[p], net=Decimal(settlement["net"][str(p)]),
            fees=Decimal(settlement["fees"][str(p)]),
            balance=Decimal(settlement["balance"][str(p)]),
            exact=Decimal(checks["exact"][str(p)]),
            lowest_zero=Decimal(checks["lowest_zero"][str(p)]),
            average=Decimal(checks["average"][str(p)]), capped=p in settlement["capped"])
        for p in range(len(names))
    ]
    pairs = [Payment(names[x["payer"]], names[x["payee"]], Decimal(x["amount"]), x["points"])
             for x in settlement["pairs"]]
    transfers = [Payment(names[x["from"]], names[x["to"]], Decimal(x["amount"]))
                 for x in settlement["transfers"]]
    return TableMoney(sheet, seats, pairs, transfers, Decimal(settlement["pot"]),
                      bool(checks["agree"]))


def evening_money(evening: Evening, sheets: list[ScoreSheet]) -> EveningMoney:
    """The evening's settlement: each table's, and each person's sum over his tables."""
    try:
        options = parse_settlement_options(evening.settlement or None)
        unit = minor_unit(evening.currency)
    except SkatError:  # stored settings the engine refuses: every table shows the error
        options, unit = SettlementOptions(), Decimal("0.01")
    tables: list[TableMoney] = []
    unsettled: list[ScoreSheet] = []
    for sheet in sheets:
        money = _table_money(sheet)
        if money is None:
            unsettled.append(sheet)
        else:
            tables.append(money)
    people: dict[int, dict[str, Any]] = {}
    for money in tables:
        for seat in money.seats:
            person = people.setdefault(seat.player_id, {
                "name": seat.name, "tables": [], "net": Decimal(0), "fees": Decimal(0),
                "balance": Decimal(0)})
            person["tables"].append(money.table.number)
            for key in ("net", "fees", "balance"):
                person[key] += getattr(seat, key)
    players = [PlayerMoney(pid, p["name"], tuple(p["tables"]), p["net"], p["fees"],
                           p["balance"]) for pid, p in people.items()]
    return EveningMoney(evening, evening.currency, rate(evening.stake, unit), unit, options, tables,
                        unsettled, players, sum((t.pot for t in tables), Decimal(0)))
