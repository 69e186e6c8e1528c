"""Forms of the director's cockpit (issue 24, item 5): the time limit per series and the
message to the tables. Shape checks only: the services (writes/cockpit.py) check the rest."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.reads.cockpit import MAX_MINUTES, MIN_MINUTES, NOTICE_LENGTH


class MinutesForm(forms.Form):
    minutes = forms.IntegerField(
        label=_("Time limit per series (minutes)"), min_value=MIN_MINUTES,
        max_value=MAX_MINUTES)


class NoticeForm(forms.Form):
    text = forms.CharField(
        label=_("Message to every table"), max_length=NOTICE_LENGTH,
        help_text=_("Every table screen of the tournament shows it within seconds, with its "
                    "time, until you clear it or send the next one."),
        widget=forms.TextInput(attrs={"placeholder": _("Series 2 starts at 15:30")}))
