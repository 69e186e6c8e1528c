"""Forms of the club pages: evenings and their tables, players, members, table codes."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring.collation import ordered_by_name
from scoring.engine import (
    DEFAULT,
    NAMES,
    OptionValue,
    SkatError,
    bock_defaults,
    option_defaults,
    parse_options,
    ruleset,
    rulesets_json,
)
from scoring.models import Club, Membership, Player, RuleProfile, RuleSystem, Scoring, Season
from scoring.money import rate

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_SEATS = 6
DEFAULT_SERIES_ROUNDS = 12  # 48 games at a 4-table, 36 at a 3-table


def normalize_code(raw: str) -> str:
    """What a person typed as a table code: case, spaces and dashes do not matter."""
    return "".join(ch for ch in raw.upper() if ch not in " -\t\n")


def find_player(club: Club, name: str) -> Player | None:
    return club.players.filter(name__iexact=name.strip()).first()


# ---------------------------------------------------------------- players

class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    guest = forms.BooleanField(label=_("Guest"), required=False,
                               help_text=_("A guest plays tonight but is not a club member."))

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise ValidationError(_("Enter a name."))
        if find_player(self.club, name) is not None:
            raise ValidationError(
                _("%(club)s already has a player named “%(name)s”. Add a surname or an initial "
                  "to tell them apart.") % {"club": self.club.name, "name": name})
        return name


# ---------------------------------------------------------------- evenings and tables

class EveningForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(
        format="%Y-%m-%d", attrs={"type": "date"}))
    name = forms.CharField(label=_("Name"), max_length=100)
    profile = forms.ModelChoiceField(label=_("Rule profile"), queryset=RuleProfile.objects.none(),
                                     empty_label=None)
    stake = forms.DecimalField(
        label=_("Stake per point"), required=False, min_value=Decimal("0"), max_digits=10,
        decimal_places=4,
        help_text=_("Leave empty to use the rule profile's stake."))
    currency = forms.CharField(
        label=_("Currency"), required=False, max_length=3, min_length=3,
        help_text=_("Three letters, such as EUR. Leave empty to use the rule profile's."))
    season = forms.ModelChoiceField(
        label=_("Season"), queryset=Season.objects.none(), required=False,
        empty_label=_("no season"))
    series_rounds = forms.IntegerField(
        label=_("Rounds per series"), required=False, min_value=1, max_value=50,
        help_text=_("12 rounds are 48 games at a 4-table and 36 at a 3-table; a table's "
                    "series ends by itself when they are played. Empty: an open list."))

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("date", timezone.localdate())
        kwargs["initial"].setdefault("name", _("Club evening"))
        super().__init__(*args, **kwargs)
        seasons = club.seasons.all()
        season_field = self.fields["season"]
        assert isinstance(season_field, forms.ModelChoiceField)
        season_field.queryset = seasons
        if "season" not in self.initial:
            # The season running today, and its series length.
            today = timezone.localdate()
            current = next((s for s in seasons if s.start <= today <= s.end), None)
            self.initial["season"] = current.pk if current else None
            self.initial.setdefault(
                "series_rounds", current.series_rounds if current else DEFAULT_SERIES_ROUNDS)
        profiles = club.rule_profiles.all()
        field = self.fields["profile"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = profiles
        if "profile" not in self.initial:
            # The profile the club played last time, else the first one.
            last = club.evenings.order_by("-date", "-id").values_list(
                "profile_name", flat=True).first()
            profile = profiles.filter(name=last).first() or profiles.first()
            if profile is not None:
                self.initial["profile"] = profile.pk

    def clean_currency(self) -> str:
        currency: str = self.cleaned_data["currency"].strip().upper()
        if currency and not currency.isalpha():
            raise ValidationError(_("A currency is three letters, such as EUR."))
        return currency


class SeatChoiceField(forms.ModelChoiceField[Player]):
    def label_from_instance(self, obj: Player) -> str:
        return f"{obj.name} ({_('guest')})" if obj.guest else obj.name


def _players_by_name(club: Club) -> QuerySet[Player]:
    """The club's players in reading order ("Änne" with the A), worked out once per club
    instance for all table forms of a request (kept in the instance's __dict__, as
    cached_property keeps its value)."""
    players: QuerySet[Player] | None = club.__dict__.get("_players_by_name")
    if players is None:
        players = club.__dict__["_players_by_name"] = ordered_by_name(club.players.all())
    return players


class TableForm(forms.Form):
    """One table: up to six seats in seat order, each a club player or a new guest's name."""

    # The choices are set per form: "Seat 1" … formatted at class level would be frozen in
    # the language that was active when the module was imported.
    first_dealer = forms.TypedChoiceField(label=_("First dealer"), coerce=int, initial=0)

    def __init__(self, *args: Any, club: Club, allow_empty: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.allow_empty = allow_empty
        players = _players_by_name(club)
        first_dealer = self.fields["first_dealer"]
        assert isinstance(first_dealer, forms.ChoiceField)
        first_dealer.choices = [
            (i, _("Seat %(number)d") % {"number": i + 1}) for i in range(MAX_SEATS)]
        for i in range(MAX_SEATS):
            self.fields[f"seat_{i}"] = SeatChoiceField(
                label=_("Seat %(number)d") % {"number": i + 1}, queryset=players,
                required=False, empty_label="—")
            self.fields[f"guest_{i}"] = forms.CharField(
                label=_("or a new guest at seat %(number)d") % {"number": i + 1},
                max_length=100, required=False,
                widget=forms.TextInput(attrs={"placeholder": _("Guest's name")}))
        # first_dealer last in the form
        self.fields["first_dealer"] = self.fields.pop("first_dealer")

    def seats(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"seat_{i}"], self[f"guest_{i}"]) for i in range(MAX_SEATS)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        entries: list[Player | str] = []  # a Player, or the name of a guest to create
        seen: set[str] = set()
        for i in range(MAX_SEATS):
            player = data.get(f"seat_{i}")
            guest = " ".join((data.get(f"guest_{i}") or "").split())
            if player is not None and guest:
                raise ValidationError(
                    _("Seat %(number)d: choose a player or type a guest's name, not both.")
                    % {"number": i + 1})
            if guest:
                existing = find_player(self.club, guest)
                entry: Player | str = existing if existing is not None else guest
            elif player is not None:
                entry = player
            else:
                continue
            key = entry.name.casefold() if isinstance(entry, Player) else entry.casefold()
            if key in seen:
                raise ValidationError(
                    _("%(name)s is seated twice. A player can sit at a table only once.")
                    % {"name": entry.name if isinstance(entry, Player) else entry})
            seen.add(key)
            entries.append(entry)
        if not entries and self.allow_empty:
            data["entries"] = []
            return data
        if not 3 <= len(entries) <= MAX_SEATS:
            raise ValidationError(_("A table has 3 to 6 players; %(count)d are seated.")
                                  % {"count": len(entries)})
        dealer = data.get("first_dealer")
        if dealer is not None and not 0 <= dealer < len(entries):
            self.add_error("first_dealer", _(
                "The first dealer must be one of the players: seat 1 to %(count)d.")
                % {"count": len(entries)})
        data["entries"] = entries
        return data


