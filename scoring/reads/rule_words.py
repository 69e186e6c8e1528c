"""A rule profile's (or an evening's frozen) rules in words, for people: "Kontra und Re · Bock
nach 60:60, verlorenem Kontra und Re · Ramsch wenn alle passen (Jungfrau doppelt) · Einsatz
0,05 € je Punkt".

One function for every place that shows rules (the club page, the profile form, a printed
sheet): it reads the options object as deal-record.md "Options" names it, so each key and
value has its words here, and a key the words do not know yet is shown as it is stored
rather than hidden. Absent keys take the spec's defaults and are not mentioned: the words say
what differs from the rule system's own rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.engine import AMERICAN1898_GAMES, Ruleset, SkatError, ruleset
from scoring.money import money, rate

SEPARATOR = " · "
CURRENCY_SIGNS = {"EUR": "€", "USD": "$", "GBP": "£"}
DEFAULT_BOCK_TRIGGERS = ("sixty_sixty", "kontra_lost", "re")
# The order in which triggers are named, whatever order the options list them in.
BOCK_TRIGGER_ORDER = (
    "sixty_sixty", "kontra_lost", "re", "grand_hand", "null_ouvert_hand", "schneider",
    "schwarz", "all_passed", "value_at_least", "loss_at_least", "rounds_without_bock",
)


def join_words(items: list[str]) -> str:
    """"a, b und c" / "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def _int(value: Any, default: int) -> int:
    return value if type(value) is int else default


def _bock_trigger(key: str, bock: Mapping[str, Any]) -> str:
    if key == "sixty_sixty":
        return _("60:60")
    if key == "kontra_lost":
        return _("a lost Kontra")
    if key == "re":
        return pgettext("Bock after", "Re")
    if key == "grand_hand":
        return _("a Grand Hand")
    if key == "null_ouvert_hand":
        return _("a Null Ouvert Hand")
    if key == "schneider":
        return pgettext("Bock after", "Schneider")
    if key == "schwarz":
        return pgettext("Bock after", "Schwarz")
    if key == "all_passed":
        return _("a passed-in deal")
    if key == "value_at_least":
        return _("a game value of %(n)d or more") % {"n": _int(bock.get(key), 100)}
    if key == "loss_at_least":
        return _("a loss of %(n)d or more") % {"n": _int(bock.get(key), 100)}
    if key == "rounds_without_bock":
        return _("%(n)d rounds without Bock") % {"n": _int(bock.get(key), 2)}
    return key


def _bock(bock: Mapping[str, Any]) -> str:
    raw = bock.get("triggers", list(DEFAULT_BOCK_TRIGGERS))
    triggers = [t for t in BOCK_TRIGGER_ORDER if isinstance(raw, list) and t in raw]
    if triggers:
        text = _("Bock after %(triggers)s") % {
            "triggers": join_words([_bock_trigger(t, bock) for t in triggers])}
    else:
        text = _("Bock without triggers")
    details = []
    if bock.get("stacking") == "parallel":
        details.append(_("overlapping Bock rounds double again (Doppelbock)"))
    if bock.get("includes_trigger") is True:
        details.append(_("the deal that earns it counts double too"))
    if bock.get("one_per_deal") is False:
        details.append(_("each trigger earns a round"))
    after = _int(bock.get("ramsch_round_after"), 0)
    if after == 1:
        details.append(_("a Ramsch round after each Bock round"))
    elif after > 1:
        details.append(_("a Ramsch round after every %(k)d Bock rounds") % {"k": after})
    if bock.get("manual") is True:
        details.append(_("Bock also set by hand"))
    details += _unknown(bock, {"triggers", "value_at_least", "loss_at_least",
                               "rounds_without_bock", "stacking", "includes_trigger",
                               "one_per_deal", "ramsch_round_after", "manual"}, "bock.")
    return f"{text} ({', '.join(details)})" if details else text


