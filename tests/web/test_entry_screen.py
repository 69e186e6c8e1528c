"""The table screen: who sees what, saving, retries, stale tables, the live preview."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import AuditEntry, Club, Deal, Table
from scoring.writes.services import Actor, deal_record

from .factories import make_club, make_table, make_user

pytestmark = pytest.mark.django_db


def standard_game(table: Table, **extra: Any) -> dict[str, Any]:
    """Forehand (seat 1 at a fresh 4-table) plays Clubs with 1, bid 18, won."""
    return {"version": str(table.version), "request_id": str(uuid.uuid4()), "kind": "game",
            "declarer": "1", "game": "clubs", "matadors": "1", "bid": "18", "result": "won",
            **extra}


def url(name: str, table: Table, *args: int) -> str:
    return reverse(f"scoring:{name}", args=[table.pk, *args])


def test_scorer_sees_the_form_with_seats_and_status(scorer: Client, table: Table) -> None:
    response = scorer.get(url("table", table))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="deal-form"' in html
    assert 'data-tap="declarer-1"' in html and 'data-tap="declarer-0"' not in html  # dealer out
    for tap in ("game-clubs", "matadors-1", "bid-18", "result-won", "save"):
        assert f'data-tap="{tap}"' in html
    assert "Anna Altenburg" in html  # the dealer's name
    assert "Vorhand" in html and "Geber" in html or "Forehand" in html
    assert f'name="version" value="{table.version}"' in html
    assert 'name="request_id"' in html


def test_viewer_reads_but_cannot_write(client: Client, club: Club, table: Table) -> None:
    client.force_login(make_user(club, "viewer"))
    response = client.get(url("table", table))
    assert response.status_code == 200
    assert 'id="deal-form"' not in response.content.decode()
    assert client.post(url("deal-save", table), standard_game(table)).status_code == 403
    assert client.post(url("deal-preview", table), standard_game(table)).status_code == 403
    assert Deal.objects.count() == 0


def test_anonymous_gets_404(client: Client, table: Table) -> None:
    assert client.get(url("table", table)).status_code == 404
    assert client.post(url("deal-save", table), standard_game(table)).status_code == 404
    assert Deal.objects.count() == 0


def test_member_of_another_club_gets_404(client: Client, table: Table) -> None:
    other = make_club("borna", "Skatclub Borna")
    client.force_login(make_user(other, "admin"))
    assert client.get(url("table", table)).status_code == 404


def test_a_device_with_the_table_code_may_record(client: Client, table: Table) -> None:
    session = client.session
    session["table_grants"] = {str(table.pk): table.access_code}
    session.save()
    assert client.get(url("table", table)).status_code == 200
    response = client.post(url("deal-save", table), standard_game(table))
    assert response.status_code == 302
    assert Deal.objects.count() == 1


def test_saving_a_standard_game_redirects_and_updates_the_sheet(scorer: Client,
                                                                 table: Table) -> None:
    response = scorer.post(url("deal-save", table), standard_game(table))
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert response["Location"] == f"{url('table', table)}?saved={deal.pk}"
    assert deal.record == {"kind": "game", "declarer": 1, "game": "clubs", "hand": False,
                           "ouvert": False, "schneider_announced": False,
                           "schwarz_announced": False, "matadors": 1, "bid": 18,
                           "result": "won"}
    html = scorer.get(response["Location"]).content.decode()
    assert "+24" in html  # with 1, game 2 × Clubs 12
    table.refresh_from_db()
    assert table.version == 1
    assert AuditEntry.objects.get().action == "create"


def test_a_retried_post_saves_once(scorer: Client, table: Table) -> None:
    data = standard_game(table)
    first = scorer.post(url("deal-save", table), data)
    again = scorer.post(url("deal-save", table), data)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert Deal.objects.count() == 1


def test_a_stale_version_is_refused_with_the_current_state(scorer: Client,
                                                            table: Table) -> None:
    shown = standard_game(table)  # this tablet shows version 0 …
    deal_record(table=table, record={"kind": "passed"}, expected_version=0,
                actor=Actor(None, "other tablet"))  # … another device saves first
    response = scorer.post(url("deal-save", table), shown)
    assert response.status_code == 409
    html = response.content.decode()
    # The conflict panel says it (the old notice no longer stands above it as well).
    assert 'id="conflict"' in html and "Ein anderes Gerät hat zuerst gespeichert" in html
    assert "notice-stale" not in html
    assert Deal.objects.count() == 1
    assert f'name="version" value="{Table.objects.get().version}"' in html


def test_preview_explains_in_german_and_english(scorer: Client, table: Table) -> None:
    data = standard_game(table, result="", declarer_points="46", hand="on", bid="46")
    german = scorer.post(url("deal-preview", table), data).content.decode()
    assert "mit 1, Spiel 2, Hand 3 × Kreuz 12 = 36 &lt; Reizwert 46 → überreizt: 48 × 2 = −96" \
        in german
    english = scorer.post(url("deal-preview", table), data,
                          headers={"accept-language": "en"}).content.decode()
    assert "with 1, game 2, hand 3 × Clubs 12 = 36 &lt; bid 46 → overbid: 48 × 2 = −96" \
        in english
    assert Deal.objects.count() == 0


def test_preview_shows_the_engine_refusal(scorer: Client, table: Table) -> None:
    html = scorer.post(url("deal-preview", table),
                       standard_game(table, game="null", matadors="", bid="24")).content.decode()
    assert "Null (23) reicht nicht für den Reizwert 24" in html  # the page is German
    assert 'data-valid="false"' in html


def test_an_engine_refusal_on_save_is_shown_next_to_the_field(scorer: Client,
                                                               table: Table) -> None:
    response = scorer.post(url("deal-save", table), standard_game(table, bid="19"))
    assert response.status_code == 422
    html = response.content.decode()
    assert "19 kann nach der Internationalen Skatordnung nicht gereizt werden" in html
    assert 'value="clubs" checked' in html  # the entry is kept
    assert Deal.objects.count() == 0


@pytest.mark.parametrize("kind", ["passed", "misdeal"])
def test_one_tap_records(scorer: Client, table: Table, kind: str) -> None:
    response = scorer.post(url("deal-save", table), {
        "version": "0", "request_id": str(uuid.uuid4()), "kind": kind})
    assert response.status_code == 302
    assert Deal.objects.get().record == {"kind": kind}


def test_ramsch_and_penalty_records(scorer: Client, table: Table) -> None:
    response = scorer.post(url("deal-save", table), {
        "version": "0", "request_id": str(uuid.uuid4()), "kind": "ramsch",
        "ramsch_points_1": "50", "ramsch_points_2": "40", "ramsch_points_3": "30",
        "ramsch_tricks_1": "4", "ramsch_tricks_2": "4", "ramsch_tricks_3": "2"})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Deal.objects.get().record == {"kind": "ramsch", "ramsch": {
        "points": {"1": 50, "2": 40, "3": 30}, "tricks": {"1": 4, "2": 4, "3": 2}}}
    response = scorer.post(url("deal-save", table), {
        "version": "1", "request_id": str(uuid.uuid4()), "kind": "penalty",
        "penalty_seat": "2", "penalty_points": "10"})
    assert response.status_code == 302
    last = Deal.objects.last()
    assert last is not None, "the penalty was saved"
    assert last.record == {"kind": "penalty", "penalty": {"seat": 2, "points": 10}}


@pytest.mark.parametrize(("preset", "game", "absent"), [
    ("american1898", "solo_clubs", 'name="hand"'),
    ("hoyle", "tourne_hearts", 'value="frage_clubs"'),  # Frage is off in Hoyle
])
def test_historical_systems_list_their_games(client: Client, preset: str, game: str,
                                             absent: str) -> None:
    table = make_table(make_club(), preset=preset)
    client.force_login(make_user(table.evening.club, "scorer"))
    html = client.get(url("table", table)).content.decode()
    assert f'data-tap="game-{game}"' in html
    assert absent not in html
    response = client.post(url("deal-save", table), standard_game(table, game=game, bid="24"))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Deal.objects.get().record["game"] == game


def test_hoyle_offers_passt_mir_nicht_and_1898_offers_contra(client: Client) -> None:
    club = make_club()
    client.force_login(make_user(club, "scorer"))
    hoyle = client.get(url("table", make_table(club, preset="hoyle"))).content.decode()
    assert 'name="passt_mir_nicht"' in hoyle and 'name="kontra"' not in hoyle
    am98 = client.get(url("table", make_table(club, preset="american1898"))).content.decode()
    assert 'name="kontra"' in am98 and 'name="passt_mir_nicht"' not in am98


def test_bock_and_ramsch_round_are_shown(scorer: Client, table: Table) -> None:
    def save(record: dict[str, Any], version: int) -> None:
        deal_record(table=table, record=record, expected_version=version, actor=Actor(None, "t"))

    def status() -> str:
        html = scorer.get(url("table", table), headers={"accept-language": "en"})
        return html.content.decode().split('class="status-head"')[1].split("</div>")[0]

    def badges() -> str:
        return status().split('class="badges"')[1].split("</p>")[0]

    assert "Round 1 · deal 1 of 4" in status()
    save({"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
          "result": "sixty"}, 0)  # 60:60 triggers a Bock round (club evening preset)
    assert "Bock 1 of 4" in badges() and "Round 1 · deal 2 of 4" in status()
    save({"kind": "passed"}, 1)  # the first Bock deal
    assert "Bock 2 of 4" in badges()
    for version in range(2, 5):
        save({"kind": "passed"}, version)
    assert "Ramsch round 1/4" in badges()  # ramsch_round_after: 1
    assert "Round 2 · deal 2 of 4" in status()


def test_a_ramsch_round_opens_the_form_on_ramsch(scorer: Client, table: Table) -> None:
    def checked_kind() -> str:
        html = scorer.get(url("table", table)).content.decode()
        match = re.search(r'name="kind" value="(\w+)" checked', html)
        assert match is not None
        return match.group(1)

    assert checked_kind() == "game"
    deal_record(table=table, expected_version=0, actor=Actor(None, "t"),
                record={"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1,
                        "bid": 18, "result": "sixty"})  # Bock round, then a Ramsch round
    for version in range(1, 5):
        deal_record(table=table, record={"kind": "passed"}, expected_version=version,
                    actor=Actor(None, "t"))
    assert checked_kind() == "ramsch"
