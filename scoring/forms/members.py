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
    """Which player on the club's lists a member is. ``players`` (the club's, in name order)
    can be given once for the many forms of one page, so that the page asks for them once."""

    player = forms.TypedChoiceField(label=_("Player on the lists"), coerce=int,
                                    required=False, empty_value=None)

    def __init__(self, *args: Any, club: Club, players: list[Player] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {p.pk: p for p in (
            players if players is not None
            else list(club.players.filter(merged_into__isnull=True).order_by("name")))}
        field = self.fields["player"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", pgettext_lazy("no player linked", "none")),
                         *((pk, p.name) for pk, p in self.players.items())]

    def clean_player(self) -> Player | None:
        pk = self.cleaned_data["player"]
        return None if pk is None else self.players[pk]


class DepartedNamesForm(forms.Form):
    departed_names = forms.ChoiceField(
        label=_("When a member deletes their account, their name on past lists"),
        choices=Club.DepartedNames.choices, widget=forms.RadioSelect)
