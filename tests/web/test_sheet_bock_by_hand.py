"""Issue 18 and the sheet's CSV: a Bock level or a Bock round the table decided by hand
(option bock.manual, DECISIONS.md §9) is marked as such on the HTML sheet, the PDF and the
CSV; a capped Ramsch says its cap wherever explanations are shown; the CSV says "overbid" for
a lost overbid game as the sheet does."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from scoring.models import Player, RuleProfile, Table
from scoring.presets import PRESETS
from scoring.reads.sheet import deal_preview, table_sheet, tables_with_everything
from scoring.writes.services import evening_create, table_create

from . import pdfs
from .factories import login, make_club
from .test_sheet_pages import play
from .test_sheet_story import deal_row, page, text_of

pytestmark = pytest.mark.django_db
NAMES = ["Anna Adler", "Bernd Bauer", "Clara Conrad"]

WORDS = {
    "de": {"manual": "Bock (von Hand)", "plain": "kein Bock (von Hand)",
           "round": "+ Bockrunde von Hand", "cap": "gedeckelt auf 250: \u2212250",
           "overbid": "überreizt (Reizwert 30)"},
    "en": {"manual": "Bock (by hand)", "plain": "no Bock (by hand)",
           "round": "+ Bock round by hand", "cap": "capped at 250: \u2212250",
           "overbid": "overbid (bid 30)"},
}


def game(declarer: int, **extra: object) -> dict[str, object]:
    return {"kind": "game", "declarer": declarer, "game": "clubs", "matadors": 1, "bid": 18,
            "declarer_points": 70, **extra}


# Deal 3: Anna 96 card points, Clara no trick (Jungfrau × 2), in the Bock round Bernd queued by
# hand (× 2): 96 × 2 × 2 = 384, capped at 250.
CAPPED_RAMSCH = {"kind": "ramsch", "ramsch": {"points": {"0": 96, "1": 24, "2": 0},
                                              "tricks": {"0": 8, "1": 2, "2": 0},
                                              "pushes": 0}}


def manual_table(club_slug: str = "altenburg") -> Table:
    """A 3-table under bock.manual and ramsch_cap 250: deal 1 at Bock by hand, deal 2 queues a
    Bock round by hand (deals 3-5), deal 3 a capped Ramsch, deal 4 played without Bock by hand
    inside that round, deal 5 a lost overbid game (bid 30, Clubs with 1 is worth 24)."""
    club = make_club(club_slug)
    seated = [Player.objects.get_or_create(club=club, name=n)[0] for n in NAMES]
    profile = RuleProfile.objects.get(club=club, name=PRESETS["club_evening"]["name"])
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile,
                             stake=Decimal("0.05"))
    evening.options = {"kontra": True, "ramsch": "when_all_pass", "ramsch_cap": 250,
                       "bock": {"triggers": ["sixty_sixty"], "manual": True}}
    evening.save()
    table = table_create(evening=evening, players=seated)
    play(table, [game(1, bock=1), game(2, bock_round=True), CAPPED_RAMSCH, game(1, bock=0),
                 {"kind": "game", "declarer": 2, "game": "clubs", "matadors": 1, "bid": 30,
                  "result": "won"}])
    table.refresh_from_db()
    return table


def fresh(table: Table) -> Table:
    return tables_with_everything(Table.objects.filter(pk=table.pk)).get()


def test_the_rows_carry_what_the_table_decided_by_hand() -> None:
    table = manual_table()
    with translation.override("en"):
        rows = table_sheet(fresh(table), "en").rows
    assert [r.bock for r in rows] == [1, 0, 1, 0, 1]
    assert [r.bock_manual for r in rows] == [True, False, False, True, False]
    assert [r.bock_round for r in rows] == [False, True, False, False, False]
    assert [r.bock_notes for r in rows] == [
        ["Bock (by hand)"], ["+ Bock round by hand"], [], ["no Bock (by hand)"], []]
    assert rows[0].details == ["with 1", "Bock (by hand)"]
    assert rows[2].entries == [-250, None, None]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_html_sheet_marks_bock_by_hand_and_the_ramsch_cap(client: Client,
                                                              lang: str) -> None:
    table = manual_table()
    login(client, table.evening.club)
    html = page(client, "sheet", table.pk, lang)
    words = WORDS[lang]
    rows = [text_of(deal_row(html, table, position)) for position in range(1, 6)]
    assert words["manual"] in rows[0] and "\u00d72" in rows[0]
    assert words["round"] in rows[1] and words["manual"] not in rows[1]
    assert words["plain"] in rows[3]
    for text in (rows[2], rows[4]):  # the other rows say nothing was done by hand
        assert words["manual"] not in text and words["round"] not in text
    # the capped Ramsch's explanation, in the row's title and its "how" box
    ramsch = deal_row(html, table, 3)
    title = re.search(r'title="([^"]*)"', ramsch)
    explanation = re.search(r'<p class="explanation">(.*?)</p>', ramsch, re.S)
    assert title is not None and explanation is not None, ramsch
    assert words["cap"] in title[1]
    assert words["cap"] in explanation[1]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_preview_of_a_capped_ramsch_says_the_cap(lang: str) -> None:
    """The table screen's preview and its "saved" notice show the engine's explanation of the
    deal; a capped Ramsch's says the cap there as on the sheet."""
    table = manual_table()
    with translation.override(lang):
        preview = deal_preview(fresh(table), {**CAPPED_RAMSCH, "bock": 1}, lang)
    assert preview.error is None and preview.row is not None
    assert preview.row.entries[0] == -250  # deal 6: Bock by hand, × 2 × 2
    assert WORDS[lang]["cap"] in preview.row.explanation
    assert preview.row.bock_notes == [WORDS[lang]["manual"]]