def _skat_order_ramsch(o: Mapping[str, Any]) -> str:
    details = []
    if o.get("ramsch_scoring") == "simple":
        details.append(_("simple Ramsch"))
    if o.get("ramsch_skat") == "loser":
        details.append(_("skat to the loser"))
    elif o.get("ramsch_skat") == "nobody":
        details.append(_("the skat counts for nobody"))
    if o.get("ramsch_ties") == "share":
        details.append(_("tied players share the loss"))
    details.append(_("Jungfrau doubles") if o.get("ramsch_jungfrau", True) is not False
                   else _("no doubling for a Jungfrau"))
    if o.get("ramsch_durchmarsch") == "times4":
        details.append(_("Durchmarsch loses four times"))
    if o.get("schieberamsch") == "optional_double":
        details.append(_("Schieberamsch, each push doubles"))
    elif o.get("schieberamsch") == "mandatory":
        details.append(_("compulsory Schieberamsch without doubling"))
    if o.get("ramsch_all_tied") == "all_lose":
        details.append(_("all three tied: all lose"))
    if o.get("ramsch_kontra") is True:
        details.append(_("Kontra and Re on Ramsch"))
    if type(o.get("ramsch_cap")) is int:
        details.append(_("at most %(n)s per Ramsch") % {"n": money(str(-o["ramsch_cap"]))})
    if o.get("ramsch_round_grand_hand") == "counts":
        details.append(_("a Grand Hand counts as a deal of the Ramsch round"))
    return _("Ramsch when all pass (%(details)s)") % {"details": ", ".join(details)}


def _unknown(options: Mapping[str, Any], known: set[str], prefix: str = "") -> list[str]:
    """Keys the words do not know (yet): shown as stored, never hidden."""
    return [f"{prefix}{key}: {value!r}" for key, value in options.items() if key not in known]


ISKO_KEYS = {
    "penalty_points", "grand_base", "lost_hand_single", "kontra", "kontra_requires_18",
    "spitze", "schenken", "rum", "ramsch", "ramsch_scoring", "ramsch_skat", "ramsch_ties",
    "ramsch_jungfrau", "ramsch_durchmarsch", "schieberamsch", "ramsch_all_tied",
    "ramsch_kontra", "ramsch_cap", "ramsch_round_grand_hand", "overbid_charge", "bock",
}
HISTORIC_KEYS = {
    "penalty_points", "frage", "revolution", "overbid_charge", "ramsch", "exceptional",
    "contra", "point_ramsch", "forced_ramsch_every", "beer_limit", "uno_duo", "ramsch_base",
}
EXCEPTIONAL_GAMES = ("nullo_purchase", "nullo_tourne", "uno", "duo", "nullo_tricks")


def _exceptional_name(key: str) -> str:
    """The game's own name (engine/games.py), in the reader's language."""
    game = AMERICAN1898_GAMES.get(key)
    if game is None:
        return key
    return game.in_lang("de" if translation.get_language() == "de" else "en")


def _skat_order(o: Mapping[str, Any]) -> Iterator[str]:
    if o.get("grand_base") == 20:
        yield _("Grand counts 20")
    if o.get("kontra") is True:
        yield _("Kontra and Re")
        if o.get("kontra_requires_18") is True:
            yield _("no Kontra after passing at 18")
    if o.get("spitze") is True:
        yield _("Spitze")
    if o.get("schenken") is True:
        yield _("Schenken")
    if o.get("rum") is True:
        yield _("Rum")
    if o.get("lost_hand_single") is True:
        yield _("lost hand games count single")
    if o.get("overbid_charge") == "bid":
        yield _("an overbid game costs its bid")
    bock = o.get("bock")
    if isinstance(bock, Mapping):
        yield _bock(bock)
    if o.get("ramsch") == "when_all_pass":
        yield _skat_order_ramsch(o)


def _system(rules: object) -> Ruleset | None:
    try:
        return ruleset(rules)
    except SkatError:
        return None  # described as a historic system, every key shown as stored


