"""Numbers on the season pages, in the reader's language: a real minus sign, one decimal for
averages and rates, money with its currency (written by scoring/notation.py)."""

from __future__ import annotations

from django import template

from scoring.notation import decimal1, minus, money, money_sign, points, sign_class

register = template.Library()
for _filter in (minus, points, decimal1, money, sign_class, money_sign):
    register.filter(_filter)
