"""The rules a rule profile proposes and an evening freezes: the rule system, the scoring and
the fields both keep, checked by the engine."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring.engine import AMERICAN1898 as AMERICAN1898_RULES
from scoring.engine import DEFAULT as DEFAULT_RULES
from scoring.engine import HOYLE as HOYLE_RULES
from scoring.engine import ISKO as ISKO_RULES
from scoring.engine import (
    SkatError,
    parse_options,
    parse_settlement_options,
    parse_stake,
    ruleset,
)


class RuleSystem(models.TextChoices):
    # the engine's names (engine/rulesets); only their words for people are here
    ISKO = ISKO_RULES, _("International Skat Order")
    AMERICAN1898 = AMERICAN1898_RULES, _("American Skat (1898)")
    HOYLE = HOYLE_RULES, _("Hoyle's Skat")


class Scoring(models.TextChoices):
    CLASSIC = "classic", _("classic points")
    SEEGER_FABIAN = "seeger_fabian", _("Seeger-Fabian")
    BEER = "beer", _("Beer Skat")


class RulesMixin(models.Model):
    """The rules a profile proposes and an evening freezes: checked by the engine."""

    rules = models.CharField(
        _("rule system"), max_length=20, choices=RuleSystem.choices, default=DEFAULT_RULES)
    options = models.JSONField(_("options"), default=dict, blank=True)
    scoring = models.CharField(
        _("scoring"), max_length=20, choices=Scoring.choices, default=Scoring.CLASSIC)
    stake = models.DecimalField(
        _("stake per point"), max_digits=10, decimal_places=4, default=Decimal("0"))
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    settlement = models.JSONField(_("club extras"), default=dict, blank=True)

    class Meta:
        abstract = True

    def clean(self) -> None:
        super().clean()
        try:
            parse_options(self.rules, self.options, 4)
            parse_settlement_options(self.settlement or None)
            parse_stake(str(self.stake))
        except SkatError as err:
            raise ValidationError({"options": err.message_in(get_language())}) from None
        allowed = ruleset(self.rules).scorings
        if self.scoring == Scoring.BEER and Scoring.BEER not in allowed:
            raise ValidationError({"scoring": _("Beer Skat is scored under the 1898 rules.")})
        if self.scoring == Scoring.SEEGER_FABIAN and Scoring.SEEGER_FABIAN not in allowed:
            raise ValidationError(
                {"scoring": _("Seeger-Fabian is scored under the International Skat Order.")})

    def rules_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "options": self.options, "scoring": self.scoring,
                "stake": str(self.stake), "currency": self.currency,
                "settlement": self.settlement or None}