def _historic(system: Ruleset | None, o: Mapping[str, Any]) -> Iterator[str]:
    keys = system.option_keys if system is not None else ()
    frage_default = system is not None and system.option_defaults()["frage"] is True
    frage = o.get("frage", frage_default)
    if frage is not frage_default:
        yield _("with Call play") if frage else _("without Call play")
    if o.get("revolution") is False:
        yield _("without Revolution")
    if "uno_duo" in keys and o.get("uno_duo") is False:
        yield _("without Uno and Duo")
    games = o.get("exceptional")
    if isinstance(games, list) and games:
        yield _("exceptional games: %(games)s") % {"games": ", ".join(
            _exceptional_name(g) for g in EXCEPTIONAL_GAMES if g in games)}
    if o.get("contra") is True:
        yield _("Contra and Re-contra")
    if o.get("overbid_charge") == "bid":
        yield _("an overbid game costs its bid")
    if o.get("ramsch", "when_all_pass") == "when_all_pass":
        details = []
        if o.get("point_ramsch") is True:
            details.append(_("Point Ramsch"))
        if "ramsch_base" in keys and type(o.get("ramsch_base")) is int and (
                o["ramsch_base"] != 20):
            details.append(_("the loser loses %(n)d") % {"n": o["ramsch_base"]})
        every = _int(o.get("forced_ramsch_every"), 0)
        if every:
            details.append(_("forced Ramsch every %(k)d rounds") % {"k": every})
        yield (_("Ramsch when all pass (%(details)s)") % {"details": ", ".join(details)}
               if details else _("Ramsch when all pass"))
    else:
        yield _("no Ramsch: a passed-in deal is thrown in")
    if type(o.get("beer_limit")) is int:
        yield _("Beer Skat ends at %(n)d") % {"n": o["beer_limit"]}


def house_rules(rules: str, options: Mapping[str, Any] | None) -> list[str]:
    """What the options change from the rule system's own rules, one phrase each."""
    o: Mapping[str, Any] = options if isinstance(options, Mapping) else {}
    system = _system(rules)
    if system is not None and not system.historic:
        parts = list(_skat_order(o))
        known = ISKO_KEYS
    else:
        parts = list(_historic(system, o))
        known = HISTORIC_KEYS
    penalty = o.get("penalty_points")
    if type(penalty) is int and penalty != 10:
        parts.append(_("a penalty costs %(n)d") % {"n": penalty})
    return parts + _unknown(o, known)


def stake_words(stake: Any, currency: str) -> str:
    """"Einsatz 0,05 € je Punkt" / "Stake €0.05 per point"; empty for no stake."""
    try:
        value = Decimal(str(stake))
    except InvalidOperation:
        return ""
    if not value:
        return ""
    number = money(rate(value, "0.01"))
    sign = CURRENCY_SIGNS.get(currency)
    if sign is None:
        text = f"{number} {currency}"
    elif translation.get_language() == "de":
        text = f"{number} {sign}"
    else:
        text = f"{sign}{number}"
    return _("Stake %(money)s per point") % {"money": text}


def describe_rules(rules: str, options: Mapping[str, Any] | None, *, stake: Any = None,
                   currency: str = "EUR", lang: str | None = None) -> str:
    """The house rules and the stake in words, joined by " · " (in ``lang`` if given)."""
    if lang is not None:
        with translation.override(lang):
            return describe_rules(rules, options, stake=stake, currency=currency)
    parts = house_rules(rules, options) or [_("no house rules")]
    money_part = stake_words(stake, currency) if stake is not None else ""
    return SEPARATOR.join([*parts, money_part] if money_part else parts)


def describe(obj: Any, lang: str | None = None) -> str:
    """A RuleProfile's or an Evening's rules (anything with rules, options, stake, currency)."""
    return describe_rules(obj.rules, obj.options, stake=obj.stake, currency=obj.currency,
                          lang=lang)
