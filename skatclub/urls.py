from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from scoring.views.login import LoginView
from skatclub.health import healthz

urlpatterns = [
    # Database and cache reachable? For load balancers and monitoring (skatclub/health.py).
    path("healthz", healthz, name="healthz"),
    # Django's set_language view: the language switch in base.html posts here.
    path("i18n/", include("django.conf.urls.i18n")),
    # Login (with a limit on wrong passwords), logout and password change; accounts are
    # created by club admins.
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("", include("scoring.urls")),
]
