"""Forms of the table screen: what a scorer taps, turned into a deal record (deal-record.md).

The form checks only the shape of the input (numbers are numbers, seats are seats, choices
are choices); every rule is left to the engine, whose refusal is shown next to the field.
Nothing is ever "fixed" silently: a value is either recorded as given or refused.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring.engine import (
    QUICK_RESULTS,
    DealRecord,
    Game,
    Options,
    Ruleset,
    SkatError,
    deal_record,
    form_from_record,
    parse_options,
    record_from_form,
    ruleset,
    short_ramsch_given,
)
from scoring.reads.deal_labels import CONCESSION_CHOICES, KONTRA_CHOICES

KIND_CHOICES = [
    ("game", _("Game")),
    ("passed", _("Passed in")),
    ("ramsch", _("Ramsch")),
    ("penalty", _("Penalty")),
    ("misdeal", _("Misdeal")),
]
QUICK_CHOICES = [
    ("won", _("won")),
    ("won_schneider", _("won Schneider")),
    ("won_schwarz", _("won Schwarz")),
    ("lost", _("lost")),
    ("lost_schneider", _("lost Schneider")),
    ("lost_schwarz", _("lost Schwarz")),
    ("sixty", "60:60"),
]
assert [key for key, _label in QUICK_CHOICES] == list(QUICK_RESULTS)
YES_NO = [("", "–"), ("yes", _("made")), ("no", _("not made"))]
SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
MAX_MATADORS = 11
SAYER_MISSING = "sayer_missing"  # the error code of a Kontra without its sayer

# Where an error of the engine (its field) or of the form (a form field) is shown.
ENGINE_GROUPS = {
    "kind": "kind", "declarer": "declarer", "game": "game", "hand": "declarations",
    "ouvert": "declarations", "schneider_announced": "declarations",
    "schwarz_announced": "declarations", "matadors": "matadors", "cards": "matadors",
    "bid": "bid", "result": "result", "declarer_points": "result",
    "declarer_tricks": "result", "kontra": "kontra", "kontra_by": "kontra",
    "passed_18": "kontra", "spitze": "spitze", "spitze_made": "spitze", "rum": "declarations",
    "passt_mir_nicht": "declarations", "concession": "concession", "ramsch": "ramsch",
    "penalty": "penalty", "reason": "reason", "bock": "general", "dealer": "general",
}
FORM_GROUPS = {
    "bid_more": "bid", "kontra_by": "kontra", "pushes": "ramsch", "skat_points": "ramsch",
    "ramsch_loser": "ramsch", "ramsch_loser_points": "ramsch", "ramsch_jungfrau": "ramsch",
    "ramsch_durchmarsch": "ramsch",
    "spitze_made": "spitze", "penalty_seat": "penalty", "penalty_points": "penalty",
    "penalty_reason": "penalty", "version": "general", "request_id": "general",
    "deal": "general",
}


def group_of(field: str | None) -> str:
    """The screen section that shows a message about ``field`` (form or engine name)."""
    if field is None:
        return "general"
    if field in FORM_GROUPS:
        return FORM_GROUPS[field]
    if field.startswith("ramsch"):
        return "ramsch"
    if field.startswith("penalty"):
        return "penalty"
    return ENGINE_GROUPS.get(field, ENGINE_GROUPS.get(field.split(".")[0], "general"))


@dataclass(frozen=True)
class Rules:
    """What the screen offers under an evening's rule system and options: the system's
    ruleset (engine/rulesets) asked with the evening's parsed options."""

    system: str
    options: Options
    raw_options: dict[str, Any]
    players: int

    @classmethod
    def of(cls, system: str, options: dict[str, Any] | None, players: int) -> Rules:
        return cls(system, parse_options(system, options or {}, players), options or {},
                   players)

    @property
    def ruleset(self) -> Ruleset:
        return ruleset(self.system)

    @property
    def all_games(self) -> dict[str, Game]:
        return self.ruleset.all_games(self.options)

    @property
    def games(self) -> list[Game]:
        return self.ruleset.games(self.options)

    @property
    def game_headings(self) -> bool:
        """The games are grouped under family headings (else shown with suit symbols)."""
        return self.ruleset.game_headings

    @property
    def bids(self) -> list[int]:
        return self.ruleset.bids(self.options)

    @property
    def common_bids(self) -> list[int]:
        return self.ruleset.common_bids(self.options)

    @property
    def kontra(self) -> bool:
        return self.ruleset.kontra(self.options)

    @property
    def hand(self) -> bool:
        return self.ruleset.declares("hand", self.options)

    @property
    def ouvert(self) -> bool:
        return self.ruleset.declares("ouvert", self.options)

    @property
    def spitze(self) -> bool:
        return self.ruleset.spitze(self.options)

    @property
    def schenken(self) -> bool:
        return self.ruleset.schenken(self.options)

    @property
    def passt_mir_nicht(self) -> bool:
        return self.ruleset.declares("passt_mir_nicht", self.options)

    @property
    def ramsch(self) -> bool:
        return self.options.ramsch != "off"

    @property
    def pushes(self) -> bool:
        return self.ruleset.pushes(self.options)

    @property
    def skat_to_nobody(self) -> bool:
        return self.ruleset.skat_to_nobody(self.options)

    @property
    def implies_json(self) -> str:
        """What each declaration switches on with it, as JSON for entry.js (data-implies)."""
        return json.dumps({k: list(v) for k, v in self.ruleset.implies.items()},
                          separators=(",", ":"))

    @property
    def bock_manual(self) -> bool:
        """Bock set by hand at the table (option bock.manual, DECISIONS §9)."""
        return self.options.bock is not None and self.options.bock.manual

    @property
    def penalty_points(self) -> int:
        return self.options.penalty_points


