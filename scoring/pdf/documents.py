"""The printed documents: a table's score sheet, the evening's settlement and its summary.

Each renders from the selectors, the one source the HTML pages render too (``table_sheet``,
``evening_money``, ``evening_ranking``), and is rendered by WeasyPrint once per version of
what it shows. The cache key is a digest of everything printed except the deals themselves:
the evening's version and settings, names, dates, the layout and the language. The deals are
covered by the tables' versions (bumped by every change through the services) and, for a deal
saved or deleted some other way (a shell, an import), each table's deal count and latest
change. A second request is served from the cache; a changed deal, setting or name makes a
new key, and the old entry ages out.

Rendered once per change, for every process and machine (the cache is the shared one): the
first request for a new key takes a render lock with ``add``; the others wait for its result
(polling the cache) for up to ``PDF_WAIT_SECONDS``, then get ``PdfBusy`` (the views answer
503 with Retry-After). At most ``PDF_RENDERS_AT_ONCE`` documents render at once on one
instance (slots taken with ``add`` in the shared cache, named after ``PDF_INSTANCE``), so
that a crowd of viewers asking for PDFs leaves the workers free for the tablets' deal saves.
A lock or slot of a worker that died frees itself after ``PDF_RENDER_TIMEOUT`` seconds.
"""

from __future__ import annotations

import hashlib
import json
import math
import socket
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.db.models import Count, Max, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.engine import SkatError, minor_unit
from scoring.models import Evening, Seat, Table
from scoring.money import money, rate
from scoring.pdf import grid as grids
from scoring.pdf import weasy
from scoring.reads.audit import corrections_after_signing
from scoring.reads.sheet import (
    ScoreSheet,
    evening_money,
    evening_ranking,
    evening_tables,
    table_sheet,
    tables_with_everything,
)
from scoring.reads.signing import printed_signatures

# Bump when a printed layout changes, so that PDFs of the old layout are not served.
FORMAT = 4  # 4: unambiguous level titles and marks, Kontra's sayer, corrections (issue 36)
KINDS = ("sheet", "settlement", "summary")
LAYOUTS = ("standard", "historical")
CACHE_ALIAS = "pdf"


@dataclass(frozen=True)
class Document:
    kind: str
    key: str  # changes whenever anything the document prints could have changed
    filename: str
    html: Callable[[], str]  # builds the document's HTML (reads the deals, runs the engine)
    house_style: bool = True  # the house's print.css (the season table has its own style)


