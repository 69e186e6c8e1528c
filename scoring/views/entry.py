"""The table screen: record a deal in a few taps, see it scored before saving, correct it later.

Views are thin: access → form → one operation (writes.table_ops, as the offline sync's) →
redirect (Post/Redirect/Get). Every rule is the engine's; whatever it refuses is shown next to
the field and nothing is saved. Every post carries a request ID: sent twice, it is done once
and confirmed twice.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring import access
from scoring.engine import SkatError, record_json
from scoring.forms.entry import (
    KIND_CHOICES,
    MAX_MATADORS,
    QUICK_CHOICES,
    SAYER_MISSING,
    DealForm,
    EditForm,
    ReasonForm,
    Rules,
    game_symbol,
    record_to_initial,
)
from scoring.models import Deal, Table
from scoring.notation import short_names
from scoring.reads.deal_labels import CONCESSION_CHOICES, KONTRA_CHOICES
from scoring.reads.sheet import ScoreSheet, deal_preview, table_sheet
from scoring.reads.table_state import full_table, live_deal
from scoring.views import table_live
from scoring.writes.table_ops import (
    DELETE,
    EDIT,
    SAVE,
    Actor,
    Conflict,
    Outcome,
    Refused,
    Stored,
    TableOp,
    table_op_apply,
)

POSITIONS = [
    ("forehand", gettext_lazy("Forehand")),
    ("middlehand", gettext_lazy("Middlehand")),
    ("rearhand", gettext_lazy("Rearhand")),
]
# The headings over the historical games: the glossary's names, the same in both languages
# but Frage, which English calls Call play.
FAMILY_GROUPS = {
    "frage": "Frage", "tourne": "Tourné", "solo": "Solo", "grand_solo": "Grand",
    "grand_tourne": "Grand", "guckser": "Grand", "gucki": "Grand", "grand_ouvert": "Grand",
    "fixed": "Nullo",
}
FAMILY_GROUPS_EN = {**FAMILY_GROUPS, "frage": "Call play"}
UNDO_REASON = gettext_lazy("Undone right after saving")
RESTORE_REASON = gettext_lazy("Restored right after undoing")
REASON_SUGGESTIONS = [gettext_lazy("Typo"), gettext_lazy("Wrong player"),
                      gettext_lazy("Card points miscounted")]


# ---------------------------------------------------------------- helpers

def _lang() -> str:
    lang = (get_language() or "de").split("-")[0]
    return lang if lang in ("de", "en") else "en"


def _full(table: Table) -> Table:
    """The table with seats, players and deals prefetched (a constant number of queries)."""
    return full_table(table.pk)


def _apply(table: Table, actor: Actor, kind: str, data: dict[str, Any],
           record: Any = None, deal: Deal | None = None) -> Outcome:
    """The form's cleaned ``data`` as one operation through the service the offline sync
    calls too. A page served before edits carried a request ID gets a fresh one: its repeat
    then meets the version it changed (a conflict), never a second change."""
    return table_op_apply(op=TableOp(
        table=table, actor=actor, kind=kind,
        request_id=data.get("request_id") or uuid.uuid4(), base_version=data["version"],
        record=record_json(record) if record is not None else None,
        deal_id=deal.pk if deal is not None else None, reason=data.get("reason", ""),
        lang=_lang()))


def _rules(table: Table) -> Rules:
    evening = table.evening
    return Rules.of(evening.rules, evening.options, len(table.seats.all()))


def _writer(request: HttpRequest, pk: int) -> tuple[Table, Actor, bool]:
    """The table, the actor and whether they may write (viewers read only)."""
    try:
        table, actor = access.table_for(request, pk, write=True)
        return table, actor, True
    except PermissionDenied:
        table, actor = access.table_for(request, pk, write=False)
        return table, actor, False


def _value(form: DealForm, name: str) -> str:
    value = form[name].value()
    return "" if value is None else str(value)


def _checked(form: DealForm, name: str) -> bool:
    value = form[name].value()
    return value is True or value in ("on", "true", "True", "1")


def _choice(name: str, value: Any, label: Any, current: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "value": str(value), "label": label,
            "checked": str(value) == current, "id": f"{name}-{value}".replace(" ", ""),
            **extra}


def build_controls(form: DealForm, players: list[str], active: list[int],
                   short: list[str] | None = None) -> dict[str, Any]:
    """Everything the deal form shows, as plain data for the template; ``short``: the
    players' short names (first names), which the Kontra sayers show to stand two in a
    row (their full names are their accessible names)."""
    rules = form.rules
    ui: dict[str, Any] = {"rules": rules}
    kind = _value(form, "kind") or "game"
    kinds = [k for k in KIND_CHOICES if k[0] != "ramsch" or rules.ramsch or kind == "ramsch"]
    ui["kind"] = [_choice("kind", k, label, kind, tap=f"kind-{k}") for k, label in kinds]
    ui["current_kind"] = kind

    positions = dict(zip(active, POSITIONS, strict=False))
    current = _value(form, "declarer")
    ui["declarer"] = [
        _choice("declarer", s, players[s], current, tap=f"declarer-{s}",
                position=positions[s][0], hint=positions[s][1])
        for s in active]

    current = _value(form, "game")
    groups: list[dict[str, Any]] = []
    for game in rules.games:
        groups_in = FAMILY_GROUPS if _lang() == "de" else FAMILY_GROUPS_EN
        heading = groups_in.get(game.family, "") if rules.game_headings else ""
        if not groups or groups[-1]["heading"] != heading:
            groups.append({"heading": heading, "choices": []})
        name = game.name_de if _lang() == "de" else game.name_en
        symbol = "" if rules.game_headings else game_symbol(game)
        groups[-1]["choices"].append(_choice(
            "game", game.key, name, current, tap=f"game-{game.key}", symbol=symbol,
            red=game.trump in ("H", "D"), suit=(game.trump or "").lower(),
            fixed=not game.multiplied, grand=game.grand))
    ui["games"] = groups

    ui["toggles"] = [
        {"name": key, "label": label, "checked": _checked(form, key), "id": f"toggle-{key}"}
        for key, label, on in (
            ("hand", "Hand", rules.hand),
            ("schneider_announced", _("Schneider announced"), True),
            ("schwarz_announced", _("Schwarz announced"), True),
            ("ouvert", "Ouvert", rules.ouvert),
            ("passt_mir_nicht", _("Passt mir nicht"), rules.passt_mir_nicht),
        ) if on]

    current = _value(form, "matadors")
    def matador(n: int) -> dict[str, Any]:
        # The button shows the count; its row says "with" or "without", and its accessible
        # name says both ("with 2").
        label = (_("with %(n)d") if n > 0 else _("without %(n)d")) % {"n": abs(n)}
        tap = f"matadors-{n}" if n > 0 else f"matadors-minus-{-n}"
        word = _("with") if n > 0 else _("without")
        return _choice("matadors", n, str(abs(n)), current, tap=tap, id=tap, number=abs(n),
                       aria=label, word=word, hint=word)
    ui["matadors_with"] = [matador(n) for n in range(1, 5)]
    ui["matadors_without"] = [matador(-n) for n in range(1, 5)]
    ui["matadors_more"] = [matador(n) for n in range(5, MAX_MATADORS + 1)] + [
        matador(-n) for n in range(5, MAX_MATADORS + 1)]
    ui["matadors_none"] = _choice("matadors", "", _("none (Null)"), current,
                                  tap="matadors-none", id="matadors-none")
    ui["matadors_more_open"] = current.lstrip("-").isdecimal() and abs(int(current)) > 4

    # Every legal bid is one tap: up to 60 in the strip, the higher ones behind "more".
    current = _value(form, "bid")
    common = set(rules.common_bids)
    ui["bids"] = [_choice("bid", b, b, current, tap=f"bid-{b}") for b in rules.common_bids]
    ui["bids_high"] = [_choice("bid", b, b, current, tap=f"bid-{b}")
                       for b in rules.bids if b not in common]
    ui["bids_high_open"] = current.isdecimal() and int(current) not in common
    ui["bid_more"] = {"current": _value(form, "bid_more"), "all": rules.bids}

    current = _value(form, "result")
    ui["results"] = [
        _choice("result", key, label, current, tap=f"result-{key}",
                multiplied_only=key not in ("won", "lost"))
        for key, label in QUICK_CHOICES]
    ui["result_none"] = _choice("result", "", _("count card points"), current,
                                tap="result-points", id="result-none")
    ui["declarer_points"] = _value(form, "declarer_points")
    ui["declarer_tricks"] = _value(form, "declarer_tricks")
    # "count card points" shows as chosen only once there is something counted.
    ui["result_none"]["checked"] = not current and bool(
        ui["declarer_points"] or ui["declarer_tricks"])

    current = _value(form, "kontra") or "none"
    ui["kontra"] = [_choice("kontra", k, label, current, tap=f"kontra-{k}")
                    for k, label in KONTRA_CHOICES]
    current = _value(form, "kontra_by")
    ui["kontra_by"] = [_choice("kontra_by", "", _("nobody"), current, tap="kontra-by-none",
                               id="kontra_by-none")] + [
        _choice("kontra_by", s, (short or players)[s], current, tap=f"kontra-by-{s}",
                aria=players[s]) for s in active]
    ui["show_kontra"] = rules.kontra or _value(form, "kontra") not in ("", "none")

    current = _value(form, "concession")
    ui["concession"] = [
        _choice("concession", k, label, current, tap=f"concession-{k or 'none'}",
                id=f"concession-{k or 'none'}")
        for k, label in CONCESSION_CHOICES if rules.schenken or not k.startswith("schenken")]
    ui["concession_open"] = bool(current)

    ui["spitze"] = {"current": _value(form, "spitze"), "made": _value(form, "spitze_made")}

    ui["ramsch"] = [
        {"seat": s, "name": players[s], "points_name": p, "tricks_name": t,
         "points": _value(form, p), "tricks": _value(form, t)}
        for s, p, t in form.ramsch_fields]
    ui["ramsch_points_open"] = any(r["points"] or r["tricks"] for r in ui["ramsch"])
    losers = form["ramsch_loser"].value() or []
    losers = [str(v) for v in (losers if isinstance(losers, list | tuple) else [losers])]
    ui["ramsch_losers"] = [
        {**_choice("ramsch_loser", s, players[s], "", tap=f"ramsch-loser-{s}"),
         "checked": str(s) in losers, "checkbox": True} for s in active]
    ui["ramsch_loser_points"] = _value(form, "ramsch_loser_points")
    current = _value(form, "ramsch_jungfrau") or "0"
    ui["ramsch_jungfrau"] = [
        _choice("ramsch_jungfrau", n, label, current, tap=f"ramsch-jungfrau-{n}")
        for n, label in ((0, pgettext("no Jungfrau", "none")), (1, "Jungfrau"),
                         (2, _("2× Jungfrau")))] if rules.options.ramsch_jungfrau else []
    current = _value(form, "ramsch_durchmarsch")
    ui["ramsch_durchmarsch"] = [
        _choice("ramsch_durchmarsch", "", pgettext("no Durchmarsch", "none"), current,
                tap="ramsch-durchmarsch-none", id="ramsch_durchmarsch-none")] + [
        _choice("ramsch_durchmarsch", s, players[s], current, tap=f"ramsch-durchmarsch-{s}")
        for s in active]
    ui["pushes"] = _value(form, "pushes")
    ui["skat_points"] = _value(form, "skat_points")

    current = _value(form, "penalty_seat")
    ui["penalty_seat"] = [_choice("penalty_seat", s, name, current, tap=f"penalty-seat-{s}")
                          for s, name in enumerate(players)]
    ui["penalty_points"] = _value(form, "penalty_points")
    ui["penalty_reason"] = _value(form, "penalty_reason")
    ui["bock"], ui["bock_round"] = [], False
    if rules.bock_manual:  # Bock by hand (DECISIONS §9): the deal's level, a round queued
        current = _value(form, "bock")
        ui["bock"] = [
            _choice("bock", value, label, current, tap=f"bock-{value or 'auto'}",
                    id=f"bock-{value or 'auto'}")
            for value, label in (("", pgettext("Bock level", "as the rounds say")),
                                 ("0", pgettext("Bock level", "none")), ("1", "×2"),
                                 ("2", "×4"))]
        ui["bock_round"] = _checked(form, "bock_round")
    ui["messages"] = form.messages()
    return ui


def bock_badge(sheet: ScoreSheet) -> dict[str, Any]:
    """ "Bock 2 of 4", "+1 Bock round waiting", "Ramsch round": the sheet's words for the
    tracker's state (selectors.bock_words), so the table screen and the sheet agree."""
    status = sheet.bock
    words = dict(sheet.bock_words)
    return {"bock": status.level, "ramsch_round": sheet.next_ramsch_round,
            "position": status.position, "length": status.length, "waiting": status.waiting,
            "factor": status.factor, "bock_label": words.get("bock", ""),
            "waiting_label": words.get("waiting", "")}


