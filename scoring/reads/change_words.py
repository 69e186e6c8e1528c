"""What a correction changed, in the words of the sheet: "Ergebnis: verloren → gewonnen",
"Spiel: Pik → Grand", "Alleinspieler: Anna → Bernd", "Kontra: kein Kontra → Re".

The audit log keeps the deal records (deal-record.md) as they were before and after; this
names each field that differs as the table screen and the sheet name it, and each value as
a scorer reads it (a seat as the player's name, a game key as the game's name, a declaration
as yes or no). A key the words do not know yet is shown as it is stored rather than hidden.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from scoring.reads.sheet import (
    CONCESSION_CHOICES,
    DECLARATION_LABELS,
    KONTRA_CHOICES,
    QUICK_LABELS,
    RECORD_NAMES,
    game_for,
)

NONE = "–"


def _seat(players: list[str]) -> Callable[[Any], str]:
    def name(value: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(
                players):
            return players[value]
        return _plain(value)
    return name


def _plain(value: Any) -> str:
    if value is None or value == "":
        return NONE
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str | int):
        return str(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _yes_no(value: Any) -> str:
    """A declaration: absent is the same as false."""
    return _("yes") if value else _("no")


def _matadors(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value:
        return (_("with %d") if value > 0 else _("without %d")) % abs(value)
    return _plain(value)


def _result(value: Any) -> str:
    label = QUICK_LABELS.get(value) if isinstance(value, str) else None
    return _(label) if label and label != "60:60" else (label or _plain(value))


def _kind(value: Any) -> str:
    if value == "game":
        return _("Game")
    name = RECORD_NAMES.get(str(value))
    return _(name) if name else _plain(value)


def _choices(choices: list[tuple[str, Any]], value: Any) -> str:
    for key, label in choices:
        if key == (value or ""):
            return str(label)
    return _plain(value)


def _bock(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"×{1 << value}" if value > 0 else _("no")
    return _plain(value)


def _seats_list(players: list[str]) -> Callable[[Any], str]:
    seat = _seat(players)

    def names(value: Any) -> str:
        if isinstance(value, list):
            return ", ".join(seat(v) for v in value) or NONE
        return _plain(value)
    return names


def _points_by_seat(players: list[str], value: Any) -> str:
    if not isinstance(value, dict):
        return _plain(value)
    out = []
    for key, points in sorted(value.items()):
        who = players[int(key)] if str(key).isdigit() and int(key) < len(players) else key
        out.append(f"{who} {points}")
    return " / ".join(out) or NONE


def _ramsch(players: list[str]) -> Callable[[Any], str]:
    def words(value: Any) -> str:
        if not isinstance(value, dict):
            return _plain(value)
        parts = []
        if "points" in value:
            parts.append(_("Card points") + ": " + _points_by_seat(players, value["points"]))
        if "losers" in value:
            parts.append(_points_by_seat(players, value["losers"]))
        if "tricks" in value:
            parts.append(_("Tricks") + ": " + _points_by_seat(players, value["tricks"]))
        if value.get("pushes"):
            parts.append(_("Pushes") + f": {value['pushes']}")
        if value.get("skat_points"):
            parts.append(_("Card points in the skat") + f": {value['skat_points']}")
        return ", ".join(parts) or NONE
    return words


def _penalty(players: list[str]) -> Callable[[Any], str]:
    seat = _seat(players)

    def words(value: Any) -> str:
        if not isinstance(value, dict):
            return _plain(value)
        return " ".join(str(p) for p in (seat(value.get("seat")), value.get("points"),
                                         value.get("reason")) if p not in (None, ""))
    return words


# Each field of a record: its label (translated when shown) and how its value reads.
LABELS = {
    "kind": gettext_noop("Kind of deal"), "declarer": gettext_noop("Declarer"),
    "game": gettext_noop("Game"), "matadors": gettext_noop("Matadors"),
    "cards": gettext_noop("Cards"), "bid": gettext_noop("Bid"),
    "declarer_points": gettext_noop("Card points"), "declarer_tricks": gettext_noop("Tricks"),
    "result": gettext_noop("Result"), "kontra_by": gettext_noop("Kontra said by"),
    "spitze_made": gettext_noop("Spitze made"), "passt_mir_nicht": gettext_noop("Passt mir nicht"),
    "passed_18": gettext_noop("Passed at 18"), "dealer": gettext_noop("Dealer"),
    "concession": gettext_noop("Concession"), "penalty": gettext_noop("Penalty"),
    "bock_manual": gettext_noop("Bock set by hand"),
    **dict(DECLARATION_LABELS),
}
# Words that are the same in both languages (terms of art).
SAME_IN_EVERY_LANGUAGE = {"kontra": "Kontra", "spitze": "Spitze", "rum": "Rum", "bock": "Bock",
                          "ramsch": "Ramsch", "bock_round": "Bock"}
# The order in which changes are listed: as a scorer fills in the form.
ORDER = ["kind", "dealer", "declarer", "game", "hand", "ouvert", "schneider_announced",
         "schwarz_announced", "matadors", "cards", "bid", "result", "declarer_points",
         "declarer_tricks", "kontra", "kontra_by", "spitze", "spitze_made", "passt_mir_nicht",
         "rum", "passed_18", "concession", "ramsch", "penalty", "bock", "bock_manual",
         "bock_round"]


def label(key: str) -> str:
    if key in SAME_IN_EVERY_LANGUAGE:
        return SAME_IN_EVERY_LANGUAGE[key]
    return _(LABELS[key]) if key in LABELS else key


def value_words(key: str, value: Any, record: dict[str, Any], rules: str,
                options: dict[str, Any], players: list[str], lang: str) -> str:
    """One field's value as the sheet says it."""
    if key in ("declarer", "dealer", "kontra_by"):
        return _seat(players)(value)
    if key == "game":
        game = game_for(rules, options, str(value)) if value is not None else None
        if game is None:
            return _plain(value)
        return game.name_de if lang == "de" else game.name_en
    if key in ("hand", "ouvert", "schneider_announced", "schwarz_announced",
               "passt_mir_nicht", "rum", "bock_manual"):
        return _yes_no(value)
    if key == "spitze_made":
        return NONE if value is None else _yes_no(value)
    if key == "matadors":
        return _matadors(value)
    if key == "result":
        return _result(value)
    if key == "kind":
        return _kind(value)
    if key == "kontra":
        return _choices(KONTRA_CHOICES, value or "none")
    if key == "concession":
        return _choices(CONCESSION_CHOICES, value)
    if key == "bock":
        return _bock(value)
    if key == "passed_18":
        return _seats_list(players)(value)
    if key == "cards" and isinstance(value, list):
        return " ".join(str(card) for card in value)
    if key == "ramsch":
        return _ramsch(players)(value)
    if key == "penalty":
        return _penalty(players)(value)
    if key == "declarer_tricks" and isinstance(value, int):
        return str(value)
    return _plain(value)


