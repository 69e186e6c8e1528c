"""The import reader under random and mutated input (issue 16): whatever the bytes, the reader
used by the commands and the upload alike answers with its clean validation error
(ImportProblem) or imports; never another exception, never a half-written import, and an
evening it lets in shows its pages."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Club, Evening, Season
from scoring.reads.export import evening_export
from scoring.writes import uploads
from scoring.writes.import_problems import ImportProblem
from scoring.writes.paper import plan_totals
from scoring.writes.services import Actor

from .factories import make_user
from .interchange_data import build_club, evening_of
from .test_import_checks import pages_of
from .test_import_export import _paths, counts

pytestmark = pytest.mark.django_db

ME = Actor(None, "fuzz")
SLUG = "skatfreunde-altenburg"
BASE: dict[str, Any] = {}

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20),
                      st.floats(allow_nan=False, allow_infinity=False),
                      st.text(max_size=300))
json_any = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=10), inner, max_size=3)),
    max_leaves=12)
# the fields a deal record may carry, with values of every shape, nested lists for a note
deal_keys = st.sampled_from(["note", "kind", "ramsch", "penalty", "bock", "declarer", "game",
                             "bid", "declarer_points", "cards", "kontra", "bock_manual",
                             "bock_round", "matadors", "dealer", "passed_18"])
deep = st.integers(1, 1200).map(lambda n: json.loads("[" * n + "1" + "]" * n)
                                if n < 900 else None)


def _club() -> Club:
    club = Club.objects.filter(slug=SLUG).first()
    if club is None:
        club = build_club()
        doc = evening_export(evening_of(club))
        doc["name"] = "Fuzz"
        BASE["doc"] = json.loads(json.dumps(doc))
    return club


def _mutated(data: Any) -> Any:
    doc = copy.deepcopy(BASE["doc"])
    for _ in range(data.draw(st.integers(1, 4))):
        paths = _paths(doc)
        path = data.draw(st.sampled_from(paths))
        action = data.draw(st.sampled_from(["replace", "delete", "duplicate", "deal field"]))
        if not path:
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        if action == "replace":
            parent[key] = data.draw(json_any)
        elif action == "delete":
            del parent[key]
        elif action == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif action == "deal field" and isinstance(parent[key], dict):
            value = data.draw(st.one_of(json_any, deep))
            if value is not None:
                parent[key][data.draw(deal_keys)] = value
    return doc


def _check(content: bytes, client: Client | None = None) -> None:
    club = Club.objects.get(slug=SLUG)
    before = counts()
    shown = uploads.preview_json(content, club, actor=ME, source="f.json")
    assert counts() == before  # the preview writes nothing
    for problem in shown.problems:
        assert isinstance(problem, str) and problem
    try:
        report = uploads.import_json(content, club, actor=ME, source="f.json")
    except ImportProblem as err:
        assert str(err)
        assert counts() == before
        assert shown.problems  # the preview saw the same problem
        return
    assert not shown.problems
    if client is not None:
        for evening in report.added:
            for url in pages_of(evening):
                assert client.get(url).status_code == 200, url
        Evening.objects.filter(pk__in=[e.pk for e in report.added]).delete()


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_exports_are_refused_cleanly_or_imported_with_working_pages(
        client: Client, data: Any) -> None:
    club = _club()
    member = club.memberships.filter(user__username="fuzz-admin").first()
    client.force_login(member.user if member else make_user(club, "admin", "fuzz-admin"))
    doc = _mutated(data)
    text = json.dumps(doc, indent=data.draw(st.sampled_from([None, 2])))
    _check(text.encode(), client)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(raw=st.one_of(
    st.binary(max_size=400),
    st.text(alphabet='{}[]",:0123456789 \\\nabtrue', max_size=400).map(str.encode),
    st.integers(1, 5000).map(lambda n: (b"[" * n) + (b"]" * n)),
    st.integers(1, 5000).map(lambda n: b'{"club": "' + SLUG.encode() + b'", "tables": '
                             + b"[" * n),
))
def test_random_bytes_never_raise_anything_but_the_clean_error(raw: bytes) -> None:
    _club()
    _check(raw)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(lines=st.lists(st.lists(st.one_of(
    st.text(max_size=12), st.sampled_from(["05.09.2025", "2025-09-05", "1.020", "−3", "2,50",
                                           "Anna", ""])), max_size=8), max_size=6),
    head=st.lists(st.sampled_from(["Spieler", "Datum", "Punkte", "gewonnen", "verloren",
                                   "Geld", "SF", "Abend", "x"]), max_size=8),
    separator=st.sampled_from([";", ","]))
def test_random_csv_never_raises_anything_but_line_problems(
        lines: list[list[str]], head: list[str], separator: str) -> None:
    club = _club()
    season = Season.objects.get_or_create(
        club=club, name="2025/26", defaults={"start": "2025-09-01", "end": "2026-08-31"})[0]
    text = "\n".join(separator.join(cells) for cells in [head, *lines])
    plan = plan_totals(text.encode(), season)
    assert plan.problems or plan.evenings or not lines
    for problem in plan.problems:
        assert isinstance(problem, str) and problem


SHEET: dict[str, bytes] = {}


def _sheet() -> bytes:
    if not SHEET:
        from django.utils import translation

        from scoring.models import Table
        from scoring.reads.export import sheet_csv
        from scoring.reads.sheet import table_sheet, tables_with_everything
        club = _club()
        table = tables_with_everything(Table.objects.filter(
            evening__club=club, evening__name="Clubabend", series=1)).get()
        with translation.override("de"):
            SHEET["csv"] = sheet_csv(table_sheet(table, "de", explain=False)).encode()
    return SHEET["csv"]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_score_sheet_csv_gives_line_problems_or_the_same_deals(data: Any) -> None:
    from scoring.writes.sheetcsv import plan_sheet
    club = _club()
    content = _sheet().decode("utf-8-sig")
    lines = [line.split(",") for line in content.split("\r\n")]
    for _ in range(data.draw(st.integers(1, 3))):
        row = data.draw(st.integers(0, len(lines) - 1))
        if not lines[row]:
            continue
        column = data.draw(st.integers(0, len(lines[row]) - 1))
        lines[row][column] = data.draw(st.one_of(
            st.text(max_size=8), st.sampled_from(['"Grand"', '"Null"', '"Ramsch"', "-96",
                                                  '"×2"', '"Kontra"', '"mit 3"', "", "0"])))
    evening = Evening.objects.filter(club=club, name="Clubabend").get()
    plan = plan_sheet("\r\n".join(",".join(cells) for cells in lines).encode(), evening)
    for problem in plan.problems:
        assert isinstance(problem, str) and problem
    if not plan.problems:
        assert plan.records