def series_progress(table: Table, sheet: ScoreSheet) -> dict[str, Any] | None:
    """ "Series 1 · game 12 of 48", or that the series is finished; None for an open list."""
    length = table.evening.series_length(len(sheet.players))
    if length is None:
        return None
    return {"number": table.series, "length": length, "played": sheet.counted,
            "next": min(sheet.counted + 1, length), "complete": sheet.counted >= length}


def screen_context(request: HttpRequest, table: Table, sheet: ScoreSheet, *,
                   form: DealForm | None, writable: bool, **extra: Any) -> dict[str, Any]:
    players = sheet.players
    active = list(sheet.next_active)
    context: dict[str, Any] = {
        "table": table, "evening": table.evening, "sheet": sheet, "players": players,
        "dealer": players[sheet.next_dealer] if players else "",
        "positions": [
            {"key": key, "label": label, "name": players[s]}
            for s, (key, label) in zip(active, POSITIONS, strict=False)],
        "badge": bock_badge(sheet), "rows": sheet.rows,
        "totals": list(zip(players, sheet.totals, strict=True)),
        "writable": writable, "form": form, "version": table.version,
        "request_id": uuid.uuid4(), "misdeal_request_id": uuid.uuid4(), "deal": None,
        "reason_request_id": uuid.uuid4(),
        "stale": False,
        "undo_reason": UNDO_REASON, "reason_suggestions": REASON_SUGGESTIONS,
        "series": series_progress(table, sheet),
    }
    if form is not None:
        # The form's seats: the next deal's for a new one, the edited deal's own for a
        # correction (its declarer and defenders, not whoever plays next).
        context["ui"] = build_controls(form, players, list(form.active),
                                       short_names(sheet) if players else None)
    context.update(extra)
    return context


