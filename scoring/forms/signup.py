"""Forms of online self-registration (issue 24): the player's registration on the public page
(name, e-mail, home club, and category, team and tandem as the tournament offers them; a
field bots fill and people do not see) and the organiser's settings on the desk. Shape
checks only: the services check the rest (closed, fully booked, the same address twice)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.collation import refuse_invisible
from scoring.models import Tournament

TRAP = "website"


class SignupForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=100, validators=[refuse_invisible],
                           widget=forms.TextInput(
        attrs={"autocomplete": "name"}),
        help_text=_("As it should stand on the lists: first name and surname."))
    email = forms.EmailField(label=_("E-mail address"), widget=forms.EmailInput(
        attrs={"autocomplete": "email"}),
        help_text=_("We send you a link: you are registered once you open it."))
    home_club = forms.CharField(label=_("Home club"), max_length=100, required=False,
                                validators=[refuse_invisible])
    category = forms.ChoiceField(label=_("Category"), required=False)
    team = forms.CharField(label=_("Team"), max_length=60, required=False,
                           validators=[refuse_invisible])
    tandem = forms.CharField(label=_("Tandem"), max_length=60, required=False,
                             validators=[refuse_invisible])
    # A field people never see (hidden by signup.css, skipped by screen readers and the tab
    # key): a bot that fills every field registers nobody.
    website = forms.CharField(label=_("Leave this field empty"), required=False,
                              max_length=200, widget=forms.TextInput(
                                  attrs={"autocomplete": "off", "tabindex": "-1"}))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        category = self.fields["category"]
        assert isinstance(category, forms.ChoiceField)
        category.choices = [("", "—"), *((c, c) for c in tournament.categories)]
        if not tournament.categories:
            del self.fields["category"]
        if tournament.team_fee is None:
            del self.fields["team"]
        if tournament.tandem_fee is None:
            del self.fields["tandem"]

    @property
    def trapped(self) -> bool:
        """Whether the hidden field was filled (a bot)."""
        return bool(str(self.data.get(TRAP, "")).strip())


class SignupSettingsForm(forms.Form):
    signup_open = forms.BooleanField(label=_("Online registration open"), required=False)
    signup_closes = forms.DateTimeField(
        label=_("Registration closes"), required=False,
        widget=forms.DateTimeInput(format="%Y-%m-%dT%H:%M", attrs={"type": "datetime-local"}),
        help_text=_("Empty: open until series 1 is drawn (it closes then in any case)."))
    signup_limit = forms.IntegerField(
        label=_("Maximum number of entrants"), required=False, min_value=1, max_value=10000,
        help_text=_("Counts every entrant and the online registrations not yet confirmed; "
                    "beyond it online registration answers “fully booked”. Empty: no "
                    "limit."))

