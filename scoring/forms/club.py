"""Forms of the club pages: evenings and their tables, players, members, table codes."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.collation import ordered_by_name, refuse_invisible
from scoring.forms.setup import new_username
from scoring.models import Club, Membership, Player, RuleProfile, Season

if TYPE_CHECKING:
    pass

MAX_SEATS = 6
DEFAULT_SERIES_ROUNDS = 12  # 48 games at a 4-table, 36 at a 3-table


def normalize_code(raw: str) -> str:
    """What a person typed as a table code: case, spaces and dashes do not matter."""
    return "".join(ch for ch in raw.upper() if ch not in " -\t\n")


def find_player(club: Club, name: str) -> Player | None:
    """The club's player of this name; a record merged into another one (issue 35) is the
    one it was merged into."""
    found = club.players.filter(name__iexact=name.strip()).select_related(
        "merged_into").first()
    return found.merged_into if found is not None and found.merged_into else found


# ---------------------------------------------------------------- players

class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100,
                           validators=[refuse_invisible])
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
        players = club.__dict__["_players_by_name"] = ordered_by_name(
            club.players.filter(merged_into__isnull=True))
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
                max_length=100, required=False, validators=[refuse_invisible],
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
        return new_username(str(self.cleaned_data["username"]), _(
            "This username is taken. To add an existing account to this club as well, "
            "ask a site administrator."))

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
