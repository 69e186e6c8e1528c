"""Issue 13, the server side of the offline table: ``tables/<pk>/state/`` and
``tables/<pk>/sync/`` answer every case of scoring/views/sync-contract.md, each queued
operation is stored exactly once, and what cannot be applied any more is held for the club
admin (test_held.py has the admin's page)."""

from __future__ import annotations

import datetime
import json
import uuid
from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis.strategies import SearchStrategy

from scoring.engine import SkatError, evaluate_table
from scoring.models import AuditEntry, Deal, HeldOperation, Table
from scoring.reads.sheet import table_document
from scoring.writes.services import Actor, deal_edit, deal_record, evening_close

from .factories import make_club, make_table, make_user

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = pytest.mark.django_db

WON = {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
       "declarer_points": 70}
OTHER = Actor(None, "other tablet")


def op(kind: str = "save", version: int = 0, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"op": kind, "request_id": str(uuid.uuid4()),
                            "base_version": version}
    if kind in ("save", "edit"):
        body["record"] = dict(WON)
    if kind != "save":
        body["reason"] = "Tippfehler"
    body.update(extra)
    return body


def send(client: Client, table: Table, body: Any, lang: str = "en") -> TestResponse:
    raw = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(reverse("scoring:table-sync", args=[table.pk]), raw,
                       content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)


def next_declarer(table: Table, records: list[dict[str, Any]]) -> int:
    """The first active seat of the next deal, as the tablet's engine says offline."""
    table = Table.objects.select_related("evening").get(pk=table.pk)
    return int(evaluate_table(table_document(table, records))["next"]["active"][0])


def code_client(table: Table) -> Client:
    client = Client()
    response = client.post(reverse("scoring:code-entry"), {"code": table.access_code})
    assert response.status_code == 302
    return client


# ---------------------------------------------------------------- the state

