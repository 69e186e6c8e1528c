"""Forms of the tournament pages: a new tournament, registering an entrant, the organiser's
settings during the day, and the draw of a series. Shape checks only: the services check
the rest (seating, categories, teams)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.collation import ordered_by_name, refuse_invisible
from scoring.models import Club, Player, RuleProfile, Season, Tournament
from scoring.presets import TOURNAMENT_PRESET, matches_preset
from scoring.reads.tournament import list_prize_table, parse_prizes
from scoring.writes.preisskat import Fees, current_fees

MONEY: dict[str, Any] = {"max_digits": 8, "decimal_places": 2, "min_value": Decimal("0")}
MAX_SEED = 2**53


def _lines(text: str) -> list[str]:
    return [" ".join(p.split()) for p in text.replace(",", "\n").splitlines() if p.strip()]


def parse_prize_lines(text: str) -> list[str]:
    return parse_prizes(text)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, initial=_("Preisskat"),
                           validators=[refuse_invisible])
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(
        format="%Y-%m-%d", attrs={"type": "date"}))
    profile = forms.ModelChoiceField(label=_("Rule profile"), queryset=RuleProfile.objects.none())
    season = forms.ModelChoiceField(
        label=_("Counts for the season"), queryset=Season.objects.none(), required=False)
    series_count = forms.IntegerField(label=_("Number of series"), initial=2,
                                      min_value=1, max_value=10)
    series_rounds = forms.IntegerField(
        label=_("Rounds per series"), initial=12, min_value=1, max_value=50,
        help_text=_("12 rounds are 48 games at a 4-table and 36 at a 3-table."))
    entry_fee = forms.DecimalField(label=_("Entry fee"), initial=Decimal("10.00"), **MONEY)
    lost_fee = forms.DecimalField(label=_("Lost-game fee"), initial=Decimal("0.50"), **MONEY)
    lost_fee_from = forms.IntegerField(
        label=_("Higher fee from lost game no."), initial=4, min_value=2, max_value=99,
        required=False)
    lost_fee_high = forms.DecimalField(label=_("Higher lost-game fee"),
                                       initial=Decimal("1.00"), required=False, **MONEY)
    passed_fee = forms.DecimalField(label=_("Passed-deal fee"), initial=Decimal("0.00"),
                                    **MONEY)
    categories = forms.CharField(
        label=_("Categories"), required=False, initial=_("Women, Youth, Seniors"),
        help_text=_("Separated by commas; each gets its own ranking."))
    team_fee = forms.DecimalField(
        label=_("Team fee (teams of 4)"), required=False, **MONEY,
        help_text=_("Leave empty for no team ranking."))
    tandem_fee = forms.DecimalField(
        label=_("Tandem fee (tandems of 2)"), required=False, **MONEY,
        help_text=_("Leave empty for no tandem ranking."))
    reseat = forms.ChoiceField(label=_("Later series"), choices=Tournament.Reseat.choices,
                               initial=Tournament.Reseat.DRAW)
    tie_rule = forms.ChoiceField(label=_("Equal scores"), choices=Tournament.TieRule.choices,
                                 initial=Tournament.TieRule.WON)
    prizes = forms.CharField(
        label=_("Prizes"), required=False, widget=forms.Textarea(attrs={"rows": 4}),
        initial="30%\n20%\n10%",
        help_text=_("One line per place: a fixed amount such as 50.00, or a share of the "
                    "entry fees such as 25%. What is not paid out is carried."))
    public = forms.BooleanField(label=_("Public live board"), required=False)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        profiles = club.rule_profiles.all()
        profile_field = self.fields["profile"]
        assert isinstance(profile_field, forms.ModelChoiceField)
        profile_field.queryset = profiles
        # the ISkO tournament profile, found by its rules whatever its name (issue 24)
        isko = next((p for p in profiles if matches_preset(p, TOURNAMENT_PRESET)), None)
        self.tournament_profile = isko
        if isko is not None:
            profile_field.initial = isko.pk
        season_field = self.fields["season"]
        assert isinstance(season_field, forms.ModelChoiceField)
        season_field.queryset = club.seasons.all()
        self.fields["date"].initial = timezone.localdate()

    def clean_categories(self) -> list[str]:
        names = _lines(self.cleaned_data["categories"])
        if len(set(names)) != len(names):
            raise ValidationError(_("A category is named twice."))
        if any(len(n) > 40 for n in names):
            raise ValidationError(_("A category name is longer than 40 characters."))
        return names

    def clean_prizes(self) -> list[str]:
        return parse_prize_lines(self.cleaned_data["prizes"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        high, start = data.get("lost_fee_high"), data.get("lost_fee_from")
        if (high is None) != (start is None):
            raise ValidationError(_("Give both the higher lost-game fee and the lost game "
                                    "it starts from, or neither."))
        return data


class EntrantForm(forms.Form):
    member = forms.ModelChoiceField(label=_("Member"), queryset=Player.objects.none(),
                                    required=False, empty_label=_("— a guest —"))
    name = forms.CharField(label=_("Guest's name"), max_length=100, required=False,
                           validators=[refuse_invisible])
    home_club = forms.CharField(label=_("Home club"), max_length=100, required=False,
                                validators=[refuse_invisible])
    category = forms.ChoiceField(label=_("Category"), required=False)
    team = forms.CharField(label=_("Team"), max_length=60, required=False,
                           validators=[refuse_invisible])
    tandem = forms.CharField(label=_("Tandem"), max_length=60, required=False,
                             validators=[refuse_invisible])
    paid = forms.BooleanField(label=_("Paid"), required=False)
    at_door = forms.BooleanField(label=_("At the door (checked in)"), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entered = tournament.entrants.values("player_id")
        member = self.fields["member"]
        assert isinstance(member, forms.ModelChoiceField)
        member.queryset = ordered_by_name(
            tournament.club.players.filter(guest=False, merged_into__isnull=True)
            .exclude(pk__in=entered))
        category = self.fields["category"]
        assert isinstance(category, forms.ChoiceField)
        category.choices = [("", "—"), *((c, c) for c in tournament.categories)]
        if not tournament.categories:
            del self.fields["category"]
        if tournament.team_fee is None:
            del self.fields["team"]
        if tournament.tandem_fee is None:
            del self.fields["tandem"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("member") is None and not (data.get("name") or "").strip():
            raise ValidationError(_("Choose a member or give a guest's name."))
        return data


class SettingsForm(forms.Form):
    reseat = forms.ChoiceField(label=_("Later series"), choices=Tournament.Reseat.choices)
    tie_rule = forms.ChoiceField(label=_("Equal scores"), choices=Tournament.TieRule.choices)
    prizes = forms.CharField(label=_("Prizes"), required=False,
                             widget=forms.Textarea(attrs={"rows": 4}))
    public = forms.BooleanField(label=_("Public live board"), required=False)
    clubs_apart = forms.BooleanField(
        label=_("Keep players of one club apart"), required=False,
        help_text=_("The draw seats players of one home club at different tables where it "
                    "can without repeating opponents or the 3-table."))
    # the fees (issue 24): editable until series 1 is drawn, then shown read-only; a form
    # without them (an older page) leaves them as they are
    entry_fee = forms.DecimalField(label=_("Entry fee"), required=False, **MONEY)
    lost_fee = forms.DecimalField(label=_("Lost-game fee"), required=False, **MONEY)
    lost_fee_from = forms.IntegerField(
        label=_("Higher fee from lost game no."), min_value=2, max_value=99, required=False)
    lost_fee_high = forms.DecimalField(label=_("Higher lost-game fee"), required=False,
                                       **MONEY)
    passed_fee = forms.DecimalField(label=_("Passed-deal fee"), required=False, **MONEY)
    team_fee = forms.DecimalField(
        label=_("Team fee (teams of 4)"), required=False, **MONEY,
        help_text=_("Leave empty for no team ranking."))
    tandem_fee = forms.DecimalField(
        label=_("Tandem fee (tandems of 2)"), required=False, **MONEY,
        help_text=_("Leave empty for no tandem ranking."))
    FEES = ("entry_fee", "lost_fee", "lost_fee_from", "lost_fee_high", "passed_fee",
            "team_fee", "tandem_fee")

    def __init__(self, *args: Any, tournament: Tournament | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # one prize table per category, for the team and the tandem ranking (issue 24)
        self.lists: list[tuple[str, str, str]] = []  # (field, kind, category name)
        if tournament is None:
            return
        for index, name in enumerate(tournament.categories):
            self.lists.append((f"prizes_category_{index}", "category", name))
        if tournament.team_fee is not None:
            self.lists.append(("prizes_team", "team", ""))
        if tournament.tandem_fee is not None:
            self.lists.append(("prizes_tandem", "tandem", ""))
        for name, kind, category in self.lists:
            title = category if kind == "category" else (
                _("Team ranking") if kind == "team" else _("Tandem ranking"))
            self.fields[name] = forms.CharField(
                label=_("Prizes: %(list)s") % {"list": title}, required=False,
                widget=forms.Textarea(attrs={"rows": 2}))
            self.initial.setdefault(name, "\n".join(list_prize_table(tournament, kind,
                                                                     category)))

    @property
    def list_prize_fields(self) -> list[forms.BoundField]:
        return [self[name] for name, _kind, _category in self.lists]

    def list_prizes(self) -> dict[str, Any] | None:
        """The prize tables of the other lists as posted; None when the form had none."""
        if not any(name in self.data for name, _kind, _category in self.lists):
            return None
        found: dict[str, Any] = {"categories": {}}
        for name, kind, category in self.lists:
            table = self.cleaned_data.get(name) or []
            if not table:
                continue
            if kind == "category":
                found["categories"][category] = table
            else:
                found[kind] = table
        if not found["categories"]:
            del found["categories"]
        return found

    def _clean_list(self, name: str) -> list[str]:
        try:
            return parse_prize_lines(self.cleaned_data.get(name) or "")
        except ValidationError as err:
            raise ValidationError(f"{self.fields[name].label}: {' '.join(err.messages)}"
                                  ) from None

    def _clean_lists(self) -> None:
        for name, _kind, _category in self.lists:
            if name in self.cleaned_data:
                try:
                    self.cleaned_data[name] = self._clean_list(name)
                except ValidationError as err:
                    self.add_error(name, err)

    def clean_prizes(self) -> list[str]:
        return parse_prize_lines(self.cleaned_data["prizes"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self._clean_lists()
        high, start = data.get("lost_fee_high"), data.get("lost_fee_from")
        if (high is None) != (start is None):
            raise ValidationError(_("Give both the higher lost-game fee and the lost game "
                                    "it starts from, or neither."))
        return data

    def fees(self) -> Fees | None:
        """The fees as posted, None when the form carried none (an empty amount is 0, an
        empty team or tandem fee no such ranking)."""
        if not any(name in self.data for name in self.FEES):
            return None
        data = self.cleaned_data
        zero = Decimal("0.00")
        return Fees(entry_fee=data.get("entry_fee") or zero, team_fee=data.get("team_fee"),
                    tandem_fee=data.get("tandem_fee"), lost_fee=data.get("lost_fee") or zero,
                    lost_fee_high=data.get("lost_fee_high"),
                    lost_fee_from=data.get("lost_fee_from"),
                    passed_fee=data.get("passed_fee") or zero)

    @staticmethod
    def initial_for(tournament: Tournament) -> dict[str, Any]:
        fees = current_fees(tournament)
        return {"reseat": tournament.reseat, "tie_rule": tournament.tie_rule,
                "prizes": "\n".join(tournament.prizes), "public": tournament.public,
                "clubs_apart": tournament.clubs_apart,
                **{name: getattr(fees, name) for name in SettingsForm.FEES}}


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed"), required=False,
        validators=[MinValueValidator(0), MaxValueValidator(MAX_SEED - 1)],
        help_text=_("Leave empty for a fresh lot; give a recorded seed to repeat a draw."))
    # The next series waits until every table of the one before has signed its list
    # (issue 23); the director may draw all the same, with a reason for the audit log.
    unsigned_ok = forms.BooleanField(
        label=_("Draw even though not every table has signed yet"), required=False)
    unsigned_reason = forms.CharField(label=_("Why"), required=False, max_length=500)
    # players who play and have not paid: the organiser confirms or goes back (issue 24)
    unpaid_ok = forms.BooleanField(
        label=_("Draw all the same: they pay later"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("unsigned_ok") and not (data.get("unsigned_reason") or "").strip():
            self.add_error("unsigned_reason", _(
                "Say why the series is drawn before every table has signed."))
        return data
