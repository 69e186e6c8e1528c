from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from scoring.views.account import PasswordResetView
from scoring.views.login import LoginView, PasswordChangeView, admin_login
from skatclub.health import healthz

urlpatterns = [
    # Database and cache reachable? For load balancers and monitoring (skatclub/health.py).
    path("healthz", healthz, name="healthz"),
    # Django's set_language view: the language switch in base.html posts here.
    path("i18n/", include("django.conf.urls.i18n")),
    # Login (with a limit on wrong passwords), logout, password change and reset (the reset
    # mail in the language of the account's club). Every form that checks a password is
    # limited alike, the admin's sign-in too (routed before the admin's own URLs).
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/password_change/", PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password_reset/", PasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/login/", admin_login),
    path("admin/", admin.site.urls),
    path("", include("scoring.urls")),
]

# The site's own error pages, in the visitor's language (scoring/views/errors.py).
handler403 = "scoring.views.errors.permission_denied"
handler404 = "scoring.views.errors.page_not_found"
handler500 = "scoring.views.errors.server_error"
