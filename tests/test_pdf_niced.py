"""A PDF renders in a child process at a lower CPU priority (scoring/pdf/weasy.py
render_niced, PDF_RENDER_NICE), with the same result as in the worker."""

from __future__ import annotations

import os
import threading

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from scoring.pdf import weasy

HTML = "<html><body><h1>Tisch 1</h1><p>Grand Hand gewonnen</p></body></html>"


@pytest.fixture(autouse=True)
def a_single_threaded_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A gunicorn sync worker runs one thread; the test process may still hold threads of
    earlier tests (a live server, a browser driver), which would make render_niced stay in
    the process. The tests below are about the child, so they see one thread."""
    monkeypatch.setattr(threading, "active_count", lambda: 1)


def test_a_niced_render_is_a_pdf_of_the_same_pages() -> None:
    here = weasy.render(HTML)
    child = weasy.render_niced(HTML, nice=10)
    assert child.pdf.startswith(b"%PDF") and child.pages == here.pages == 1


def test_the_child_runs_nicer_than_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def fake(html: str, *, house_style: bool = True) -> weasy.Rendered:
        return weasy.Rendered(str(os.nice(0)).encode(), 0, 0.0, 0.0)

    monkeypatch.setattr(weasy, "render", fake)
    before = os.nice(0)
    result = weasy.render_niced(HTML, nice=7)
    seen.append(int(result.pdf))
    assert seen == [min(19, before + 7)] and os.nice(0) == before
    # 0: in the worker itself
    assert int(weasy.render_niced(HTML, nice=0).pdf) == before


def test_a_failing_render_in_the_child_is_an_error_in_the_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(html: str, *, house_style: bool = True) -> weasy.Rendered:
        raise ValueError("no fonts")

    monkeypatch.setattr(weasy, "render", broken)
    with pytest.raises(RuntimeError, match="no fonts"):
        weasy.render_niced(HTML, nice=5)


@pytest.mark.django_db
def test_a_sheet_pdf_served_by_a_view_renders_in_the_niced_child(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.web.factories import make_club, make_table, make_user

    forks: list[int] = []
    real_fork = os.fork

    def counting_fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(os, "fork", counting_fork)
    club = make_club()
    table = make_table(club)
    client.force_login(make_user(club, role="viewer"))
    with override_settings(PDF_RENDER_NICE=10):
        response = client.get(reverse("scoring:sheet-pdf", args=[table.pk]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert forks == [1]


def test_a_process_with_other_threads_renders_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked child of a threaded process would copy locks that other threads hold: there
    the render stays in the process, at the process's own priority."""
    monkeypatch.undo()
    release = threading.Event()
    other = threading.Thread(target=release.wait, daemon=True)
    other.start()
    try:
        monkeypatch.setattr(weasy, "render", lambda html, *, house_style=True: weasy.Rendered(
            str(os.nice(0)).encode(), 0, 0.0, 0.0))
        assert int(weasy.render_niced(HTML, nice=7).pdf) == os.nice(0)
    finally:
        release.set()
        other.join()
