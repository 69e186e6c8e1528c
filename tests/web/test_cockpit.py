"""The director's cockpit (issue 24, item 5): per table of the running series the games played
of 36/48, the minutes since the last deal (a frozen clock), signed or not, the start numbers;
the folded counts that filter and the orders; the series clock (started by the director, its
time limit per tournament); the message to every table screen, which the table's version poll
carries (a table code sees it, and nothing of the cockpit); who may do what; constant
queries."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.engine import generate_deals
from scoring.models import Deal, Table, Tournament, TournamentSeries
from scoring.reads import cockpit as reads
from scoring.views import board
from scoring.writes import cockpit as cw
from scoring.writes import tournament as tw
from scoring.writes.services import Actor, deal_record
from scoring.writes.signing import sign

from .factories import make_club, make_table, make_user
from .test_sheet_pages import grant_code
from .tournaments import make_tournament

pytestmark = pytest.mark.django_db

NOW = timezone.make_aware(datetime.datetime(2026, 11, 28, 15, 0))
COCKPIT_QUERIES = 12  # the page's bound: the same at 13 and at 1,001 players


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()
    board._local.clear()
    board._newest.clear()


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> datetime.datetime:
    """The cockpit's clock stands at NOW."""
    monkeypatch.setattr(reads, "now", lambda: NOW)
    return NOW


def record(table: Table, count: int, *, seed: int = 5) -> None:
    """``count`` deals at ``table`` through the services."""
    seats = table.seats.count()
    for item in generate_deals(count, seats, first_dealer=table.first_dealer, seed=seed):
        fresh = Table.objects.get(pk=table.pk)
        deal_record(table=fresh, record=item, expected_version=fresh.version,
                    actor=Actor(None, "test"))


def sign_all(table: Table) -> None:
    for seat in table.seats.all():
        sign(table=Table.objects.select_related("evening__club").get(pk=table.pk),
             player_id=seat.player_id, actor=Actor(None, "test"))


def deals_at(table: Table, minutes_ago: int) -> None:
    """Every deal of ``table`` recorded ``minutes_ago`` minutes before NOW."""
    Deal.objects.filter(table=table).update(created=NOW - datetime.timedelta(
        minutes=minutes_ago))


class Day:
    """A Preisskat of 13 (one 4-table, three 3-tables), 12 rounds a series (48 and 36
    games), series 1 drawn and started 40 minutes before NOW: the 4-table played and signed,
    a 3-table finished but not signed, one with 5 games (the last 25 minutes ago), one
    without a game."""

    def __init__(self) -> None:
        self.tournament = make_tournament(make_club(), players=13, rounds=12)
        tw.series_draw(tournament=self.tournament, seed=1)
        TournamentSeries.objects.filter(tournament=self.tournament, number=1).update(
            started=NOW - datetime.timedelta(minutes=40))
        tables = list(Table.objects.filter(evening=self.tournament.evening).order_by(
            "number"))
        four = [t for t in tables if t.seats.count() == 4]
        three = [t for t in tables if t.seats.count() == 3]
        assert len(four) == 1 and len(three) == 3
        self.signed, (self.finished, self.slow, self.idle) = four[0], three
        record(self.signed, 48)
        sign_all(self.signed)
        deals_at(self.signed, 3)
        record(self.finished, 36)
        deals_at(self.finished, 2)
        record(self.slow, 5)
        deals_at(self.slow, 25)
        numbers = dict(self.tournament.entrants.values_list("player_id", "number"))
        self.numbers = {t.pk: [numbers[s.player_id] for s in t.seats.order_by("position")]
                        for t in tables}

    @property
    def url(self) -> str:
        return reverse("scoring:tournament-cockpit", args=[self.tournament.pk])

    def admin(self, client: Client) -> Client:
        client.force_login(make_user(self.tournament.club, "admin"))
        return client


@pytest.fixture
def day(frozen: datetime.datetime) -> Day:
    return Day()


