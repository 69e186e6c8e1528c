"""The rule-profile form: a club's rule system, scoring, stake and every option of
deal-record.md "Options" in words.

The option fields are not written here one by one: each is built from the engine's
``OPTION_SPECS`` (what values the option takes; the registry says which system takes it and
its default) and its words in ``reads/rule_words.py`` (label, the values' words, help, the
fieldset it stands in). Adding an option touches neither this module nor the template.
Option bock, an object of its own, is the group of bock_* fields below.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring.engine import (
    DEFAULT,
    NAMES,
    OPTION_SPECS,
    PLAYER_DEPENDENT,
    OptionSpec,
    OptionValue,
    SkatError,
    bock_defaults,
    option_defaults,
    parse_options,
    ruleset,
    rulesets_json,
)
from scoring.models import Club, RuleProfile, RuleSystem, Scoring
from scoring.money import rate
from scoring.reads.rule_words import (
    OPTION_GROUPS_AFTER_BOCK,
    OPTION_GROUPS_BEFORE_BOCK,
    OPTION_WORDS,
    OptionGroup,
    OptionWords,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# Each option of deal-record.md "Options" but bock, in the order a profile's options object
# lists them, with its default per rule system as the engine has it (absent: not an option
# of that system; None for beer_limit, which the table's size decides). The form writes only
# what differs from the system's default, so a profile's options stay as short as the spec's
# examples.
OPTION_KEYS = tuple(key for key, spec in OPTION_SPECS.items() if spec.kind != "bock")
_SYSTEM_DEFAULTS = {system: option_defaults(system) for system in NAMES}
OPTION_DEFAULTS: dict[str, dict[str, OptionValue]] = {
    key: {system: defaults[key] for system, defaults in _SYSTEM_DEFAULTS.items()
          if key in defaults}
    for key in OPTION_KEYS
}
BOCK_DEFAULTS = bock_defaults()

# The order of these choices is the order a profile's options list them in.
BOCK_TRIGGER_CHOICES: list[tuple[str, StrOrPromise]] = [
    ("sixty_sixty", _("60:60")), ("kontra_lost", _("a lost Kontra")),
    ("re", _("Re")), ("grand_hand", _("a Grand Hand")),
    ("null_ouvert_hand", _("a Null Ouvert Hand")), ("schneider", _("Schneider")),
    ("schwarz", _("Schwarz")), ("all_passed", _("a passed-in deal")),
    ("value_at_least", _("a game value of at least the value below")),
    ("loss_at_least", _("a loss of at least the value below")),
    ("rounds_without_bock", _("the rounds below without Bock"))]


def option_field(key: str, spec: OptionSpec, words: OptionWords) -> forms.Field:
    """The form field of option ``key``: its kind and values from the engine, its words
    from the rule words. Bounds are the engine's, so the form refuses what the parser
    would, with the field's own message."""
    label, help_text = words.label, words.help
    choices = [(value, words.values[value]) for value in spec.values]
    if spec.kind == "bool":
        return forms.BooleanField(label=label, help_text=help_text, required=False)
    if spec.kind == "choice" and all(type(v) is int for v in spec.values):
        return forms.TypedChoiceField(label=label, help_text=help_text, coerce=int,
                                      choices=choices)
    if spec.kind == "choice":
        return forms.ChoiceField(label=label, help_text=help_text, choices=choices)
    if spec.kind == "set":
        return forms.MultipleChoiceField(label=label, help_text=help_text, required=False,
                                         widget=forms.CheckboxSelectMultiple, choices=choices)
    if spec.kind in ("int", "optional_int"):
        # empty is null (optional_int) or the table's size decides (PLAYER_DEPENDENT)
        required = spec.kind == "int" and key not in PLAYER_DEPENDENT
        return forms.IntegerField(label=label, help_text=help_text, required=required,
                                  min_value=spec.low, max_value=spec.high)
    raise ValueError(f"option {key}: no form field for kind {spec.kind}")


def _field_default(key: str) -> Any:
    """What a field shows for a system it does not belong to: its first system's default."""
    return next(iter(OPTION_DEFAULTS[key].values()))


@dataclass(frozen=True)
class ShownGroup:
    """A fieldset as the template renders it: the group's words and its bound fields, each
    with the include that draws it."""

    group: OptionGroup
    fields: list[tuple[forms.BoundField, str]]


def _include_for(field: forms.Field) -> str:
    if isinstance(field, forms.BooleanField):
        return "scoring/club/_checkbox.html"
    if isinstance(field, forms.MultipleChoiceField):
        return "scoring/club/_choices.html"
    return "scoring/club/_field.html"


