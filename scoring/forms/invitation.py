"""The page an invitation link opens (issue 16): the invited person picks their own user name
and password (the e-mail address is for a forgotten password)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.setup import AccountFields


class SignUpForm(AccountFields):
    email = forms.EmailField(
        label=_("E-mail address"), required=False,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text=_("For a new password if you forget yours; leave empty if you like."))