def rows(html: str) -> dict[int, str]:
    """The cockpit's table rows by table number, as text."""
    found = {}
    for number, body in re.findall(
            r'<tr id="cockpit-table-(\d+)"[^>]*>(.*?)</tr>', html, re.S):
        found[int(number)] = " ".join(re.sub(r"<[^>]+>", " ", body).split())
    return found


def test_each_table_with_its_games_minutes_state_and_start_numbers(
        client: Client, day: Day) -> None:
    html = day.admin(client).get(day.url).content.decode()
    shown = rows(html)
    assert sorted(shown) == [1, 2, 3, 4]
    numbers = {pk: " · ".join(map(str, n)) for pk, n in day.numbers.items()}
    assert shown[day.signed.number] == (
        f"{day.signed.number} 100 % 48/48 – unterschrieben {numbers[day.signed.pk]}")
    assert shown[day.finished.number] == (
        f"{day.finished.number} 100 % 36/36 – fertig, nicht unterschrieben "
        f"{numbers[day.finished.pk]}")
    assert shown[day.slow.number] == (
        f"{day.slow.number} 14 % 5/36 vor 25 min spielt {numbers[day.slow.pk]}")
    # no game yet: the minutes since the series' start
    assert shown[day.idle.number] == (
        f"{day.idle.number} 0 % 0/36 seit 40 min kein Spiel spielt {numbers[day.idle.pk]}")
    assert 'class="state-playing slow"' in html  # 25 and 40 minutes: both slow
    # the folded counts on top
    counts = dict((key, int(n)) for n, key in re.findall(
        r'<strong>(\d+)</strong> ([^<]+)</a>', html))
    assert counts == {"alle Tische": 4, "seit 10 min oder länger kein Spiel": 2,
                      "nicht fertig": 2, "fertig, nicht unterschrieben": 1,
                      "unterschrieben": 1}
    assert "Serie 1: 4 Tische" in html and "89 von 156 Spielen gespielt" in html
    assert "1 Tisch ohne Spiel" in html


def test_filters_and_orders(client: Client, day: Day) -> None:
    day.admin(client)
    slow = rows(client.get(day.url + "?show=slow&sort=idle").content.decode())
    assert list(slow) == [day.idle.number, day.slow.number]  # 40 min, then 25 min
    assert list(rows(client.get(day.url + "?show=unsigned").content.decode())) == [
        day.finished.number]
    assert list(rows(client.get(day.url + "?show=signed").content.decode())) == [
        day.signed.number]
    fewest = rows(client.get(day.url + "?sort=played").content.decode())
    assert list(fewest) == [day.idle.number, day.slow.number, day.finished.number,
                            day.signed.number]
    # the polled part keeps the view it was asked for
    live = reverse("scoring:tournament-cockpit-live", args=[day.tournament.pk])
    part = client.get(live + "?series=1&show=open&sort=idle").content.decode()
    assert list(rows(part)) == [day.idle.number, day.slow.number]
    assert 'hx-trigger="every 15s"' in part and "show=open" in part
    # bad input: the whole list, never a 500
    for bad in ("?show=x&sort=y", "?series=abc", "?series=9", "?series=" + "9" * 50):
        assert sorted(rows(client.get(day.url + bad).content.decode())) == [1, 2, 3, 4], bad