@pytest.mark.parametrize("lang", ["de", "en"])
@pdfs.needs_poppler
def test_the_pdf_prints_bock_by_hand_under_its_deal(client: Client, lang: str) -> None:
    table = manual_table()
    login(client, table.evening.club)
    response = client.get(reverse("scoring:sheet-pdf", args=[table.pk]),
                          headers={"accept-language": lang})
    assert response.status_code == 200
    lines = pdfs.text(response.content).splitlines()
    words = WORDS[lang]

    def under(number: int) -> str:
        at = next(i for i, line in enumerate(lines) if line.split()[:1] == [str(number)])
        return lines[at + 1].strip()

    assert under(1) == words["manual"]
    assert under(2) == words["round"]
    assert under(4) == words["plain"]
    assert words["manual"] not in under(3) and words["round"] not in under(3)
    assert under(5).startswith("Total" if lang == "en" else "Summe")
    text = "\n".join(lines)
    assert text.count(words["round"]) == 1 and text.count(words["plain"]) == 1


def csv_rows(client: Client, table: Table, lang: str) -> list[list[str]]:
    response = client.get(reverse("scoring:sheet-csv", args=[table.pk]),
                          headers={"accept-language": lang})
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_csv_says_bock_by_hand_and_overbid(client: Client, lang: str) -> None:
    table = manual_table()
    login(client, table.evening.club)
    head, *rows = csv_rows(client, table, lang)
    details, result, bock = 4, 6, 8
    words = WORDS[lang]
    assert rows[0][details].endswith(words["manual"]) and rows[0][bock] == "\u00d72"
    assert rows[1][details].endswith(words["round"])
    assert rows[3][details].endswith(words["plain"]) and rows[3][bock] == ""
    assert not any("Hand" in rows[i][details] for i in (2, 4))
    # deal 5: bid 30, Clubs with 1 is worth 24: lost, 2 × 36 × Bock 2, whatever "won" says
    assert rows[4][result] == words["overbid"]
    assert rows[4][9 + 2 * 2] == "-144"
    assert rows[0][result] == "70"  # a game that was not overbid keeps its card points
