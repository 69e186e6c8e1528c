from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/home.html")


urlpatterns: list[URLPattern] = [path("", home, name="home")]
