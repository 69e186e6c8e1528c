"""The problems of an upload in the page's language (issue 16): what the JSON reader refuses
is named (table, deal, line) in German on a German page, with the engine's own German words
inside, and in English on an English page; nothing English is left on the German page. The
import commands keep their English (``str()`` of the problem)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Evening, PendingImport, Season
from scoring.writes.import_checks import MAX_FILE_BYTES, loads
from scoring.writes.import_problems import ImportProblem
from scoring.writes.imports import import_club, import_evening

from ..test_i18n import english_on, visible_text
from .interchange_data import build_club
from .test_import_checks import exported, nested
from .test_import_export import counts
from .test_imports_web import _broken, admin_of, evening_file, upload, written

pytestmark = pytest.mark.django_db

# Each broken file of test_imports_web: what the German page names, and where.
GERMAN = {
    "bad JSON": "Ungültiges JSON in Zeile 2, Spalte 10: ein Wert wird erwartet.",
    "wrong club": "Die Datei gehört zum Verein 'other-club', nicht zu 'skatfreunde-altenburg'",
    "impossible deal": "Tisch 2, Spiel 2: 19 kann nach der Internationalen Skatordnung nicht "
                       "gereizt werden; die nächsten Reizwerte sind 18 oder 20.",
    "invalid deleted deal": "Tisch 1, gelöschtes Spiel 1 (ramsch): Ein Ramsch braucht die "
                            "Augen und Stiche jedes Spielers.",
    "invalid note": "Tisch 1, Spiel 4: note muss ein Text von höchstens 500 Zeichen sein.",
    "note nested too deep": "Tisch 1, Spiel 3: zu tief verschachtelt in Zeile 1, Spalte",
    "too large": "Die Datei ist zu groß (8,0 MB); höchstens 8,0 MB können hochgeladen "
                 "werden.",
}
ENGLISH = {
    "bad JSON": "Invalid JSON at line 2, column 10: Expecting value.",
    "wrong club": "The file belongs to club 'other-club', not to 'skatfreunde-altenburg'",
    "impossible deal": "Table 2, deal 2: 19 cannot be bid under the International Skat Order; "
                       "the nearest bids are 18 or 20.",
    "invalid deleted deal": "Table 1, deleted deal 1 (ramsch): A Ramsch needs the card "
                            "points and tricks of each player.",
    "invalid note": "Table 1, deal 4: note must be a text of at most 500 characters.",
    "note nested too deep": "Table 1, deal 3: nested too deep at line 1, column",
    "too large": "The file is too large (8.0 MB); at most 8.0 MB can be uploaded.",
}
# The English of these messages, in pieces a German page must not show.
ENGLISH_WORDS = ["Table ", "deal ", "deleted deal", "nested too deep", " must be ",
                 "Invalid JSON", "belongs to club", "Expecting", "cannot be bid", "The file",
                 "Nothing was", " at line ", "column", "characters"]
GERMAN_WORDS = ["Tisch", "Spiel", "Ungültiges", "Zeile", "Spalte", "verschachtelt", "Datei",
                "muss", "gehört"]


def refusal(page: str) -> str:
    """The visible text of a page with HTML's escaped quotes as the reader wrote them."""
    return visible_text(page).replace("&#x27;", "'")


def problems_on(page: str) -> str:
    """The text of the page's error lists: the problems named, nothing else."""
    lists = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', page, flags=re.S)
    assert lists, page[-1500:]
    return refusal(" ".join(lists))


# The upload page (a file too large is refused by its form) lists the CSV headers a season on
# paper may have, in both languages: "gewonnen, won", "verloren, lost".
BOTH_LANGUAGES = {"won", "lost"}


@pytest.mark.parametrize("case", list(GERMAN))
def test_the_german_page_names_each_problem_in_german(client: Client, case: str) -> None:
    club = build_club()
    admin_of(club, client)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    content, _where = _broken(club)[case]
    before = written()
    text = refusal(upload(client, club, content).content.decode())
    assert GERMAN[case] in text, text[-1500:]
    english = set(english_on(text, ENGLISH_WORDS)) - BOTH_LANGUAGES
    assert not english, english
    assert written() == before


@pytest.mark.parametrize("case", list(ENGLISH))
def test_the_english_page_names_each_problem_in_english(client: Client, case: str) -> None:
    club = build_club()
    admin_of(club, client)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    content, _where = _broken(club)[case]
    text = problems_on(upload(client, club, content).content.decode())
    assert ENGLISH[case] in text, text
    shown = [word for word in GERMAN_WORDS if word in text]
    assert not shown, shown


