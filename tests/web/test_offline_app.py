"""The installable table screen (issue 13): the service worker at the root with what it
precaches, the manifest, the drawn icons, and the table's state in the page for offline use."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image

from scoring.engine import evaluate_table
from scoring.writes.services import Actor, deal_record

from .factories import make_club, make_table, make_user

pytestmark = pytest.mark.django_db


def test_service_worker_is_served_at_the_root_with_its_precache(client: Client) -> None:
    url = reverse("scoring:offline-sw")
    assert url == "/sw.js"  # its scope must cover /tables/…
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    match = re.search(r"self.SKAT_PRECACHE = (\[.*?\]);", body)
    assert match
    urls = json.loads(match.group(1))
    for part in ("js/offline-table.js", "js/skat-engine.js", "js/skat-engine-worker.js",
                 "js/entry.js", "css/entry.css", "htmx.min.js", "pyodide.asm.wasm",
                 "python_stdlib.zip", "skat-engine.zip?v="):
        assert any(part in u for u in urls), part
    for static_url in urls:  # every precached file exists: a 404 would fail the install
        assert client.get(static_url).status_code == 200, static_url
    assert "addEventListener(\"fetch\"" in body
    # The cache's name changes with what is precached.
    assert re.search(r'self.SKAT_CACHE = "skatclub-[0-9a-f]{12}"', body)
    assert client.post(url).status_code == 405


def test_manifest_and_icons(client: Client) -> None:
    response = client.get(reverse("scoring:offline-manifest"))
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["display"] == "standalone" and data["start_url"] == "/"
    sizes = set()
    for icon in data["icons"]:
        png = client.get(icon["src"])
        assert png["Content-Type"] == "image/png"
        image = Image.open(io.BytesIO(png.content))
        assert f"{image.width}x{image.height}" == icon["sizes"]
        sizes.add(image.width)
        # Drawn: the green table, a white card, the black club.
        counted = image.getcolors(maxcolors=image.width * image.height)
        assert counted is not None, "every pixel may have its own colour: all are counted"
        colours = {c for _n, c in counted}
        assert {(29, 92, 58), (255, 255, 255), (17, 17, 17)} <= colours
    assert sizes == {192, 512}
    assert client.get("/icons/skatclub-100.png").status_code == 404


def json_block(html: str, block_id: str) -> str:
    """The text of the page's JSON data block with this id."""
    found = re.search(
        rf'<script id="{block_id}" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None, f"the page carries its {block_id} block"
    return found.group(1)


def test_the_table_screen_carries_its_state_and_installs(client: Client) -> None:
    table = make_table(make_club(), players=3, preset="club_evening")
    record: dict[str, Any] = {"kind": "game", "declarer": 0, "game": "grand", "matadors": 1,
                              "bid": 24, "result": "won", "hand": False, "ouvert": False,
                              "schneider_announced": False, "schwarz_announced": False}
    deal = deal_record(table=table, record=record, expected_version=table.version,
                       actor=Actor(None, "test"))
    client.force_login(make_user(table.evening.club, "scorer"))
    html = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'data-sw="/sw.js"' in html and "js/offline-table.js" in html
    state = json.loads(json_block(html, "offline-state"))
    table.refresh_from_db()
    assert state["version"] == table.version
    assert state["ids"] == [deal.pk]
    assert state["lang"] in ("de", "en")
    # Exactly the engine's input: the browser's engine computes what the server computes.
    assert evaluate_table(state["table"])["totals"]["0"] == 48  # Grand with 1, game 2
    words = json.loads(json_block(html, "offline-words"))
    assert words["pending"]
    # No inline script runs: both JSON blocks are data.
    assert not re.search(r"<script(?![^>]*(src=|application/json))", html)
