"""The federation ranking's choices: which year, and from how many evenings on a player is
ranked. A GET form: a value left out takes its default, a bad one is reported and the
default is shown."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

DEFAULT_MIN_EVENINGS = 10


class RankingForm(forms.Form):
    year = forms.IntegerField(label=_("Year"), min_value=2000, max_value=2100, required=False)
    min_evenings = forms.IntegerField(label=_("Evenings to be ranked"), min_value=1,
                                      max_value=200, required=False)

    def choice(self) -> tuple[int, int]:
        """(year, minimum evenings): what was asked for where it is valid, else this year
        and DEFAULT_MIN_EVENINGS."""
        year, least = timezone.localdate().year, DEFAULT_MIN_EVENINGS
        if self.is_bound:
            self.is_valid()
            cleaned = getattr(self, "cleaned_data", {})
            year = cleaned.get("year") or year
            least = cleaned.get("min_evenings") or least
        return year, least
