"""The members page's forms for the people on the lists (issue 35): a player's member
number, merging two records of one person with a reason, undoing a merge, and the person's
own switch whether other clubs' members may see his results. Shape checks only: the rules
are writes/people.py's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import Player

MEMBER_NUMBER_LENGTH = Player._meta.get_field("member_number").max_length


class MemberNumberForm(forms.Form):
    member_number = forms.CharField(label=_("Member number"), required=False,
                                    max_length=MEMBER_NUMBER_LENGTH)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500,
                             widget=forms.TextInput(attrs={"maxlength": 500}))


class MergeForm(ReasonForm):
    """Two records of the club's players (those not merged already)."""

    kept = forms.TypedChoiceField(label=_("Keep"), coerce=int)
    merged = forms.TypedChoiceField(label=_("Merge into it"), coerce=int)

    field_order = ["kept", "merged", "reason"]

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {p.pk: p for p in players if p.merged_into_id is None}
        choices = [("", "—"), *((pk, p.name) for pk, p in self.players.items())]
        for name in ("kept", "merged"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = choices

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kept") is not None and data.get("kept") == data.get("merged"):
            raise forms.ValidationError(_("Choose two different records."))
        return data


class VisibilityForm(forms.Form):
    results_visible = forms.BooleanField(
        label=_("Members of other clubs may see my results"), required=False,
        help_text=_("Members of the clubs you play in always see your results there."))
