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
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from scoring.engine import AMERICAN1898_GAMES, NAMES, OPTION_SPECS, Ruleset, SkatError, ruleset
from scoring.money import money, rate

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

SEPARATOR = " · "
CURRENCY_SIGNS = {"EUR": "€", "USD": "$", "GBP": "£"}
DEFAULT_BOCK_TRIGGERS = ("sixty_sixty", "kontra_lost", "re")
# The order in which triggers are named, whatever order the options list them in.
BOCK_TRIGGER_ORDER = (
    "sixty_sixty", "kontra_lost", "re", "grand_hand", "null_ouvert_hand", "schneider",
    "schwarz", "all_passed", "value_at_least", "loss_at_least", "rounds_without_bock",
)


@dataclass(frozen=True)
class OptionWords:
    """An option's words on the rule-profile form: its label, each value's words (a choice's
    or a set's; the engine's OPTION_SPECS has the values) and a help text."""

    label: StrOrPromise
    values: Mapping[Any, StrOrPromise] = field(default_factory=dict)
    help: StrOrPromise = ""


# Every option of deal-record.md "Options" but bock (the form's own group of fields): the
# form builds its field from the engine's OptionSpec and these words, so an option needs no
# line in forms/ or the templates. A test fails while an option of a system has no words
# here or stands in no group below.
OPTION_WORDS: Mapping[str, OptionWords] = {
    "penalty_points": OptionWords(
        gettext_lazy("Penalty (points)"),
        help=gettext_lazy("What a penalty costs the offender, such as for looking at the "
                          "skat.")),
    "overbid_charge": OptionWords(gettext_lazy("A lost overbid game costs"), {
        "next_multiple": gettext_lazy(
            "the next multiple of the game's base value that reaches the bid"),
        "bid": gettext_lazy("the bid itself")}),
    "ramsch": OptionWords(gettext_lazy("When all pass"), {
        "off": gettext_lazy("the cards are thrown in"),
        "when_all_pass": gettext_lazy("Ramsch is played")}),
    "grand_base": OptionWords(gettext_lazy("Grand counts"), {24: "24", 20: "20"}),
    "kontra": OptionWords(gettext_lazy("Kontra and Re")),
    "kontra_requires_18": OptionWords(gettext_lazy("No Kontra for a player who passed at 18")),
    "spitze": OptionWords(gettext_lazy("Spitze")),
    "schenken": OptionWords(gettext_lazy("Schenken")),
    "rum": OptionWords(gettext_lazy("Rum")),
    "lost_hand_single": OptionWords(gettext_lazy("Lost hand games count single")),
    "ramsch_scoring": OptionWords(gettext_lazy("Ramsch is scored"), {
        "augen": gettext_lazy("by card points (Augenramsch)"),
        "simple": gettext_lazy("simply: −10, −15 with a Jungfrau, −20 for all tricks")}),
    "ramsch_skat": OptionWords(gettext_lazy("The skat in Ramsch goes to"), {
        "last_trick": gettext_lazy("the winner of the last trick"),
        "loser": gettext_lazy("the loser"), "nobody": gettext_lazy("nobody")}),
    "ramsch_ties": OptionWords(gettext_lazy("Players tied for most card points"), {
        "full": gettext_lazy("each lose the full amount"),
        "share": gettext_lazy("share the loss")}),
    "ramsch_all_tied": OptionWords(gettext_lazy("All three tied"), {
        "none": gettext_lazy("nobody scores"), "all_lose": gettext_lazy("all three lose")}),
    "ramsch_jungfrau": OptionWords(gettext_lazy("A Jungfrau doubles the loss")),
    "ramsch_durchmarsch": OptionWords(gettext_lazy("Durchmarsch"), {
        "plus120": gettext_lazy("+120 for the player who took every trick"),
        "times4": gettext_lazy("the player who took every trick loses four times")}),
    "schieberamsch": OptionWords(gettext_lazy("Schieberamsch"), {
        "off": gettext_lazy("no"), "optional_double": gettext_lazy("yes, each push doubles"),
        "mandatory": gettext_lazy("compulsory, nothing doubles")}),
    "ramsch_kontra": OptionWords(gettext_lazy("Kontra and Re on Ramsch"),
                                 help=gettext_lazy("Needs Kontra and Re.")),
    "ramsch_cap": OptionWords(
        gettext_lazy("Most a Ramsch can cost"),
        help=gettext_lazy("After every doubling; a Durchmarsch gain is not capped. Empty: no "
                          "limit.")),
    "ramsch_round_grand_hand": OptionWords(gettext_lazy("A Grand Hand in a Ramsch round"), {
        "deals_again": gettext_lazy("the same dealer deals again"),
        "counts": gettext_lazy("counts as one of the round's deals")}),
    "frage": OptionWords(gettext_lazy("Call play")),
    "revolution": OptionWords(gettext_lazy("Revolution")),
    "uno_duo": OptionWords(gettext_lazy("Uno and Duo (Hoyle)")),
    "exceptional": OptionWords(gettext_lazy("Exceptional games (1898)"), {
        "nullo_purchase": gettext_lazy("Nullo Purchase"),
        "nullo_tourne": gettext_lazy("Nullo Tourné"), "uno": "Uno", "duo": "Duo",
        "nullo_tricks": gettext_lazy("Nullo with tricks")}),
    "contra": OptionWords(gettext_lazy("Contra and Re-contra (1898)")),
    "point_ramsch": OptionWords(gettext_lazy("Point Ramsch (1898)")),
    "forced_ramsch_every": OptionWords(gettext_lazy("Forced Ramsch every … rounds (1898)"),
                                       help=gettext_lazy("0: never.")),
    "beer_limit": OptionWords(gettext_lazy("Beer Skat ends at (1898)"),
                              help=gettext_lazy("Empty: 151 at a 3-table, 201 at a 4-table.")),
    "ramsch_base": OptionWords(gettext_lazy("A Ramsch loser loses (Hoyle)")),
}


