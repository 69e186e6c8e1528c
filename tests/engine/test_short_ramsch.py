"""The short Ramsch record (DECISIONS.md §9): losers and their card points, the number of
players without a trick and the Durchmarsch taker. It scores exactly as the full record, and
it is refused exactly where no full record could say the same."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import SkatError, evaluate, evaluate_table
from scoring.engine.fields import active_seats

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil"]


@st.composite
def isko_options(draw: st.DrawFn) -> dict[str, Any]:
    options: dict[str, Any] = {"ramsch": "when_all_pass"}
    for key, values in (
        ("ramsch_scoring", ["augen", "simple"]),
        ("ramsch_skat", ["last_trick", "loser", "nobody"]),
        ("ramsch_ties", ["full", "share"]),
        ("ramsch_jungfrau", [True, False]),
        ("ramsch_durchmarsch", ["plus120", "times4"]),
        ("schieberamsch", ["off", "optional_double", "mandatory"]),
        ("ramsch_all_tied", ["none", "all_lose"]),
        ("ramsch_cap", [None, 30, 100, 250]),
    ):
        if draw(st.booleans()):
            options[key] = draw(st.sampled_from(values))
    if draw(st.booleans()):
        options.update(kontra=True, ramsch_kontra=True)
    return options


@st.composite
def system_and_options(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    system = draw(st.sampled_from(["isko", "isko", "american1898", "hoyle"]))
    if system == "isko":
        return system, draw(isko_options())
    if system == "american1898":
        return system, {"point_ramsch": draw(st.booleans())}
    return system, {"ramsch_base": draw(st.sampled_from([10, 20, 25]))}


def skat_to_nobody(system: str, options: dict[str, Any]) -> bool:
    return system == "american1898" or options.get("ramsch_skat") == "nobody"


@st.composite
def full_ramsch(draw: st.DrawFn, seats: tuple[int, ...], nobody: bool,
                pushes: bool) -> dict[str, Any]:
    """Any valid full record, with ties and Jungfrauen drawn often."""
    split = sorted(draw(st.lists(st.integers(0, 10), min_size=2, max_size=2)))
    tricks = [split[0], split[1] - split[0], 10 - split[1]]
    skat = draw(st.integers(0, 22)) if nobody else 0
    total = 120 - skat
    holders = [i for i, t in enumerate(tricks) if t]
    points = [0, 0, 0]
    shape = draw(st.sampled_from(["any", "tie2", "tie3"]))
    if shape == "tie3" and len(holders) == 3 and total % 3 == 0:
        points = [total // 3] * 3
    elif shape == "tie2" and len(holders) >= 2:
        a, b = draw(st.permutations(holders))[:2]
        rest = [i for i in holders if i not in (a, b)]
        low = total // 3 + 1 if rest else total // 2
        high = total // 2
        if total % 2 and not rest:
            low = high + 1  # two holders cannot tie on an odd total
        if low <= high:
            each = draw(st.integers(low, high))
            points[a] = points[b] = each
            for i in rest:
                points[i] = total - 2 * each
        else:
            shape = "any"
    else:
        shape = "any"
    if shape == "any":
        remaining = total
        for i in holders[:-1]:
            points[i] = draw(st.integers(0, remaining))
            remaining -= points[i]
        points[holders[-1]] = remaining
    record: dict[str, Any] = {
        "points": {str(s): p for s, p in zip(seats, points, strict=True)},
        "tricks": {str(s): t for s, t in zip(seats, tricks, strict=True)},
    }
    if nobody:
        record["skat_points"] = skat
    if pushes:
        record["pushes"] = draw(st.integers(0, 3))
    return record


def short_of(full: dict[str, Any]) -> dict[str, Any]:
    """What a scorer writes down instead of every player's points and tricks."""
    points, tricks = full["points"], full["tricks"]
    taker = next((int(s) for s, t in tricks.items() if t == 10), None)
    short: dict[str, Any] = {"pushes": full.get("pushes", 0)}
    if "skat_points" in full:
        short["skat_points"] = full["skat_points"]
    if taker is not None:
        short.update(losers={}, jungfrau=2, durchmarsch=taker)
    else:
        most = max(points.values())
        short.update(losers={s: p for s, p in points.items() if p == most},
                     jungfrau=sum(1 for t in tricks.values() if t == 0), durchmarsch=None)
    return short


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "entries": sorted(result["entries"].items())}