class BaseTableFormSet(forms.BaseFormSet[TableForm]):
    """The tables of a new evening: blank tables are skipped, nobody sits at two tables.

    ``typed``: the values of the first tables, shown again as they were typed (the form
    without script, after "One more table"); they stay extra forms, not initial ones."""

    def __init__(self, *args: Any, typed: list[dict[str, Any]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.typed = typed or []

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        kwargs = super().get_form_kwargs(index)
        if index is not None and index < len(self.typed):
            kwargs["initial"] = self.typed[index]
        return kwargs

    def clean(self) -> None:
        if any(self.errors):
            return
        seen: dict[str, int] = {}
        for number, form in enumerate(self.forms, start=1):
            for entry in form.cleaned_data.get("entries", []):
                name = entry.name if isinstance(entry, Player) else entry
                key = name.casefold()
                if key in seen and seen[key] != number:
                    raise ValidationError(
                        _("%(name)s is seated at two tables (%(first)d and %(second)d).")
                        % {"name": name, "first": seen[key], "second": number})
                seen[key] = number


MAX_TABLES = 30


def table_formset(extra: int = 1) -> type[BaseTableFormSet]:
    """The formset class for ``extra`` blank tables (on POST the management form counts)."""
    # formset_factory makes a subclass of the formset class it is given; its stub says only
    # BaseFormSet[TableForm].
    return cast(type[BaseTableFormSet], forms.formset_factory(
        TableForm, formset=BaseTableFormSet, extra=extra, max_num=MAX_TABLES,
        absolute_max=MAX_TABLES, validate_max=True))


# ---------------------------------------------------------------- members

class MemberAddForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    password = forms.CharField(
        label=_("Initial password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Tell the new member; they can change it after signing in."))
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices,
                             initial=Membership.Role.SCORER)

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"].strip()
        user_model = get_user_model()
        user_model.username_validator(username)
        if user_model.objects.filter(username__iexact=username).exists():
            raise ValidationError(_(
                "This username is taken. To add an existing account to this club as well, "
                "ask a site administrator."))
        return username

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("password"):
            user = get_user_model()(username=data.get("username", ""))
            try:
                validate_password(data["password"], user)
            except ValidationError as err:
                self.add_error("password", err)
        return data


class RoleForm(forms.Form):
    membership = forms.IntegerField(widget=forms.HiddenInput)
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)


