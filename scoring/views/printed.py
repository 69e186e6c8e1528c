"""The printed evening: a table's score sheet, the evening's settlement and its summary as
PDFs (scoring.pdf), each rendered once per version of what it shows and then served from the
cache; a browser that has the current version gets 304 Not Modified. When too many render at
once (scoring/pdf/documents.py), the answer is 503 with Retry-After.

Access as for the pages they print: the sheet for the table's club and for a device holding
the table's code; the settlement and the summary for the club's members. Other clubs get 404.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils.cache import get_conditional_response
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_safe

from scoring.access import evening_for, table_for
from scoring.pdf.documents import (
    Document,
    PdfBusy,
    get_pdf,
    settlement_document,
    sheet_document,
    summary_document,
)
from scoring.reads import live


def pdf_response(request: HttpRequest, document: Document) -> HttpResponse:
    # keyed (reads/live.py): the document's own key digests fields a viewer cannot see
    etag = f'"pdf-{live.digest(document.key)}"'
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        not_modified["ETag"] = etag
        return not_modified
    try:
        pdf, cached = get_pdf(document)
    except PdfBusy as busy:
        # many PDFs render at once: the tablets' deal saves go first; the page asks again
        response = render(request, "scoring/pdf_busy.html",
                          {"retry_after": busy.retry_after}, status=503)
        response["Retry-After"] = str(busy.retry_after)
        return response
    response = HttpResponse(pdf, content_type="application/pdf")
    disposition = content_disposition_header(False, document.filename)
    if disposition is not None:  # None only for an empty file name
        response["Content-Disposition"] = disposition
    response["ETag"] = etag
    # The browser keeps it but asks each time: a changed deal changes the ETag.
    response["Cache-Control"] = "private, no-cache"
    response["X-PDF-Cache"] = "hit" if cached else "miss"
    return response


@require_safe
def sheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    table, _actor = table_for(request, pk)
    return pdf_response(request, sheet_document(table, request.GET.get("layout", "standard")))


@require_safe
def settlement_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    evening, _member = evening_for(request, pk)
    return pdf_response(request, settlement_document(evening))


@require_safe
def summary_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    evening, _member = evening_for(request, pk)
    return pdf_response(request, summary_document(evening))


urlpatterns: list[URLPattern] = [
    path("tables/<int:pk>/sheet.pdf", sheet_pdf, name="sheet-pdf"),
    path("evenings/<int:pk>/settlement.pdf", settlement_pdf, name="settlement-pdf"),
    path("evenings/<int:pk>/summary.pdf", summary_pdf, name="summary-pdf"),
]