@settings(max_examples=400, deadline=None)
@given(system_and_options(), st.sampled_from([3, 4, 5]), st.integers(0, 4), st.data())
def test_the_short_record_scores_as_the_full_one(
    system_options: tuple[str, dict[str, Any]], players: int, dealer: int, data: st.DataObject,
) -> None:
    system, options = system_options
    dealer %= players
    seats = active_seats(dealer, players)
    pushes = system == "isko" and options.get("schieberamsch", "off") != "off"
    full = data.draw(full_ramsch(seats, skat_to_nobody(system, options), pushes))
    short = short_of(full)
    base = {"kind": "ramsch", "rules": system, "options": options,
            "players": NAMES[:players], "dealer": dealer}
    if options.get("ramsch_kontra"):
        base["kontra"] = data.draw(st.sampled_from(["none", "kontra", "re"]))
    for lang in ("en", "de"):
        expected = evaluate({**base, "ramsch": full}, lang)
        got = evaluate({**base, "ramsch": short}, lang)
        assert got == expected
    # In a table too, where the tracker finds the seats, with Bock doubling the entries.
    table = {"rules": system, "options": options, "players": NAMES[:players],
             "first_dealer": dealer}
    if system == "isko":
        table["options"] = {**options, "bock": {"includes_trigger": True,
                                                "triggers": ["all_passed"]}}
    kontra = {"kontra": base["kontra"]} if "kontra" in base else {}
    rows = [evaluate_table({**table, "deals": [{"kind": "ramsch", "ramsch": r, **kontra}]},
                           "de", explain=True) for r in (full, short)]
    assert rows[0] == rows[1]


def test_the_spec_form_scores_as_its_full_form() -> None:
    """deal-record.md's short form with a loser who can have the most: Bernd 61, a Jungfrau."""
    full = {"points": {"0": 59, "1": 61, "2": 0}, "tricks": {"0": 5, "1": 5, "2": 0}}
    short = {"losers": {"1": 61}, "jungfrau": 1, "durchmarsch": None, "pushes": 0}
    deal = {"kind": "ramsch", "options": {"ramsch": "when_all_pass"}, "players": NAMES[:3]}
    result = evaluate({**deal, "ramsch": short})
    assert result == evaluate({**deal, "ramsch": full})
    assert result["entries"] == {"1": -122}
    assert result["explanation"] == "Ramsch (Jungfrau × 2): Bernd (61 card points) −122"


# ---------------------------------------------------------------- plausibility

def full_exists(losers: dict[int, int], jungfrau: int, taker: int | None, total: int) -> bool:
    """Brute force, independent of the engine: some split of ``total`` card points among
    seats 0-2, with some players without a trick (and so without points), gives exactly
    these losers, this many Jungfrauen and this Durchmarsch."""
    for a in range(total + 1):
        for b in range(total + 1 - a):
            points = (a, b, total - a - b)
            for without in itertools.combinations(range(3), jungfrau):
                if any(points[s] for s in without):
                    continue
                if len(without) == 2:  # the third took every trick
                    rest = next(s for s in range(3) if s not in without)
                    if taker == rest and not losers:
                        return True
                    continue
                if taker is not None:
                    continue
                most = max(points)
                if {s: p for s, p in enumerate(points) if p == most} == losers:
                    return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.integers(0, 2), st.integers(0, 120), max_size=3),
       st.integers(0, 2), st.none() | st.integers(0, 2), st.booleans())