# ---------------------------------------------------------------- table codes

class CodeForm(forms.Form):
    code = forms.CharField(
        label=_("Table code"), max_length=40,
        widget=forms.TextInput(attrs={
            "autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false",
            "inputmode": "text", "class": "code-input"}),
        help_text=_("The eight characters on the card at your table; case and dashes do not "
                    "matter."))

    def clean_code(self) -> str:
        code = normalize_code(self.cleaned_data["code"])
        if not code:
            raise ValidationError(_("Enter the table code."))
        return code


# ---------------------------------------------------------------- rule profiles

_K = TypeVar("_K", str, int)


def _choices(*pairs: tuple[_K, StrOrPromise]) -> list[tuple[_K, StrOrPromise]]:
    return list(pairs)


# Each option of deal-record.md "Options" (bock is a group of its own, below), in the order a
# profile's options object lists them, with its default per rule system as the engine has it
# (absent: not an option of that system; None for beer_limit, which the table's size decides).
# The form writes only what differs from the system's default, so a profile's options stay
# as short as the spec's examples.
OPTION_KEYS = (
    "penalty_points", "overbid_charge", "ramsch",
    "grand_base", "lost_hand_single", "kontra", "kontra_requires_18", "spitze", "schenken",
    "rum", "ramsch_scoring", "ramsch_skat", "ramsch_ties", "ramsch_jungfrau",
    "ramsch_durchmarsch", "schieberamsch", "ramsch_all_tied", "ramsch_kontra", "ramsch_cap",
    "ramsch_round_grand_hand",
    "frage", "revolution", "exceptional", "contra", "point_ramsch", "forced_ramsch_every",
    "beer_limit", "uno_duo", "ramsch_base",
)
_SYSTEM_DEFAULTS = {system: option_defaults(system) for system in NAMES}
OPTION_DEFAULTS: dict[str, dict[str, OptionValue]] = {
    key: {system: defaults[key] for system, defaults in _SYSTEM_DEFAULTS.items()
          if key in defaults}
    for key in OPTION_KEYS
}
BOCK_DEFAULTS = bock_defaults()


# The order of these choices is the order a profile's options list them in.
BOCK_TRIGGER_CHOICES = _choices(
    ("sixty_sixty", _("60:60")), ("kontra_lost", _("a lost Kontra")),
    ("re", _("Re")), ("grand_hand", _("a Grand Hand")),
    ("null_ouvert_hand", _("a Null Ouvert Hand")), ("schneider", _("Schneider")),
    ("schwarz", _("Schwarz")), ("all_passed", _("a passed-in deal")),
    ("value_at_least", _("a game value of at least the value below")),
    ("loss_at_least", _("a loss of at least the value below")),
    ("rounds_without_bock", _("the rounds below without Bock")))
EXCEPTIONAL_CHOICES = _choices(
    ("nullo_purchase", _("Nullo Purchase")), ("nullo_tourne", _("Nullo Tourné")),
    ("uno", "Uno"), ("duo", "Duo"), ("nullo_tricks", _("Nullo with tricks")))