def _posted_version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdecimal() and len(raw) < 12 else None


def _confirmed(table: Table, done: str, deal_id: int) -> HttpResponse:
    """Back to the table with the confirmation of what was ``done`` to the deal ("saved",
    "corrected", "deleted", "restored"): after the first tap and after a repeated one alike
    (the service's "replayed"), so a repeat shows the same toast."""
    return redirect(f"{reverse('scoring:table', args=[table.pk])}?{done}={deal_id}")


def _row_for(sheet: ScoreSheet, deal: Deal) -> Any:
    return next((row for row in sheet.rows if row.deal_id == deal.pk), None)


def _error(outcome: Outcome) -> SkatError:
    """A refusal of the form's operation, for the form to show beside its field."""
    assert isinstance(outcome, Refused), outcome  # the form's operations are never held
    return outcome.error or SkatError(outcome.field, outcome.message)


# ---------------------------------------------------------------- the screen

@require_safe
def table_view(request: HttpRequest, pk: int) -> HttpResponse:
    table, actor, writable = _writer(request, pk)
    table = _full(table)
    # Of all rows only the one just saved shows its explanation (in the "saved" notice).
    # After a correction or an undo the screen confirms it the same way.
    notice, shown_id = "saved", None
    for key in ("saved", "corrected", "deleted", "restored"):
        raw = request.GET.get(key, "")
        if raw:
            notice = key
            shown_id = int(raw) if raw.isdecimal() and len(raw) < 12 else None
            break
    live = [d.pk for d in table.deals.all() if not d.deleted]
    number = live.index(shown_id) + 1 if shown_id in live else None
    sheet = table_sheet(table, _lang(), explain=number is not None, explain_from=number or 1)
    form = None
    if writable:
        # In a Ramsch round only a Ramsch (or a Grand Hand instead) is accepted.
        kind = "ramsch" if sheet.next_ramsch_round else "game"
        form = DealForm(initial={"version": table.version, "kind": kind},
                        rules=_rules(table), active=sheet.next_active)
    row = sheet.rows[number - 1] if number is not None else None
    undone = None
    if notice == "deleted" and shown_id is not None:
        undone = next((d for d in table.deals.all() if d.pk == shown_id and d.deleted), None)
    return render(request, "scoring/entry/table.html",
                  screen_context(request, table, sheet, form=form, writable=writable,
                                 saved=row if notice == "saved" else None,
                                 corrected=row if notice in ("corrected", "restored") else None,
                                 restored=notice == "restored", undone=undone,
                                 restore_reason=RESTORE_REASON, actor_admin=actor.admin,
                                 # Signed by everybody: only a club admin changes it (with
                                 # a reason); a scorer is offered neither the form nor ✎.
                                 locked=table.signed_at is not None and not actor.admin))


