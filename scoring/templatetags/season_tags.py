"""Numbers on the season and league pages, in the reader's language: a real minus sign, one
decimal for averages and rates, money with its currency, a league's Wertungspunkte
(written by scoring/notation.py)."""

from __future__ import annotations

from django import template

from scoring.notation import (
    decimal1,
    match_points,
    minus,
    money,
    money_sign,
    points,
    sign_class,
)

register = template.Library()
for _filter in (minus, points, decimal1, money, sign_class, money_sign, match_points):
    register.filter(_filter)