def test_the_series_clock_runs_from_the_directors_start(client: Client,
                                                       frozen: datetime.datetime) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    url = reverse("scoring:tournament-cockpit", args=[t.pk])
    client.force_login(make_user(t.club, "admin"))
    page = client.get(url).content.decode()
    assert "noch nicht gestartet" in page and "Serie 1 starten" in page
    start = reverse("scoring:tournament-cockpit-start", args=[t.pk])
    assert client.post(start, {"series": "1"}).status_code == 302
    draw = t.draws.get(number=1)
    assert draw.started == NOW
    page = client.get(url).content.decode()
    assert "Zeitlimit 120 min" in page and "noch 2:00:00" in page
    assert f'data-ends="{int((NOW + datetime.timedelta(minutes=120)).timestamp() * 1000)}"' \
        in page
    # a second start changes nothing
    client.post(start, {"series": "1"})
    assert t.draws.get(number=1).started == NOW
    assert "Serie 1 wurde schon gestartet." in client.get(url).content.decode()
    # the time limit, later: 90 minutes, 30 of them gone
    clock = reverse("scoring:tournament-cockpit-clock", args=[t.pk])
    assert client.post(clock, {"minutes": "90"}).status_code == 302
    TournamentSeries.objects.filter(pk=draw.pk).update(
        started=NOW - datetime.timedelta(minutes=30))
    assert "noch 1:00:00" in client.get(url).content.decode()
    TournamentSeries.objects.filter(pk=draw.pk).update(
        started=NOW - datetime.timedelta(minutes=95))
    page = client.get(url).content.decode()
    assert "0:05:00 über der Zeit" in page and "series-clock over" in page
    # bad input: a clear message, nothing changed
    for bad in ("5", "601", "abc", ""):
        client.post(clock, {"minutes": bad})
        assert Tournament.objects.get(pk=t.pk).series_minutes == 90, bad
    for bad in ("2", "x", "999"):
        client.post(start, {"series": bad})
    assert "Serie 2 ist noch nicht ausgelost." in client.get(url).content.decode()
    assert not t.draws.exclude(number=1).exists()


def test_a_message_reaches_every_table_of_the_tournament_and_no_other(
        client: Client, frozen: datetime.datetime) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    tables = list(Table.objects.filter(evening=t.evening))
    client.force_login(make_user(t.club, "admin"))
    message = reverse("scoring:tournament-cockpit-message", args=[t.pk])
    assert client.post(message, {"text": "  Serie 2 beginnt\num 15:30 ",
                                 "action": "send"}).status_code == 302
    t.refresh_from_db()
    assert (t.notice, t.notice_at) == ("Serie 2 beginnt um 15:30", NOW)
    devices = []
    for table in tables:  # each tablet holds its table's code, nobody signed in
        device = Client()
        grant_code(device, table)
        answer = device.get(reverse("scoring:table-version", args=[table.pk])).json()
        assert answer["tournament"]["notice"] == "Serie 2 beginnt um 15:30"
        assert answer["tournament"]["notice_at"] == timezone.localtime(NOW).strftime("%H:%M")
        assert answer["tournament"]["ends"] is None  # not started
        devices.append(device)
    # a table of no tournament answers as before
    other = make_table(t.club)
    assert client.get(reverse("scoring:table-version", args=[other.pk])).json() == {
        "version": 0}
    # a table code opens nothing of the cockpit
    for url in cockpit_urls(t).values():
        assert devices[0].get(url).status_code in (302, 404), url
    for url in cockpit_posts(t).values():
        assert devices[0].post(url, {"text": "x", "minutes": "30",
                                     "series": "1"}).status_code in (302, 404), url
    # a new message replaces the old; clearing leaves none
    client.post(message, {"text": "Bitte Listen unterschreiben", "action": "send"})
    version = reverse("scoring:table-version", args=[tables[0].pk])
    assert devices[0].get(version).json()["tournament"]["notice"] == \
        "Bitte Listen unterschreiben"
    client.post(message, {"action": "clear"})
    assert devices[0].get(version).json()["tournament"]["notice"] == ""
    # bad input: a clear message, nothing sent
    client.post(message, {"text": "Neu", "action": "send"})
    for bad in ("", "   ", "x" * 201):
        client.post(message, {"text": bad, "action": "send"})
        assert Tournament.objects.get(pk=t.pk).notice == "Neu", bad
    page = client.get(reverse("scoring:tournament-cockpit", args=[t.pk])).content.decode()
    assert "Höchstens 200 Zeichen" in page or "höchstens 200 Zeichen" in page


@pytest.mark.usefixtures("in_english")
@pytest.mark.parametrize("text", ["Serie 2 \u202eum 15:30", "Pause\u200b!", "Ende\x07",
                                  "\u2066Serie 3\u2069"])
