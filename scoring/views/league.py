"""Team leagues (issue 25): placeholder, filled by its part."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