def _seat_choices(players: int) -> list[tuple[str, str]]:
    return [(str(s), str(s)) for s in range(players)]


class DealForm(forms.Form):
    """One record of a table, built for the evening's rules and the deal's active seats."""

    version = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    kind = forms.ChoiceField(label=_("Record"), choices=KIND_CHOICES, required=False)
    declarer = forms.TypedChoiceField(label=_("Declarer"), coerce=int, required=False,
                                      empty_value=None)
    game = forms.ChoiceField(label=_("Game"), required=False)
    hand = forms.BooleanField(label="Hand", required=False)
    ouvert = forms.BooleanField(label="Ouvert", required=False)
    schneider_announced = forms.BooleanField(label=_("Schneider announced"), required=False)
    schwarz_announced = forms.BooleanField(label=_("Schwarz announced"), required=False)
    matadors = forms.TypedChoiceField(
        label=_("Matadors"), coerce=int, required=False, empty_value=None,
        choices=[(str(n), str(n)) for n in range(-MAX_MATADORS, MAX_MATADORS + 1) if n])
    bid = forms.IntegerField(label=_("Bid"), required=False, min_value=0, max_value=10_000)
    bid_more = forms.IntegerField(label=_("Other bid"), required=False, min_value=0,
                                  max_value=10_000)
    result = forms.ChoiceField(label=_("Result"), choices=[("", "–"), *QUICK_CHOICES],
                               required=False)
    declarer_points = forms.IntegerField(label=_("Card points of the declarer"),
                                         required=False, min_value=0, max_value=120)
    declarer_tricks = forms.IntegerField(label=_("Tricks of the declarer"), required=False,
                                         min_value=0, max_value=10)
    kontra = forms.ChoiceField(label="Kontra", choices=KONTRA_CHOICES, required=False)
    kontra_by = forms.TypedChoiceField(label=_("Kontra said by"), coerce=int, required=False,
                                       empty_value=None)
    spitze = forms.IntegerField(label="Spitze", required=False, min_value=0, max_value=4)
    spitze_made = forms.ChoiceField(label=_("Spitze made"), choices=YES_NO, required=False)
    concession = forms.ChoiceField(label=_("Concession"), choices=CONCESSION_CHOICES,
                                   required=False)
    passt_mir_nicht = forms.BooleanField(label=_("Passt mir nicht"), required=False)
    pushes = forms.IntegerField(label=_("Pushes"), required=False, min_value=0, max_value=3)
    skat_points = forms.IntegerField(label=_("Card points in the skat"), required=False,
                                     min_value=0, max_value=22)
    # The short Ramsch record: who has the most card points (several on a tie) and how many,
    # how many players took no trick, who took every trick.
    ramsch_loser = forms.TypedMultipleChoiceField(label=_("Loser"), coerce=int,
                                                  required=False)
    ramsch_loser_points = forms.IntegerField(label=_("Card points of the loser"),
                                             required=False, min_value=0, max_value=120)
    ramsch_jungfrau = forms.IntegerField(label="Jungfrau", required=False, min_value=0,
                                         max_value=2)
    ramsch_durchmarsch = forms.TypedChoiceField(label="Durchmarsch", coerce=int,
                                                required=False, empty_value=None)
    # Under option bock.manual: this deal's Bock level (empty: as the rounds say) and a Bock
    # round queued by hand.
    bock = forms.TypedChoiceField(label="Bock", coerce=int, required=False, empty_value=None,
                                  choices=[("", "–"), ("0", "0"), ("1", "1"), ("2", "2")])
    bock_round = forms.BooleanField(label=_("Bock round"), required=False)
    penalty_seat = forms.TypedChoiceField(label=_("Penalised player"), coerce=int,
                                          required=False, empty_value=None)
    penalty_points = forms.IntegerField(label=_("Penalty points"), required=False,
                                        min_value=1, max_value=10_000)
    penalty_reason = forms.CharField(label=_("Why"), required=False, max_length=200)

    def __init__(self, *args: Any, rules: Rules, active: Sequence[int],
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.active = [s for s in active if 0 <= s < rules.players]
        seats = _seat_choices(rules.players)
        for name in ("declarer", "kontra_by", "penalty_seat", "ramsch_durchmarsch",
                     "ramsch_loser"):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = [("", "–"), *seats]
        all_games = rules.all_games
        # Every game key of the system is accepted here, so that a game switched off by an
        # option is refused by the engine with its reason rather than a bare "invalid".
        game = self.fields["game"]
        assert isinstance(game, forms.ChoiceField)
        game.choices = [("", "–"), *((k, k) for k in all_games)]
        if not rules.bock_manual:  # Bock is the round tracker's alone: not a field at all
            del self.fields["bock"], self.fields["bock_round"]
        self.ramsch_fields: list[tuple[int, str, str]] = []
        for s in self.active:
            self.fields[f"ramsch_points_{s}"] = forms.IntegerField(
                label=_("Card points"), required=False, min_value=0, max_value=120)
            self.fields[f"ramsch_tricks_{s}"] = forms.IntegerField(
                label=_("Tricks"), required=False, min_value=0, max_value=10)
            self.ramsch_fields.append((s, f"ramsch_points_{s}", f"ramsch_tricks_{s}"))
        self.engine_errors: list[tuple[str, str]] = []

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        bid, more = data.get("bid"), data.get("bid_more")
        if bid is not None and more is not None and bid != more:
            self.add_error("bid_more", _("Choose one bid: %(a)d or %(b)d.") % {"a": bid,
                                                                               "b": more})
        # A game needs its declarer and its game before anything else can be checked; say
        # so in the scorer's words rather than letting the engine read "None is not a game".
        # A Ramsch with nothing entered yet: say what to tap first (the short way).
        if data.get("kind") == "ramsch" and not self.short_ramsch_given() and not any(
                data.get(p) is not None or data.get(t) is not None
                for _s, p, t in self.ramsch_fields) and "ramsch_loser" not in self.errors:
            self.add_error("ramsch_loser", _("Tap the player with the most card points, or "
                                             "who took every trick."))
        if (data.get("kind") or "game") == "game":
            # A Kontra is said by someone: no silent "nobody" (issue 23). The preview keeps
            # this step open (views/entry.py) until the sayer is tapped.
            if (data.get("kontra") or "none") != "none" and data.get("kontra_by") is None \
                    and "kontra_by" not in self.errors:
                self.add_error("kontra_by", forms.ValidationError(
                    _("Tap who said Kontra."), code=SAYER_MISSING))
            if data.get("declarer") is None and "declarer" not in self.errors:
                self.add_error("declarer", _("Tap who plays."))
            if not data.get("game") and "game" not in self.errors:
                self.add_error("game", _("Tap the game."))
        # The typed record the views and services take (engine/records.py); None while
        # the input has errors. to_record() stays the JSON for a preview of a draft.
        self.record: DealRecord | None = None if self.errors else deal_record(self.to_record())
        return data

    # ------------------------------------------------------------ record

    def to_record(self) -> dict[str, Any]:
        """The deal record the input stands for (call after is_valid()): the engine's one
        form-to-record mapping, which the offline table runs in the browser too."""
        return record_from_form(self.cleaned_data)

    def short_ramsch_given(self) -> bool:
        """Whether the Ramsch was entered the short way (loser, Jungfrau, Durchmarsch)."""
        return short_ramsch_given(self.cleaned_data)

    # ------------------------------------------------------------ messages

    def add_engine_error(self, err: SkatError) -> None:
        """The engine's refusal, in the language of the page (German or English)."""
        self.engine_errors.append((group_of(err.field), err.message_in(get_language())))

    def messages(self) -> dict[str, list[str]]:
        """Every message, by screen section ("declarer", "bid", "ramsch", "general" …)."""
        out: dict[str, list[str]] = {}
        if self.is_bound:
            for field, errors in self.errors.items():
                group = group_of(None if field == "__all__" else field)
                label = self.fields[field].label if field in self.fields else None
                for message in errors:
                    text = f"{label}: {message}" if label else str(message)
                    out.setdefault(group, []).append(text)
        for group, message in self.engine_errors:
            out.setdefault(group, []).append(message)
        return out

    def all_messages(self) -> list[str]:
        return [m for messages in self.messages().values() for m in messages]


class EditForm(DealForm):
    reason = forms.CharField(label=_("Reason for the correction"), max_length=500)


class ReasonForm(forms.Form):
    """Deleting or restoring a deal: the version it was shown at and why."""

    version = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
    # The post's key: sent twice (a double tap, a lost answer), it is done once.
    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=500)


# The form's initial values for a stored record (the edit form): the engine's mapping.
record_to_initial = form_from_record


def game_symbol(game: Game) -> str:
    return SYMBOLS.get(game.trump or "", "")


__all__ = ["DealForm", "EditForm", "ReasonForm", "Rules", "record_to_initial", "group_of"]
