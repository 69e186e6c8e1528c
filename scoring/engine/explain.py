"""Explanations a scorer can read, in English and German, in the glossary's words (the levels:
game, hand, schneider, schneider announced, schwarz, schwarz announced, ouvert; Spiel, Hand,
Schneider, Schneider angesagt, Schwarz, Schwarz angesagt, Ouvert).

"with 1, game 2, hand 3 × Clubs 12 = 36 < bid 46 → overbid: 48 × 2 = −96"
"mit 1, Spiel 2, Hand 3 × Kreuz 12 = 36 < Reizwert 46 → überreizt: 48 × 2 = −96"
"""

from __future__ import annotations

from functools import lru_cache

LANGUAGES = ("en", "de")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "with": "with", "without": "without", "game": "game", "hand": "hand",
        "schneider": "schneider", "schneider_announced": "schneider announced",
        "schwarz": "schwarz", "schwarz_announced": "schwarz announced", "ouvert": "ouvert",
        "spitze": "Spitze", "rum": "rum",
        "bid": "bid", "overbid": "overbid", "lost": "lost", "won": "won",
        "kontra": "Kontra", "re": "Re", "bock": "Bock", "double": "lost double",
        "points": "{n} card points", "schneider_missed": "schneider not made",
        "schwarz_missed": "not every trick", "spitze_missed": "Spitze not made",
        "conceded": "conceded", "tricks": "{n} tricks", "trick": "1 trick",
        "schenken": "Schenken accepted",
        "passed": "passed in: no score", "misdeal": "misdeal: the same dealer deals again",
        "penalty": "penalty {seat}: {points}", "ramsch": "Ramsch", "jungfrau": "Jungfrau",
        "push": "pushed", "durchmarsch": "Durchmarsch", "all_tied": "all tied: no score",
        "seat": "seat {n}", "sixty": "60:60", "contra_by": "Contra by {seat}", "single": "single",
        "nullo_tricks": "{n} tricks: 20 + 10 per extra trick",
        "all_lose": "all tied: all lose", "capped": "capped at {n}",
    },
    "de": {
        "with": "mit", "without": "ohne", "game": "Spiel", "hand": "Hand",
        "schneider": "Schneider", "schneider_announced": "Schneider angesagt",
        "schwarz": "Schwarz", "schwarz_announced": "Schwarz angesagt", "ouvert": "Ouvert",
        "spitze": "Spitze", "rum": "Rum",
        "bid": "Reizwert", "overbid": "überreizt", "lost": "verloren", "won": "gewonnen",
        "kontra": "Kontra", "re": "Re", "bock": "Bock", "double": "doppelt verloren",
        "points": "{n} Augen", "schneider_missed": "Schneider verfehlt",
        "schwarz_missed": "nicht alle Stiche", "spitze_missed": "Spitze verfehlt",
        "conceded": "abgegeben", "tricks": "{n} Stiche", "trick": "1 Stich",
        "schenken": "geschenkt",
        "passed": "eingepasst: keine Wertung", "misdeal": "vergeben: derselbe Geber gibt neu",
        "penalty": "Strafe {seat}: {points}", "ramsch": "Ramsch", "jungfrau": "Jungfrau",
        "push": "geschoben", "durchmarsch": "Durchmarsch", "all_tied": "alle gleich: keine Wertung",
        "seat": "Platz {n}", "sixty": "60:60", "contra_by": "Kontra von {seat}",
        "single": "einfach",
        "nullo_tricks": "{n} Stiche: 20 + 10 je weiteren Stich",
        "all_lose": "alle gleich: alle verlieren", "capped": "gedeckelt auf {n}",
    },
}

MINUS = "\u2212"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"{MINUS}{-n}" if n < 0 else "0")


@lru_cache(maxsize=4096)
def chain(lang: str, matadors: int, levels: tuple[str, ...]) -> str:
    """ "with 1, game 2, hand 3": the multiplier counted up level by level."""
    w = WORDS[lang]
    count = abs(matadors)
    parts = [f"{w['with'] if matadors > 0 else w['without']} {count}"]
    for level in levels:
        count += 1
        parts.append(f"{w[level]} {count}")
    return ", ".join(parts)


@lru_cache(maxsize=8192)
def prefix(lang: str, matadors: int, levels: tuple[str, ...], game_key: str, game_name: str,
           base: int) -> str:
    """ "with 1, game 2, hand 3 × Clubs 12 = 36" """
    value = base * (abs(matadors) + len(levels))
    return f"{chain(lang, matadors, levels)} × {game_name} {base} = {value}"


def seat_name(lang: str, seat: int, names: tuple[str, ...] | None) -> str:
    if names is not None and seat < len(names):
        return names[seat]
    return WORDS[lang]["seat"].format(n=seat)
