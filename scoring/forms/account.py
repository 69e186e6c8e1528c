"""A member's own account page (issue 16): deleting the account asks for the password."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail address"), required=False,
        help_text=_("For a new password if you forget yours."))


class PinForm(forms.Form):
    """The 4-digit PIN a member signs finished lists with, where the club chooses PINs
    (issue 23); kept hashed like a password."""

    pin = forms.RegexField(
        label=_("New PIN (4 digits)"), regex=r"^[0-9]{4}$", strip=True,
        error_messages={"invalid": _("The PIN is exactly four digits.")},
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off",
                                          "maxlength": "4", "pattern": "[0-9]{4}"}))
    pin_again = forms.CharField(
        label=_("The PIN again"), strip=True,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off",
                                          "maxlength": "4", "pattern": "[0-9]{4}"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("pin") and data.get("pin") != data.get("pin_again"):
            self.add_error("pin_again", _("The two PINs differ."))
        return data
