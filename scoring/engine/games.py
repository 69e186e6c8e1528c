"""The games of each rule system as data (DECISIONS.md §2–§4).

A multiplied game is worth base × multiplier; a fixed game (Null, Nullo, Revolution, Uno, Duo,
Gucki Nullo) has a single value and no multipliers.
"""

from __future__ import annotations

from dataclasses import dataclass

SUIT_NAMES = {
    "diamonds": ("D", "Diamonds", "Karo"),
    "hearts": ("H", "Hearts", "Herz"),
    "spades": ("S", "Spades", "Pik"),
    "clubs": ("C", "Clubs", "Kreuz"),
}


@dataclass(frozen=True, slots=True)
class Game:
    key: str
    name_en: str
    name_de: str
    base: int  # base (isko), basis or unit value (historical); the value of a fixed game
    multiplied: bool = True
    trump: str | None = None  # suit letter; None for Grand games
    grand: bool = False
    null: bool = False  # isko Null: value from hand/ouvert
    announce: bool = False  # schneider/schwarz may be announced (historical: Solos only)
    all_levels: bool = False  # historical Grand Ouvert: every contingency counts
    double_loss: bool = False  # Guckser, Gucki, Nullo Purchase lose double
    win_tricks: int | None = None  # fixed games: tricks the declarer must take exactly
    nullo_tricks: bool = False  # am98 Nullo with tricks: -10 per extra trick
    ouvert_value: int | None = None  # Uno/Duo played ouvert
    abandon: bool = True  # may be conceded (hoyle: not a Solo)
    option: str | None = None  # the option that must be on for this game
    tourne: bool = False  # hoyle "passt mir nicht" applies
    family: str = "suit"

    def in_lang(self, lang: str) -> str:
        """The game's name in a message ("Clubs", "Kreuz"): a Game is a message parameter."""
        return self.name_de if lang == "de" else self.name_en


def _isko_games(grand_base: int) -> dict[str, Game]:
    games = {
        key: Game(key, en, de, base, trump=letter)
        for (key, (letter, en, de)), base in zip(SUIT_NAMES.items(), (9, 10, 11, 12), strict=True)
    }
    games["grand"] = Game("grand", "Grand", "Grand", grand_base, grand=True, family="grand")
    games["null"] = Game("null", "Null", "Null", 23, multiplied=False, null=True, family="null")
    return games


ISKO_GAMES = {24: _isko_games(24), 20: _isko_games(20)}
ISKO_NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}


def _suit_family(prefix: str, en: str, de: str, bases: tuple[int, ...], *,
                 announce: bool = False, abandon: bool = True, option: str | None = None,
                 tourne: bool = False) -> list[Game]:
    return [
        Game(f"{prefix}_{key}", f"{s_en} {en}", f"{s_de}-{de}", base, trump=letter,
             family=prefix, announce=announce, abandon=abandon, option=option, tourne=tourne)
        for (key, (letter, s_en, s_de)), base in zip(SUIT_NAMES.items(), bases, strict=True)
    ]


def _index(games: list[Game]) -> dict[str, Game]:
    return {g.key: g for g in games}


AMERICAN1898_GAMES = _index([
    *_suit_family("frage", "Call play", "Frage", (1, 2, 3, 4), option="frage"),
    *_suit_family("tourne", "Tourné", "Tourné", (5, 6, 7, 8)),
    *_suit_family("solo", "Solo", "Solo", (9, 10, 11, 12), announce=True),
    Game("grand_solo", "Grand Solo", "Grand-Solo", 16, grand=True, announce=True,
         family="grand_solo"),
    Game("grand_tourne", "Grand Tourné", "Grand-Tourné", 12, grand=True, family="grand_tourne"),
    Game("guckser_grand", "Guckser Grand", "Guckser-Grand", 12, grand=True, double_loss=True,
         family="guckser"),
    Game("grand_ouvert", "Grand Ouvert", "Grand Ouvert", 24, grand=True, all_levels=True,
         family="grand_ouvert"),
    Game("nullo", "Nullo", "Nullo", 20, multiplied=False, win_tricks=0, family="fixed"),
    Game("nullo_ouvert", "Nullo Ouvert", "Nullo ouvert", 40, multiplied=False, win_tricks=0,
         family="fixed"),
    Game("revolution", "Revolution", "Revolution", 60, multiplied=False, win_tricks=0,
         option="revolution", family="fixed"),
    Game("nullo_purchase", "Nullo Purchase", "Kauf-Nullo", 16, multiplied=False, win_tricks=0,
         double_loss=True, option="nullo_purchase", family="fixed"),
    Game("nullo_tourne", "Nullo Tourné", "Nullo-Tourné", 16, multiplied=False, win_tricks=0,
         option="nullo_tourne", family="fixed"),
    Game("nullo_tourne_ouvert", "Nullo Tourné Ouvert", "Nullo-Tourné ouvert", 32,
         multiplied=False, win_tricks=0, option="nullo_tourne", family="fixed"),
    Game("uno", "Uno", "Uno", 20, multiplied=False, win_tricks=1, ouvert_value=40,
         option="uno", family="fixed"),
    Game("duo", "Duo", "Duo", 20, multiplied=False, win_tricks=2, ouvert_value=40,
         option="duo", family="fixed"),
    Game("nullo_tricks", "Nullo with tricks", "Nullo mit Stichen", 20, multiplied=False,
         win_tricks=0, nullo_tricks=True, option="nullo_tricks", family="fixed"),
])

HOYLE_GAMES = _index([
    *_suit_family("frage", "Call play", "Frage", (1, 2, 3, 4), option="frage"),
    *_suit_family("tourne", "Tourné", "Tourné", (5, 6, 7, 8), tourne=True),
    *_suit_family("solo", "Solo", "Solo", (9, 10, 11, 12), announce=True, abandon=False),
    Game("grand_tourne", "Grand Tourné", "Grand-Tourné", 12, grand=True, tourne=True,
         family="grand_tourne"),
    Game("gucki_grand", "Gucki Grand", "Gucki-Grand", 16, grand=True, double_loss=True,
         family="gucki"),
    Game("grand_solo", "Grand Solo", "Grand-Solo", 20, grand=True, announce=True,
         abandon=False, family="grand_solo"),
    Game("grand_ouvert", "Grand Ouvert", "Grand Ouvert", 24, grand=True, all_levels=True,
         family="grand_ouvert"),
    Game("gucki_nullo", "Gucki Nullo", "Gucki-Nullo", 15, multiplied=False, win_tricks=0,
         double_loss=True, family="fixed"),
    Game("gucki_nullo_ouvert", "Gucki Nullo Ouvert", "Gucki-Nullo ouvert", 30, multiplied=False,
         win_tricks=0, double_loss=True, family="fixed"),
    Game("nullo", "Nullo", "Nullo", 20, multiplied=False, win_tricks=0, family="fixed"),
    Game("nullo_ouvert", "Nullo Ouvert", "Nullo ouvert", 40, multiplied=False, win_tricks=0,
         family="fixed"),
    Game("revolution", "Revolution", "Revolution", 60, multiplied=False, win_tricks=0,
         option="revolution", family="fixed"),
    Game("uno", "Uno", "Uno", 20, multiplied=False, win_tricks=1, ouvert_value=40,
         option="uno_duo", family="fixed"),
    Game("duo", "Duo", "Duo", 20, multiplied=False, win_tricks=2, ouvert_value=40,
         option="uno_duo", family="fixed"),
])

HISTORIC_GAMES = {"american1898": AMERICAN1898_GAMES, "hoyle": HOYLE_GAMES}