def test_a_problem_found_only_at_the_confirmation_is_german_too(client: Client) -> None:
    """The club changed between preview and confirmation (its season was renamed): the
    confirmation refuses, in the page's language, and writes nothing."""
    club = build_club()
    admin_of(club, client)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    doc = json.loads(evening_file(club))
    doc["name"] = "Später bestätigt"
    assert doc["season"]
    upload(client, club, json.dumps(doc).encode())
    Season.objects.filter(club=club, name=doc["season"]).update(name="Umbenannt")
    pending = PendingImport.objects.get(club=club)
    before = written()
    page = client.post(reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
                       {"digest": pending.digest}, follow=True).content.decode()
    text = refusal(page)
    assert (f"Nichts wurde übernommen: Der Club 'skatfreunde-altenburg' hat keine Saison "
            f"'{doc['season']}'") in text, text[-1500:]
    assert not english_on(text, ENGLISH_WORDS + ["has no season"])
    assert written() == before and not Evening.objects.filter(name=doc["name"]).exists()


def problem(call: Any, *args: Any) -> ImportProblem:
    before = counts()
    with pytest.raises(ImportProblem) as info:
        call(*args)
    assert counts() == before
    return info.value


def test_the_reader_says_each_problem_in_either_language_and_english_by_default() -> None:
    club = build_club()
    doc = exported(club)
    doc["name"] = "Zweisprachig"
    doc["tables"][0]["deals"][2]["note"] = nested(30)
    err = problem(import_evening, doc)
    assert str(err) == err.message_in("en") == err.message_in(None) == (
        "Table 1, deal 3: nested too deep (objects and lists at most 16 levels deep).")
    assert err.message_in("de") == err.message_in("de-at") == (
        "Tisch 1, Spiel 3: zu tief verschachtelt (Objekte und Listen höchstens 16 Ebenen "
        "tief).")
    doc = exported(club)
    doc["tables"][1]["deleted_deals"] = [{"position": 1, "record": {"kind": "passed"}},
                                         {"position": 1, "record": {"kind": "passed"}}]
    err = problem(import_evening, doc)
    assert str(err) == "Table 2, deleted deal 2: position 1 is given twice."
    assert err.message_in("de") == "Tisch 2, gelöschtes Spiel 2: Position 1 ist doppelt angegeben."


def test_a_club_file_names_the_evening_in_german_and_the_engine_speaks_german() -> None:
    club = build_club()
    evening = exported(club)
    evening["tables"][0]["players"] = ["Anna", "Anna", "Bernd"]
    document: dict[str, Any] = {"club": club.slug, "name": club.name,
                                "evenings": [exported(club), evening]}
    err = problem(import_club, document)
    assert str(err).startswith("Evening 2: Table 1 (players): Two players have the same name")
    german = err.message_in("de")
    assert german.startswith("Abend 2: Tisch 1 (players): "), german
    assert "Two players" not in german and "same name" not in german
    document["evenings"][1] = {**exported(club), "club": "anderer-club"}
    err = problem(import_club, document)
    assert str(err) == ("Evening 2: The evening belongs to club 'anderer-club', not "
                        f"'{club.slug}'.")
    assert err.message_in("de") == ("Abend 2: Der Abend gehört zum Club 'anderer-club', nicht "
                                     f"zu '{club.slug}'.")


def test_a_file_too_large_or_not_json_in_german() -> None:
    err = problem(loads, b" " * (MAX_FILE_BYTES + 1))
    assert str(err) == ("The file is too large: 20,971,521 bytes; at most 20,971,520 bytes "
                        "can be imported at once.")
    assert err.message_in("de") == ("Die Datei ist zu groß: 20.971.521 Bytes; höchstens "
                                    "20.971.520 Bytes können auf einmal übernommen werden.")
    err = problem(loads, b'{"name": "\xff"}')
    assert err.message_in("de") == "Die Datei ist kein UTF-8-Text."
    err = problem(loads, b'{"stake": NaN}')
    assert err.message_in("de") == "Ungültiges JSON: NaN ist keine Zahl, die JSON erlaubt."
    err = problem(loads, b'{"a": 1,}')
    assert str(err) == ("Invalid JSON at line 1, column 9: Expecting property name enclosed "
                        "in double quotes.")
    assert err.message_in("de") == ("Ungültiges JSON in Zeile 1, Spalte 9: ein Feldname in "
                                    "doppelten Anführungszeichen wird erwartet.")
    err = problem(loads, b"[" * 100_000)
    assert err.message_in("de").startswith("Die Datei: zu tief verschachtelt in Zeile 1, Spalte 17")


def test_the_command_keeps_printing_english(tmp_path: Any) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    path = tmp_path / "kaputt.json"
    path.write_text('{"club": "x",\n "date": }', encoding="utf-8")
    with pytest.raises(CommandError) as info:
        call_command("import_evening", str(path))
    assert str(info.value) == ("Invalid JSON at line 2, column 10: Expecting value. Nothing was "
                               "imported.")