@dataclass(frozen=True)
class OptionGroup:
    """A fieldset of the rule-profile form: its legend, a help line and its options in the
    order shown. ``per_system``: shown only while the chosen system takes one of them
    (profile.js); the options every system takes are always shown."""

    legend: StrOrPromise
    keys: tuple[str, ...]
    help: StrOrPromise = ""
    per_system: bool = True


# The form's fieldsets of options, in the order shown; Bock rounds (option bock, a group of
# fields of its own) stand between Ramsch and the historic systems.
OPTION_GROUPS_BEFORE_BOCK = (
    OptionGroup(gettext_lazy("Every rule system"),
                ("ramsch", "overbid_charge", "penalty_points"), per_system=False),
    OptionGroup(gettext_lazy("International Skat Order"),
                ("grand_base", "kontra", "kontra_requires_18", "spitze", "schenken", "rum",
                 "lost_hand_single")),
    OptionGroup(gettext_lazy("Ramsch (International Skat Order)"),
                ("ramsch_scoring", "ramsch_skat", "ramsch_ties", "ramsch_all_tied",
                 "ramsch_jungfrau", "ramsch_durchmarsch", "schieberamsch", "ramsch_kontra",
                 "ramsch_cap", "ramsch_round_grand_hand"),
                help=gettext_lazy("Only when Ramsch is played when all pass.")),
)
OPTION_GROUPS_AFTER_BOCK = (
    OptionGroup(gettext_lazy("American 1898 and Hoyle"),
                ("frage", "revolution", "uno_duo", "exceptional", "contra", "point_ramsch",
                 "forced_ramsch_every", "beer_limit", "ramsch_base")),
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


EXCEPTIONAL_GAMES = OPTION_SPECS["exceptional"].values  # in the order they are named


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
    else:
        parts = list(_historic(system, o))
    # the keys the words know: the system's (an unknown system's: any historic system's)
    known = set(system.option_keys) if system is not None else {
        key for name in NAMES if ruleset(name).historic for key in ruleset(name).option_keys}
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