class RuleProfileForm(forms.Form):
    """A club's rule profile with every option of the spec in words. Only what the engine's
    parse_options accepts is saved; evenings keep the copy of the rules they were created
    with (services.evening_create), so editing a profile changes no evening."""

    name = forms.CharField(label=_("Name"), max_length=100)
    rules = forms.ChoiceField(label=_("Rule system"), choices=RuleSystem.choices)
    scoring = forms.ChoiceField(label=_("Scoring"), choices=Scoring.choices)
    stake = forms.DecimalField(label=_("Stake per point"), min_value=Decimal("0"),
                               max_digits=10, decimal_places=4, initial=Decimal("0"))
    currency = forms.CharField(label=_("Currency"), max_length=3, min_length=3,
                               initial="EUR", help_text=_("Three letters, such as EUR."))

    # option bock: only for a system with Bock rounds
    bock = forms.BooleanField(label=_("Bock rounds"), required=False)
    bock_triggers = forms.MultipleChoiceField(
        label=_("A Bock round follows"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=BOCK_TRIGGER_CHOICES)
    bock_value_at_least = forms.IntegerField(label=_("Game value for Bock"),
                                             min_value=1, max_value=10_000)
    bock_loss_at_least = forms.IntegerField(label=_("Loss for Bock"), min_value=1,
                                            max_value=10_000)
    bock_rounds_without_bock = forms.IntegerField(label=_("Rounds without Bock"),
                                                  min_value=1, max_value=100)
    bock_stacking = forms.ChoiceField(label=_("Bock rounds earned meanwhile"), choices=[
        ("queue", _("follow one another")), ("parallel", _("overlap and double again"))])
    bock_includes_trigger = forms.BooleanField(
        label=_("The deal that earns Bock counts double too"), required=False)
    bock_one_per_deal = forms.BooleanField(
        label=_("At most one Bock round per deal"), required=False)
    bock_ramsch_round_after = forms.IntegerField(
        label=_("A Ramsch round after every … Bock rounds"), min_value=0, max_value=100,
        help_text=_("0: never; 1: after each. Needs Ramsch and Bock rounds that follow one "
                    "another."))
    bock_manual = forms.BooleanField(
        label=_("Bock can also be set by hand at the table"), required=False)

    BOCK_FIELDS = ("bock", "bock_triggers", "bock_value_at_least", "bock_loss_at_least",
                   "bock_rounds_without_bock", "bock_stacking", "bock_includes_trigger",
                   "bock_one_per_deal", "bock_ramsch_round_after", "bock_manual")

    def __init__(self, *args: Any, club: Club, instance: RuleProfile | None = None,
                 **kwargs: Any) -> None:
        self.club = club
        self.instance = instance if instance is not None else RuleProfile(club=club)
        kwargs.setdefault("initial", self.initial_from(self.instance))
        super().__init__(*args, **kwargs)

    @staticmethod
    def initial_from(profile: RuleProfile) -> dict[str, Any]:
        system = profile.rules if profile.rules in RuleSystem.values else DEFAULT
        raw = profile.options if isinstance(profile.options, dict) else {}
        initial: dict[str, Any] = {
            "name": profile.name, "rules": system, "scoring": profile.scoring,
            "stake": rate(Decimal(profile.stake), "0.01"), "currency": profile.currency}
        for key, defaults in OPTION_DEFAULTS.items():
            default = defaults.get(system, _field_default(key))
            initial[key] = raw.get(key, default) if system in defaults else default
        bock = raw.get("bock") if ruleset(system).bock else None
        initial["bock"] = isinstance(bock, dict)
        for key, default in BOCK_DEFAULTS.items():
            value = bock.get(key, default) if isinstance(bock, dict) else default
            initial[f"bock_{key}"] = value
        return initial

    @property
    def systems(self) -> dict[str, dict[str, object]]:
        """Each rule system's options, for profile.js (json_script): a fieldset shows while
        the chosen system has an option among its fields."""
        return rulesets_json()

    def _shown(self, groups: tuple[OptionGroup, ...]) -> list[ShownGroup]:
        return [ShownGroup(group, [(self[key], _include_for(self.fields[key]))
                                   for key in group.keys]) for group in groups]

    @property
    def option_groups_before_bock(self) -> list[ShownGroup]:
        return self._shown(OPTION_GROUPS_BEFORE_BOCK)

    @property
    def option_groups_after_bock(self) -> list[ShownGroup]:
        return self._shown(OPTION_GROUPS_AFTER_BOCK)

    def other_systems_fields(self, system: object) -> list[str]:
        """The option fields the rule system does not have: ignored, so a value left in a
        hidden part of the form (or a wrong one there) neither saves nor blocks saving."""
        if system not in RuleSystem.values:
            return []
        names = [k for k, defaults in OPTION_DEFAULTS.items() if system not in defaults]
        return names + ([] if ruleset(system).bock else list(self.BOCK_FIELDS))

    def _drop_other_systems_fields(self) -> None:
        """Run first in clean(), right after every field was cleaned on its own."""
        for name in self.other_systems_fields(self.data.get("rules")):
            self.errors.pop(name, None)
            self.cleaned_data.pop(name, None)

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise ValidationError(_("Enter a name."))
        clash = RuleProfile.objects.filter(club=self.club, name__iexact=name).exclude(
            pk=self.instance.pk)
        if clash.exists():
            raise ValidationError(
                _("The club already has a rule profile named “%(name)s”.") % {"name": name})
        return name

    def clean_currency(self) -> str:
        currency: str = self.cleaned_data["currency"].strip().upper()
        if not currency.isascii() or not currency.isalpha():
            raise ValidationError(_("A currency is three letters, such as EUR."))
        return currency

    def options(self) -> dict[str, Any]:
        """The options object of the cleaned form: what differs from the system's default."""
        data = self.cleaned_data
        system = data["rules"]
        options: dict[str, Any] = {}
        for key, defaults in OPTION_DEFAULTS.items():
            if system not in defaults or key not in data:
                continue
            value = data[key]
            if OPTION_SPECS[key].kind == "set":  # in the spec's order, whatever was ticked
                value = [v for v in OPTION_SPECS[key].values if v in value]
            if value != defaults[system]:
                options[key] = value
        if ruleset(system).bock and data.get("bock"):
            bock: dict[str, Any] = {"triggers": [
                t for t, _label in BOCK_TRIGGER_CHOICES if t in data.get("bock_triggers", [])]}
            for key, default in BOCK_DEFAULTS.items():
                value = data.get(f"bock_{key}")
                if key != "triggers" and value is not None and value != default:
                    bock[key] = value
            options["bock"] = bock
        return options

    def clean(self) -> dict[str, Any]:
        self._drop_other_systems_fields()
        super().clean()
        data = self.cleaned_data
        if self.errors or data.get("rules") is None:
            return data
        system = data["rules"]
        rules = ruleset(system)
        if data["ramsch"] == "off":
            changed = [self.fields[k].label for k in rules.ramsch_options
                       if data.get(k) != OPTION_DEFAULTS[k][system]]
            if changed:
                self.add_error("ramsch", _(
                    "These rules are for Ramsch, which is off: %(rules)s. Play Ramsch "
                    "when all pass, or set them back.") % {
                    "rules": ", ".join(str(c) for c in changed)})
        if data.get("ramsch_kontra") and not data.get("kontra"):
            self.add_error("ramsch_kontra", _(
                "Kontra and Re on Ramsch need Kontra and Re: switch Kontra and Re on."))
        if data.get("ramsch_round_grand_hand") == "counts" and not (
                data.get("bock") and data.get("bock_ramsch_round_after")):
            self.add_error("ramsch_round_grand_hand", _(
                "This is about Ramsch rounds after Bock rounds: switch Bock rounds on and "
                "set “%(field)s” first.") % {
                "field": self.fields["bock_ramsch_round_after"].label})
        if rules.bock and not data.get("bock"):
            changed = [self.fields[f"bock_{k}"].label for k, v in BOCK_DEFAULTS.items()
                       if data.get(f"bock_{k}") != v and not (
                           k == "triggers" and isinstance(v, list)  # in any order
                           and set(data.get("bock_triggers", [])) == set(v))]
            if changed:
                self.add_error("bock", _(
                    "These rules are for Bock rounds, which are off: %(rules)s. Switch "
                    "Bock rounds on, or set them back.") % {
                    "rules": ", ".join(str(c) for c in changed)})
        if self.errors:
            return data
        profile = self.instance
        profile.name, profile.rules, profile.scoring = data["name"], system, data["scoring"]
        profile.stake, profile.currency = data["stake"], data["currency"]
        profile.options = self.options()
        try:
            parse_options(system, profile.options, 4)
        except SkatError as err:
            key = (err.field or "").removeprefix("options.").replace(".", "_")
            self.add_error(key if key in self.fields else None, err.message_in(get_language()))
            return data
        try:
            profile.clean()  # the engine's parse_options, the stake, scoring against rules
        except ValidationError as err:
            for key, messages in err.message_dict.items():
                field = key if key in self.fields else None
                for message in messages:
                    self.add_error(field, message)
        return data

    def save(self) -> RuleProfile:
        self.instance.save()
        return self.instance


# The option fields, built once from the engine's specs and the rule words (see above), go
# into base_fields as fields declared in the class body would, after the profile's own
# fields and before option bock's.
_declared = RuleProfileForm.base_fields
RuleProfileForm.base_fields = {
    **{k: f for k, f in _declared.items() if k not in RuleProfileForm.BOCK_FIELDS},
    **{key: option_field(key, OPTION_SPECS[key], OPTION_WORDS[key]) for key in OPTION_KEYS},
    **{k: _declared[k] for k in RuleProfileForm.BOCK_FIELDS},
}
