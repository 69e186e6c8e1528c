"""The members page's forms beside those of forms/club.py (issue 16): invite someone, link a
player on the lists to a member account, and what becomes of a departed member's name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.models import Club, Membership, Player


class InviteForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices,
                             initial=Membership.Role.SCORER)
    email = forms.EmailField(
        label=_("E-mail address"), required=False,
        help_text=_("The invitation is sent there. Leave empty to hand on the link or its QR "
                    "code yourself."))


class LinkForm(forms.Form):
    player = forms.ModelChoiceField(label=_("Player on the lists"),
                                    queryset=Player.objects.none(), required=False,
                                    empty_label=pgettext_lazy("no player linked", "none"))

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = club.players.order_by("name")


class DepartedNamesForm(forms.Form):
    departed_names = forms.ChoiceField(
        label=_("When a member deletes their account, their name on past lists"),
        choices=Club.DepartedNames.choices, widget=forms.RadioSelect)
