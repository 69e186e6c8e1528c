"""Every PDF is rendered once per change of what it prints, for all who ask at once, and only
so many render at once (scoring/pdf/documents.py): the season table, which any member may
ask for, was never cached, and 20 viewers asking for it made a tablet's deal save take 5.6 s.
Renders are counted by replacing WeasyPrint with a fake that answers at once."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from scoring.models import Club, Season, Table
from scoring.pdf import documents, weasy

from .factories import login, make_club
from .seasons import game, make_evening, make_season, play, player, seat_and_play

pytestmark = pytest.mark.django_db


def hand_made() -> tuple[Club, Season]:
    """A classic season of two evenings at a 3-table."""
    club = make_club()
    a, b, c, d = (player(club, n) for n in ("Anna", "Bert", "Cäcilie", "Dörte"))
    season = make_season(club, "classic", best_of=1, min_evenings=1)
    seat_and_play(make_evening(season, 1), [a, b, c], {0: [(1, True)], 1: [(3, True)]})
    seat_and_play(make_evening(season, 8), [a, b, d], {0: [(5, True)], 2: [(1, False)]})
    return club, season


class Renders:
    """A stand-in for WeasyPrint that counts its renders; ``pause`` makes each take a while."""

    def __init__(self) -> None:
        self.count = 0
        self.pause = 0.0
        self.lock = threading.Lock()

    def __call__(self, html: str, **options: Any) -> weasy.Rendered:
        with self.lock:
            self.count += 1
        if self.pause:
            time.sleep(self.pause)
        digest = hashlib.sha256(html.encode()).hexdigest()
        return weasy.Rendered(pdf=f"%PDF-1.7 fake {digest}".encode(), pages=1, layout_s=0.0,
                              write_s=0.0)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[Renders]:
    fake = Renders()
    monkeypatch.setattr(weasy, "render", fake)
    yield fake


def season_pdf(client: Client, season: Season, lang: str = "en") -> Any:
    return client.get(reverse("scoring:season-pdf", args=[season.pk]),
                      headers={"accept-language": lang})


def test_a_standings_pdf_is_rendered_once_per_change(client: Client, renders: Renders) -> None:
    club, season = hand_made()
    login(client, club)
    answers = [season_pdf(client, season) for _ in range(5)]
    assert renders.count == 1
    assert {a.status_code for a in answers} == {200}
    assert [a["X-PDF-Cache"] for a in answers] == ["miss"] + ["hit"] * 4
    assert len({a.content for a in answers}) == 1
    assert answers[0]["Content-Type"] == "application/pdf"
    # a new deal changes what it prints: one more render, then the cache again
    table = Table.objects.filter(evening__season=season).order_by("pk").last()
    assert table is not None
    play(table, game(0))
    again = [season_pdf(client, season) for _ in range(5)]
    assert renders.count == 2
    assert again[0].content != answers[0].content
    assert [a["X-PDF-Cache"] for a in again] == ["miss"] + ["hit"] * 4
    # the other language is another document
    season_pdf(client, season, "de")
    assert renders.count == 3


def test_a_changed_season_setting_or_name_renders_again(client: Client,
                                                        renders: Renders) -> None:
    club, season = hand_made()
    login(client, club)
    season_pdf(client, season)
    season.min_evenings = 2
    season.save()
    season_pdf(client, season)
    assert renders.count == 2
    player = season.club.players.order_by("pk").first()
    assert player is not None
    player.name = "Umbenannt"
    player.save()
    season_pdf(client, season)
    season_pdf(client, season)
    assert renders.count == 3


def test_the_browser_revalidates_the_standings_pdf(client: Client, renders: Renders) -> None:
    club, season = hand_made()
    login(client, club)
    first = season_pdf(client, season)
    again = client.get(reverse("scoring:season-pdf", args=[season.pk]),
                       headers={"accept-language": "en", "if-none-match": first["ETag"]})
    assert again.status_code == 304
    assert renders.count == 1


def fake_document(text: str = "twenty-at-once") -> documents.Document:
    return documents.Document("test", f"skatclub-pdf:test:{text}", "test.pdf",
                              lambda: f"<title>{text}</title>")


@pytest.mark.usefixtures("threads_share_the_cache")
def test_twenty_requests_at_once_render_once(renders: Renders, settings: Settings) -> None:
    settings.PDF_WAIT_SECONDS = 5  # they wait for the one render (gunicorn with --threads)
    renders.pause = 0.2  # long enough for the other 19 to arrive while it renders
    document = fake_document()
    start = threading.Barrier(20)
    results: list[tuple[bytes, bool]] = []
    failures: list[BaseException] = []

    def ask() -> None:
        start.wait()
        try:
            results.append(documents.get_pdf(document))
        except BaseException as error:  # noqa: BLE001 (reported below)
            failures.append(error)

    threads = [threading.Thread(target=ask) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    assert renders.count == 1
    assert len(results) == 20 and len({pdf for pdf, _cached in results}) == 1
    assert sorted(cached for _pdf, cached in results) == [False] + [True] * 19


@pytest.mark.usefixtures("threads_share_the_cache")
def test_without_a_wait_the_others_are_told_to_come_back(renders: Renders,
                                                         settings: Settings) -> None:
    """Sync workers (make serve): nobody waits, one renders, the others get PdfBusy (503)."""
    settings.PDF_WAIT_SECONDS = 0
    renders.pause = 0.2
    document = fake_document("no-wait")
    start = threading.Barrier(20)
    answers: list[str] = []

    def ask() -> None:
        start.wait()
        try:
            documents.get_pdf(document)
            answers.append("pdf")
        except documents.PdfBusy:
            answers.append("busy")

    threads = [threading.Thread(target=ask) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert renders.count == 1
    assert "pdf" in answers and len(answers) == 20
    assert documents.get_pdf(document)[1] is True  # and then it is there for everyone
    assert renders.count == 1


def test_beyond_the_bound_a_pdf_request_gets_503_with_retry_after(
        client: Client, renders: Renders, settings: Settings) -> None:
    settings.PDF_RENDERS_AT_ONCE = 1
    settings.PDF_WAIT_SECONDS = 0
    club, season = hand_made()
    login(client, club)
    with documents.render_slot(time.monotonic()):  # another render holds the one slot
        busy = season_pdf(client, season)
    assert busy.status_code == 503
    assert int(busy["Retry-After"]) >= 1
    html = busy.content.decode()
    assert "Many documents are being printed just now" in html
    # the page asks again by itself after the wait
    assert f'<meta http-equiv="refresh" content="{busy["Retry-After"]}">' in html
    assert renders.count == 0
    # the slot is free again: rendered now
    assert season_pdf(client, season).status_code == 200
    assert renders.count == 1


def test_the_bound_holds_for_every_pdf(client: Client, renders: Renders,
                                       settings: Settings) -> None:
    settings.PDF_RENDERS_AT_ONCE = 2
    settings.PDF_WAIT_SECONDS = 0
    club, season = hand_made()
    login(client, club)
    evening = season.evenings.order_by("date").first()
    assert evening is not None
    table = evening.tables.order_by("number").first()
    assert table is not None
    urls = [reverse("scoring:sheet-pdf", args=[table.pk]),
            reverse("scoring:settlement-pdf", args=[evening.pk]),
            reverse("scoring:summary-pdf", args=[evening.pk])]
    with documents.render_slot(time.monotonic()), documents.render_slot(time.monotonic()):
        with pytest.raises(documents.PdfBusy), documents.render_slot(time.monotonic()):
            pass  # a third slot there is not
        for url in urls:
            response = client.get(url)
            assert response.status_code == 503 and response["Retry-After"]
    assert renders.count == 0
    assert {client.get(url).status_code for url in urls} == {200}
    assert renders.count == 3


@contextmanager
def slot_held_for_a_moment(seconds: float = 0.1) -> Iterator[None]:
    """Another worker holds the only render slot and frees it after ``seconds``; the block
    runs meanwhile, and the other worker is done when it ends."""
    taken = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with documents.render_slot(time.monotonic()):
            taken.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait(5)
    threading.Timer(seconds, release.set).start()
    try:
        yield
    finally:
        holder.join()


@pytest.mark.usefixtures("threads_share_the_cache")
def test_a_request_waits_briefly_for_a_slot(renders: Renders, settings: Settings) -> None:
    settings.PDF_RENDERS_AT_ONCE = 1
    settings.PDF_WAIT_SECONDS = 5
    with slot_held_for_a_moment():
        began = time.monotonic()
        pdf, cached = documents.get_pdf(fake_document("waited"))
    assert not cached and pdf.startswith(b"%PDF")
    assert renders.count == 1
    assert time.monotonic() - began >= 0.1


def test_a_render_that_does_not_finish_in_the_wait_answers_busy(
        renders: Renders, settings: Settings) -> None:
    settings.PDF_WAIT_SECONDS = 0
    document = fake_document("stuck")
    cache = documents.pdf_cache()
    assert cache.add(f"{document.key}:rendering", "another", 60)  # another worker renders
    with pytest.raises(documents.PdfBusy) as busy:
        documents.get_pdf(document)
    assert busy.value.retry_after >= 1
    assert renders.count == 0
    cache.delete(f"{document.key}:rendering")  # that worker died: the lock is gone
    assert documents.get_pdf(document)[1] is False
    assert renders.count == 1


@pytest.mark.usefixtures("threads_share_the_cache")
def test_the_command_waits_for_a_slot_where_a_page_would_not(
        renders: Renders, settings: Settings, tmp_path: Path) -> None:
    """render_pdf from a script is no viewer to turn away: it waits for the slot."""
    from django.core.management import call_command

    settings.PDF_RENDERS_AT_ONCE = 1
    settings.PDF_WAIT_SECONDS = 0
    _club, season = hand_made()
    out = tmp_path / "season.pdf"
    with slot_held_for_a_moment():
        call_command("render_pdf", "standings", "--season", str(season.pk), "-o", str(out))
    assert out.read_bytes().startswith(b"%PDF")
    assert renders.count == 1


def test_lock_and_slots_work_on_the_database_cache(renders: Renders, settings: Settings) -> None:
    """Without CACHE_URL the shared cache is Django's database cache, whose add is atomic
    (the key is the table's primary key)."""
    from django.core.cache import caches
    from django.core.management import call_command
    from django.test import override_settings

    database = {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                "LOCATION": "skatclub_pdf_test_cache"}
    settings.PDF_RENDERS_AT_ONCE = 1
    settings.PDF_WAIT_SECONDS = 0
    with override_settings(CACHES={"default": database, "pdf": database}):
        call_command("createcachetable", verbosity=0)
        caches["pdf"].clear()
        document = fake_document("database")
        assert documents.get_pdf(document)[1] is False
        assert documents.get_pdf(document)[1] is True
        with documents.render_slot(time.monotonic()), pytest.raises(documents.PdfBusy):
            documents.get_pdf(fake_document("database-2"))
        assert documents.get_pdf(fake_document("database-2"))[1] is False
        assert renders.count == 2
