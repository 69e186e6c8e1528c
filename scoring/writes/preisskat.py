"""Preisskat essentials (issue 24, item 4): a club's rule profile made from a preset in one
step (the ISkO tournament profile the tournament form looks for by its rules), and the
tournament's fees, editable until series 1 is drawn."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from scoring.models import Club, RuleProfile, Tournament
from scoring.presets import PRESETS
from scoring.writes import services
from scoring.writes.tournament import CENT, fee_settlement


def profile_from_preset(*, club: Club, key: str) -> RuleProfile:
    """A new rule profile of ``club`` holding the preset's rules, named by the preset in the
    current language; a name the club has already gets a number ("ISkO-Turnier (2)")."""
    if key not in PRESETS:
        raise ValidationError(_("There is no such preset."))
    preset = PRESETS[key]
    base = _(preset["name"])
    taken = {n.casefold() for n in club.rule_profiles.values_list("name", flat=True)}
    name, number = base, 1
    while name.casefold() in taken:
        number += 1
        name = f"{base} ({number})"
    profile = RuleProfile(club=club, name=name[:100], rules=preset["rules"],
                          options=preset["options"], scoring=preset["scoring"])
    profile.full_clean()
    try:
        with transaction.atomic():
            profile.save()
    except IntegrityError:  # the same name, a moment ago
        raise ValidationError(_("The club already has a rule profile named “%(name)s”.")
                              % {"name": name}) from None
    return profile


# ---------------------------------------------------------------- the fees until the draw

@dataclass(frozen=True)
class Fees:
    """What the players pay: the entry fee, the team and tandem fees (None: no such
    ranking), and the lost-game fee (rising to ``lost_fee_high`` from the ``lost_fee_from``-th
    lost game) and passed-deal fee, which are the evening's club extras."""

    entry_fee: Decimal
    team_fee: Decimal | None
    tandem_fee: Decimal | None
    lost_fee: Decimal
    lost_fee_high: Decimal | None
    lost_fee_from: int | None
    passed_fee: Decimal

    def settlement(self) -> dict[str, Any]:
        return fee_settlement(lost_fee=self.lost_fee, lost_fee_high=self.lost_fee_high,
                              lost_fee_from=self.lost_fee_from or 1,
                              passed_fee=self.passed_fee)

    def same(self, other: Fees) -> bool:
        """The same fees: equal amounts and the same club extras (a higher fee from game 1
        or of 0 is no tier)."""
        mine, theirs = self.settlement(), other.settlement()
        return (mine == theirs and self.entry_fee == other.entry_fee
                and self.team_fee == other.team_fee and self.tandem_fee == other.tandem_fee)


def _money(raw: object) -> Decimal:
    try:
        return Decimal(str(raw)).quantize(CENT)
    except (InvalidOperation, ValueError):
        return Decimal("0.00")


def current_fees(tournament: Tournament) -> Fees:
    """The tournament's fees as they stand, the lost-game fees read back from the evening's
    club extras (writes/tournament.fee_settlement wrote them)."""
    settlement = tournament.evening.settlement or {}
    tiers = settlement.get("lost_game_fee_tiers") or []
    if len(tiers) >= 2:
        lost, high, start = _money(tiers[0].get("fee")), _money(tiers[1].get("fee")), int(
            tiers[1].get("from") or 2)
    else:
        lost, high, start = _money(settlement.get("lost_game_fee", 0)), None, None
    return Fees(entry_fee=tournament.entry_fee.quantize(CENT),
                team_fee=None if tournament.team_fee is None else tournament.team_fee.quantize(
                    CENT),
                tandem_fee=None if tournament.tandem_fee is None
                else tournament.tandem_fee.quantize(CENT),
                lost_fee=lost, lost_fee_high=high, lost_fee_from=start,
                passed_fee=_money(settlement.get("passed_deal_fee", 0)))


def tournament_fees(*, tournament: Tournament, fees: Fees) -> Tournament:
    """Change the fees while no series is drawn (issue 24): once series 1 is drawn the
    players have paid by them and the tables charge by them, so a change is refused with a
    message and nothing changes (the same fees again are no change). The row lock keeps a
    draw from slipping in between."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().select_related("evening").get(
            pk=tournament.pk)
        if fees.same(current_fees(locked)):
            return tournament
        if locked.draws.exists():
            raise ValidationError(_("The fees are fixed once series 1 is drawn: the "
                                    "players have paid and the tables charge by them."))
        if locked.evening.closed:
            raise ValidationError(_("This tournament is closed."))
        for attribute, fee in (("team", fees.team_fee), ("tandem", fees.tandem_fee)):
            if fee is None and locked.entrants.exclude(**{attribute: ""}).exists():
                raise ValidationError(
                    _("Players are registered in teams: the team fee cannot be removed.")
                    if attribute == "team" else
                    _("Players are registered in tandems: the tandem fee cannot be removed."))
        locked.entry_fee, locked.team_fee = fees.entry_fee, fees.team_fee
        locked.tandem_fee = fees.tandem_fee
        locked.full_clean()
        locked.save(update_fields=["entry_fee", "team_fee", "tandem_fee"])
        evening = locked.evening
        try:
            services.evening_settlement(
                evening=evening, stake=evening.stake, currency=evening.currency,
                settlement=fees.settlement(), expected_version=evening.version)
        except services.StaleEvening:
            raise ValidationError(_("The evening's fees were changed a moment ago: look at "
                                    "them again.")) from None
        Tournament.objects.filter(pk=locked.pk).update(version=F("version") + 1)
    tournament.refresh_from_db()
    return tournament


# ---------------------------------------------------------------- the other prize lists

def tournament_list_prizes(*, tournament: Tournament, list_prizes: dict[str, Any]) -> Tournament:
    """The prize tables of the category, team and tandem rankings (each as parse_prizes
    gives it); like the overall prizes, changeable all day."""
    categories = list_prizes.get("categories", {})
    if not isinstance(categories, dict) or any(
            name not in tournament.categories for name in categories):
        raise ValidationError(_("Prizes for a category the tournament does not have."))
    for kind, fee in (("team", tournament.team_fee), ("tandem", tournament.tandem_fee)):
        if list_prizes.get(kind) and fee is None:
            raise ValidationError(_("This tournament has no team ranking.") if kind == "team"
                                  else _("This tournament has no tandem ranking."))
    with transaction.atomic():
        tournament.list_prizes = list_prizes
        tournament.save(update_fields=["list_prizes"])
        Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    tournament.refresh_from_db(fields=["version"])
    return tournament


# ---------------------------------------------------------------- clubs kept apart

def tournament_clubs_apart(*, tournament: Tournament, on: bool) -> Tournament:
    """Whether the draws of the series still to come keep the players of one home club at
    different tables where that costs nothing else (repeats, 3-tables, teams)."""
    if tournament.clubs_apart != on:
        with transaction.atomic():
            Tournament.objects.filter(pk=tournament.pk).update(
                clubs_apart=on, version=F("version") + 1)
        tournament.refresh_from_db(fields=["clubs_apart", "version"])
    return tournament
