"""Team leagues: every input the ``league_day`` command refuses, with the place it names, in
English and German (parse_league; league_standings checks what it needs alike)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring.engine import LeagueDay, LeagueTeam, SkatError, league_standings, parse_league
from scoring.engine.messages_de import MESSAGES


def league() -> dict[str, Any]:
    return {"teams": [{"name": "Herz As", "players": ["Anna", "Bernd", "Clara"]},
                      {"name": "Grand Hand", "players": ["Emil", "Frieda", "Gero"]}],
            "days": [{"name": "1. Spieltag",
                      "series": [{"points": {"Anna": 10, "Emil": -20}},
                                 {"points": {"Bernd": 5, "Gero": 7}}]}]}


def refused(obj: object) -> SkatError:
    with pytest.raises(SkatError) as caught:
        parse_league(obj)
    err = caught.value
    assert err.template in MESSAGES  # German from the catalogue, not the English fallback
    assert err.message_in("de") != err.message
    return err


def changed(path: str, value: Any) -> dict[str, Any]:
    """The league with the value at ``path`` ("days.0.series.1.points") set, or removed when
    ``value`` is REMOVE."""
    obj = copy.deepcopy(league())
    *parents, last = path.split(".")
    node: Any = obj
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is REMOVE:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return obj


REMOVE = object()


def test_a_good_league_is_read() -> None:
    teams, days = parse_league(league())
    assert teams[0] == LeagueTeam("Herz As", ("Anna", "Bernd", "Clara"))
    assert days[0].name == "1. Spieltag"
    assert days[0].series[1] == {"Bernd": 5, "Gero": 7}
    assert parse_league({"teams": league()["teams"], "days": []})[1] == ()


@pytest.mark.parametrize(("path", "value", "field", "message"), [
    ("days.0.series.1.points", {"Bernd": 5, "Xaver": 3}, "days[0].series[1].points",
     '"Xaver" is not on a team.'),
    ("teams.1.players", ["Emil", "Anna"], "teams[1].players",
     '"Anna" plays for "Herz As" and for "Grand Hand".'),
    ("teams.0.players", ["Anna", "Bernd", "Anna"], "teams[0].players",
     '"Anna" plays for "Herz As" and for "Herz As".'),
    ("teams", [], "teams", "A league needs one or more teams."),
    ("teams.1.players", [], "teams[1].players", 'The team "Grand Hand" has no players.'),
    ("teams.1.name", "Herz As", "teams[1].name", 'Two teams are named "Herz As".'),
    ("days.0.series.0.points", {}, "days[0].series[0].points",
     "A series names the players who played it; this one names nobody."),
    ("days.0.series.1.points", {"Bernd": 5.5}, "days[0].series[1].points",
     'The Spielpunkte of "Bernd" must be a whole number, not 5.5.'),
    ("days.0.series.1.points", {"Bernd": True}, "days[0].series[1].points",
     'The Spielpunkte of "Bernd" must be a whole number, not true.'),
    ("days.0.series.1.points", {"Bernd": "12"}, "days[0].series[1].points",
     'The Spielpunkte of "Bernd" must be a whole number, not "12".'),
    ("days.0.series.1.points", {"Bernd": None}, "days[0].series[1].points",
     'The Spielpunkte of "Bernd" must be a whole number, not null.'),
    ("days.0.series.1.points", {"": 3}, "days[0].series[1].points",
     'Expected a name (text, not empty), not "".'),
    ("days.0.series.1.points", ["Bernd", 5], "days[0].series[1].points",
     'Expected a JSON object, not ["Bernd", 5].'),
    ("days.0.series.1", 7, "days[0].series[1]", "Expected a JSON object, not 7."),
    ("days.0.series.1.points", REMOVE, "days[0].series[1].points",
     'The field "points" is missing.'),
    ("days.0.series.1.place", 1, "days[0].series[1].place", "Unknown field 'place'."),
    ("days.0.series", {"points": {}}, "days[0].series",
     'Expected a list, not {"points": {}}.'),
    ("days.0.name", 1, "days[0].name", "Expected a name (text, not empty), not 1."),
    ("days.0.name", "  ", "days[0].name", 'Expected a name (text, not empty), not "  ".'),
    ("days.0.series", REMOVE, "days[0].series", 'The field "series" is missing.'),
    ("days.0", [], "days[0]", "Expected a JSON object, not []."),
    ("days", None, "days", "Expected a list, not null."),
    ("days", REMOVE, "days", 'The field "days" is missing.'),
    ("teams", REMOVE, "teams", 'The field "teams" is missing.'),
    ("teams", {"name": "Herz As"}, "teams", 'Expected a list, not {"name": "Herz As"}.'),
    ("teams.0", "Herz As", "teams[0]", 'Expected a JSON object, not "Herz As".'),
    ("teams.0.name", "", "teams[0].name", 'Expected a name (text, not empty), not "".'),
    ("teams.0.players", "Anna", "teams[0].players", 'Expected a list, not "Anna".'),
    ("teams.0.players.2", 3, "teams[0].players[2]",
     "Expected a name (text, not empty), not 3."),
    ("teams.0.captain", "Anna", "teams[0].captain", "Unknown field 'captain'."),
    ("season", 2026, "season", "Unknown field 'season'."),
])
def test_a_refusal_names_the_place(path: str, value: Any, field: str, message: str) -> None:
    err = refused(changed(path, value))
    assert (err.field, err.message) == (field, message)


@pytest.mark.parametrize("obj", [[], "league", 3, None, True])
def test_the_input_must_be_an_object(obj: object) -> None:
    err = refused(obj)
    assert err.field is None
    assert err.message.startswith("The input must be a JSON object with teams and days, not ")


def test_a_long_value_is_cut_short_in_the_message() -> None:
    err = refused(changed("days.0.name", ["x" * 100]))
    assert err.message == f'Expected a name (text, not empty), not ["{"x" * 37}….'


def test_a_refusal_in_german() -> None:
    err = refused(changed("days.0.series.1.points", {"Xaver": 3}))
    assert err.message_in("de") == "„Xaver“ gehört zu keiner Mannschaft."


def test_the_function_the_pages_call_refuses_what_it_cannot_score() -> None:
    teams = (LeagueTeam("A", ("a",)), LeagueTeam("B", ("b", "a")))
    with pytest.raises(SkatError) as caught:
        league_standings(teams, [])
    assert caught.value.field == "teams[1].players"
    with pytest.raises(SkatError) as caught:
        league_standings(teams[:1], [LeagueDay("1", ({"a": 1}, {"z": 2}))])
    assert (caught.value.field, caught.value.message) == (
        "days[0].series[1].points", '"z" is not on a team.')
    with pytest.raises(SkatError) as caught:
        league_standings((LeagueTeam("A", ("a",)), LeagueTeam("A", ("b",))), [])
    assert caught.value.field == "teams[1].name"


def test_the_function_the_pages_call_scores_a_league_being_set_up() -> None:
    """No teams yet, a team without players, a series of nobody: scored as they stand
    (the command's input refuses them, above)."""
    assert league_standings((), [LeagueDay("1", ({},))]).to_json() == {
        "days": [{"name": "1", "series": [[]], "table": []}], "table": []}
    result = league_standings((LeagueTeam("A", ("a",)), LeagueTeam("B", ())),
                              [LeagueDay("1", ({"a": -5}, {}))])
    # series 1: A played (1:0), B has no players (0:1); series 2: nobody played, both share
    # places 1-2: 0.5:0.5 each
    assert [(r.team, r.place, r.plus, r.minus) for rows in result.days[0].series
            for r in rows] == [("A", 1, 1, 0), ("B", 2, 0, 1), ("A", 1, 0.5, 0.5),
                               ("B", 1, 0.5, 0.5)]
    assert [(r.team, r.place, r.plus, r.minus, r.points) for r in result.table] == [
        ("A", 1, 1.5, 0.5, -5), ("B", 2, 0.5, 1.5, 0)]
