"""Sign-in with a limit on wrong passwords (issue 7).

Django's own login view, but failed attempts are counted per user name and per address (in
the cache, like wrong table codes: scoring.access). Past the limit within the window, the
form refuses further attempts for a while without even checking the password, so that a
password cannot be guessed by trying many.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from scoring import access


def _user_key(username: str) -> str:
    # Normalised, so that "Demo" and " demo" count as the same account; hashed, so that
    # whatever was typed makes a short key of safe characters (found by tests/web/
    # test_form_fuzz.py: a cache key must not hold control characters for memcached).
    name = username.strip().casefold()[:150].encode("utf-8", "replace")
    return f"login-failures:user:{hashlib.sha256(name).hexdigest()}"


def _address_key(request: HttpRequest) -> str:
    return f"login-failures:address:{access.client_address(request)}"


class LoginView(auth_views.LoginView):
    def _wait(self, request: HttpRequest) -> int:
        window = settings.LOGIN_FAILURE_WINDOW
        username = str(request.POST.get("username", ""))
        return max(
            access.blocked_for(_user_key(username), settings.LOGIN_MAX_FAILURES, window),
            access.blocked_for(_address_key(request),
                               settings.LOGIN_MAX_FAILURES_PER_ADDRESS, window))

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = self._wait(request)
        if wait:
            form = self.get_form_class()(request)  # unbound: the password is not checked
            form.initial = {"username": str(request.POST.get("username", ""))[:150]}
            response = self.render_to_response(self.get_context_data(
                form=form, blocked_minutes=max(1, (wait + 59) // 60)))
            response.status_code = 429
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        window = settings.LOGIN_FAILURE_WINDOW
        access.note_failure(_user_key(str(self.request.POST.get("username", ""))), window)
        access.note_failure(_address_key(self.request), window)
        return super().form_invalid(form)

    def form_valid(self, form: Any) -> HttpResponse:
        # A correct password clears the user name's count (not the address's: one address
        # must not buy more guesses at other accounts by signing in to its own).
        access.forget_failures(_user_key(str(self.request.POST.get("username", ""))))
        return super().form_valid(form)