@require_POST
def deal_save(request: HttpRequest, pk: int) -> HttpResponse:
    table, actor = access.table_for(request, pk, write=True)
    # The form takes a Ramsch's points for every seat: who sat out is the engine's to say
    # (it refuses them in its transaction), so the sheet is built only to show a refusal.
    rules = Rules.of(table.evening.rules, table.evening.options, table.seats.count())
    form = DealForm(request.POST, rules=rules, active=range(rules.players))
    if form.is_valid() and form.cleaned_data.get("request_id") is None:
        form.add_error("request_id", _("The form is incomplete: reload the page."))
    if form.is_valid():
        assert form.record is not None  # a valid form has its record
        outcome = _apply(table, actor, SAVE, form.cleaned_data, form.record)
        if isinstance(outcome, Stored):
            return _confirmed(table, "saved", outcome.deal_id)
        if isinstance(outcome, Conflict):
            return _stale_screen(request, table, form_class=DealForm)
        form.add_engine_error(_error(outcome))  # nothing was saved
    table = _full(table)
    sheet = table_sheet(table, _lang(), explain=False)
    shown = DealForm(request.POST, rules=rules, active=sheet.next_active)
    shown.is_valid()
    for name, errors in form.errors.items():  # e.g. the missing request id added above
        if name not in shown.errors and (name == "__all__" or name in shown.fields):
            for error in errors:
                shown.add_error(None if name == "__all__" else name, error)
    shown.engine_errors = form.engine_errors
    stale = _posted_version(request) not in (None, table.version)
    return render(request, "scoring/entry/table.html",
                  screen_context(request, table, sheet, form=shown, writable=True,
                                 stale=stale), status=422)