def test_the_state_is_the_engines_table_with_the_deals_and_their_ids(
        table: Table, scorer: Client) -> None:
    first = deal_record(table=table, record=WON, expected_version=0, actor=OTHER,
                        request_id=uuid.uuid4())
    response = scorer.get(reverse("scoring:table-state", args=[table.pk]),
                          HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    state = response.json()
    assert state["version"] == 1 and state["lang"] == "de" and state["writable"]
    assert state["deals"] == [{"id": first.pk, "position": 1,
                               "request_id": str(first.request_id), "record": WON}]
    assert state["table"]["players"] == [s.player.name for s in table.seats.all()]
    # The input of SkatEngine.evaluateTable: the engine takes it as it is.
    result = evaluate_table({**state["table"], "deals": [d["record"] for d in state["deals"]]})
    assert len(result["deals"]) == 1
    assert (state["series"], state["number"], state["series_length"]) == (1, 1, None)


def test_the_state_for_a_code_holder_and_nobody_else(table: Table) -> None:
    url = reverse("scoring:table-state", args=[table.pk])
    assert code_client(table).get(url).status_code == 200
    stranger = Client().get(url)
    assert stranger.status_code == 404 and stranger.json()["status"] == "forbidden"
    other = Client()
    other.force_login(make_user(make_club("other", "Other"), "admin"))
    assert other.get(url).status_code == 404


# ---------------------------------------------------------------- stored, once

def test_a_save_is_stored_and_a_repeat_gets_the_same_answer(table: Table,
                                                           scorer: Client) -> None:
    body = op()
    first = send(scorer, table, body)
    assert first.status_code == 200
    answer = first.json()
    deal = Deal.objects.get(table=table)
    assert answer == {"status": "stored", "deal": deal.pk, "number": 1, "position": 1,
                      "version": 1}
    # Another device records meanwhile; the repeat still answers as the first time.
    deal_record(table=table, record={**WON, "declarer": 2}, expected_version=1, actor=OTHER)
    again = send(scorer, table, body)
    assert again.status_code == 200 and again.json() == answer
    assert Deal.objects.filter(table=table).count() == 2
    entry = AuditEntry.objects.get(deal=deal)
    assert (entry.action, str(entry.request_id), entry.version) == (
        "create", body["request_id"], 1)


def test_fifty_saves_made_offline_at_one_version_go_through_in_order(
        table: Table, scorer: Client) -> None:
    records: list[dict[str, Any]] = []
    queue = []
    for n in range(50):  # all scored offline at version 0
        record = {**WON, "declarer": next_declarer(table, records),
                  "declarer_points": 61 + n % 40}
        records.append(record)
        queue.append(op(record=record))
    for n, body in enumerate(queue, start=1):
        response = send(scorer, table, body)
        assert response.status_code == 200, response.json()
        assert response.json()["number"] == n and response.json()["version"] == n
    deals = list(Deal.objects.filter(table=table).order_by("position"))
    assert [d.record for d in deals] == records
    assert [str(d.request_id) for d in deals] == [b["request_id"] for b in queue]
    # The whole queue sent again (the answers were lost): nothing twice.
    for body in queue[:5]:
        assert send(scorer, table, body).status_code == 200
    assert Deal.objects.filter(table=table).count() == 50


def test_an_edit_and_a_delete_of_a_deal_that_was_itself_queued(table: Table,
                                                              scorer: Client) -> None:
    save = op()
    corrected = {**WON, "declarer_points": 90}
    edit = op("edit", deal_request_id=save["request_id"], record=corrected)
    delete = op("delete", deal_request_id=save["request_id"])
    for body in (save, edit, delete):
        assert send(scorer, table, body).status_code == 200
    deal = Deal.objects.get(table=table)
    assert deal.record == corrected and deal.deleted
    assert list(deal.audit.order_by("id").values_list("action", flat=True)) == [
        "create", "edit", "delete"]
    repeat = send(scorer, table, edit)  # the edit again: the answer it had, no second edit
    assert repeat.json() == {"status": "stored", "deal": deal.pk, "number": None,
                             "position": 1, "version": 2}
    assert deal.audit.count() == 3
    restore = send(scorer, table, op("restore", deal=deal.pk, base_version=3))
    assert restore.status_code == 200
    assert not Deal.objects.get(pk=deal.pk).deleted


def test_a_change_of_a_deal_never_stored_is_refused(table: Table, scorer: Client) -> None:
    response = send(scorer, table, op("delete", deal_request_id=str(uuid.uuid4())))
    assert response.status_code == 422 and response.json()["error"]["field"] == "deal"
    other = make_table(make_club("zwei", "Zwei"))
    foreign = deal_record(table=other, record=WON, expected_version=0, actor=OTHER)
    response = send(scorer, table, op("delete", deal=foreign.pk))
    assert response.status_code == 422 and not Deal.objects.get(pk=foreign.pk).deleted


# ---------------------------------------------------------------- conflicts

def test_a_conflict_shows_theirs_and_mine_and_append_stores_mine(
        table: Table, scorer: Client) -> None:
    deal_record(table=table, record=WON, expected_version=0, actor=OTHER)
    mine = {**WON, "declarer": 2}
    body = op(record=mine)
    response = send(scorer, table, body)
    assert response.status_code == 409
    answer = response.json()
    assert answer["status"] == "conflict" and answer["version"] == 1
    [theirs] = answer["theirs"]
    assert theirs["by"] == "other tablet" and theirs["number"] == 1 and theirs["at"]
    assert theirs["game"] and theirs["entries"][0]["entry"] != 0
    assert answer["mine"]["error"] is None and answer["mine"]["row"]["number"] == 2
    assert not answer["same"] and not theirs["same"]
    assert [t["theirs"] for t in answer["totals"]] != [t["mine"] for t in answer["totals"]]
    assert Deal.objects.filter(table=table).count() == 1
    send(scorer, table, body)  # shown twice, logged once
    assert AuditEntry.objects.filter(action="conflict", request_id=body["request_id"]
                                     ).count() == 1
    # "Append mine after theirs": the same operation in append mode.
    stored = send(scorer, table, {**body, "mode": "append"})
    assert stored.status_code == 200 and stored.json()["number"] == 2
    assert Deal.objects.get(request_id=body["request_id"]).record == mine


def test_mine_refused_by_the_engine_in_a_conflict_says_why(table: Table,
                                                           scorer: Client) -> None:
    deal_record(table=table, record=WON, expected_version=0, actor=OTHER)
    # Seat 1 deals the second deal at a 4-table: it sits out and cannot be declarer.
    response = send(scorer, table, op(record={**WON, "declarer": 1}))
    answer = response.json()
    assert response.status_code == 409
    assert answer["mine"]["row"] is None and answer["mine"]["error"]["message"]


def test_a_conflict_of_a_deletion_puts_the_deal_itself_first(table: Table,
                                                             scorer: Client) -> None:
    first = deal_record(table=table, record=WON, expected_version=0, actor=OTHER)
    deal_record(table=table, record={**WON, "declarer": 2}, expected_version=1, actor=OTHER)
    response = send(scorer, table, op("delete", deal=first.pk, base_version=1))
    answer = response.json()
    assert response.status_code == 409 and answer["op"] == "delete"
    assert answer["mine"]["row"]["deleted"] and answer["totals"][0]["mine"] is not None
    assert not Deal.objects.get(pk=first.pk).deleted


# ---------------------------------------------------------------- refused

@pytest.mark.parametrize("lang", ["de", "en"])
def test_refused_with_the_engines_message_in_the_requests_language(
        table: Table, scorer: Client, lang: str) -> None:
    record = {**WON, "game": "no-such-game"}
    try:
        evaluate_table(table_document(Table.objects.select_related("evening").get(
            pk=table.pk), [record]))
    except SkatError as err:
        expected = err.message_in(lang)
    else:  # pragma: no cover
        pytest.fail("the engine took it")
    body = op(record=record)
    response = send(scorer, table, body, lang=lang)
    assert response.status_code == 422
    assert response.json()["status"] == "refused"
    assert response.json()["error"]["message"] == expected
    assert not Deal.objects.exists() and Table.objects.get(pk=table.pk).version == 0
    assert AuditEntry.objects.get(action="refuse").request_id == uuid.UUID(body["request_id"])


def test_the_engines_words_differ_by_language(table: Table, scorer: Client) -> None:
    record = {**WON, "game": "no-such-game"}
    de = send(scorer, table, op(record=record), lang="de").json()["error"]["message"]
    en = send(scorer, table, op(record=record), lang="en").json()["error"]["message"]
    assert de != en


@pytest.mark.parametrize("body", [
    "not json", "[]", '{"op": "save"}', '{"op": "fly", "request_id": "x"}',
    json.dumps({**op(), "request_id": "nope"}), json.dumps({**op(), "base_version": -1}),
    json.dumps({**op(), "base_version": True}), json.dumps({**op(), "record": [1]}),
    json.dumps({**op(), "mode": "force"}), json.dumps(op("delete")),
    json.dumps({**op("delete", deal=1), "reason": 5}),
    '{"op": "save", "base_version": NaN}', json.dumps({**op(), "base_version": 5}),
])
def test_malformed_operations_are_refused_as_json(table: Table, scorer: Client,
                                                  body: str) -> None:
    response = send(scorer, table, body)
    assert response.status_code == 422 and response["Content-Type"] == "application/json"
    assert response.json()["status"] == "refused"
    assert not Deal.objects.exists()


@pytest.mark.parametrize("size", [70 * 1024, 3 * 1024 * 1024])
def test_an_oversized_operation_is_refused_not_retried(table: Table, scorer: Client,
                                                       size: int) -> None:
    """Issue 36: a body beyond Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) was answered 503
    with Retry-After, so the tablet sent it again for ever. It is a refusal (422, which the
    offline table marks as refused and never sends again), as a body over MAX_BODY was."""
    body = json.dumps({**op(), "reason": "x" * size})
    response = send(scorer, table, body)
    assert response.status_code == 422 and response["Content-Type"] == "application/json"
    assert "Retry-After" not in response
    assert response.json() == {"status": "refused", "error": {
        "field": None, "message": "The operation is too large."}}
    assert not Deal.objects.exists() and not HeldOperation.objects.exists()


# ---------------------------------------------------------------- held

def test_an_operation_for_a_closed_evening_is_held(table: Table, scorer: Client) -> None:
    evening_close(evening=table.evening, actor=OTHER)
    body = op()
    response = send(scorer, table, body)
    assert response.status_code == 202
    answer = response.json()
    held = HeldOperation.objects.get()
    assert answer["status"] == "held" and answer["held"] == held.pk and answer["message"]
    assert (held.op, held.why, held.record, str(held.request_id)) == (
        "save", "closed", WON, body["request_id"])
    assert held.actor.startswith("scorer")
    assert not Deal.objects.exists()
    assert send(scorer, table, body).json()["held"] == held.pk  # once
    assert HeldOperation.objects.count() == 1
    assert AuditEntry.objects.filter(action="held", table=table).count() == 1


def test_an_operation_after_the_code_expired_is_held(table: Table) -> None:
    client = code_client(table)
    assert send(client, table, op()).status_code == 200
    # The tablet stays offline past the night: the evening's codes run out.
    table.evening.__class__.objects.filter(pk=table.evening_id).update(
        date=table.evening.date - datetime.timedelta(days=3))
    response = send(client, table, op(version=1, record={**WON, "declarer": 2}))
    assert response.status_code == 202
    held = HeldOperation.objects.get()
    assert held.why == "code" and held.actor.startswith("table code")
    assert Deal.objects.count() == 1


def test_an_operation_after_the_code_was_replaced_is_held(table: Table) -> None:
    client = code_client(table)
    Table.objects.filter(pk=table.pk).update(access_code="NEWCODE2")
    assert send(client, table, op()).status_code == 202
    assert HeldOperation.objects.get().why == "code"


def test_a_change_of_a_held_deal_is_held_with_it(table: Table, scorer: Client) -> None:
    evening_close(evening=table.evening, actor=OTHER)
    save = op()
    assert send(scorer, table, save).status_code == 202
    edit = op("edit", deal_request_id=save["request_id"])
    assert send(scorer, table, edit).status_code == 202
    assert HeldOperation.objects.count() == 2


# ---------------------------------------------------------------- forbidden

def test_who_never_had_access_is_forbidden_and_nothing_is_held(table: Table) -> None:
    stranger = send(Client(), table, op())
    assert stranger.status_code == 404 and stranger.json()["status"] == "forbidden"
    viewer = Client()
    viewer.force_login(make_user(table.evening.club, "viewer"))
    refused = send(viewer, table, op())
    assert refused.status_code == 403 and refused.json()["status"] == "forbidden"
    evening_close(evening=table.evening, actor=OTHER)
    assert send(Client(), table, op()).status_code == 404
    assert send(viewer, table, op()).status_code == 403
    other = Client()
    other.force_login(make_user(make_club("other", "Other"), "admin"))
    assert send(other, table, op()).status_code == 404
    # A code of another table does not open this one.
    elsewhere = make_table(table.evening.club)
    assert send(code_client(elsewhere), table, op()).status_code == 404
    assert not HeldOperation.objects.exists() and not Deal.objects.exists()


def test_the_sync_needs_the_csrf_token(table: Table) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user(table.evening.club, "scorer"))
    refused = send(client, table, op())
    assert refused.status_code == 403 and refused.json()["status"] == "csrf"
    token = client.get(reverse("scoring:table", args=[table.pk])).cookies["csrftoken"].value
    response = client.post(reverse("scoring:table-sync", args=[table.pk]), json.dumps(op()),
                           content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200


def test_a_get_of_the_sync_url_is_not_allowed(table: Table, scorer: Client) -> None:
    assert scorer.get(reverse("scoring:table-sync", args=[table.pk])).status_code == 405


# ---------------------------------------------------------------- query counts

def _counts(table: Table, scorer: Client, deals: int) -> tuple[int, int, int]:
    records: list[dict[str, Any]] = []
    for n in range(deals):
        record = {**WON, "declarer": next_declarer(table, records)}
        records.append(record)
        deal_record(table=table, record=record, expected_version=n, actor=OTHER)
    record = {**WON, "declarer": next_declarer(table, records)}
    counts = []
    with CaptureQueriesContext(connection) as queries:
        assert send(scorer, table, op(version=deals, record=record)).status_code == 200
    counts.append(len(queries))
    records.append(record)
    theirs = {**WON, "declarer": next_declarer(table, records)}
    deal_record(table=table, record=theirs, expected_version=deals + 1, actor=OTHER)
    with CaptureQueriesContext(connection) as queries:  # a conflict reads the sheet too
        assert send(scorer, table, op(version=deals, record=theirs)).status_code == 409
    counts.append(len(queries))
    with CaptureQueriesContext(connection) as queries:
        assert scorer.get(reverse("scoring:table-state", args=[table.pk])).status_code == 200
    return counts[0], counts[1], len(queries)


def test_query_counts_do_not_grow_with_the_deals(scorer: Client) -> None:
    club = make_club("counts", "Counts")
    scorer.force_login(make_user(club, "scorer"))
    few = _counts(make_table(club), scorer, 2)
    many = _counts(make_table(club), scorer, 25)
    assert few == many, (few, many)
    assert few[0] <= 30 and few[1] <= 30 and few[2] <= 10, few


# ---------------------------------------------------------------- fuzz

def _json_values() -> SearchStrategy[Any]:
    from hypothesis import strategies as st

    leaf = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(
        allow_nan=False, allow_infinity=False) | st.text(max_size=12)
    return st.recursive(leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=8), inner, max_size=3), max_leaves=8)


