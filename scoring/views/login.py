"""Every sign-in form with one limit on wrong passwords (issues 7 and 15).

The site's sign-in, the Django admin's sign-in (``/admin/login/``, routed here before the
admin's own URLs) and the password change (it checks the old password) count a wrong password
in the database per (address, user name), and per address over all user names with a
higher allowance (scoring.access). Past the free attempts each further attempt waits longer;
while it waits, the form is shown again with a 429, a Retry-After and a message, and the
password is not even checked, so that guessing is hopeless. A count is never the account's
alone: wrong passwords from one address do not slow the rightful holder down at another.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth import views as auth_views
from django.forms import BaseForm
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import access
from scoring.collation import username_key


def login_limit() -> access.Limit:
    return access.Limit(settings.LOGIN_FREE_FAILURES, settings.LOGIN_DELAY,
                        settings.LOGIN_MAX_DELAY, settings.LOGIN_FAILURE_WINDOW)


def address_limit() -> access.Limit:
    return access.Limit(settings.LOGIN_FREE_FAILURES_PER_ADDRESS, settings.LOGIN_DELAY,
                        settings.LOGIN_MAX_DELAY, settings.LOGIN_FAILURE_WINDOW)


def normalised_name(username: str) -> str:
    """The user name as the count knows it: NFKC-normalised (as Django's sign-in form does,
    so a fullwidth "ｂ_viewer" signs in as "b_viewer"), case-folded and stripped, so that
    every spelling that reaches one account counts as that account."""
    return username_key(username)[:150]


def _account_key(request: HttpRequest, username: str) -> str:
    return access.limit_key("login", access.address_key(request), normalised_name(username))


def _address_key(request: HttpRequest) -> str:
    return access.limit_key("login-address", access.address_key(request))


def wait_message(seconds: int) -> str:
    if seconds < 120:
        return ngettext(
            "Too many failed sign-in attempts. Please wait %(seconds)s second before "
            "trying again.",
            "Too many failed sign-in attempts. Please wait %(seconds)s seconds before "
            "trying again.", seconds) % {"seconds": max(1, seconds)}
    minutes = (seconds + 59) // 60
    return ngettext(
        "Too many failed sign-in attempts. Please wait a minute before trying again.",
        "Too many failed sign-in attempts. Please wait %(minutes)s minutes before trying "
        "again.", minutes) % {"minutes": minutes}


class Limited:
    """The limit for a password form: wait before checking, count after a wrong password."""

    def __init__(self, request: HttpRequest, username: str) -> None:
        self.request = request
        self.keys = [_account_key(request, username)]
        if settings.LOGIN_FREE_FAILURES_PER_ADDRESS:
            self.keys.append(_address_key(request))
        self.counted: set[str] | None = None  # the keys with a count (None: not read)

    def wait(self) -> int:
        wait, self.counted = access.counted(*self.keys)
        return wait

    def failed(self) -> None:
        access.note_failure(self.keys[0], login_limit())
        if len(self.keys) > 1:
            access.note_failure(self.keys[1], address_limit())

    def succeeded(self) -> None:
        # A right password clears the (address, account) count, not the address's: one
        # address must not buy more guesses at other accounts by signing in to its own.
        # (No count when the wait was read: nothing to clear, no write.)
        if self.counted is None or self.keys[0] in self.counted:
            access.forget_failures(self.keys[0])


def waiting_form(form: BaseForm, message: str) -> BaseForm:
    """The form, bound to what was typed but unchecked, carrying only the wait message."""
    # set, not computed: full_clean() would check the password
    setattr(form, "_errors", ErrorDict())  # noqa: B010
    form.cleaned_data = {}
    form.add_error(None, message)
    return form


def too_many(response: HttpResponse, wait: int) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


class LimitedLoginMixin:
    """For a LoginView: the limit around Django's own checking of the password."""

    request: HttpRequest

    def _limited(self) -> Limited:
        # one per request: it keeps what its wait() read for succeeded()
        limited: Limited | None = getattr(self, "_limit", None)
        if limited is None:
            limited = Limited(self.request, str(self.request.POST.get("username", "")))
            self._limit = limited
        return limited

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = self._limited().wait()
        if wait:
            view: Any = self
            data = {"username": str(request.POST.get("username", ""))[:150]}
            form = waiting_form(view.get_form_class()(request, data=data), wait_message(wait))
            response = view.render_to_response(view.get_context_data(form=form))
            return too_many(response, wait)
        return super().post(request, *args, **kwargs)  # type: ignore[misc, no-any-return]

    def form_invalid(self, form: Any) -> HttpResponse:
        self._limited().failed()
        return super().form_invalid(form)  # type: ignore[misc, no-any-return]

    def form_valid(self, form: Any) -> HttpResponse:
        self._limited().succeeded()
        return super().form_valid(form)  # type: ignore[misc, no-any-return]


class LoginView(LimitedLoginMixin, auth_views.LoginView):
    pass


class AdminLoginView(LimitedLoginMixin, auth_views.LoginView):
    authentication_form = AdminAuthenticationForm
    template_name = "admin/login.html"


def admin_login(request: HttpRequest) -> HttpResponseBase:
    """The Django admin's sign-in with the same limit: AdminSite.login's page and form, and
    the limited view around them."""
    site = admin.site
    if request.method == "GET" and site.has_permission(request):
        return HttpResponseRedirect(reverse("admin:index", current_app=site.name))
    context: dict[str, Any] = {
        **site.each_context(request),
        "title": _("Log in"),
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": request.user.get_username(),
    }
    if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
        context[REDIRECT_FIELD_NAME] = reverse("admin:index", current_app=site.name)
    request.current_app = site.name
    return AdminLoginView.as_view(extra_context=context)(request)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Changing one's password asks for the old one: a signed-in session (a tablet left
    signed in) must not guess it freely either. Counted like a sign-in of that account."""

    def _limited(self) -> Limited:
        return Limited(self.request, self.request.user.get_username())

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = self._limited().wait()
        if wait:
            form = waiting_form(self.get_form_class()(request.user), wait_message(wait))
            return too_many(self.render_to_response(self.get_context_data(form=form)), wait)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        if "old_password" in form.errors:
            self._limited().failed()
        return super().form_invalid(form)