def _stale_screen(request: HttpRequest, table: Table, *, form_class: type[DealForm],
                  deal: Deal | None = None) -> HttpResponse:
    """Another device changed the table: show the current state and the scorer's entry,
    which is kept in the form (with the new version) to check and save again."""
    table = _full(table)
    sheet = table_sheet(table, _lang())
    data = request.POST.copy()
    data["version"] = str(table.version)
    active = sheet.next_active
    if deal is not None:
        row = _row_for(sheet, deal)
        active = list(row.active) if row else active
    form = form_class(data, rules=_rules(table), active=active)
    form.is_valid()
    template = "scoring/entry/edit.html" if deal is not None else "scoring/entry/table.html"
    context = screen_context(request, table, sheet, form=form, writable=True, stale=True,
                             deal=deal)
    if deal is not None:
        context.update(_edit_extra(table, sheet, deal, form))
    # Both versions side by side, and the choice (templates/scoring/entry/_conflict.html).
    context["conflict"] = table_live.conflict(request, table, sheet, _rules(table), _lang(),
                                              deal)
    return render(request, template, context, status=409)


@require_POST
def deal_preview_view(request: HttpRequest, pk: int) -> HttpResponse:
    table, _actor = access.table_for(request, pk, write=True)
    table = _full(table)
    lang = _lang()
    sheet = table_sheet(table, lang, explain=False)
    replace = None
    raw = request.POST.get("deal", "")
    if raw.isdecimal() and len(raw) < 12:
        replace = live_deal(table, int(raw))
    active = sheet.next_active
    if replace is not None:
        row = _row_for(sheet, replace)
        active = list(row.active) if row else active
    rules = _rules(table)
    form = DealForm(request.POST, rules=rules, active=active)
    row = None
    value = None
    overbid: dict[str, Any] | None = None
    not_given: list[tuple[str, str]] = []
    # A Kontra whose sayer is not tapped yet is a step still open, not a refusal: the rest
    # of the deal is scored meanwhile.
    sayer_open = [str(m) for m in form.errors.get("kontra_by", [])] if (
        not form.is_valid() and set(form.errors) == {"kontra_by"}
        and form.has_error("kontra_by", SAYER_MISSING)) else []
    if form.is_valid() or sayer_open:
        record = form.to_record()
        preview = deal_preview(table, record, lang, replace=replace)
        if preview.error is None:
            row = preview.row
        elif _not_given(record, preview.error.field, active):
            not_given.append((preview.error.field or "", preview.error.message_in(lang)))
            overbid = _overbid(table, record, lang, replace, sheet.players)
        else:
            form.add_engine_error(preview.error)
        value = _declared_value(table, rules, record, lang, replace)
    messages: list[str] = []
    still_open: list[str] = []
    if row is None:
        messages, still_open = _refusals(
            form, rules, bool(sheet.next_ramsch_round) and replace is None, not_given)
    else:
        still_open = sayer_open
    context = {"row": row, "messages": messages, "open": still_open,
               "players": sheet.players, "table": table, "value": value,
               "overbid": overbid if not messages else None}
    if row is not None:
        context["entries"] = _entries(row, sheet.players)
    return render(request, "scoring/entry/_preview.html", context)


