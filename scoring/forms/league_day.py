"""The match day's desk (issue 25): a team's line-up for a series, seating a series.

The line-up's choices are the team's players (regulars and substitutes) given by the view,
read once for every team of the day: no query per form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from scoring.forms.tournament import MAX_SEED
from scoring.models import POSITIONS, Player


class LineupForm(forms.Form):
    """Positions 1–4 of one team in one series: a player of the team each, or nobody."""

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {str(p.pk): p for p in players}
        choices = [("", _("– nobody –")), *((str(p.pk), p.name) for p in players)]
        for position in range(1, POSITIONS + 1):
            self.fields[f"position_{position}"] = forms.ChoiceField(
                label=_("Position %(position)d") % {"position": position},
                choices=choices, required=False)

    def lineup(self) -> list[Player | None]:
        """The chosen players by position (None: nobody there)."""
        return [self.players.get(self.cleaned_data.get(f"position_{n}") or "")
                for n in range(1, POSITIONS + 1)]


class SeatForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed"), required=False,
        validators=[MinValueValidator(0), MaxValueValidator(MAX_SEED - 1)],
        help_text=_("Leave empty for a fresh lot; give a recorded seed to repeat a "
                    "seating."))
