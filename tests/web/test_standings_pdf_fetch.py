"""The season table's PDF fetches nothing (issue 14): it is rendered by the one renderer every
PDF uses (scoring/pdf/documents.py), whose URL fetcher allows data: URLs only. Whatever the
HTML asks for — a style sheet on disk, one on a web server, an image on disk — is never
read; a data: URL still is (so the test could see a fetch if there were one)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from scoring.models import Season
from scoring.pdf import documents, weasy
from scoring.pdf import standings as module

from . import pdfs
from .factories import make_club
from .seasons import make_evening, make_season, player, seat_and_play

pytestmark = pytest.mark.django_db

class Counting(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        Counting.requests.append(self.path)
        body = b'body::after { content: "FETCHED-OVER-HTTP"; }'
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def web_server() -> Iterator[str]:
    Counting.requests = []
    server = http.server.HTTPServer(("127.0.0.1", 0), Counting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def a_season() -> Season:
    club = make_club()
    season = make_season(club, "classic")
    a, b, c = (player(club, n) for n in ("Anna", "Bert", "Cäcilie"))
    seat_and_play(make_evening(season, 1), [a, b, c], {0: [(1, True)], 1: [(2, False)]})
    return season


def test_a_standings_pdf_fetches_nothing_but_data_urls(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, web_server: str) -> None:
    (tmp_path / "local.css").write_text('body::before { content: "FETCHED-FROM-DISK"; }')
    Image.new("RGB", (40, 40), "red").save(tmp_path / "dot.png")
    asks = (
        f'<link rel="stylesheet" href="{(tmp_path / "local.css").as_uri()}">'
        f'<link rel="stylesheet" href="{web_server}/remote.css">'
        '<link rel="stylesheet" href="data:text/css,h1::after%7Bcontent:%22DATA-URL-READ%22%7D">'
    )
    image = f'<img src="{(tmp_path / "dot.png").as_uri()}" alt="">'
    real = module.standings_html
    monkeypatch.setattr(module, "standings_html", lambda season, lang: real(season, lang)
                        .replace("</head>", asks + "</head>").replace("</h1>", "</h1>" + image))
    pdf = module.standings_pdf(a_season(), "de")
    text = pdfs.text(pdf)
    assert "Saisontabelle" in text and "DATA-URL-READ" in text  # rendered, data: read
    assert "FETCHED-FROM-DISK" not in text
    assert "FETCHED-OVER-HTTP" not in text
    assert Counting.requests == []
    assert b"/Image" not in pdf  # the image on disk was not embedded either


def test_the_standings_pdf_goes_through_the_one_renderer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = documents.render_html

    def spy(html: str, **kwargs: Any) -> weasy.Rendered:
        calls.append(html)
        return real(html, **kwargs)

    monkeypatch.setattr(documents, "render_html", spy)
    pdf = module.standings_pdf(a_season(), "de")
    assert len(calls) == 1 and "<table" in calls[0]
    assert pdf.startswith(b"%PDF") and "Saisontabelle" in pdfs.text(pdf)
    assert pdfs.info(pdf)["Page size"].startswith("841.")  # still A4 across the page