def _entries(row: Any, players: list[str]) -> list[tuple[str, int]]:
    return [(players[s], e) for s, e in enumerate(row.entries) if e is not None]


def _overbid(table: Table, record: dict[str, Any], lang: str, replace: Deal | None,
             players: list[str]) -> dict[str, Any] | None:
    """Before the result is tapped: whether the game as declared (game, matadors, Hand,
    announcements …) stays below the bid, and then what it will count, as the engine scores
    it with everything given so far (Kontra and Bock included): an overbid game is lost
    whatever the declarer takes, at the charge the rule system says (DECISIONS.md: the next
    multiple of the game's base, or the bid itself under overbid_charge: bid). Schneider
    played may still lift the value to the bid: then ``lift`` is what "won Schneider" would
    count. None when the game is not overbid, not complete enough, or a result is given."""
    if record.get("kind") != "game" or record.get("bid") is None or any(
            record.get(k) is not None for k in ("result", "declarer_points",
                                                "declarer_tricks", "concession")):
        return None
    played = deal_preview(table, {**record, "result": "won"}, lang, replace=replace)
    if played.error is not None or played.row is None or not played.row.overbid:
        return None
    lifted = deal_preview(table, {**record, "result": "won_schneider"}, lang, replace=replace)
    lift = None
    if lifted.error is None and lifted.row is not None and not lifted.row.overbid:
        seat = lifted.row.declarer
        lift = lifted.row.entries[seat] if isinstance(seat, int) else None
    return {"row": played.row, "entries": _entries(played.row, players), "lift": lift}


# The steps of a game in the order the screen asks them, for "Still open: Bid, Result".
STEPS = [("declarer", gettext_lazy("Declarer")), ("game", gettext_lazy("Game")),
         ("matadors", gettext_lazy("With / without")), ("bid", gettext_lazy("Bid")),
         ("result", gettext_lazy("Result"))]
# An engine error about one of these fields, not given yet, is that step still open.
STEP_OF = {"declarer": "declarer", "game": "game", "matadors": "matadors", "bid": "bid",
           "result": "result", "declarer_points": "result", "declarer_tricks": "result"}


