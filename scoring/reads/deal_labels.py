"""Reads: a deal in the words of the sheet and the table screen: the game's name and symbol,
its declarations, the result column, a Ramsch's points, Bock set by hand, and the choices the
forms offer (Kontra, concessions, quick results). The sheet (sheet.py), the audit's change
words, the CSV reader and notation.py all say a deal with these."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, pgettext, pgettext_lazy

from scoring.engine import Game, QuickResult, SkatError, ruleset

SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def game_for(rules: str, options: dict[str, Any], key: str) -> Game | None:
    try:
        return ruleset(rules).game_table(options).get(key)
    except SkatError:  # a system the engine does not know: no game to name
        return None


RECORD_NAMES = {"passed": gettext_noop("passed in"), "ramsch": gettext_noop("Ramsch"),
                "penalty": gettext_noop("penalty"), "misdeal": gettext_noop("misdeal")}


def game_label(rules: str, options: dict[str, Any], record: dict[str, Any],
               lang: str) -> tuple[str, str, bool]:
    """(name, suit symbol, red?) of a record, e.g. ("Kreuz", "♣", False)."""
    kind = record.get("kind")
    if kind != "game":
        name = RECORD_NAMES.get(str(kind))
        return (_(name) if name else str(kind)), "", False
    game = game_for(rules, options, str(record.get("game")))
    if game is None:
        return str(record.get("game")), "", False
    name = game.name_de if lang == "de" else game.name_en
    if game.null:  # glossary: Null ouvert Hand; the rules' English: Null Ouvert Hand
        name += (" ouvert" if lang == "de" else " Ouvert") if record.get("ouvert") else ""
        name += " Hand" if record.get("hand") else ""
    symbol = SUIT_SYMBOLS.get(game.trump or "", "")
    return name, symbol, game.trump in ("H", "D")


def game_base_name(rules: str, options: dict[str, Any], record: dict[str, Any],
                   lang: str) -> str:
    """The game's own name without Hand or Ouvert ("Null" for Null Ouvert Hand)."""
    if record.get("kind") == "game":
        game = game_for(rules, options, str(record.get("game")))
        if game is not None:
            return game.name_de if lang == "de" else game.name_en
    return game_label(rules, options, record, lang)[0]


DECLARATION_LABELS = [
    ("hand", gettext_noop("Hand")), ("ouvert", gettext_noop("Ouvert")),
    ("schneider_announced", gettext_noop("Schneider announced")),
    ("schwarz_announced", gettext_noop("Schwarz announced")),
]


def details_of(record: dict[str, Any], name: str = "") -> list[str]:
    """The declarations a scorer reads out: "mit 2", "Hand", "Schneider angesagt" …; a
    declaration the game's ``name`` already says ("Null Ouvert") is not said twice."""
    out = []
    matadors = record.get("matadors")
    if isinstance(matadors, int) and matadors:
        out.append((_("with %d") if matadors > 0 else _("without %d")) % abs(matadors))
    # Translated only when the declaration applies: a sheet asks this for every row.
    said = name.casefold().split()
    out += [word for word in (_(label) for key, label in DECLARATION_LABELS
                              if record.get(key) is True) if word.casefold() not in said]
    if record.get("spitze"):
        out.append(_("Spitze %d") % record["spitze"])
    if record.get("concession"):
        out.append({"declarer": _("conceded"), "schenken": _("Schenken")}.get(
            record["concession"], _("Schenken, played on")))
    return out


# The quick results a record may carry (the engine's vocabulary, as plain strings).
QUICK_RESULT_KEYS = frozenset(q.value for q in QuickResult)
# Marked for translation here, translated when shown.
QUICK_LABELS = {
    "won": gettext_noop("won"), "won_schneider": gettext_noop("won Schneider"),
    "won_schwarz": gettext_noop("won Schwarz"), "lost": gettext_noop("lost"),
    "lost_schneider": gettext_noop("lost Schneider"),
    "lost_schwarz": gettext_noop("lost Schwarz"), "sixty": "60:60",
}

# The choices of the table screen's Kontra and concession fields (scoring/forms/entry.py),
# also the words of a deal's history.
KONTRA_CHOICES = [("none", pgettext_lazy("no Kontra", "none")), ("kontra", "Kontra"), ("re", "Re")]
CONCESSION_CHOICES = [
    ("", pgettext_lazy("no concession", "none")),
    ("declarer", gettext_lazy("Declarer gave up")),
    ("schenken", gettext_lazy("Schenken accepted")),
    ("schenken_schneider", gettext_lazy("Schenken, played on for Schneider")),
    ("schenken_schwarz", gettext_lazy("Schenken, played on for Schwarz")),
]


def result_label(record: dict[str, Any]) -> str:
    quick = record.get("result")
    if quick in QUICK_RESULT_KEYS:
        return _(QUICK_LABELS[quick])
    points = record.get("declarer_points")
    tricks: int | None = record.get("declarer_tricks")
    if points is not None:
        return str(points)
    if tricks is not None:
        return ngettext("%d trick", "%d tricks", tricks) % tricks
    return ""


# A column a few letters wide on the printed sheet; the levels show Schneider and Schwarz.
# Written out as literals so that makemessages finds them.
_WON_SHORT = pgettext_lazy("result, short", "won")
_LOST_SHORT = pgettext_lazy("result, short", "lost")
QUICK_SHORT = {
    "won": _WON_SHORT, "won_schneider": _WON_SHORT, "won_schwarz": _WON_SHORT,
    "lost": _LOST_SHORT, "lost_schneider": _LOST_SHORT, "lost_schwarz": _LOST_SHORT,
}


def result_short(record: dict[str, Any]) -> str:
    quick = record.get("result")
    if quick == "sixty":
        return "60:60"
    if quick in QUICK_SHORT:
        return str(QUICK_SHORT[quick])
    points = record.get("declarer_points")
    if points is not None:
        return str(points)
    tricks: int | None = record.get("declarer_tricks")
    if tricks is not None:
        return pgettext("tricks, short", "%d tr.") % tricks
    return ""


def ramsch_points(record: dict[str, Any], players: int) -> list[int | None]:
    """Each seat's card points of a Ramsch deal (None for a seat that sat out); [] else."""
    ramsch = record.get("ramsch")
    if record.get("kind") != "ramsch" or not isinstance(ramsch, dict):
        return []
    points = ramsch.get("points")
    if not isinstance(points, dict):
        return []
    out: list[int | None] = []
    for p in range(players):
        value = points.get(str(p))
        out.append(value if isinstance(value, int) and not isinstance(value, bool) else None)
    return out


def bock_notes(level: int, manual: bool, queued: bool) -> list[str]:
    """What a table decided by hand under bock.manual (DECISIONS.md §9), in words: the deal's
    level set by hand ("Bock (by hand)", or "no Bock (by hand)" where the table played it
    plain against the tracker) and a Bock round queued after it. The engine marks both only
    when true; the sheet, its PDF and its CSV say them in these words."""
    out = []
    if manual:
        out.append(_("Bock (by hand)") if level else _("no Bock (by hand)"))
    if queued:
        out.append(_("+ Bock round by hand"))
    return out


OVERBID_SHORT = pgettext_lazy("result, short", "overbid")


def result_of(record: dict[str, Any], overbid: bool) -> str:
    """The result column: an overbid game is lost whatever the declarer took, so a quick
    "won" is not repeated beside it (the row says "overbid" instead)."""
    if overbid and str(record.get("result") or "").startswith("won"):
        return ""
    return result_label(record)
