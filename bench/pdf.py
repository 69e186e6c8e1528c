"""PDF speed: the printed score sheet of a 4-table with 48, 150 and 1,000 deals, end to end
(read the table, score it, build the grid, WeasyPrint layout, PDF writing), against a plain
one-<table> rendering of the same rows as the baseline, in the same run and process.

Targets (issue "The printed evening"): 150 deals <= 0.8 s, 1,000 deals <= 4 s, and at least
2.5x faster than the plain table (which measured about 2 s for 200 rows and 10.7 s for 1,000
on this machine, design/eco-check.md §2).
Run: make bench  (or .venv/bin/python bench/pdf.py [--repeat N] [--sizes 48,150,1000]
[--out DIR] to keep the PDFs)
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scoring.models import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGETS = {150: 0.8, 1000: 4.0}
SPEEDUP = 2.5
PLAYERS = ["Jürgen Weiß", "Käthe Müller", "Björn Öztürk", "Grete Schäfer"]


def setup_django(db_path: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
    os.environ["SQLITE_PATH"] = db_path
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    # A throwaway in-process cache: the benchmark renders every time on purpose.
    settings.CACHES["pdf"] = {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    call_command("migrate", verbosity=0)


def make_table(deals: int) -> Table:
    from django.utils import timezone

    from scoring.engine import generate_deals
    from scoring.models import Club, Deal, Player, RuleProfile, Table
    from scoring.presets import PRESETS
    from scoring.writes.services import evening_create, table_create

    preset = PRESETS["club_evening"]
    club, _ = Club.objects.get_or_create(slug="bench", defaults={"name": "Skatclub Grün-Weiß"})
    profile, _ = RuleProfile.objects.get_or_create(
        club=club, name=preset["name"],
        defaults={"rules": preset["rules"], "options": preset["options"],
                  "scoring": preset["scoring"], "stake": "0.05"})
    players = [Player.objects.get_or_create(club=club, name=name)[0] for name in PLAYERS]
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile,
                             name=f"Bench {deals}")
    table = table_create(evening=evening, players=players)
    records = generate_deals(deals, len(players), "isko", evening.options, seed=deals)
    Deal.objects.bulk_create(Deal(table=table, position=i + 1, record=record)
                             for i, record in enumerate(records))
    Table.objects.filter(pk=table.pk).update(version=deals)
    return Table.objects.select_related("evening__club").get(pk=table.pk)


def plain_html(table: Table) -> str:
    """The baseline: the same ScoreSheet rows as one plain <table> with a repeated <thead>,
    one cell per column, the way a first version of the PDF would print it."""
    from django.utils.html import escape

    from scoring.models import Table
    from scoring.reads.sheet import table_sheet, tables_with_everything

    full = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    sheet = table_sheet(full, "de", explain=False)
    head = ["Nr.", "Geber", "Alleinspieler", "Spiel", "m/o", "H", "S", "A", "S", "A", "O",
            "Reiz", "Augen", "K/R", "Bock"]
    rows = []
    for r in sheet.rows:
        cells = [r.number, sheet.players[r.dealer],
                 sheet.players[r.declarer] if r.declarer is not None else "",
                 f"{r.symbol} {r.game_base}", r.matadors or "",
                 *["×" if level in r.levels else "" for level in
                   ("hand", "schneider", "schneider_announced", "schwarz",
                    "schwarz_announced", "ouvert")],
                 r.bid or "", r.result_short, r.kontra if r.kontra != "none" else "",
                 f"×{1 << r.bock}" if r.bock else ""]
        for entry, total in zip(r.entries, r.totals, strict=True):
            cells += ["" if entry is None else entry, total]
        cls = ' class="round-end"' if r.round_end else ""
        rows.append(f"<tr{cls}>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    names = "".join(f'<th colspan="2">{escape(n)}</th>' for n in sheet.players)
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><style>"
        "@page { @bottom-right { content: 'Seite ' counter(page) ' von ' counter(pages) } }"
        "table { width: 100%; border-collapse: collapse; font-size: 7pt }"
        "thead { display: table-header-group } tr { break-inside: avoid }"
        "th, td { border: 0.4pt solid #555; padding: 0.4mm 1mm }"
        "tr.round-end td { border-bottom: 1.5pt solid #000 }"
        "</style></head><body><table><thead><tr>"
        + "".join(f"<th>{h}</th>" for h in head) + names + "</tr></thead><tbody>"
        + "".join(rows) + "</tbody></table></body></html>")


def measure(build: Callable[[], str], repeat: int) -> dict[str, Any]:
    from scoring.pdf import weasy

    runs: list[dict[str, Any]] = []
    for _ in range(repeat):
        start = time.perf_counter()
        html = build()
        built = time.perf_counter() - start
        rendered = weasy.render(html)
        runs.append({"build": built, "layout": rendered.layout_s, "write": rendered.write_s,
                     "total": built + rendered.layout_s + rendered.write_s,
                     "pages": rendered.pages, "pdf": rendered.pdf})
    best = min(runs, key=lambda r: r["total"])
    return {**best, "median": statistics.median(r["total"] for r in runs)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="48,150,1000")
    parser.add_argument("--out", help="write the PDFs into this folder")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    with tempfile.TemporaryDirectory() as tmp:
        setup_django(str(Path(tmp) / "bench.sqlite3"))
        from django.utils import translation

        from scoring.pdf import documents, weasy

        translation.activate("de")
        weasy.render("<p>warm-up ♣ ♠ ♥ ♦ <b>1</b> <tt>1</tt></p>")  # fonts, stylesheet
        print(f"{'deals':>6} {'':10} {'pages':>5} {'build':>7} {'layout':>7} {'write':>7} "
              f"{'total':>7} {'median':>7}")
        ok = True
        for size in sizes:
            table = make_table(size)
            sheet = measure(functools.partial(documents.sheet_html, table.pk, "standard"),
                            args.repeat)
            plain = measure(functools.partial(plain_html, table), args.repeat)
            for name, r in (("sheet", sheet), ("plain", plain)):
                print(f"{size:>6} {name:10} {r['pages']:>5} {r['build']:>6.3f}s "
                      f"{r['layout']:>6.3f}s {r['write']:>6.3f}s {r['total']:>6.3f}s "
                      f"{r['median']:>6.3f}s")
            speedup = plain["total"] / sheet["total"]
            target = TARGETS.get(size)
            verdict = []
            if target is not None:
                verdict.append(f"target <= {target} s: "
                               f"{'met' if sheet['total'] <= target else 'MISSED'}")
            verdict.append(f"{speedup:.1f}x faster than the plain table (target >= "
                           f"{SPEEDUP}x: {'met' if speedup >= SPEEDUP else 'MISSED'})")
            print(f"{'':>6} {'':10} " + "; ".join(verdict))
            ok = ok and (target is None or sheet["total"] <= target) and speedup >= SPEEDUP
            if args.out:
                out = Path(args.out)
                out.mkdir(parents=True, exist_ok=True)
                (out / f"sheet-{size}.pdf").write_bytes(sheet["pdf"])
                (out / f"plain-{size}.pdf").write_bytes(plain["pdf"])
        print(f"(best of {args.repeat} runs; build = read + score + grid + template; layout "
              "and write = WeasyPrint)")
        print("targets met" if ok else "TARGETS MISSED")


if __name__ == "__main__":
    main()