def _blank(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


# Fields that hold a value per seat: given only once every seat that plays has one.
PER_SEAT = ("ramsch.points", "ramsch.tricks")


def _not_given(record: dict[str, Any], field: str | None, active: Any) -> bool:
    """Whether the engine refused ``record`` for a ``field`` ("bid", "penalty.seat" …) that
    is simply not given yet: a step the scorer has not reached, not a contradiction. That
    is a field absent or blank, a loser's card points still blank, or card points typed for
    some of the ``active`` seats but not yet for all. An error about the whole deal (no
    field) or about values that are all there is a real one."""
    if field is None:
        return False
    value: Any = record
    for key in field.split("."):
        if not isinstance(value, dict) or _blank(value.get(key)):
            return True
        value = value[key]
    if isinstance(value, dict):
        if any(_blank(v) for v in value.values()):
            return True
        seats = {str(s) for s in active}
        return field in PER_SEAT and set(value) < seats
    return False


def _refusals(form: DealForm, rules: Rules, ramsch_round: bool,
              not_given: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """The preview's messages in two kinds. What is wrong, in red: the engine's refusals
    (``form.engine_errors``) and the form's errors about values that were given. What is
    still open, neutral: the steps of a game not reached yet ("Still open: Bid, Result", in
    the screen's order), and any other message about a field not given yet (``not_given``,
    the engine's, as (field, message); "say how many tricks", "tap the loser"). Save waits
    for both kinds."""
    data = form.data
    assert isinstance(data, QueryDict)  # the form is bound to request.POST

    def given(name: str) -> bool:
        return any(not _blank(v.strip()) for v in data.getlist(name))

    wrong = [message for _group, message in form.engine_errors]
    for name, errors in form.errors.items():
        if name in form.fields and not form.fields[name].widget.is_hidden and not given(name):
            not_given += [(name, str(m)) for m in errors]
            continue
        label = form.fields[name].label if name in form.fields else None
        wrong += [f"{label}: {m}" if label else str(m) for m in errors]
    steps: list[str] = []
    if (data.get("kind") or "game") == "game":
        fixed = {g.key for g in rules.games if not g.multiplied}
        done = {"declarer": given("declarer"), "game": given("game"),
                "matadors": given("matadors") or data.get("game") in fixed,
                "bid": given("bid") or given("bid_more") or ramsch_round or not rules.bids,
                "result": any(given(n) for n in ("result", "declarer_points",
                                                 "declarer_tricks", "concession"))}
        steps = [key for key, _label in STEPS if not done[key]]
    still_open = [_("Still open: %(steps)s") % {
        "steps": ", ".join(str(label) for key, label in STEPS if key in steps)}] if steps else []
    still_open += [message for field, message in not_given
                   if STEP_OF.get(field) not in steps and message not in still_open]
    return wrong, still_open


def _declared_value(table: Table, rules: Rules, record: dict[str, Any], lang: str,
                    replace: Deal | None) -> int | None:
    """The value of the game as declared so far (game, matadors, Hand, Schneider …), for the
    bid strip to mark: the engine scores it as won at the lowest bid, with nothing of the
    play (card points, Kontra, concession) that is not yet known. None while the game is
    incomplete or the engine refuses it."""
    if record.get("kind") != "game" or not record.get("game") or not rules.bids:
        return None
    keep = ("kind", "declarer", "game", "hand", "ouvert", "schneider_announced",
            "schwarz_announced", "matadors", "passt_mir_nicht")
    declared = {k: record[k] for k in keep if k in record}
    declared.update(result="won", bid=rules.bids[0])
    preview = deal_preview(table, declared, lang, replace=replace)
    if preview.error is not None or preview.row is None or preview.row.value is None:
        return None
    return int(preview.row.value)


# ---------------------------------------------------------------- corrections

def _edit_extra(table: Table, sheet: ScoreSheet, deal: Deal, form: DealForm | None,
                reason_form: ReasonForm | None = None) -> dict[str, Any]:
    row = _row_for(sheet, deal)
    return {"deal": deal, "row": row, "reason_form": reason_form or ReasonForm(
        initial={"version": table.version})}


@require_http_methods(["GET", "POST"])
def deal_edit_view(request: HttpRequest, pk: int, deal: int) -> HttpResponse:
    table, actor = access.table_for(request, pk, write=True)
    if request.method != "POST" and table.signed_at is not None and not actor.admin:
        # Signed by everybody: the table screen says the list is locked. A scorer who typed
        # this address is not handed the form first; a form opened before the last signature
        # is refused by the service, with its message, when it is sent.
        return redirect("scoring:table", pk=table.pk)
    table = _full(table)
    the_deal = access.deal_for(request, table, deal)
    lang = _lang()
    sheet = table_sheet(table, lang)
    row = _row_for(sheet, the_deal)
    active = list(row.active) if row else list(sheet.next_active)
    status = 200
    if request.method == "POST":
        form = EditForm(request.POST, rules=_rules(table), active=active)
        if form.is_valid():
            assert form.record is not None  # a valid form has its record
            outcome = _apply(table, actor, EDIT, form.cleaned_data, form.record, the_deal)
            if isinstance(outcome, Stored):
                return _confirmed(table, "corrected", outcome.deal_id)
            if isinstance(outcome, Conflict):
                the_deal.refresh_from_db()
                return _stale_screen(request, table, form_class=EditForm, deal=the_deal)
            form.add_engine_error(_error(outcome))
        status = 422
    else:
        form = EditForm(initial={**record_to_initial(the_deal.record),
                                 "version": table.version}, rules=_rules(table), active=active)
    stale = request.method == "POST" and _posted_version(request) not in (None, table.version)
    context = screen_context(request, table, sheet, form=form, writable=True, stale=stale)
    context.update(_edit_extra(table, sheet, the_deal, form))
    return render(request, "scoring/entry/edit.html", context, status=status)


def _reason_action(request: HttpRequest, pk: int, deal: int, action: str) -> HttpResponse:
    table, actor = access.table_for(request, pk, write=True)
    table = _full(table)
    the_deal = access.deal_for(request, table, deal)
    reason_form = ReasonForm(request.POST)
    done = "deleted" if action == DELETE else "restored"
    status = 422
    if reason_form.is_valid():
        outcome = _apply(table, actor, action, reason_form.cleaned_data, deal=the_deal)
        if isinstance(outcome, Stored):
            return _confirmed(table, done, outcome.deal_id)
        if isinstance(outcome, Conflict) or reason_form.cleaned_data["version"] != table.version:
            status = 409  # a changed table (a refusal on one too): the conflict says why
        elif isinstance(outcome, Refused):
            reason_form.add_error("reason" if outcome.field == "reason" else None,
                                  outcome.message)
    table = _full(table)
    the_deal.refresh_from_db()
    sheet = table_sheet(table, _lang())
    row = _row_for(sheet, the_deal)
    form = None
    if not the_deal.deleted:
        form = EditForm(initial={**record_to_initial(the_deal.record),
                                 "version": table.version}, rules=_rules(table),
                        active=list(row.active) if row else list(sheet.next_active))
    context = screen_context(request, table, sheet, form=form, writable=True,
                             stale=status == 409)
    context.update(_edit_extra(table, sheet, the_deal, form, reason_form))
    context["reason_action"] = action
    if status == 409:
        # The other device's changes beside the deal to delete or restore, and the choice
        # (templates/scoring/entry/_conflict.html).
        context["conflict"] = table_live.change_conflict(
            request, table, sheet, the_deal, action, reason_form.cleaned_data["reason"],
            _lang())
    return render(request, "scoring/entry/edit.html", context, status=status)


@require_POST
def deal_delete_view(request: HttpRequest, pk: int, deal: int) -> HttpResponse:
    return _reason_action(request, pk, deal, "delete")


@require_POST
def deal_restore_view(request: HttpRequest, pk: int, deal: int) -> HttpResponse:
    return _reason_action(request, pk, deal, "restore")


urlpatterns: list[URLPattern] = [
    path("tables/<int:pk>/", table_view, name="table"),
    path("tables/<int:pk>/deals/", deal_save, name="deal-save"),
    path("tables/<int:pk>/preview/", deal_preview_view, name="deal-preview"),
    path("tables/<int:pk>/deals/<int:deal>/edit/", deal_edit_view, name="deal-edit"),
    path("tables/<int:pk>/deals/<int:deal>/delete/", deal_delete_view, name="deal-delete"),
    path("tables/<int:pk>/deals/<int:deal>/restore/", deal_restore_view, name="deal-restore"),
]