def test_a_short_record_is_refused_exactly_when_no_full_record_fits(
    raw_losers: dict[int, int], jungfrau: int, taker: int | None, same: bool,
) -> None:
    if same and raw_losers:  # ties need equal numbers: draw them often
        first = next(iter(raw_losers.values()))
        raw_losers = dict.fromkeys(raw_losers, first)
    deal = {"kind": "ramsch", "options": {"ramsch": "when_all_pass"}, "ramsch": {
        "losers": {str(s): p for s, p in raw_losers.items()}, "jungfrau": jungfrau,
        "durchmarsch": taker}}
    possible = full_exists(raw_losers, jungfrau, taker, 120)
    try:
        evaluate(deal)
    except SkatError:
        assert not possible
    else:
        assert possible


@pytest.mark.parametrize(("short", "field", "message"), [
    ({"losers": {"1": 40}}, "ramsch.losers",
     "A single loser has 41 to 120 card points here, not 40."),
    ({"losers": {"1": 50}, "jungfrau": 1}, "ramsch.losers",
     "A single loser has 61 to 120 card points here, not 50."),
    ({"losers": {"0": 61, "2": 61}}, "ramsch.losers",
     "Two tied losers have 41 to 60 card points each here, not 61."),
    ({"losers": {"0": 50, "2": 50}, "jungfrau": 1}, "ramsch.losers",
     "Two tied losers have 60 card points each here, not 50."),
    ({"losers": {"0": 39, "1": 39, "2": 39}}, "ramsch.losers",
     "Three tied players have 40 card points each here, not 39."),
    ({"losers": {"0": 40, "1": 40, "2": 40}, "jungfrau": 1}, "ramsch.jungfrau",
     "All three tied with card points, so each took a trick: jungfrau is 0."),
    ({"losers": {"0": 70, "2": 60}}, "ramsch.losers",
     "Tied losers have the same card points, not 70, 60."),
    ({"losers": {}, "jungfrau": 0}, "ramsch.losers",
     "Name the player(s) with the most card points (losers), or the Durchmarsch."),
    ({"losers": {"0": 90}, "jungfrau": 2}, "ramsch.jungfrau",
     "Two players without a trick means the third took every trick: record it as a "
     "Durchmarsch."),
    ({"losers": {"0": 120}, "durchmarsch": 0}, "ramsch.losers",
     "After a Durchmarsch nobody else loses: leave losers empty."),
    ({"durchmarsch": 0, "jungfrau": 1}, "ramsch.jungfrau",
     "After a Durchmarsch the other two took no trick: jungfrau is 2."),
    ({"durchmarsch": 3}, "ramsch.durchmarsch",
     "The Durchmarsch seat must be a seat number (0 to 2)."),
    ({"durchmarsch": "1"}, "ramsch.durchmarsch",
     "The Durchmarsch seat must be a seat number (0 to 2)."),
    ({"durchmarsch": True}, "ramsch.durchmarsch",
     "The Durchmarsch seat must be a seat number (0 to 2)."),
    ({"losers": [1, 61]}, "ramsch.losers",
     'losers maps each losing seat to his card points, e.g. {"1": 70}.'),
    ({"losers": {"1": 61.0}}, "ramsch.losers",
     "The card points of Bernd must be a whole number from 0 to 120."),
    ({"losers": {"3": 60}}, "ramsch.losers", "A loser's seat must be a seat number (0 to 2)."),
    ({"losers": {"1": 121}}, "ramsch.losers",
     "The card points of Bernd must be a whole number from 0 to 120."),
    ({"losers": {"1": 61}, "jungfrau": 3}, "ramsch.jungfrau",
     "jungfrau is the number of players without a trick: 0, 1 or 2."),
    ({"losers": {"1": 61}, "points": {"0": 59, "1": 61, "2": 0}}, "ramsch",
     "Give the Ramsch either as every player's card points and tricks or in the short form "
     "(losers, jungfrau, durchmarsch), not both."),
    ({"losers": {"1": 61}, "skat_points": 10}, "ramsch.skat_points",
     "The skat goes to a player here; count it in his card points."),
    ({"losers": {"1": 61}, "pushes": 1}, "ramsch.pushes",
     "Schieberamsch is not played under these rules (option schieberamsch)."),
])
def test_impossible_short_records_are_refused(short: dict[str, Any], field: str,
                                              message: str) -> None:
    with pytest.raises(SkatError) as caught:
        evaluate({"kind": "ramsch", "options": {"ramsch": "when_all_pass"},
                  "players": NAMES[:3], "ramsch": short})
    assert (caught.value.field, caught.value.message) == (field, message)
    assert caught.value.message_in("de") != message


