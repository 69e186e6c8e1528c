"""Forms of the league secretary's pages (issue 25): a new league, its settings, a group, a
team, a team's player, a player's position and captaincy, a match day. Shape checks only:
scoring/writes/league.py checks the rest (one team per player, positions taken, the host in
the group …) and its refusals become the form's errors.

The choices (the club's players, the site's clubs, the group's teams) are handed in as lists
built once for the whole page, so that a page with many teams renders its forms without a
query per form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.collation import refuse_invisible
from scoring.engine import ruleset
from scoring.models import POSITIONS, Club, RuleProfile, Scoring

Choices = list[tuple[str, str]]

SERIES_PER_DAY: dict[str, Any] = {"min_value": 1, "max_value": 6}
BINDING_DAYS: dict[str, Any] = {"min_value": 0, "max_value": 365}


def league_profiles(club: Club) -> list[RuleProfile]:
    """The club's rule profiles a league can be played under: scored by Seeger-Fabian under
    a rule system that allows it (the International Skat Order)."""
    return [p for p in club.rule_profiles.all()
            if p.scoring == Scoring.SEEGER_FABIAN
            and Scoring.SEEGER_FABIAN in ruleset(p.rules).scorings]


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, initial=_("District league"),
                           validators=[refuse_invisible])
    season = forms.CharField(label=_("Season"), max_length=40)
    profile = forms.ModelChoiceField(label=_("Rule profile"), queryset=RuleProfile.objects.none(),
                                     help_text=_("Only the club's rule profiles of the "
                                                 "International Skat Order scored by "
                                                 "Seeger-Fabian."))
    series_per_day = forms.IntegerField(
        label=_("Series per match day"), initial=3, **SERIES_PER_DAY,
        help_text=_("3 in the lower leagues, 4 in the Bundesliga."))
    series_rounds = forms.IntegerField(
        label=_("Rounds per series"), initial=12, min_value=1, max_value=50,
        help_text=_("12 rounds are 48 games at a 4-table and 36 at a 3-table."))
    binding_days = forms.IntegerField(
        label=_("Days until results are binding"), initial=14, **BINDING_DAYS,
        help_text=_("After this many days only the league secretary can change a match "
                    "day's results."))
    public = forms.BooleanField(label=_("Public league page"), required=False)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        profiles = league_profiles(club)
        field = self.fields["profile"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = RuleProfile.objects.filter(pk__in=[p.pk for p in profiles])
        self.has_profiles = bool(profiles)
        if len(profiles) == 1:
            field.initial = profiles[0].pk
        self.fields["season"].initial = str(timezone.localdate().year)


class LeagueSettingsForm(forms.Form):
    series_per_day = forms.IntegerField(label=_("Series per match day"), **SERIES_PER_DAY)
    binding_days = forms.IntegerField(label=_("Days until results are binding"),
                                      **BINDING_DAYS)
    public = forms.BooleanField(label=_("Public league page"), required=False)


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Name of the group"), max_length=60,
                           validators=[refuse_invisible])


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Name of the team"), max_length=60,
                           validators=[refuse_invisible])
    club = forms.TypedChoiceField(label=_("Club on the site"), coerce=int, required=False,
                                  empty_value=None)
    club_name = forms.CharField(label=_("or a guest club by name"), max_length=100,
                                required=False, validators=[refuse_invisible])

    def __init__(self, *args: Any, clubs: Choices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["club"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", _("— a guest club —")), *clubs]
        # only the clubs the secretary is an admin of are offered (reads.league.team_clubs)
        field.error_messages["invalid_choice"] = _(
            "You can add a club of the site only if you are one of its admins; enter any "
            "other club as a guest club by name.")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("club") is None and not (data.get("club_name") or "").strip():
            raise ValidationError(_("Choose a club of the site or give the guest club's "
                                    "name."))
        return data


def position_choices() -> Choices:
    return [("", str(_("Substitute"))),
            *((str(n), str(_("Position %(number)d") % {"number": n}))
              for n in range(1, POSITIONS + 1))]


class TeamPlayerForm(forms.Form):
    member = forms.TypedChoiceField(label=_("Player of the club"), coerce=int, required=False,
                                    empty_value=None)
    name = forms.CharField(label=_("or a guest player by name"), max_length=100,
                           required=False, validators=[refuse_invisible])
    position = forms.TypedChoiceField(label=_("Position"), coerce=int, required=False,
                                      empty_value=None)
    captain = forms.BooleanField(label=_("Captain"), required=False)

    def __init__(self, *args: Any, members: Choices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        member = self.fields["member"]
        assert isinstance(member, forms.ChoiceField)
        member.choices = [("", _("— a guest player —")), *members]
        position = self.fields["position"]
        assert isinstance(position, forms.ChoiceField)
        position.choices = position_choices()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("member") is None and not (data.get("name") or "").strip():
            raise ValidationError(_("Choose a player of the club or give a guest player's "
                                    "name."))
        return data


class TeamPlayerSetForm(forms.Form):
    position = forms.TypedChoiceField(label=_("Position"), coerce=int, required=False,
                                      empty_value=None)
    captain = forms.BooleanField(label=_("Captain"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        position = self.fields["position"]
        assert isinstance(position, forms.ChoiceField)
        position.choices = position_choices()


class MatchDayForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(
        format="%Y-%m-%d", attrs={"type": "date"}))
    host = forms.TypedChoiceField(label=_("Host"), coerce=int, required=False,
                                  empty_value=None)
    venue = forms.CharField(label=_("Venue"), max_length=100, required=False)
    number = forms.IntegerField(
        label=_("Number of the match day"), min_value=1, max_value=99, required=False,
        help_text=_("Empty: the next one. The same number again where the group's teams "
                    "meet in several places on one match day."))
    teams = forms.TypedMultipleChoiceField(
        label=_("Teams that meet"), coerce=int, widget=forms.CheckboxSelectMultiple,
        help_text=_("By default every team of the group."))

    def __init__(self, *args: Any, teams: Choices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        host = self.fields["host"]
        assert isinstance(host, forms.ChoiceField)
        host.choices = [("", "—"), *teams]
        meet = self.fields["teams"]
        assert isinstance(meet, forms.ChoiceField)
        meet.choices = teams
        meet.initial = [value for value, _label in teams]
        self.fields["date"].initial = timezone.localdate()
