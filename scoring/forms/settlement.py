"""The treasurer's form: the evening's stake, currency and club extras (deal-record.md
"Settlement"). Amounts are typed as people write them ("0,05" in German); everything is
checked by the engine's own parsers before it can be saved."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import sanitize_separators
from django.utils.translation import gettext_lazy as _

from scoring.engine import (
    SettlementError,
    minor_unit,
    parse_settlement_options,
    parse_stake,
    settle,
)
from scoring.models import Evening, Scoring
from scoring.money import money, places_of, rate

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

TIER = re.compile(r"^\s*(\d+)\s*[:=]\s*(\S+)\s*$")
# One tier of deal-record.md's lost_game_fee_tiers: from the n-th lost game on, this fee.
Tier = TypedDict("Tier", {"from": int, "fee": str})


def _amount_field(label: StrOrPromise, help_text: StrOrPromise = "",
                  required: bool = True) -> forms.DecimalField:
    return forms.DecimalField(label=label, help_text=help_text, required=required,
                              widget=forms.TextInput(attrs={"inputmode": "decimal"}),
                              max_digits=12, decimal_places=4, min_value=Decimal("0"),
                              localize=True)


class SettlementForm(forms.Form):
    stake = _amount_field(_("Stake per point"),
                          _("What one point is worth, e.g. 0.05 or 0.0025 (¼ cent)."))
    currency = forms.CharField(label=_("Currency"), max_length=3, min_length=3,
                               help_text=_("Three letters, such as EUR or CHF."))
    on = forms.ChoiceField(
        label=_("Settle on"), required=False,
        choices=[("classic", _("classic points")), ("seeger_fabian", _("Seeger-Fabian points"))])
    round_totals_first = forms.BooleanField(
        label=_("Convert each total to money first"), required=False,
        help_text=_("The 1898 practice: each total is turned into money and cut to the "
                    "smallest unit, then compared. Otherwise each pair payment is rounded."))
    lost_game_fee = _amount_field(_("Fee per lost game"), required=False)
    lost_game_fee_tiers = forms.CharField(
        label=_("Or tiered fees per lost game"), required=False, max_length=200,
        help_text=_("“from: fee” pairs, e.g. “1: 0.50; 5: 1.00”: lost games 1–4 cost 0.50 "
                    "each, from the 5th on 1.00."))
    passed_deal_fee = _amount_field(_("Fee per passed-in deal"), required=False)
    entry_fee = _amount_field(_("Entry fee"), required=False)
    loss_cap = _amount_field(
        _("Loss cap"), required=False,
        help_text=_("Nobody loses more than this; a larger loss is scaled down across his "
                    "creditors. Leave empty for no cap."))
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args: Any, evening: Evening, **kwargs: Any) -> None:
        self.evening = evening
        if not args and "data" not in kwargs:
            kwargs.setdefault("initial", initial_for(evening))
        super().__init__(*args, **kwargs)
        if evening.scoring != Scoring.SEEGER_FABIAN:
            del self.fields["on"]  # settling on Seeger-Fabian needs Seeger-Fabian scoring
        if evening.scoring == Scoring.BEER:
            self.fields["stake"].help_text = _("Beer Skat settles no money.")

    def clean_currency(self) -> str:
        currency: str = self.cleaned_data["currency"].strip().upper()
        try:
            minor_unit(currency)
        except SettlementError:
            raise ValidationError(_("A currency is three letters, such as EUR.")) from None
        return currency

    def clean_lost_game_fee_tiers(self) -> list[Tier] | None:
        raw: str = self.cleaned_data["lost_game_fee_tiers"].strip()
        if not raw:
            return None
        tiers: list[Tier] = []
        for part in re.split(r"[;\n]+", raw):
            if not part.strip():
                continue
            match = TIER.match(part)
            if match is None:
                raise ValidationError(_("Write each tier as “from: fee”, e.g. “1: 0.50; "
                                        "5: 1.00”."))
            try:
                fee = Decimal(sanitize_separators(match.group(2)))
            except InvalidOperation:
                raise ValidationError(_("“%(fee)s” is not an amount.")
                                      % {"fee": match.group(2)}) from None
            tiers.append({"from": int(match.group(1)), "fee": str(fee)})
        return tiers

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        tiers = data.get("lost_game_fee_tiers")
        if tiers and data.get("lost_game_fee"):
            self.add_error("lost_game_fee_tiers", _(
                "Give either a fee per lost game or tiered fees, not both."))
            return data
        # Fees and the cap are coins changing hands: whole steps of the smallest unit.
        unit = minor_unit(data["currency"])
        amounts = [(name, data.get(name)) for name in
                   ("lost_game_fee", "passed_deal_fee", "entry_fee", "loss_cap")]
        amounts += [("lost_game_fee_tiers", Decimal(t["fee"])) for t in tiers or ()]
        for name, value in amounts:
            if value is not None and value % unit:
                self.add_error(name, _("Amounts here must be whole steps of %(unit)s "
                                       "%(currency)s, the smallest coin.")
                               % {"unit": money(unit, places_of(unit)),
                                  "currency": data["currency"]})
        if self.errors:
            return data
        try:
            # Settle two empty totals: the engine checks everything exactly as it will on
            # the evening's tables (its messages name the field).
            settle([0, 0], stake=parse_stake(str(data["stake"])), currency=data["currency"],
                   options=parse_settlement_options(self.settlement_settings()),
                   lost_games=[0, 0], passed_deals=[0, 0])
        except SettlementError as err:
            name = (err.field or "").removeprefix("settlement.")
            self.add_error(name if name in self.fields else None, err.message)
        return data

    def settlement_settings(self) -> dict[str, Any]:
        """The evening's ``settlement`` object in deal-record.md's shape."""
        data = self.cleaned_data

        def text(value: Decimal | None) -> str:
            return format(plain(value), "f") if value else "0"

        return {
            "on": data.get("on") or "classic",
            "round_totals_first": bool(data.get("round_totals_first")),
            "lost_game_fee": text(data.get("lost_game_fee")),
            "lost_game_fee_tiers": data.get("lost_game_fee_tiers"),
            "passed_deal_fee": text(data.get("passed_deal_fee")),
            "entry_fee": text(data.get("entry_fee")),
            "loss_cap": (None if data.get("loss_cap") is None
                         else format(plain(data["loss_cap"]), "f")),
        }


def plain(value: Decimal | None) -> Decimal | None:
    """0.0500 → 0.05 and 10.0000 → 10 (never 1E+1) for showing in a field."""
    if value is None:
        return None
    return value.quantize(Decimal(1)) if value == value.to_integral() else value.normalize()


def initial_for(evening: Evening) -> dict[str, Any]:
    """The form as the evening stands, amounts written with the currency's decimals."""
    raw = evening.settlement or {}
    try:
        options = parse_settlement_options(raw or None)
    except SettlementError:  # shown as it is; saving will insist on valid amounts
        options = parse_settlement_options(None)
    try:
        unit = minor_unit(evening.currency)
    except SettlementError:
        unit = Decimal("0.01")

    def shown(value: Decimal | None) -> Decimal | None:
        return rate(value, unit) if value else None

    tiers = options.lost_game_fee_tiers
    return {
        "stake": rate(evening.stake, unit), "currency": evening.currency, "on": options.on,
        "round_totals_first": options.round_totals_first,
        "lost_game_fee": shown(options.lost_game_fee),
        "lost_game_fee_tiers": "; ".join(f"{start}: {money(rate(fee, unit))}"
                                         for start, fee in tiers) if tiers else "",
        "passed_deal_fee": shown(options.passed_deal_fee),
        "entry_fee": shown(options.entry_fee),
        "loss_cap": None if options.loss_cap is None else rate(options.loss_cap, unit),
        "version": evening.version,
    }