def test_the_skat_for_nobody_widens_what_is_plausible() -> None:
    """With the skat counting for nobody the three may hold only 98 of the 120 card points:
    a single loser with 34 and a Jungfrau with 50 are possible then; given skat points pin
    it down."""
    options = {"ramsch": "when_all_pass", "ramsch_skat": "nobody"}
    deal = {"kind": "ramsch", "options": options}
    assert evaluate({**deal, "ramsch": {"losers": {"0": 34}}})["entries"] == {"0": -34}
    assert evaluate({**deal, "ramsch": {"losers": {"0": 50}, "jungfrau": 1}})["entries"] == {
        "0": -100}
    with pytest.raises(SkatError, match="41 to 120"):
        evaluate({**deal, "ramsch": {"losers": {"0": 34}, "skat_points": 0}})
    with pytest.raises(SkatError, match="give its card points"):  # the taker's points
        evaluate({**deal, "ramsch": {"durchmarsch": 1}})
    times4 = {**options, "ramsch_durchmarsch": "times4"}
    result = evaluate({"kind": "ramsch", "options": times4,
                       "ramsch": {"durchmarsch": 1, "skat_points": 10}})
    assert result["entries"] == {"1": -440}


def test_seats_that_sit_out_cannot_lose() -> None:
    deal = {"kind": "ramsch", "options": {"ramsch": "when_all_pass"}, "players": NAMES[:4],
            "dealer": 0}
    with pytest.raises(SkatError) as caught:
        evaluate({**deal, "ramsch": {"losers": {"0": 61}}})
    assert caught.value.message == "Anna sits out this deal and did not play the Ramsch."
    assert caught.value.message_in("de") == (
        "Anna setzt in diesem Spiel aus und hat nicht mitgeramscht.")
    # Without a dealer a short record at a 4-table needs no seats of its own.
    lone = {"kind": "ramsch", "options": {"ramsch": "when_all_pass"}, "players": 4,
            "ramsch": {"losers": {"3": 61}}}
    assert evaluate(lone)["entries"] == {"3": -61}


def test_ramsch_messages_name_the_players() -> None:
    """A wrong set of seats names the players who played, not seat numbers."""
    deal = {"kind": "ramsch", "options": {"ramsch": "when_all_pass"}, "players": NAMES[:4],
            "dealer": 0, "ramsch": {"points": {"0": 40, "1": 40, "2": 40},
                                    "tricks": {"0": 4, "1": 3, "2": 3}}}
    with pytest.raises(SkatError) as caught:
        evaluate(deal)
    assert caught.value.message == (
        "Give the card points of exactly the seats who played: Bernd, Clara, Dieter.")
    assert caught.value.message_in("de") == (
        "Bitte die Augen genau der Spieler angeben, die mitgespielt haben: Bernd, Clara, "
        "Dieter.")
    with pytest.raises(SkatError) as caught:
        evaluate({**deal, "players": 4})
    assert caught.value.message_in("de").endswith("mitgespielt haben: Platz 1, Platz 2, "
                                                  "Platz 3.")