def test_a_message_with_control_or_bidi_characters_is_refused(client: Client,
                                                              text: str) -> None:
    """Issue 36: the cockpit message kept control and bidi characters (a U+202E turns the
    rest of the line around on every table screen). Refused with the code points, nothing
    sent; the message before stays."""
    t = make_tournament(make_club())
    client.force_login(make_user(t.club, "admin"))
    message = reverse("scoring:tournament-cockpit-message", args=[t.pk])
    assert client.post(message, {"text": "Neu", "action": "send"}).status_code == 302
    response = client.post(message, {"text": text, "action": "send"}, follow=True)
    assert Tournament.objects.get(pk=t.pk).notice == "Neu"
    page = response.content.decode()
    assert "The message may not contain invisible or control characters" in page, page
    assert any(f"U+{ord(ch):04X}" in page for ch in text if not ch.isprintable())
    with pytest.raises(ValidationError):
        cw.notice_send(tournament=t, text=text)


def test_the_poll_carries_the_clock_and_changes_its_etag_only_with_the_line(
        client: Client, frozen: datetime.datetime,
        django_assert_max_num_queries: Any) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    table = Table.objects.filter(evening=t.evening).first()
    assert table is not None
    device = Client()
    grant_code(device, table)
    url = reverse("scoring:table-version", args=[table.pk])
    first = device.get(url)
    etag = first["ETag"]
    assert device.get(url, headers={"If-None-Match": etag}).status_code == 304
    with django_assert_max_num_queries(1):  # still one query for a table code
        assert device.get(url, headers={"If-None-Match": etag}).status_code == 304
    admin = make_user(t.club, "admin")
    client.force_login(admin)
    client.post(reverse("scoring:tournament-cockpit-start", args=[t.pk]), {"series": "1"})
    started = device.get(url, headers={"If-None-Match": etag})
    assert started.status_code == 200 and started["ETag"] != etag
    line = started.json()["tournament"]
    assert line["series"] == 1 and line["now"] == int(NOW.timestamp() * 1000)
    assert line["ends"] == int((NOW + datetime.timedelta(minutes=120)).timestamp() * 1000)
    etag = started["ETag"]
    client.post(reverse("scoring:tournament-cockpit-message", args=[t.pk]),
                {"text": "Pause bis 13 Uhr", "action": "send"})
    sent = device.get(url, headers={"If-None-Match": etag})
    assert sent.status_code == 200 and sent.json()["tournament"]["notice"] == \
        "Pause bis 13 Uhr"
    client.force_login(make_user(t.club, "scorer"))
    with django_assert_max_num_queries(2):  # signed in: the user, the table with the role
        assert client.get(url).json()["tournament"]["notice"] == "Pause bis 13 Uhr"


def cockpit_urls(t: Tournament) -> dict[str, str]:
    return {
        "page": reverse("scoring:tournament-cockpit", args=[t.pk]),
        "live": reverse("scoring:tournament-cockpit-live", args=[t.pk]),
    }


def cockpit_posts(t: Tournament) -> dict[str, str]:
    return {name: reverse(f"scoring:tournament-cockpit-{name}", args=[t.pk])
            for name in ("start", "clock", "message")}


def _changes_nothing(t: Tournament) -> None:
    fresh = Tournament.objects.get(pk=t.pk)
    assert (fresh.notice, fresh.series_minutes) == ("", 120)
    assert not t.draws.filter(started__isnull=False).exists()


POSTED = {"text": "Hallo", "minutes": "30", "series": "1", "action": "send"}


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_members_who_are_not_admins_get_403(client: Client, role: str) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    client.force_login(make_user(t.club, role))
    for name, url in cockpit_urls(t).items():
        assert client.get(url).status_code == 403, name
    for name, url in cockpit_posts(t).items():
        assert client.post(url, POSTED).status_code == 403, name
    _changes_nothing(t)