CURRENT = "the table's version now"


def test_fuzzed_operations_never_500_and_never_half_store(table: Table,
                                                          scorer: Client) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    first = deal_record(table=table, record=WON, expected_version=0, actor=OTHER,
                        request_id=uuid.uuid4())
    anything = _json_values()
    small = st.integers(-3, 4)
    record = st.fixed_dictionaries({}, optional={
        "kind": st.sampled_from(["game", "passed", "ramsch", "penalty", "x"]) | anything,
        "declarer": small | anything, "game": st.sampled_from(
            ["clubs", "spades", "grand", "null", "nope"]) | anything,
        "matadors": small | anything, "bid": st.sampled_from([18, 20, 23, 17]) | anything,
        "result": st.sampled_from(["won", "lost", "schneider"]) | anything,
        "declarer_points": st.integers(-5, 125) | anything, "hand": st.booleans() | anything,
        "kontra": st.sampled_from(["none", "kontra", "re"]) | anything,
        "penalty": anything, "extra": anything})
    loose = st.fixed_dictionaries({}, optional={
        "op": st.sampled_from(["save", "edit", "delete", "restore", "drop"]) | anything,
        "dropped": st.fixed_dictionaries({"op": st.sampled_from(["save", "edit"]),
                                          "request_id": st.uuids().map(str)},
                                         optional={"record": record | anything,
                                                   "deal": anything}) | anything,
        "request_id": st.uuids().map(str) | anything,
        "base_version": st.integers(-1, 3) | anything,
        "record": record | anything,
        "deal": st.sampled_from([first.pk, first.pk + 100]) | anything,
        "deal_request_id": st.sampled_from([str(first.request_id)]) | anything,
        "reason": st.text(max_size=20) | anything,
        "mode": st.sampled_from(["append"]) | anything})
    # Mostly well-formed operations (the engine judges their records), some with one field
    # spoilt: the answers reach every status, not only "refused".
    good = st.fixed_dictionaries({
        "op": st.sampled_from(["save", "save", "edit", "delete", "restore"]),
        "request_id": st.uuids().map(str),
        "base_version": st.integers(0, 3) | st.just(CURRENT) | st.just(CURRENT),
        "record": st.builds(lambda seat, points, game: {**WON, "declarer": seat,
                                                         "declarer_points": points,
                                                         "game": game},
                            st.integers(0, 3), st.integers(0, 120),
                            st.sampled_from(["clubs", "spades", "grand", "diamonds"])),
        "deal": st.just(first.pk), "reason": st.text(min_size=1, max_size=10)},
        optional={"mode": st.just("append")})
    spoilt = st.tuples(good, st.sampled_from(["op", "request_id", "base_version", "record",
                                              "deal", "reason", "mode"]), anything).map(
        lambda t: {**t[0], t[1]: t[2]})
    body = good | good | spoilt | loose
    seen: Counter[str] = Counter()

    def state() -> tuple[int, list[Any]]:
        return (Table.objects.get(pk=table.pk).version,
                list(Deal.objects.order_by("pk").values_list("pk", "record", "deleted")))

    @settings(max_examples=150, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(body | anything)
    def check(data: Any) -> None:
        before = state()
        if isinstance(data, dict) and data.get("base_version") == CURRENT:
            data = {**data, "base_version": before[0]}  # as a tablet that is up to date
        writes = AuditEntry.objects.filter(deal__isnull=False).count()
        response = send(scorer, table, data)  # an exception here (a 500) fails the test
        assert response.status_code in (200, 409, 422), (data, response.status_code)
        answer = response.json()
        assert answer["status"] in ("stored", "conflict", "refused", "dropped")
        seen[answer["status"]] += 1
        after = state()
        new = AuditEntry.objects.filter(deal__isnull=False).count() - writes
        if response.status_code == 200 and new:
            assert after[0] == before[0] + 1 and new == 1, data
        else:  # refused, a conflict, or the same operation again: nothing changed
            assert after == before and new == 0, data
        assert not HeldOperation.objects.exists()

    check()
    assert seen["stored"] and seen["refused"], seen
    # Whatever was refused is in the audit log, and the log shows it.
    assert AuditEntry.objects.filter(action="refuse").exists()
    audit = scorer.get(reverse("scoring:evening-audit", args=[table.evening_id]))
    assert audit.status_code == 200


def test_fuzzed_held_operations_can_be_shown_accepted_or_discarded(table: Table,
                                                                   scorer: Client) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    admin = Client()
    admin.force_login(make_user(table.evening.club, "admin"))
    evening_close(evening=table.evening, actor=OTHER)
    anything = _json_values()
    record = st.dictionaries(st.sampled_from(list(WON) + ["ramsch", "penalty", "kontra"]),
                             anything | st.integers(0, 3), max_size=7) | st.just(WON)

    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(record, st.booleans())
    def check(data: dict[str, Any], accept: bool) -> None:
        response = send(scorer, table, op(record=data))
        if response.status_code == 422:  # what a database cannot keep (NUL) is not held
            assert response.json()["status"] == "refused"
            return
        assert response.status_code == 202
        held = response.json()["held"]
        assert admin.get(reverse("scoring:held", args=[table.evening_id])).status_code == 200
        name = "scoring:held-accept" if accept else "scoring:held-discard"
        before = list(Deal.objects.values_list("pk", "record"))
        decided = admin.post(reverse(name, args=[table.evening_id]),
                             {"held": held, "reason": "Fuzz"})
        assert decided.status_code in (302, 422)
        if decided.status_code == 422 or not accept:
            assert list(Deal.objects.values_list("pk", "record")) == before
        audit = admin.get(reverse("scoring:evening-audit", args=[table.evening_id]))
        assert audit.status_code == 200

    check()


def test_the_held_and_forbidden_answers_speak_the_requests_language(table: Table,
                                                                    scorer: Client) -> None:
    evening_close(evening=table.evening, actor=OTHER)
    de = send(scorer, table, op(), lang="de").json()["message"]
    en = send(scorer, table, op(), lang="en").json()["message"]
    assert "Club-Admin" in de and "club admin" in en
    assert send(Client(), table, op(), lang="de").json()["message"] == (
        "Diesen Tisch gibt es nicht.")


# Append while another tablet saves in between: test_sync_races.py (the lock, no retries).


def test_a_conflict_of_a_correction_shows_their_version_of_the_deal_first(
        table: Table, scorer: Client) -> None:
    first = deal_record(table=table, record=WON, expected_version=0, actor=OTHER)
    deal_record(table=table, record={**WON, "declarer": 2}, expected_version=1, actor=OTHER)
    deal_edit(deal=first, record={**WON, "declarer_points": 100}, reason="Tippfehler",
              expected_version=2, actor=OTHER)
    mine = {**WON, "declarer_points": 40}
    response = send(scorer, table, op("edit", deal=first.pk, base_version=1, record=mine))
    answer = response.json()
    assert response.status_code == 409 and answer["op"] == "edit"
    assert [t["deal"] for t in answer["theirs"]] == [first.pk, first.pk + 1]
    assert answer["theirs"][0]["actions"] == ["corrected"]
    assert answer["mine"]["row"]["result"] != answer["theirs"][0]["result"]
    assert Deal.objects.get(pk=first.pk).record["declarer_points"] == 100
    # Refused outright when mine is no deal the engine takes, on a current table.
    bad = send(scorer, table, op("edit", deal=first.pk, base_version=3,
                                 record={**WON, "game": "nope"}))
    assert bad.status_code == 422 and bad.json()["error"]["message"]


def test_the_same_deal_saved_on_two_tablets_is_marked_as_the_same(table: Table,
                                                                   scorer: Client) -> None:
    deal_record(table=table, record=WON, expected_version=0, actor=OTHER)
    answer = send(scorer, table, op()).json()
    assert answer["status"] == "conflict" and answer["same"] and answer["theirs"][0]["same"]


# ---------------------------------------------------------------- keep theirs: "drop"

def drop(dropped: dict[str, Any], version: int = 1, **extra: Any) -> dict[str, Any]:
    """The tablet's "keep theirs" for a queued operation: it is dropped, and said so."""
    return {"op": "drop", "request_id": str(uuid.uuid4()), "base_version": version,
            "dropped": {key: dropped.get(key) for key in ("op", "request_id", "record",
                                                           "deal")},
            "reason": "Schon von Tablet A gespeichert", **extra}


def test_keep_theirs_drops_mine_into_the_audit_log_and_stores_nothing(
        table: Table, scorer: Client) -> None:
    deal_record(table=table, record=WON, expected_version=0, actor=OTHER)
    mine = op(record={**WON, "declarer": 2})
    assert send(scorer, table, mine).status_code == 409
    body = drop(mine)
    response = send(scorer, table, body)
    assert response.status_code == 200
    assert response.json() == {"status": "dropped", "dropped": mine["request_id"],
                               "version": 1}
    entry = AuditEntry.objects.get(action="drop")
    assert entry.after == mine["record"]  # what was dropped
    assert entry.before == {"op": "save", "request_id": mine["request_id"], "deal": None}
    assert entry.actor.startswith("scorer") and entry.user is not None  # who
    assert "Schon von Tablet A gespeichert" in entry.reason and "deal" in entry.reason  # why
    assert (entry.table_id, entry.deal_id, str(entry.request_id)) == (
        table.pk, None, body["request_id"])
    assert Deal.objects.filter(table=table).count() == 1  # no deal stored
    assert Table.objects.get(pk=table.pk).version == 1  # no version changed
    # A repeated request ID answers the same and logs nothing twice.
    again = send(scorer, table, body)
    assert again.status_code == 200 and again.json() == response.json()
    assert AuditEntry.objects.filter(action="drop").count() == 1
    # The conflict and the drop are both in the evening's audit log page.
    audit = scorer.get(reverse("scoring:evening-audit", args=[table.evening_id]))
    assert audit.status_code == 200
    page = audit.content.decode()
    assert 'class="action-drop"' in page and "Schon von Tablet A gespeichert" in page
    assert "Gerät" in page  # the action's German label (the page is in the club's German)
    # Theirs stays the only change another tablet sees since version 0.
    conflict = send(scorer, table, op(record={**WON, "declarer": 0}))
    assert [t["by"] for t in conflict.json()["theirs"]] == ["other tablet"]


def test_a_dropped_correction_names_its_deal(table: Table, scorer: Client) -> None:
    first = deal_record(table=table, record=WON, expected_version=0, actor=OTHER)
    deal_edit(deal=first, record={**WON, "declarer_points": 80}, reason="x",
              expected_version=1, actor=OTHER)
    mine = op("edit", version=1, deal=first.pk, record={**WON, "declarer": 2})
    assert send(scorer, table, mine).status_code == 409
    assert send(scorer, table, drop(mine, version=2)).status_code == 200
    entry = AuditEntry.objects.get(action="drop")
    assert entry.before == {"op": "edit", "request_id": mine["request_id"], "deal": first.pk}
    assert "correction" in entry.reason
    assert Deal.objects.get(pk=first.pk).record["declarer_points"] == 80


def test_a_dropped_deletion_has_no_record_and_the_audit_page_shows_it(
        table: Table, scorer: Client) -> None:
    first = deal_record(table=table, record=WON, expected_version=0, actor=OTHER)
    deal_edit(deal=first, record={**WON, "declarer_points": 80}, reason="x",
              expected_version=1, actor=OTHER)
    mine = op("delete", version=1, deal=first.pk)
    assert send(scorer, table, mine).status_code == 409
    assert send(scorer, table, drop(mine, version=2)).status_code == 200
    entry = AuditEntry.objects.get(action="drop")
    assert entry.after is None and entry.before is not None
    assert entry.before["op"] == "delete"
    audit = scorer.get(reverse("scoring:evening-audit", args=[table.evening_id]))
    assert audit.status_code == 200 and 'class="action-drop"' in audit.content.decode()
    assert not Deal.objects.get(pk=first.pk).deleted


def test_an_operation_that_was_stored_cannot_be_dropped(table: Table,
                                                        scorer: Client) -> None:
    mine = op()
    assert send(scorer, table, mine).status_code == 200
    response = send(scorer, table, drop(mine))
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "dropped"
    assert not AuditEntry.objects.filter(action="drop").exists()
    assert Deal.objects.filter(table=table).count() == 1


def test_a_drop_for_a_closed_evening_is_logged_not_held(table: Table,
                                                        scorer: Client) -> None:
    evening_close(evening=table.evening, actor=OTHER)
    response = send(scorer, table, drop(op(), version=0))
    assert response.status_code == 200 and response.json()["status"] == "dropped"
    assert AuditEntry.objects.filter(action="drop").count() == 1
    assert not HeldOperation.objects.exists()


@pytest.mark.parametrize("spoil", [
    {"dropped": None}, {"dropped": {"op": "nope"}}, {"dropped": "save"},
    {"dropped": {"op": "save", "request_id": "not-a-uuid"}},
    {"dropped": {"op": "save", "request_id": str(uuid.uuid4()), "record": [1]}},
    {"dropped": {"op": "edit", "request_id": str(uuid.uuid4()), "deal": True}},
    {"reason": 5}, {"reason": "x" * 501}, {"base_version": -1}, {"request_id": 7},
])
def test_malformed_drops_are_refused_and_log_nothing(table: Table, scorer: Client,
                                                     spoil: dict[str, Any]) -> None:
    response = send(scorer, table, {**drop(op()), **spoil})
    assert response.status_code == 422 and response.json()["status"] == "refused"
    assert not AuditEntry.objects.exists()


def test_a_stranger_cannot_drop(table: Table) -> None:
    response = send(Client(), table, drop(op()))
    assert response.status_code == 404 and response.json()["status"] == "forbidden"
    assert not AuditEntry.objects.exists()
