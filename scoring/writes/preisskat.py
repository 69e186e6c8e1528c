"""Preisskat essentials (issue 24, item 4): a club's rule profile made from a preset in one
step (the ISkO tournament profile the tournament form looks for by its rules)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.models import Club, RuleProfile
from scoring.presets import PRESETS


def profile_from_preset(*, club: Club, key: str) -> RuleProfile:
    """A new rule profile of ``club`` holding the preset's rules, named by the preset in the
    current language; a name the club has already gets a number ("ISkO-Turnier (2)")."""
    if key not in PRESETS:
        raise ValidationError(_("There is no such preset."))
    preset = PRESETS[key]
    base = _(preset["name"])
    taken = {n.casefold() for n in club.rule_profiles.values_list("name", flat=True)}
    name, number = base, 1
    while name.casefold() in taken:
        number += 1
        name = f"{base} ({number})"
    profile = RuleProfile(club=club, name=name[:100], rules=preset["rules"],
                          options=preset["options"], scoring=preset["scoring"])
    profile.full_clean()
    try:
        with transaction.atomic():
            profile.save()
    except IntegrityError:  # the same name, a moment ago
        raise ValidationError(_("The club already has a rule profile named “%(name)s”.")
                              % {"name": name}) from None
    return profile