def changed_fields(before: dict[str, Any] | None, after: dict[str, Any] | None, rules: str,
                   options: dict[str, Any], players: list[str], lang: str,
                   ) -> list[tuple[str, str, str]]:
    """The fields a correction changed, as (label, before, after) in words, in the order of
    the form; an absent field and its default read the same and are not listed as a change
    when both read alike."""
    if not before or not after:
        return []
    keys = sorted(set(before) | set(after),
                  key=lambda k: (ORDER.index(k) if k in ORDER else len(ORDER), k))
    out = []
    for key in keys:
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        old_words = value_words(key, old, before, rules, options, players, lang)
        new_words = value_words(key, new, after, rules, options, players, lang)
        if old_words == new_words:
            continue  # e.g. false and absent: both "no"
        out.append((label(key), old_words, new_words))
    return out


# How a signature was proved (Signature.Proof's values), as the audit log says it.
PROOF_WORDS = {
    "tap": gettext_noop("a tap on the tablet"),
    "pin": gettext_noop("the player's PIN"),
    "account": gettext_noop("the player's own account"),
    "code": gettext_noop("a one-time code from the tablet"),
}


def signature_words(after: Any) -> str:
    """A signature in the audit log (issue 35): whose, where, how proved, by which account
    (or the tablet's table code), from which device and address. An entry written before
    the proof was kept says only what it has."""
    if not isinstance(after, dict):
        return _plain(after)
    parts = [_("%(name)s signed") % {"name": _plain(after.get("player"))}]
    where = after.get("where")
    parts.append(_("on a phone") if where == "phone" else _("on the tablet"))
    proof = after.get("proof")
    if isinstance(proof, str) and proof in PROOF_WORDS:
        parts.append(_("proof: %(proof)s") % {"proof": _(PROOF_WORDS[proof])})
    elif after.get("pin"):
        parts.append(_("proof: %(proof)s") % {"proof": _(PROOF_WORDS["pin"])})
    if "account" in after:
        account = after.get("account")
        if account:
            parts.append(_("account: %(account)s") % {"account": account})
        else:
            parts.append(_("no account") if where == "phone"
                         else _("no account: the tablet's table code"))
    if after.get("device"):
        parts.append(_("device: %(device)s") % {"device": after["device"]})
    if after.get("address"):
        parts.append(_("address: %(address)s") % {"address": after["address"]})
    return " · ".join(parts)


def cleared_words(before: Any) -> str:
    """Signatures cleared by a change of the list: whose they were."""
    signed = before.get("signed") if isinstance(before, dict) else None
    if not isinstance(signed, list):
        return _plain(before)
    names = ", ".join(_plain(s.get("player")) for s in signed if isinstance(s, dict))
    return _("signatures cleared: %(names)s") % {"names": names or NONE}


def evening_entry_words(action: str, after: Any) -> str:
    """What an entry of the evening itself (no table) keeps beside its reason, in words
    (issue 36: the audit log said "None"): the series drawn before every table had signed
    and which had not, a file imported and what it added; anything else as stored."""
    if not isinstance(after, dict):
        return "" if after is None else _plain(after)
    if action == "drawunsign":
        tables = after.get("unsigned_tables")
        words = _("series %(series)s drawn") % {"series": _plain(after.get("series"))}
        if isinstance(tables, list) and tables:
            words += " · " + _("not signed: tables %(tables)s") % {
                "tables": ", ".join(_plain(t) for t in tables)}
        return words
    if action == "import" and "file" in after:
        counts = []
        if isinstance(after.get("tables"), int):
            counts.append(ngettext("%(count)d table", "%(count)d tables", after["tables"])
                          % {"count": after["tables"]})
        if isinstance(after.get("deals"), int):
            counts.append(ngettext("%(count)d deal", "%(count)d deals", after["deals"])
                          % {"count": after["deals"]})
        if isinstance(after.get("players"), int):
            counts.append(ngettext("%(count)d player", "%(count)d players", after["players"])
                          % {"count": after["players"]})
        added = (_("added: %(what)s") % {"what": ", ".join(counts)} if counts
                 else _("added")) if after.get("added") else _("nothing added")
        return f"{_plain(after.get('file'))} · {added}"
    return " · ".join(f"{key}: {_plain(value)}" for key, value in sorted(after.items()))
