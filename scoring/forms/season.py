"""Forms of the season pages: a season's settings, and the players of a new series."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from scoring.collation import ordered_by_name
from scoring.models import Club, Player, Season


class SeasonForm(forms.ModelForm[Season]):
    assign = forms.BooleanField(
        label=_("Add the club's evenings in these dates"), required=False, initial=True,
        help_text=_("Evenings that belong to no season yet become part of this one."))

    class Meta:
        model = Season
        fields = ["name", "start", "end", "evaluation", "best_of", "min_evenings",
                  "series_rounds"]
        widgets = {
            "start": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
            "end": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        }

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.club = club
        if self.instance.pk:
            self.fields["assign"].initial = False

    def clean_name(self) -> str:
        # The club is no field of the form, so the model's (club, name) check is skipped.
        name = " ".join(self.cleaned_data["name"].split())
        clash = Season.objects.filter(club=self.instance.club, name__iexact=name).exclude(
            pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(
                _("The club already has a season named “%(name)s”.") % {"name": name})
        return name


class PlayerChoiceField(forms.ModelMultipleChoiceField[Player]):
    # Django looks the ticked ids up in one pk__in query; on SQLite an id beyond 64 bits
    # makes that query raise OverflowError (a 500; found by tests/web/test_form_fuzz.py),
    # so such an id is refused as an invalid choice before the query.
    MAX_ID = 2**63 - 1

    def clean(self, value: Any) -> QuerySet[Player]:
        if isinstance(value, (list, tuple)):  # anything else is refused by Django's clean
            for pk in value:
                text = str(pk).strip()
                if text.isdigit() and int(text) > self.MAX_ID:
                    raise forms.ValidationError(self.error_messages["invalid_choice"],
                                                code="invalid_choice", params={"value": text})
        return super().clean(value)

    def label_from_instance(self, obj: Player) -> str:
        return f"{obj.name} ({_('guest')})" if obj.guest else obj.name


class SeriesForm(forms.Form):
    """Who plays the new series: ticked players of the club."""

    players = PlayerChoiceField(
        label=_("Players"), queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = ordered_by_name(club.players.filter(merged_into__isnull=True),
                                         first="guest")