class PdfBusy(Exception):
    """No PDF within the wait: too many render at once, or another's render is not done."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def pdf_cache() -> BaseCache:
    return caches[CACHE_ALIAS if CACHE_ALIAS in settings.CACHES else "default"]


def _cached(cache: BaseCache, key: str) -> bytes | None:
    pdf = cache.get(key)
    return pdf if isinstance(pdf, bytes) else None


def _pause(waited: int) -> None:
    """Between two looks at the cache: short at first, a quarter second later on."""
    time.sleep(min(0.25, 0.02 * (waited + 1)))


def get_pdf(document: Document, wait: float | None = None) -> tuple[bytes, bool]:
    """The document's PDF and whether it came from the cache (rendered by this request:
    False). Raises PdfBusy when it could not be had within ``wait`` seconds (default
    ``PDF_WAIT_SECONDS``; a script that may wait passes more)."""
    cache = pdf_cache()
    pdf = _cached(cache, document.key)
    if pdf is not None:
        return pdf, True
    lock = f"{document.key}:rendering"
    deadline = time.monotonic() + (settings.PDF_WAIT_SECONDS if wait is None else wait)
    looks = 0
    while True:
        token = uuid.uuid4().hex
        if cache.add(lock, token, settings.PDF_RENDER_TIMEOUT):
            try:
                pdf = _cached(cache, document.key)  # done between the first look and the lock
                if pdf is not None:
                    return pdf, True
                with render_slot(deadline):
                    pdf = render(document).pdf
                cache.set(document.key, pdf)
                return pdf, False
            finally:
                if cache.get(lock) == token:
                    cache.delete(lock)
        # another request renders it: its result will be in the cache
        if time.monotonic() >= deadline:
            raise PdfBusy(_retry_after())
        _pause(looks)
        looks += 1
        pdf = _cached(cache, document.key)
        if pdf is not None:
            return pdf, True


def _retry_after() -> int:
    return max(1, math.ceil(min(settings.PDF_RENDER_TIMEOUT, 5)))


def _instance() -> str:
    return settings.PDF_INSTANCE or socket.gethostname()


def _reachable(cache: BaseCache) -> bool:
    """False while the shared cache is a Redis that cannot be reached (skatclub/cache.py):
    it then answers every ``add`` as an empty cache would, so its slots bound nothing."""
    available = getattr(cache, "available", None)
    return available() if callable(available) else True


@contextmanager
def _machine_slot(slots: int, deadline: float) -> Iterator[None]:
    """One of ``slots`` render slots of this machine's site, as locked files (flock: freed
    when the process holding one dies), waited for until the deadline, else PdfBusy: the
    bound while the shared cache is gone."""
    import fcntl
    import tempfile
    from pathlib import Path

    site = hashlib.sha256(str(settings.BASE_DIR).encode()).hexdigest()[:12]
    folder = Path(tempfile.gettempdir()) / f"skatclub-pdf-slots-{site}"
    folder.mkdir(mode=0o700, exist_ok=True)
    looks = 0
    while True:
        for number in range(slots):
            handle = (folder / f"{number}.lock").open("a+")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.close()
                continue
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
                handle.close()
            return
        if time.monotonic() >= deadline:
            raise PdfBusy(_retry_after())
        _pause(looks)
        looks += 1


@contextmanager
def render_slot(deadline: float) -> Iterator[None]:
    """One of the instance's ``PDF_RENDERS_AT_ONCE`` render slots, waited for until the
    deadline (monotonic time), else PdfBusy. 0 slots: no bound. While the shared cache is
    gone, the slots are locked files of this machine instead."""
    slots = settings.PDF_RENDERS_AT_ONCE
    if slots <= 0:
        yield
        return
    cache = pdf_cache()
    if not _reachable(cache):
        with _machine_slot(slots, deadline):
            yield
        return
    token = uuid.uuid4().hex
    names = [f"skatclub-pdf-slot:{_instance()}:{n}" for n in range(slots)]
    looks = 0
    while True:
        taken = next((name for name in names
                      if cache.add(name, token, settings.PDF_RENDER_TIMEOUT)), None)
        if taken is not None and not _reachable(cache):  # it went away as we asked
            with _machine_slot(slots, deadline):
                yield
            return
        if taken is not None:
            break
        if time.monotonic() >= deadline:
            raise PdfBusy(_retry_after())
        _pause(looks)
        looks += 1
    try:
        yield
    finally:
        if cache.get(taken) == token:
            cache.delete(taken)


def render(document: Document) -> weasy.Rendered:
    return render_html(document.html(), house_style=document.house_style)


def render_html(html: str, *, house_style: bool = True) -> weasy.Rendered:
    """The one way HTML becomes a PDF, for every document (the season table too): WeasyPrint
    set up once, with a URL fetcher that reads data: URLs only, never a file or the network."""
    return weasy.render_niced(html, house_style=house_style, nice=settings.PDF_RENDER_NICE)


# ------------------------------------------------------------------ cache keys

def _state(evening: Evening, tables: QuerySet[Table]) -> list[Any]:
    """What a document of these tables prints, short of the deals: two queries."""
    rows = list(
        tables.order_by("number")
        .annotate(deal_count=Count("deals"), deal_stamp=Max("deals__updated"))
        .values_list("pk", "number", "version", "first_dealer", "deal_count", "deal_stamp",
                     "signing"))
    seats = list(Seat.objects.filter(table__in=[row[0] for row in rows])
                 .order_by("table_id", "position").values_list("table_id", "player__name"))
    return [
        evening.pk, evening.version, evening.club.name, evening.club.slug, evening.name,
        evening.date, evening.rules, evening.options, evening.scoring, evening.stake,
        evening.currency, evening.settlement, evening.profile_name, rows, seats,
        evening.closed,  # a closed evening's sheet shows no next deal (issue 23)
    ]


def _key(kind: str, evening: Evening, tables: QuerySet[Table], *extra: Any) -> str:
    from weasyprint import __version__ as weasyprint_version

    state = [FORMAT, weasyprint_version, kind, translation.get_language(), *extra,
             _state(evening, tables)]
    digest = hashlib.sha256(
        json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()
    return f"skatclub-pdf:{kind}:{evening.pk}:{digest}"


# ------------------------------------------------------------------ shared context

def _stamp() -> str:
    return _("Skatclub · as of %(when)s") % {
        "when": date_format(timezone.localtime(), "SHORT_DATETIME_FORMAT")}


def _stake_words(evening: Evening) -> str:
    if not evening.stake:
        return ""
    try:
        unit = minor_unit(evening.currency)
    except SkatError:
        unit = Decimal("0.01")
    return _("%(stake)s %(currency)s per point") % {
        "stake": money(rate(evening.stake, unit)), "currency": evening.currency}


def _evening_context(evening: Evening) -> dict[str, Any]:
    return {"evening": evening, "club": evening.club, "printed": _stamp(),
            "stake_words": _stake_words(evening)}


def _base_name(evening: Evening, what: str) -> str:
    return slugify(f"{evening.club.slug}-{evening.date:%Y-%m-%d}-{what}") or "skatclub"


# ------------------------------------------------------------------ the score sheet

def net_money(sheet: ScoreSheet) -> list[str] | None:
    """Each player's net of the table's settlement, localised; None when nothing is settled
    (no stake, Beer Skat, or deals that no longer score)."""
    settlement = sheet.settlement
    if not settlement or sheet.error is not None or not Decimal(settlement["stake"]):
        return None
    return [money(settlement["net"][str(p)]) for p in range(len(sheet.players))]


def sheet_html(table_id: int, layout: str) -> str:
    table = tables_with_everything(Table.objects.filter(pk=table_id)).get()
    lang = "en" if (translation.get_language() or "de").startswith("en") else "de"
    sheet = table_sheet(table, lang, explain=False)
    sheet.corrections = corrections_after_signing(table)  # marked and said (issue 36)
    evening = table.evening
    nets = net_money(sheet)
    label = (_("Settlement (%(currency)s)") % {"currency": sheet.settlement["currency"]}
             if nets and sheet.settlement else "")
    build = grids.book_grid if layout == "historical" else grids.standard_grid
    grid = build(sheet, nets, label)
    title = _("Score sheet · table %(number)d") % {"number": table.number}
    return render_to_string("scoring/pdf/sheet.html", {
        **_evening_context(evening), "table": table, "sheet": sheet, "grid": grid,
        "signatures": printed_signatures(table),
        "layout": layout, "title": title, "landscape": grid.paper.landscape,
        "running_head": f"{evening.club.name} · {evening.name} · "
                        f"{date_format(evening.date, 'SHORT_DATE_FORMAT')}",
        "doc_label": title,
    })


def sheet_document(table: Table, layout: str = "standard") -> Document:
    layout = layout if layout in LAYOUTS else "standard"
    evening = table.evening
    tables = Table.objects.filter(pk=table.pk)
    suffix = "-historical" if layout == "historical" else ""
    return Document(
        "sheet", _key("sheet", evening, tables, table.pk, layout),
        f"{_base_name(evening, f'table-{table.number}')}{suffix}.pdf",
        lambda: sheet_html(table.pk, layout))


# ------------------------------------------------------------------ settlement and summary

def _evening_sheets(evening: Evening) -> list[ScoreSheet]:
    lang = "en" if (translation.get_language() or "de").startswith("en") else "de"
    return [table_sheet(table, lang, explain=False) for table in evening_tables(evening)]


def settlement_html(evening: Evening) -> str:
    sheets = _evening_sheets(evening)
    title = _("Settlement")
    return render_to_string("scoring/pdf/settlement.html", {
        **_evening_context(evening), "money": evening_money(evening, sheets), "title": title,
        "running_head": f"{evening.club.name} · {evening.name} · "
                        f"{date_format(evening.date, 'SHORT_DATE_FORMAT')}",
        "doc_label": title,
    })


def summary_html(evening: Evening) -> str:
    sheets = _evening_sheets(evening)
    title = _("Evening summary")
    return render_to_string("scoring/pdf/summary.html", {
        **_evening_context(evening), "sheets": sheets,
        "ranking": evening_ranking(evening, sheets),
        "money": evening_money(evening, sheets), "title": title,
        "running_head": f"{evening.club.name} · {evening.name} · "
                        f"{date_format(evening.date, 'SHORT_DATE_FORMAT')}",
        "doc_label": title,
    })


def settlement_document(evening: Evening) -> Document:
    return Document(
        "settlement", _key("settlement", evening, evening.tables.all()),
        f"{_base_name(evening, 'settlement')}.pdf", lambda: settlement_html(evening))


def summary_document(evening: Evening) -> Document:
    return Document(
        "summary", _key("summary", evening, evening.tables.all()),
        f"{_base_name(evening, 'summary')}.pdf", lambda: summary_html(evening))
