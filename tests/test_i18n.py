"""German comes first: every translatable string has a German translation, and the pages show it.

- The committed catalogue has no empty msgstr, no fuzzy entry and keeps every placeholder.
- A fresh ``makemessages`` run over the code and templates finds no string that the committed
  catalogue lacks: a new ``{% translate %}`` or ``_()`` without a German line fails here.
- Pages rendered in German contain none of the English texts the catalogue translates.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

if TYPE_CHECKING:
    from scoring.models import Club

ROOT = Path(__file__).resolve().parent.parent
PO_FILE = ROOT / "scoring/locale/de/LC_MESSAGES/django.po"
# What `make messages` scans, and the same ignores (relative to a copy of these, most of them
# match nothing, but the two runs should agree on what counts as a source).
SOURCES = ["scoring", "skatclub", "templates", "manage.py"]
IGNORES = [".venv*", "staticfiles", "static", "tests", ".pytest-tmp"]


@dataclass
class Entry:
    msgid: str = ""
    msgstrs: list[str] = field(default_factory=list)
    fuzzy: bool = False
    line: int = 0
    msgctxt: str | None = None
    msgid_plural: str | None = None
    python_format: bool = False
    refs: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid

    def where(self) -> str:
        refs = f" ({', '.join(self.refs)})" if self.refs else ""
        context = f"[{self.msgctxt}] " if self.msgctxt is not None else ""
        return f"line {self.line}: {context}{self.msgid!r}{refs}"


def parse_po(text: str) -> list[Entry]:
    """A minimal .po reader: msgctxt, msgid, msgid_plural, msgstr[n], continuation lines,
    flags and references. Obsolete entries (#~) are skipped."""
    entries: list[Entry] = []
    current = Entry()
    target: str | None = None  # which keyword the next continuation line belongs to

    def finish() -> None:
        nonlocal current, target
        if current.msgstrs:
            entries.append(current)
        current, target = Entry(), None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            finish()
        elif line.startswith("#"):
            if current.msgstrs:  # a comment after a msgstr opens the next entry
                finish()
            if line.startswith("#,"):
                flags = {flag.strip() for flag in line[2:].split(",")}
                current.fuzzy = current.fuzzy or "fuzzy" in flags
                current.python_format = current.python_format or "python-format" in flags
            elif line.startswith("#:"):
                current.refs += line[2:].split()
        elif line.startswith('"'):
            value = ast.literal_eval(line)
            if target == "msgid":
                current.msgid += value
            elif target == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + value
            elif target == "msgctxt":
                current.msgctxt = (current.msgctxt or "") + value
            elif target == "msgstr":
                current.msgstrs[-1] += value
        else:
            keyword, _, rest = line.partition(" ")
            value = ast.literal_eval(rest)
            if keyword in ("msgid", "msgctxt") and current.msgstrs:
                finish()
            if keyword == "msgid":
                current.msgid, target = value, "msgid"
                current.line = current.line or number
            elif keyword == "msgctxt":
                current.msgctxt, current.line, target = value, number, "msgctxt"
            elif keyword == "msgid_plural":
                current.msgid_plural, target = value, "msgid_plural"
            elif keyword.startswith("msgstr"):
                current.msgstrs.append(value)
                target = "msgstr"
            else:
                target = None
    finish()
    return entries


def committed() -> list[Entry]:
    return [e for e in parse_po(PO_FILE.read_text(encoding="utf-8")) if e.msgid]


def translated(entry: Entry) -> bool:
    return bool(entry.msgstrs) and all(entry.msgstrs) and not entry.fuzzy


# ---------------------------------------------------------------- the committed catalogue

def test_parser_sees_fuzzy_and_empty_entries() -> None:
    sample = (
        '#, fuzzy\nmsgid "a"\nmsgstr "b"\n\n'
        'msgid "c"\nmsgstr ""\n"d"\n\n'
        '#: home.html:3\nmsgid "e"\nmsgstr ""\n'
    )
    entries = parse_po(sample)
    assert [(e.msgid, e.msgstrs, e.fuzzy) for e in entries] == [
        ("a", ["b"], True),
        ("c", ["d"], False),
        ("e", [""], False),
    ]
    assert entries[2].refs == ["home.html:3"]


def test_parser_reads_context_and_plurals() -> None:
    sample = (
        '#: a.html:1\n#, python-format\nmsgctxt "ctx"\nmsgid "%(n)s deal"\n'
        'msgid_plural "%(n)s "\n"deals"\nmsgstr[0] "%(n)s Spiel"\nmsgstr[1] ""\n\n'
        'msgid "x"\nmsgstr "y"\n'
    )
    first, second = parse_po(sample)
    assert first.key == ("ctx", "%(n)s deal")
    assert first.msgid_plural == "%(n)s deals"
    assert first.msgstrs == ["%(n)s Spiel", ""]
    assert first.python_format and not translated(first)
    assert second.key == (None, "x") and translated(second)


def test_german_catalogue_is_complete() -> None:
    entries = committed()
    assert entries, f"no messages found in {PO_FILE}"
    untranslated = [e.where() for e in entries if not all(e.msgstrs)]
    fuzzy = [e.where() for e in entries if e.fuzzy]
    assert not untranslated, "untranslated: " + "; ".join(untranslated)
    assert not fuzzy, "fuzzy: " + "; ".join(fuzzy)


def test_header_is_not_fuzzy() -> None:
    # makemessages marks a fresh header fuzzy, and msgfmt then ignores the whole header,
    # including the charset and plural forms.
    header = parse_po(PO_FILE.read_text(encoding="utf-8"))[0]
    assert header.msgid == ""
    assert not header.fuzzy
    assert "charset=UTF-8" in header.msgstrs[0]
    assert "nplurals=2; plural=(n != 1);" in header.msgstrs[0]


PLACEHOLDER = re.compile(r"%(?:\([A-Za-z_]\w*\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]")


def placeholders(text: str) -> list[str]:
    return sorted(p for p in PLACEHOLDER.findall(text) if p != "%%")


def test_translations_keep_every_placeholder() -> None:
    wrong = []
    for e in committed():
        if not e.python_format:
            continue
        sources = [e.msgid] if e.msgid_plural is None else [e.msgid, e.msgid_plural]
        for index, msgstr in enumerate(e.msgstrs):
            source = sources[min(index, len(sources) - 1)]
            if placeholders(msgstr) != placeholders(source):
                wrong.append(f"{e.where()} -> {msgstr!r}")
    assert not wrong, "placeholders differ: " + "; ".join(wrong)


def test_plural_entries_have_both_german_forms() -> None:
    short = [e.where() for e in committed() if e.msgid_plural is not None and len(e.msgstrs) != 2]
    assert not short, "German needs msgstr[0] and msgstr[1]: " + "; ".join(short)


# ---------------------------------------------------------------- the code against the catalogue

def extract(workdir: Path) -> list[Entry]:
    """Run makemessages, as `make messages` does, on a copy of the sources without their
    catalogue: the .po it writes holds exactly the strings the code marks for translation."""
    if shutil.which("xgettext") is None:
        pytest.fail("xgettext is missing: install Debian's gettext (make install does)")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, workdir / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", "*.po", "*.mo"))
        else:
            shutil.copy2(source, workdir / name)
    (workdir / "scoring/locale/de/LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "manage.py", "makemessages", "--locale", "de", "--no-obsolete",
               "--no-location"]
    for pattern in IGNORES:
        command += ["--ignore", pattern]
    done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"makemessages failed:\n{done.stdout}\n{done.stderr}"
    po = workdir / "scoring/locale/de/LC_MESSAGES/django.po"
    assert po.exists(), f"makemessages wrote no catalogue:\n{done.stdout}\n{done.stderr}"
    return [e for e in parse_po(po.read_text(encoding="utf-8")) if e.msgid]


@pytest.mark.slow
def test_every_translatable_string_has_a_german_translation(tmp_path: Path) -> None:
    found = extract(tmp_path)
    assert len(found) > 100, f"makemessages found only {len(found)} strings: wrong sources?"
    catalogue = {e.key: e for e in committed()}
    missing, untranslated, plural = [], [], []
    for e in found:
        entry = catalogue.get(e.key)
        if entry is None:
            missing.append(e.where().split(": ", 1)[1])
        elif not translated(entry):
            untranslated.append(entry.where())
        elif entry.msgid_plural != e.msgid_plural:
            plural.append(entry.where())
    assert not missing, (
        "strings marked for translation but not in the German catalogue (run `make messages`, "
        "translate, commit the .po): " + "; ".join(missing))
    assert not untranslated, "empty or fuzzy in the German catalogue: " + "; ".join(untranslated)
    assert not plural, "the plural form changed (run `make messages`): " + "; ".join(plural)


# ---------------------------------------------------------------- the pages in German

class VisibleText(HTMLParser):
    """The text a reader sees or hears: text nodes (not scripts or styles) and the attributes
    that are shown or read out."""

    SPOKEN = ("aria-label", "title", "placeholder", "alt", "data-offline")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0
        self._datalist = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
        elif tag == "datalist":
            self._datalist += 1
        self.parts += [value for name, value in attrs if name in self.SPOKEN and value]
        # Button values and the suggestions of a datalist are shown as well.
        if (tag == "input" and values.get("type") in ("submit", "button")) or (
                tag == "option" and self._datalist):
            self.parts.append(values.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        elif tag == "datalist" and self._datalist:
            self._datalist -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


# English a German page must never show; they were all on the pages before the catalogue was
# filled in. Skat terms of art (Kontra, Re, Bock, Ramsch, Hand, Schneider …) are German anyway.
ENGLISH = [
    "Table code", "Sign in", "Sign out", "New deal", "Declarer", "Forehand", "Middlehand",
    "Rearhand", "Dealer", "Score sheet", "Evening overview", "Audit log", "Table codes",
    "Card points", "Tricks", "Save", "Round ", "deal ", "No deals yet", "Totals", "Total",
    "Players", "Evenings", "Rule profiles", "Change password", "Language", "Settlement",
    "Seeger-Fabian points", "next dealer", "Bock round", "Ramsch round", "won", "lost",
    "with ", "without ", "Print", "valid until", "Members", "Add a table", "Username",
    "Password", "Site administration", "Skip to content", "Correct", "History", "Reason",
    "Evening", "Record", "Bid", "Result", "Concession", "Penalty", "Passed in", "Misdeal",
    "Club evening", "International Skat Order", "classic points",
]


@functools.cache
def translated_phrases() -> frozenset[str]:
    """Every message of the catalogue of two or more words, without placeholders or markup,
    whose German differs from the English."""
    return frozenset(
        e.msgid for e in committed()
        if len(e.msgid.split()) >= 2 and "%" not in e.msgid and "<" not in e.msgid
        and e.msgid_plural is None and e.msgstrs and e.msgstrs[0] != e.msgid)


def english_on(text: str, extra: list[str]) -> list[str]:
    """The English phrases found in ``text``: the list above, ``extra`` and the catalogue's
    translated phrases."""
    phrases = set(ENGLISH) | set(extra) | translated_phrases()
    found = []
    for phrase in phrases:
        if phrase.endswith(" ") or not phrase[:1].isalpha():
            hit = phrase in text
        else:
            hit = re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text) is not None
        if hit:
            found.append(phrase)
    return sorted(found)


@pytest.fixture
def demo(db: None) -> dict[str, int]:
    """The demo club: a played evening at a 3-table and a 4-table, its admin signed in."""
    from scoring.models import Evening

    call_command("demo", stdout=io.StringIO())
    evening = Evening.objects.get(club__slug="demo", match_day__isnull=True)
    tables = list(evening.tables.order_by("number"))
    deal = tables[0].deals.order_by("position").first()
    assert deal is not None
    return {"evening": evening.pk, "table": tables[0].pk, "table4": tables[1].pk,
            "deal": deal.pk}


GERMAN = {"accept-language": "de"}


def check_german(client: Client, url: str, *, must_show: list[str],
                 extra: list[str] | None = None) -> None:
    response = client.get(url, headers=GERMAN)
    assert response.status_code == 200, url
    text = visible_text(response.content.decode())
    english = english_on(text, extra or [])
    assert not english, f"{url} shows English: {english}"
    missing = [word for word in must_show if word not in text]
    assert not missing, f"{url} lacks the German {missing}"


def test_the_landing_pages_speak_german(client: Client, db: None) -> None:
    from scoring.models import Club

    Club.objects.create(name="Skatfreunde Altenburg", slug="altenburg")  # else: the set-up
    check_german(client, reverse("scoring:home"),
                 must_show=["Tischcode", "Anmelden", "Tisch öffnen", "Sprache"])
    check_german(client, reverse("login"), must_show=["Anmelden", "Benutzername", "Passwort"])
    check_german(client, reverse("scoring:code-entry"), must_show=["Tisch öffnen"])


def test_the_club_pages_speak_german(client: Client, demo: dict[str, int]) -> None:
    client.login(username="demo", password="skat-demo")
    check_german(client, reverse("scoring:club", args=["demo"]),
                 must_show=["Abende", "Spieler", "Regelprofile", "Neuer Abend", "Tischcodes"])
    check_german(client, reverse("scoring:codes", args=[demo["evening"]]),
                 must_show=["Tischcodes", "Tisch 1", "gültig bis", "Drucken"])
    check_german(client, reverse("scoring:evening-create", args=["demo"]),
                 must_show=["Neuer Abend", "Platz 1", "Erster Geber", "Einsatz je Punkt"])
    check_german(client, reverse("scoring:members", args=["demo"]),
                 must_show=["Mitglieder und Konten", "Rolle", "Club-Admin"])
    check_german(client, reverse("scoring:table-create", args=[demo["evening"]]),
                 must_show=["Tisch hinzufügen", "Platz 1"])
    check_german(client, reverse("password_change"), must_show=["Passwort ändern"])


def test_the_table_screen_speaks_german(client: Client, demo: dict[str, int]) -> None:
    client.login(username="demo", password="skat-demo")
    for table in (demo["table"], demo["table4"]):
        check_german(client, reverse("scoring:table", args=[table]),
                     must_show=["Neues Spiel", "Alleinspieler", "Vorhand", "Mittelhand",
                                "Hinterhand", "Geber", "Reizwert", "Augen", "Speichern",
                                "Runde", "Spiele", "gewonnen", "über 60", "mehr…",
                                "Verlierer: die meisten Augen", "Durchmarsch (alle Stiche)"])
    check_german(client, reverse("scoring:deal-edit", args=[demo["table"], demo["deal"]]),
                 must_show=["Spiel korrigieren", "Grund der Korrektur", "Tippfehler"])


def test_the_sheets_speak_german(client: Client, demo: dict[str, int]) -> None:
    client.login(username="demo", password="skat-demo")
    for layout in ("standard", "historical"):
        check_german(client, reverse("scoring:sheet", args=[demo["table"]]) + f"?layout={layout}",
                     must_show=["Spielliste", "Summe", "nächster Geber", "Abendübersicht"])
    check_german(client, reverse("scoring:sheet", args=[demo["table4"]]),
                 must_show=["Geber", "Alleinspieler", "Reizwert", "Ergebnis", "Hausregeln",
                            "Abrechnung (EUR)", "Verlauf"])
    check_german(client, reverse("scoring:evening", args=[demo["evening"]]),
                 must_show=["Änderungsprotokoll", "Tisch 1", "Tisch 2", "Summe"])
    check_german(client, reverse("scoring:evening-audit", args=[demo["evening"]]),
                 must_show=["Änderungsprotokoll", "eingetragen", "Wann", "Wer"])
    check_german(client, reverse("scoring:deal-history", args=[demo["table"], demo["deal"]]),
                 must_show=["Verlauf von Spiel", "Zurück zur Spielliste"])


def test_the_admin_speaks_german(client: Client, demo: dict[str, int]) -> None:
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", password="pw-for-tests-only")
    client.force_login(admin)
    check_german(client, reverse("admin:index"),
                 must_show=["Wertung", "Abende", "Regelprofile", "Änderungsprotokoll"],
                 extra=["Scoring", "Audit log", "Deals", "Tables", "Seats"])
    check_german(client, reverse("admin:scoring_deal_changelist"),
                 must_show=["Nummer", "gelöscht", "Spiel"], extra=["Position", "Deleted"])
    check_german(client, reverse("admin:scoring_auditentry_changelist"),
                 must_show=["Aktion", "Abend", "Tisch"], extra=["Actor", "Action"])
    check_german(client, reverse("admin:scoring_membership_changelist"),
                 must_show=["Benutzer", "Club", "Rolle"], extra=["User", "Role"])


def test_english_is_still_english(client: Client, demo: dict[str, int]) -> None:
    """The other direction: the catalogue must not leak German into the English site."""
    client.login(username="demo", password="skat-demo")
    html = client.get(reverse("scoring:table", args=[demo["table"]]),
                      headers={"accept-language": "en"}).content.decode()
    text = visible_text(html)
    assert "New deal" in text and "Declarer" in text and "Forehand" in text
    assert "Neues Spiel" not in text and "Alleinspieler" not in text


# ---------------------------------------------------------------- the pages of issues 16 and 17

def german_page(response: Any, *, must_show: list[str], status: int = 200) -> str:
    """``check_german`` for a response at hand (a POST's answer, a refusal with its status)."""
    assert response.status_code == status, response.status_code
    text = visible_text(response.content.decode())
    english = english_on(text, [])
    assert not english, f"shows English: {english}"
    missing = [word for word in must_show if word not in text]
    assert not missing, f"lacks the German {missing}"
    return text


def german_profiles(club: Club) -> None:
    """The test factories name a club's preset profiles (and its evenings' profile names) in
    English; a German club has them in German, as the set-up page makes them."""
    from django.utils import translation
    from django.utils.translation import gettext

    from scoring.models import Evening, RuleProfile

    with translation.override("de"):
        for profile in RuleProfile.objects.filter(club=club):
            profile.name = gettext(profile.name)
            profile.save(update_fields=["name"])
        for evening in Evening.objects.filter(club=club):
            evening.profile_name = gettext(evening.profile_name)
            evening.save(update_fields=["profile_name"])


def test_setting_up_and_registering_speak_german(client: Client, db: None,
                                                 settings: Any) -> None:
    from django.core.cache import cache

    from scoring.models import Club

    check_german(client, reverse("scoring:setup"),
                 must_show=["Skatclub einrichten", "Benutzername", "Passwort"])
    german_page(client.post(reverse("scoring:setup"), {"username": "a", "password1": "1",
                                                       "password2": "2"}, headers=GERMAN),
                must_show=["Skatclub einrichten", "Dieses Feld ist zwingend erforderlich."])
    Club.objects.create(name="Skatfreunde Altenburg", slug="altenburg")
    settings.CLUB_REGISTRATION = True
    cache.clear()
    check_german(client, reverse("scoring:register"), must_show=["Club anmelden"])
    german_page(client.post(reverse("scoring:register-confirm", args=["forged"]),
                            headers=GERMAN), status=410,
                must_show=["Bestätigungslink ist ungültig"])


def test_invitations_and_accounts_speak_german(client: Client, db: None) -> None:
    from scoring.writes import onboarding

    from .web.factories import make_club, make_user

    club = make_club()
    admin = make_user(club, "admin")
    invitation = onboarding.invitation_create(club=club, role="scorer", email="", by=admin)
    url = reverse("scoring:invitation", args=[invitation.token])
    check_german(client, url, must_show=["Einladung", "Benutzername", "Passwort"])
    german_page(client.post(url, {"username": "", "password1": "1", "password2": "2"},
                            headers=GERMAN), must_show=["Einladung"])
    onboarding.invitation_create(club=club, role="viewer", email="gast@example.org", by=admin)
    onboarding.invitation_revoke(invitation)
    german_page(client.get(url, headers=GERMAN), status=410,
                must_show=["Einladung", "zurückgezogen"])
    client.force_login(admin)
    check_german(client, reverse("scoring:members", args=[club.slug]),
                 must_show=["Mitglieder", "Einladung", "gast@example.org"])
    check_german(client, reverse("scoring:account"), must_show=["Ihr Konto"])
    check_german(client, reverse("scoring:my-results", args=[club.slug]),
                 must_show=["Meine Ergebnisse"])


def test_bringing_old_lists_in_speaks_german(client: Client, db: None) -> None:
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from scoring.models import Evening, PendingImport
    from scoring.reads.export import evening_export

    from .web.factories import make_user
    from .web.interchange_data import build_club, evening_of

    club = build_club()
    german_profiles(club)
    client.force_login(make_user(club, "admin"))
    upload_url = reverse("scoring:import", args=[club.slug])
    page = visible_text(client.get(upload_url, headers=GERMAN).content.decode())
    # "gewonnen, won", "verloren, lost": the CSV headers accepted, in either language
    assert set(english_on(page, [])) <= {"won", "lost"}, english_on(page, [])
    assert "Alte Listen übernehmen" in page and "Datei prüfen" in page
    doc = json.loads(json.dumps(evening_export(evening_of(club))))
    doc["name"] = "Neu"

    def upload(content: bytes) -> Any:
        return client.post(upload_url, {"kind": "json",
                                        "file": SimpleUploadedFile("abend.json", content)},
                           headers=GERMAN, follow=True)

    german_page(upload(json.dumps(doc).encode()),
                must_show=["Vorschau der Übernahme", "1 Abend wird hinzugefügt", "gelöscht",
                           "Jetzt übernehmen"])
    pending = PendingImport.objects.get(club=club)
    german_page(client.post(reverse("scoring:import-confirm", args=[club.slug, pending.pk]),
                            {"digest": pending.digest}, headers=GERMAN, follow=True),
                must_show=["1 Abend wurde hinzugefügt."])
    german_page(upload(json.dumps(doc).encode()), must_show=["Nichts Neues"])
    doc["tables"][0]["deals"][1]["note"] = {"x": 1}
    german_page(upload(json.dumps(doc).encode()),
                must_show=["kann nicht übernommen werden", "Tisch 1, Spiel 2: note muss"])
    evening = Evening.objects.get(club=club, name="Neu")
    check_german(client, reverse("scoring:evening-audit", args=[evening.pk]),
                 must_show=["abend.json", "hinzugefügt"])
    delete_url = reverse("scoring:evening-delete", args=[evening.pk])
    check_german(client, delete_url, must_show=["Abend löschen", "2 Tische"])
    client.post(delete_url, {"sure": "on", "reason": "doppelt"}, headers=GERMAN)
    check_german(client, reverse("scoring:club-log", args=[club.slug]),
                 must_show=["Vereinsprotokoll", "Abend gelöscht", "doppelt"])


def test_the_tournament_pages_speak_german(client: Client, db: None) -> None:
    from scoring.writes.tournament import series_draw

    from .web.factories import make_club, make_user
    from .web.tournaments import fill_series, make_tournament

    club = make_club()
    client.force_login(make_user(club, "admin"))
    tournament = make_tournament(club, public=True)
    german_profiles(club)
    check_german(client, reverse("scoring:tournament-create", args=[club.slug]),
                 must_show=["Neues Turnier"])
    check_german(client, reverse("scoring:tournament", args=[tournament.pk]),
                 must_show=["Preisskat", "Startgeld"])
    series_draw(tournament=tournament, seed=1)
    fill_series(tournament, 1)
    check_german(client, reverse("scoring:tournament", args=[tournament.pk]),
                 must_show=["Preisskat", "Serie"])
    check_german(client, reverse("scoring:tournament-results", args=[tournament.pk]),
                 must_show=["Rangliste", "Serie"])
    for name in ("scoring:board", "scoring:board-tv"):
        check_german(client, reverse(name, args=[tournament.board_key]),
                     must_show=["Live-Anzeige", "Stand"])
