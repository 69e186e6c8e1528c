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
