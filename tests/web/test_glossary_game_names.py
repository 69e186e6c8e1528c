"""Every game's name and every level word, in English and German, as the glossary words them
(design/glossary.md, copied here: tests never read the shared folder), on the engine's
explanation line and on the score sheet (selectors.game_label + details_of, which the HTML
sheet, the PDFs and the table screen all read).

Glossary rows this table follows:
  Spiel n, Hand, Schneider, Schneider angesagt, Schwarz, Schwarz angesagt, Ouvert (offen)
  | game n, hand, schneider, schneider announced, schwarz, schwarz announced, ouvert (open)
  Kreuz, Pik, Herz, Karo | clubs, spades, hearts, diamonds
  Grand, Null, Null Hand, Null ouvert, Null ouvert Hand | Grand, Null, …
  Frage, Tourné, Solo, Guckser/Gucki, passt mir nicht, Revolution, Nullo
  | Call play, Tourné, Solo, Guckser/Gucki, passt mir nicht, Revolution, Nullo
The English Null names keep the capital of the rules and the spec ("Null Ouvert Hand"),
which the glossary's "…" leaves as they are.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.engine import HISTORIC_GAMES, ISKO_GAMES, evaluate, legal_bids, parse_options
from scoring.reads.rule_words import describe_rules
from scoring.reads.sheet import details_of, game_label

from . import pdfs
from .factories import login, make_club, make_table, make_user
from .test_pdf_sheet import umlaut_table
from .test_sheet_pages import play

SUITS = {"clubs": ("Clubs", "Kreuz"), "spades": ("Spades", "Pik"),
         "hearts": ("Hearts", "Herz"), "diamonds": ("Diamonds", "Karo")}

# The historical families: English and German name of each (glossary), suit first.
FAMILIES = {"frage": ("Call play", "Frage"), "tourne": ("Tourné", "Tourné"),
            "solo": ("Solo", "Solo")}


def _suit_names(prefix: str) -> dict[str, tuple[str, str]]:
    en, de = FAMILIES[prefix]
    return {f"{prefix}_{suit}": (f"{s_en} {en}", f"{s_de}-{de}")
            for suit, (s_en, s_de) in SUITS.items()}


EXPECTED: dict[str, dict[str, tuple[str, str]]] = {
    "isko": {**{suit: names for suit, names in SUITS.items()},
             "grand": ("Grand", "Grand"), "null": ("Null", "Null")},
    "american1898": {
        **_suit_names("frage"), **_suit_names("tourne"), **_suit_names("solo"),
        "grand_solo": ("Grand Solo", "Grand-Solo"),
        "grand_tourne": ("Grand Tourné", "Grand-Tourné"),
        "guckser_grand": ("Guckser Grand", "Guckser-Grand"),
        "grand_ouvert": ("Grand Ouvert", "Grand Ouvert"),
        "nullo": ("Nullo", "Nullo"),
        "nullo_ouvert": ("Nullo Ouvert", "Nullo ouvert"),
        "revolution": ("Revolution", "Revolution"),
        "nullo_purchase": ("Nullo Purchase", "Kauf-Nullo"),
        "nullo_tourne": ("Nullo Tourné", "Nullo-Tourné"),
        "nullo_tourne_ouvert": ("Nullo Tourné Ouvert", "Nullo-Tourné ouvert"),
        "uno": ("Uno", "Uno"), "duo": ("Duo", "Duo"),
        "nullo_tricks": ("Nullo with tricks", "Nullo mit Stichen"),
    },
    "hoyle": {
        **_suit_names("frage"), **_suit_names("tourne"), **_suit_names("solo"),
        "grand_tourne": ("Grand Tourné", "Grand-Tourné"),
        "gucki_grand": ("Gucki Grand", "Gucki-Grand"),
        "grand_solo": ("Grand Solo", "Grand-Solo"),
        "grand_ouvert": ("Grand Ouvert", "Grand Ouvert"),
        "gucki_nullo": ("Gucki Nullo", "Gucki-Nullo"),
        "gucki_nullo_ouvert": ("Gucki Nullo Ouvert", "Gucki-Nullo ouvert"),
        "nullo": ("Nullo", "Nullo"),
        "nullo_ouvert": ("Nullo Ouvert", "Nullo ouvert"),
        "revolution": ("Revolution", "Revolution"),
        "uno": ("Uno", "Uno"), "duo": ("Duo", "Duo"),
    },
}
# Null's declarations are part of its name (glossary: Null Hand, Null ouvert, Null ouvert Hand).
NULL_NAMES = {(False, False): ("Null", "Null"), (True, False): ("Null Hand", "Null Hand"),
              (False, True): ("Null Ouvert", "Null ouvert"),
              (True, True): ("Null Ouvert Hand", "Null ouvert Hand")}
# The levels (Gewinnstufen) as the explanation counts them, and as the sheet names a declaration.
LEVELS = {"en": ["game", "hand", "schneider", "schneider announced", "schwarz",
                 "schwarz announced", "ouvert"],
          "de": ["Spiel", "Hand", "Schneider", "Schneider angesagt", "Schwarz",
                 "Schwarz angesagt", "Ouvert"]}
DECLARED = {"en": {"hand": "Hand", "ouvert": "Ouvert", "schneider_announced": "Schneider announced",
                   "schwarz_announced": "Schwarz announced"},
            "de": {"hand": "Hand", "ouvert": "Ouvert", "schneider_announced": "Schneider angesagt",
                   "schwarz_announced": "Schwarz angesagt"}}
ALL_ON: dict[str, dict[str, Any]] = {
    "american1898": {"frage": True, "revolution": True, "exceptional": [
        "nullo_purchase", "nullo_tourne", "uno", "duo", "nullo_tricks"]},
    "hoyle": {"frage": True, "revolution": True, "uno_duo": True}, "isko": {}}
WRONG_IN = {"en": ("Kreuz", "Pik", "Herz", "Karo", "Spiel ", "angesagt", "Stich", "Frage",
                   "Tourne ", "Tourne\b"),
            "de": ("Clubs", "Spades", "Hearts", "Diamonds", "announced", "with ", "Call",
                   "Purchase", "Tourne ", "Null Ouvert")}


def _record(system: str, key: str, **declared: bool) -> dict[str, Any]:
    games = ISKO_GAMES[24] if system == "isko" else HISTORIC_GAMES[system]
    game = games[key]
    options = parse_options(system, ALL_ON[system], 3)
    record: dict[str, Any] = {"kind": "game", "rules": system, "options": ALL_ON[system],
                              "declarer": 0, "game": key, **declared}
    if game.multiplied:
        bid = min(legal_bids(system, options))
        record.update(matadors=1, bid=bid, result="won")
        if declared.get("schwarz_announced"):
            record.update(result=None, declarer_points=120, declarer_tricks=10)
        elif declared.get("schneider_announced"):
            record.update(result=None, declarer_points=95, declarer_tricks=8)
        elif game.all_levels:
            record.update(result=None, declarer_points=120, declarer_tricks=10)
    else:
        fixed = game.ouvert_value if declared.get("ouvert") else game.base
        if game.null:
            bid = 18
        else:
            assert fixed is not None, f"{key} played ouvert has its value"
            bid = fixed
        record.update(bid=bid, declarer_tricks=game.win_tricks or 0)
    return record


def _cases() -> list[tuple[str, str, dict[str, bool]]]:
    cases: list[tuple[str, str, dict[str, bool]]] = []
    for system, names in EXPECTED.items():
        games = ISKO_GAMES[24] if system == "isko" else HISTORIC_GAMES[system]
        assert set(names) == set(games), f"{system}: the table names every game"
        for key, game in games.items():
            if system == "isko":
                combos = [{"hand": h, "ouvert": o} for h in (False, True) for o in (False, True)
                          if game.null or not o or h]
                if not game.null:
                    combos += [{"hand": True, "schneider_announced": True},
                               {"hand": True, "schneider_announced": True,
                                "schwarz_announced": True}]
            else:
                combos = [{}]
                if game.ouvert_value:
                    combos.append({"ouvert": True})
                if game.announce:
                    combos += [{"schneider_announced": True},
                               {"schneider_announced": True, "schwarz_announced": True}]
            cases += [(system, key, combo) for combo in combos]
    return cases


def _name(system: str, key: str, declared: dict[str, bool], lang: str) -> str:
    i = 0 if lang == "en" else 1
    if system == "isko" and key == "null":
        return NULL_NAMES[bool(declared.get("hand")), bool(declared.get("ouvert"))][i]
    name = EXPECTED[system][key][i]
    if system != "isko" and declared.get("ouvert"):  # Uno and Duo played open
        name += " Ouvert" if lang == "en" else " ouvert"
    return name


@pytest.mark.parametrize(("system", "key", "declared"), _cases(),
                         ids=lambda v: v if isinstance(v, str) else "+".join(v) or "plain")
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_name_on_the_explanation_line_and_the_sheet(system: str, key: str,
                                                        declared: dict[str, bool],
                                                        lang: str) -> None:
    record = _record(system, key, **declared)
    explanation = evaluate(record, lang)["explanation"]
    name = _name(system, key, declared, lang)
    # the name stands whole, followed by its base or value (× Kreuz 12, Null ouvert Hand 59)
    assert re.search(rf"(^|× ){re.escape(name)} \d+ ", explanation), (name, explanation)
    for wrong in WRONG_IN[lang]:
        assert not re.search(wrong if wrong.endswith("\b") else re.escape(wrong),
                             explanation), (wrong, explanation)

    with translation.override(lang):
        label, _symbol, _red = game_label(system, ALL_ON[system], record, lang)
        details = details_of(record, label)
    game = (ISKO_GAMES[24] if system == "isko" else HISTORIC_GAMES[system])[key]
    if game.null or not (game.ouvert_value and declared.get("ouvert")):
        assert label == name
    else:  # Uno Ouvert: the sheet names the game, the declaration stands beside it
        assert label == EXPECTED[system][key][lang == "de"]
    sheet = " ".join([label, *details])
    for field, on in declared.items():
        word = DECLARED[lang][field]
        if on:
            assert word.casefold() in sheet.casefold(), (word, sheet)
    for wrong in WRONG_IN[lang]:
        assert not re.search(wrong if wrong.endswith("\b") else re.escape(wrong), sheet), (
            wrong, sheet)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_level_word_of_a_suit_game(lang: str) -> None:
    # Hand, Schneider angesagt, Schwarz angesagt, Ouvert: every level a suit game can reach
    record = {"kind": "game", "declarer": 0, "game": "clubs", "hand": True, "ouvert": True,
              "schneider_announced": True, "schwarz_announced": True, "matadors": 1,
              "bid": 18, "declarer_points": 120, "declarer_tricks": 10}
    explanation = evaluate(record, lang)["explanation"]
    chain = ", ".join(f"{word} {n}" for n, word in enumerate(LEVELS[lang], start=2))
    first = "with 1" if lang == "en" else "mit 1"
    suit = "Clubs" if lang == "en" else "Kreuz"
    assert explanation.startswith(f"{first}, {chain} × {suit} 12 = 96 → "), explanation


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("system", ["american1898", "hoyle"])
def test_every_level_word_of_a_historical_grand_ouvert(system: str, lang: str) -> None:
    record = {"kind": "game", "rules": system, "declarer": 0, "game": "grand_ouvert",
              "matadors": 1, "bid": 144, "declarer_points": 120, "declarer_tricks": 10}
    explanation = evaluate(record, lang)["explanation"]
    words = [w for w in LEVELS[lang] if w not in ("hand", "Hand", "ouvert", "Ouvert")]
    chain = ", ".join(f"{word} {n}" for n, word in enumerate(words, start=2))
    assert f", {chain} × Grand Ouvert 24 = 144" in explanation, explanation


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["with Call play", "exceptional games: Nullo Purchase, Nullo Tourné, Uno, Duo, "
            "Nullo with tricks"]),
    ("de", ["mit Frage-Spielen", "Kauf-Nullo, Nullo-Tourné, Uno, Duo, Nullo mit Stichen"]),
])
def test_the_house_rules_name_the_games_as_the_sheet_does(lang: str, words: list[str]) -> None:
    text = describe_rules("hoyle", {"frage": True}, lang=lang) + " · " + describe_rules(
        "american1898", {"exceptional": ["nullo_purchase", "nullo_tourne", "uno", "duo",
                                         "nullo_tricks"]}, lang=lang)
    for word in words:
        assert word in text, (word, text)
    for wrong in WRONG_IN[lang]:
        assert not re.search(wrong if wrong.endswith("\b") else re.escape(wrong), text), (
            wrong, text)
    bock = describe_rules("isko", {"bock": {"triggers": ["null_ouvert_hand"]}}, lang=lang)
    assert NULL_NAMES[True, True][lang == "de"] in bock, bock


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_table_screen_names_the_games_as_the_sheet_does(client: Client, lang: str) -> None:
    table = make_table(make_club(), preset="american1898")
    client.force_login(make_user(table.evening.club, "scorer"))
    html = client.get(reverse("scoring:table", args=[table.pk]),
                      headers={"accept-language": lang}).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    heading = "Call play" if lang == "en" else "Frage"
    assert re.search(rf"\b{heading}\b", text)
    for key in ("frage_clubs", "tourne_hearts", "grand_tourne", "nullo_ouvert", "revolution"):
        assert EXPECTED["american1898"][key][lang == "de"] in text, key
    for wrong in ("Tourne ", "Call play" if lang == "de" else "Frage"):
        assert wrong not in text, wrong


@pdfs.needs_poppler
@pytest.mark.django_db
@pytest.mark.parametrize("layout", ["standard", "historical"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_pdf_names_the_games_and_levels_as_the_glossary(client: Client, lang: str,
                                                            layout: str,
                                                            screenshot_dir: Path) -> None:
    club = make_club()
    table = umlaut_table(club, players=3)
    login(client, club)
    play(table, [
        {"kind": "game", "declarer": 0, "game": "null", "hand": True, "ouvert": True,
         "bid": 59, "result": "won"},
        {"kind": "game", "declarer": 1, "game": "clubs", "hand": True,
         "schneider_announced": True, "matadors": 1, "bid": 18, "declarer_points": 95},
    ])
    response = client.get(reverse("scoring:sheet-pdf", args=[table.pk]), {"layout": layout},
                          headers={"accept-language": lang})
    assert response.status_code == 200
    (screenshot_dir / f"glossary-sheet-{lang}-{layout}.pdf").write_bytes(response.content)
    text = re.sub(r"\s+", " ", pdfs.text(response.content))
    if layout == "standard":
        # the grid prints the game's own name and ticks its levels; the legend says them whole
        assert re.search(r"\bNull H O\b", text), text
        legend = ("Levels: H Hand, Sn Schneider, SnA Schneider announced, Sw Schwarz, SwA "
                  "Schwarz announced, O Ouvert." if lang == "en" else
                  "Stufen: H Hand, Sn Schneider, SnA Schneider angesagt, Sw Schwarz, SwA "
                  "Schwarz angesagt, O Ouvert.")
        assert legend in text, text
    for wrong in WRONG_IN[lang]:
        assert not re.search(wrong if wrong.endswith("\b") else re.escape(wrong), text), (
            wrong, text)