def test_another_clubs_admin_and_anonymous_visitors_see_nothing(client: Client) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    for name, url in {**cockpit_urls(t), **cockpit_posts(t)}.items():
        response = client.get(url) if name in ("page", "live") else client.post(url, POSTED)
        assert response.status_code == 302, name
        assert response["Location"].startswith(reverse("login")), name
    client.force_login(make_user(make_club("zwickau", "Skatclub Zwickau"), "admin"))
    for name, url in cockpit_urls(t).items():
        assert client.get(url).status_code == 404, name
    for name, url in cockpit_posts(t).items():
        assert client.post(url, POSTED).status_code == 404, name
    assert client.get(reverse("scoring:tournament-cockpit", args=[99999])).status_code == 404
    _changes_nothing(t)


def test_the_organiser_reaches_it_from_the_desk(client: Client) -> None:
    t = make_tournament(make_club())
    client.force_login(make_user(t.club, "admin"))
    desk = reverse("scoring:tournament", args=[t.pk])
    url = reverse("scoring:tournament-cockpit", args=[t.pk])
    assert url not in client.get(desk).content.decode()  # nothing drawn: no cockpit yet
    page = client.get(url).content.decode()
    assert "Noch keine Serie ist ausgelost." in page
    tw.series_draw(tournament=t, seed=1)
    assert f'href="{url}"' in client.get(desk).content.decode()
    assert client.get(url).status_code == 200
    for method in ("post", "put"):
        assert getattr(client, method)(url).status_code == 405
    assert client.get(cockpit_posts(t)["start"]).status_code == 405


def test_the_cockpit_reads_in_constant_queries(client: Client, day: Day,
                                               django_assert_max_num_queries: Any) -> None:
    client = day.admin(client)
    client.get(day.url)
    with django_assert_max_num_queries(COCKPIT_QUERIES):
        assert client.get(day.url).status_code == 200
    live = reverse("scoring:tournament-cockpit-live", args=[day.tournament.pk])
    with django_assert_max_num_queries(COCKPIT_QUERIES):
        assert client.get(live).status_code == 200


def test_a_table_that_played_its_series_shows_no_clock(client: Client, day: Day) -> None:
    """The line's clock is for the tables still playing (table-line.js reads data-finished);
    the message reaches every table alike."""
    client = day.admin(client)

    def line(table: Table) -> str:
        html = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
        found = re.search(r'<p id="tournament-line"[^>]*>', html)
        assert found is not None
        return found.group(0)

    assert "data-finished" in line(day.finished) and "data-finished" in line(day.signed)
    assert "data-finished" not in line(day.slow)
    # never the message itself in the page (a screen kept for offline use shows none)
    client.post(reverse("scoring:tournament-cockpit-message", args=[day.tournament.pk]),
                {"text": "Serie 2 beginnt um 15:30", "action": "send"})
    assert "Serie 2 beginnt" not in client.get(
        reverse("scoring:table", args=[day.slow.pk])).content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_directors_starting_at_once_start_the_series_once() -> None:
    """Both taps pass the "not started yet" check before either writes (the gate holds them
    there); the write itself is conditional, so one starts the clock and the other is told."""
    import threading
    from contextlib import suppress

    from django.core.exceptions import ValidationError
    from django.db import connections

    from scoring.writes import cockpit as cw

    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    gate = threading.Barrier(2, timeout=10)
    times = iter([NOW, NOW + datetime.timedelta(seconds=1)])
    lock = threading.Lock()

    def gated_now() -> datetime.datetime:
        with suppress(threading.BrokenBarrierError):
            gate.wait()
        with lock:
            return next(times)

    outcomes: list[str] = []
    errors: list[BaseException] = []

    def tap() -> None:
        try:
            cw.series_start(tournament=Tournament.objects.get(pk=t.pk), series=1)
            outcomes.append("started")
        except ValidationError as err:
            outcomes.append(err.messages[0])
        except BaseException as err:  # noqa: BLE001 — reported by the test thread
            errors.append(err)
        finally:
            connections.close_all()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reads, "now", gated_now)
        threads = [threading.Thread(target=tap) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert not errors, errors
    assert sorted(outcomes) == ["Series 1 has already been started.", "started"] or \
        sorted(outcomes) == ["Serie 1 wurde schon gestartet.", "started"], outcomes
    started = t.draws.get(number=1).started
    assert started in (NOW, NOW + datetime.timedelta(seconds=1))
