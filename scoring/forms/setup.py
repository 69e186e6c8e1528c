"""The first-run set-up page and the self-service registration of a club (issue 16): one form
for the club (name, short name, language, rule profile preset, stake and currency) and its
first admin (user name, e-mail, a password checked by Django's password validators)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring.collation import invisible_characters, refuse_invisible
from scoring.models import Club
from scoring.presets import PRESETS
from scoring.writes import onboarding


def _preset_choices() -> list[tuple[str, Any]]:
    return [(key, _(preset["name"])) for key, preset in PRESETS.items()]


def new_username(typed: str, taken: Any = None) -> str:
    """A new account's user name as typed, NFKC-normalised (as Django's sign-in form
    normalises it): refused with invisible characters, when an account has it (however
    capitalised or in whatever width) or when it looks like an account's name (a Cyrillic
    "а" for an "a")."""
    users = get_user_model()
    username = users.normalize_username(typed.strip())
    bad = invisible_characters(username)
    if bad:
        raise ValidationError(
            _("A user name may not contain invisible or control characters (%(codes)s): "
              "type it again without them.") % {"codes": ", ".join(bad)}, code="invisible")
    users.username_validator(username)
    clash = onboarding.name_clash(username)
    if clash == "look-alike":
        raise ValidationError(_("This user name looks like the name of another account. "
                                "Choose another one."), code="look-alike")
    if clash:
        raise ValidationError(taken or _("This user name is taken. Choose another one."),
                              code="taken")
    return username


class AccountFields(forms.Form):
    """A new account's user name, e-mail address and password (typed twice)."""

    username = forms.CharField(label=_("User name"), max_length=150, widget=forms.TextInput(
        attrs={"autocomplete": "username", "autocapitalize": "none"}))
    email = forms.EmailField(label=_("E-mail address"), widget=forms.EmailInput(
        attrs={"autocomplete": "email"}))
    password1 = forms.CharField(
        label=_("Password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(
        label=_("Password again"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_username(self) -> str:
        return new_username(str(self.cleaned_data["username"]))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            user = get_user_model()(username=data.get("username", ""),
                                    email=data.get("email", ""))
            try:
                validate_password(first, user)
            except ValidationError as err:
                self.add_error("password1", err)
        return data


class ClubSetupForm(AccountFields):
    club_name = forms.CharField(label=_("Name of the club"), max_length=100,
                                validators=[refuse_invisible])
    slug = forms.SlugField(
        label=_("Short name"), max_length=50,
        help_text=_("Letters, digits and dashes, for the club's address: /clubs/short-name/."))
    language = forms.ChoiceField(label=_("Language of the club"), choices=settings.LANGUAGES,
                                 initial="de",
                                 help_text=_("The lists, printouts and e-mails of the club."))
    preset = forms.ChoiceField(label=_("Rules"), choices=_preset_choices,
                               initial="club_evening",
                               help_text=_("The club's first rule profile; more can be added "
                                           "and changed on the club page."))
    stake = forms.DecimalField(
        label=_("Stake per point"), min_value=Decimal("0"), max_digits=10, decimal_places=4,
        initial=Decimal("0"), help_text=_("0 if the club plays without money."))
    currency = forms.CharField(label=_("Currency"), max_length=3, min_length=3, initial="EUR")

    field_order = ["club_name", "slug", "language", "preset", "stake", "currency",
                   "username", "email", "password1", "password2"]

    def clean_slug(self) -> str:
        slug = str(self.cleaned_data["slug"]).strip().lower()
        if Club.objects.filter(slug=slug).exists():
            raise ValidationError(_("This short name is taken. Choose another one."))
        return slug

    def clean_currency(self) -> str:
        currency = str(self.cleaned_data["currency"]).strip().upper()
        if not currency.isalpha():
            raise ValidationError(_("A currency is three letters, such as EUR."))
        return currency
