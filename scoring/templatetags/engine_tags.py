"""``{% skat_engine_script %}``: the <script> that brings ``SkatEngine`` (static/js/skat-engine.js)
to a page, with the URLs of its worker, the vendored Pyodide and the engine bundle."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString

from scoring.offline import pyodide_url, runtime_lock
from scoring.views.engine import bundle_url

register = template.Library()


@register.simple_tag
def skat_engine_script() -> SafeString:
    return format_html(
        '<script src="{}" data-skat-engine data-worker="{}" data-pyodide="{}" '
        'data-engine="{}" data-lock="{}" defer></script>',
        static("js/skat-engine.js"), static("js/skat-engine-worker.js"), pyodide_url(),
        bundle_url(), runtime_lock())