def _field_default(key: str) -> Any:
    """What a field shows for a system it does not belong to: its first system's default."""
    return next(iter(OPTION_DEFAULTS[key].values()))


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

    # every system
    penalty_points = forms.IntegerField(
        label=_("Penalty (points)"), min_value=0, max_value=10_000,
        help_text=_("What a penalty costs the offender, such as for looking at the skat."))
    overbid_charge = forms.ChoiceField(label=_("A lost overbid game costs"), choices=_choices(
        ("next_multiple", _("the next multiple of the game's base value that reaches the bid")),
        ("bid", _("the bid itself"))))
    ramsch = forms.ChoiceField(label=_("When all pass"), choices=_choices(
        ("off", _("the cards are thrown in")), ("when_all_pass", _("Ramsch is played"))))
    # International Skat Order
    grand_base = forms.TypedChoiceField(label=_("Grand counts"), coerce=int, choices=_choices(
        (24, "24"), (20, "20")))
    kontra = forms.BooleanField(label=_("Kontra and Re"), required=False)
    kontra_requires_18 = forms.BooleanField(
        label=_("No Kontra for a player who passed at 18"), required=False)
    spitze = forms.BooleanField(label=_("Spitze"), required=False)
    schenken = forms.BooleanField(label=_("Schenken"), required=False)
    rum = forms.BooleanField(label=_("Rum"), required=False)
    lost_hand_single = forms.BooleanField(label=_("Lost hand games count single"),
                                          required=False)
    ramsch_scoring = forms.ChoiceField(label=_("Ramsch is scored"), choices=_choices(
        ("augen", _("by card points (Augenramsch)")),
        ("simple", _("simply: −10, −15 with a Jungfrau, −20 for all tricks"))))
    ramsch_skat = forms.ChoiceField(label=_("The skat in Ramsch goes to"), choices=_choices(
        ("last_trick", _("the winner of the last trick")), ("loser", _("the loser")),
        ("nobody", _("nobody"))))
    ramsch_ties = forms.ChoiceField(label=_("Players tied for most card points"),
                                    choices=_choices(("full", _("each lose the full amount")),
                                                     ("share", _("share the loss"))))
    ramsch_all_tied = forms.ChoiceField(label=_("All three tied"), choices=_choices(
        ("none", _("nobody scores")), ("all_lose", _("all three lose"))))
    ramsch_jungfrau = forms.BooleanField(label=_("A Jungfrau doubles the loss"),
                                         required=False)
    ramsch_durchmarsch = forms.ChoiceField(label=_("Durchmarsch"), choices=_choices(
        ("plus120", _("+120 for the player who took every trick")),
        ("times4", _("the player who took every trick loses four times"))))
    schieberamsch = forms.ChoiceField(label=_("Schieberamsch"), choices=_choices(
        ("off", _("no")), ("optional_double", _("yes, each push doubles")),
        ("mandatory", _("compulsory, nothing doubles"))))
    ramsch_kontra = forms.BooleanField(label=_("Kontra and Re on Ramsch"), required=False,
                                       help_text=_("Needs Kontra and Re."))
    ramsch_cap = forms.IntegerField(
        label=_("Most a Ramsch can cost"), required=False, min_value=1, max_value=100_000,
        help_text=_("After every doubling; a Durchmarsch gain is not capped. Empty: no limit."))
    ramsch_round_grand_hand = forms.ChoiceField(
        label=_("A Grand Hand in a Ramsch round"), choices=_choices(
            ("deals_again", _("the same dealer deals again")),
            ("counts", _("counts as one of the round's deals"))))
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
    bock_stacking = forms.ChoiceField(label=_("Bock rounds earned meanwhile"), choices=_choices(
        ("queue", _("follow one another")), ("parallel", _("overlap and double again"))))
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
    # American 1898 and Hoyle
    frage = forms.BooleanField(label=_("Call play"), required=False)
    revolution = forms.BooleanField(label=_("Revolution"), required=False)
    uno_duo = forms.BooleanField(label=_("Uno and Duo (Hoyle)"), required=False)
    exceptional = forms.MultipleChoiceField(
        label=_("Exceptional games (1898)"), required=False,
        widget=forms.CheckboxSelectMultiple, choices=EXCEPTIONAL_CHOICES)
    contra = forms.BooleanField(label=_("Contra and Re-contra (1898)"), required=False)
    point_ramsch = forms.BooleanField(label=_("Point Ramsch (1898)"), required=False)
    forced_ramsch_every = forms.IntegerField(
        label=_("Forced Ramsch every … rounds (1898)"), min_value=0, max_value=100,
        help_text=_("0: never."))
    beer_limit = forms.IntegerField(
        label=_("Beer Skat ends at (1898)"), required=False, min_value=1, max_value=100_000,
        help_text=_("Empty: 151 at a 3-table, 201 at a 4-table."))
    ramsch_base = forms.IntegerField(label=_("A Ramsch loser loses (Hoyle)"), min_value=1,
                                     max_value=1000)

    # The fields of option bock (a group of its own): only for a system with Bock rounds.
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
            if key == "exceptional":
                value = [g for g, _label in EXCEPTIONAL_CHOICES if g in value]
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
