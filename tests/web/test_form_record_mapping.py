"""The one form-to-record mapping (scoring/engine/form_record.py) as the table screen uses
it: DealForm's cleaned data and the browser's raw form data (jsonapi "record_from_form", what
SkatEngine.recordFromForm calls offline) build, byte for byte, the records DealForm built
before issue 27; and the JSON of the rule systems the pages render from the registry."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.http import QueryDict
from django.test import Client
from django.urls import reverse

from scoring.engine import NAMES, jsonapi, ruleset, rulesets_json
from scoring.forms.entry import DealForm, Rules

from .factories import make_club, make_table, make_user

pytestmark = pytest.mark.django_db

# (what, rule system, options, players, active seats, the form as posted, the record as JSON
# text). The records were made by DealForm._record before the mapping moved to the engine.
CASES: list[tuple[str, str, dict[str, Any], int, list[int], dict[str, Any], str]] = [
    ('game won plain', 'isko', {}, 3, [0, 1, 2],
     {'declarer': '1', 'game': 'clubs', 'matadors': '2', 'bid': '18', 'result': 'won'},
     '{"kind": "game", "declarer": 1, "game": "clubs", "hand": false, "ouvert": false, '
     '"schneider_announced": false, "schwarz_announced": false, "matadors": 2, "bid": '
     '18, "result": "won"}'),
    ('game points and kontra', 'isko', {'kontra': True}, 3, [0, 1, 2],
     {'kind': 'game',
      'declarer': '0',
      'game': 'grand',
      'matadors': '-1',
      'bid': '24',
      'declarer_points': '75',
      'kontra': 'kontra',
      'kontra_by': '2'},
     '{"kind": "game", "declarer": 0, "game": "grand", "hand": false, "ouvert": false, '
     '"schneider_announced": false, "schwarz_announced": false, "matadors": -1, "bid": '
     '24, "declarer_points": 75, "kontra_by": 2, "kontra": "kontra"}'),
    ('game hand schneider announced, other bid', 'isko', {}, 4, [1, 2, 3],
     {'declarer': '2',
      'game': 'hearts',
      'matadors': '3',
      'bid_more': '120',
      'hand': 'on',
      'schneider_announced': 'on',
      'result': 'won_schneider',
      'concession': ''},
     '{"kind": "game", "declarer": 2, "game": "hearts", "hand": true, "ouvert": false, '
     '"schneider_announced": true, "schwarz_announced": false, "matadors": 3, "bid": '
     '120, "result": "won_schneider"}'),
    ('null ouvert hand tricks', 'isko', {}, 3, [0, 1, 2],
     {'declarer': '2',
      'game': 'null',
      'hand': 'on',
      'ouvert': 'on',
      'bid': '59',
      'declarer_tricks': '0'},
     '{"kind": "game", "declarer": 2, "game": "null", "hand": true, "ouvert": true, '
     '"schneider_announced": false, "schwarz_announced": false, "bid": 59, '
     '"declarer_tricks": 0}'),
    ('spitze made', 'isko', {'spitze': True}, 3, [0, 1, 2],
     {'declarer': '1',
      'game': 'spades',
      'matadors': '1',
      'bid': '22',
      'result': 'won',
      'spitze': '1',
      'spitze_made': 'yes'},
     '{"kind": "game", "declarer": 1, "game": "spades", "hand": false, "ouvert": false, '
     '"schneider_announced": false, "schwarz_announced": false, "matadors": 1, "bid": '
     '22, "result": "won", "spitze": 1, "spitze_made": true}'),
    ('spitze not made, schenken', 'isko', {'spitze': True, 'schenken': True}, 3, [0, 1, 2],
     {'declarer': '1',
      'game': 'spades',
      'matadors': '1',
      'bid': '22',
      'spitze': '1',
      'spitze_made': 'no',
      'concession': 'schenken'},
     '{"kind": "game", "declarer": 1, "game": "spades", "hand": false, "ouvert": false, '
     '"schneider_announced": false, "schwarz_announced": false, "matadors": 1, "bid": '
     '22, "concession": "schenken", "spitze": 1, "spitze_made": false}'),
    ('passed', 'isko', {}, 3, [0, 1, 2],
     {'kind': 'passed'},
     '{"kind": "passed"}'),
    ('misdeal', 'isko', {}, 3, [0, 1, 2],
     {'kind': 'misdeal'},
     '{"kind": "misdeal"}'),
    ('penalty with points and reason', 'isko', {}, 3, [0, 1, 2],
     {'kind': 'penalty',
      'penalty_seat': '2',
      'penalty_points': '25',
      'penalty_reason': 'looked at the skat'},
     '{"kind": "penalty", "penalty": {"seat": 2, "points": 25, "reason": "looked at the '
     'skat"}}'),
    ('penalty seat only', 'isko', {}, 3, [0, 1, 2],
     {'kind': 'penalty', 'penalty_seat': '0'},
     '{"kind": "penalty", "penalty": {"seat": 0}}'),
    ('ramsch counted', 'isko', {'ramsch': 'when_all_pass'}, 4, [1, 2, 3],
     {'kind': 'ramsch',
      'ramsch_points_1': '50',
      'ramsch_points_2': '40',
      'ramsch_points_3': '30',
      'ramsch_tricks_1': '4',
      'ramsch_tricks_2': '4',
      'ramsch_tricks_3': '2'},
     '{"kind": "ramsch", "ramsch": {"points": {"1": 50, "2": 40, "3": 30}, "tricks": '
     '{"1": 4, "2": 4, "3": 2}}}'),
    ('ramsch short loser jungfrau', 'isko', {'ramsch': 'when_all_pass'}, 3, [0, 1, 2],
     {'kind': 'ramsch', 'ramsch_loser': ['2'], 'ramsch_loser_points': '61', 'ramsch_jungfrau': '1'},
     '{"kind": "ramsch", "ramsch": {"losers": {"2": 61}, "jungfrau": 1, "durchmarsch": '
     'null}}'),
    ('ramsch short tie', 'isko', {'ramsch': 'when_all_pass'}, 3, [0, 1, 2],
     {'kind': 'ramsch', 'ramsch_loser': ['2', '0'], 'ramsch_loser_points': '45'},
     '{"kind": "ramsch", "ramsch": {"losers": {"0": 45, "2": 45}, "jungfrau": 0, '
     '"durchmarsch": null}}'),
    ('ramsch durchmarsch pushed', 'isko',
     {'ramsch': 'when_all_pass', 'schieberamsch': 'optional_double'}, 3, [0, 1, 2],
     {'kind': 'ramsch', 'ramsch_durchmarsch': '1', 'pushes': '2'},
     '{"kind": "ramsch", "ramsch": {"losers": {}, "jungfrau": 2, "durchmarsch": 1, '
     '"pushes": 2}}'),
    ('ramsch skat to nobody', 'isko',
     {'ramsch': 'when_all_pass', 'ramsch_skat': 'nobody'}, 3, [0, 1, 2],
     {'kind': 'ramsch', 'ramsch_loser': ['1'], 'ramsch_loser_points': '50', 'skat_points': '10'},
     '{"kind": "ramsch", "ramsch": {"losers": {"1": 50}, "jungfrau": 0, "durchmarsch": '
     'null, "skat_points": 10}}'),
    ('bock by hand on a game', 'isko', {'bock': {'manual': True}}, 3, [0, 1, 2],
     {'declarer': '0',
      'game': 'diamonds',
      'matadors': '1',
      'bid': '18',
      'result': 'lost',
      'bock': '1',
      'bock_round': 'on'},
     '{"kind": "game", "declarer": 0, "game": "diamonds", "hand": false, "ouvert": '
     'false, "schneider_announced": false, "schwarz_announced": false, "matadors": 1, '
     '"bid": 18, "result": "lost", "bock": 1, "bock_round": true}'),
    ('bock round on a passed deal', 'isko', {'bock': {'manual': True}}, 3, [0, 1, 2],
     {'kind': 'passed', 'bock_round': 'on'},
     '{"kind": "passed", "bock_round": true}'),
    ('bock on a penalty is left out', 'isko', {'bock': {'manual': True}}, 3, [0, 1, 2],
     {'kind': 'penalty', 'penalty_seat': '1', 'bock': '2'},
     '{"kind": "penalty", "penalty": {"seat": 1}}'),
    ('hoyle passt mir nicht', 'hoyle', {}, 3, [0, 1, 2],
     {'declarer': '1',
      'game': 'tourne_hearts',
      'matadors': '1',
      'bid': '14',
      'result': 'won',
      'passt_mir_nicht': 'on'},
     '{"kind": "game", "declarer": 1, "game": "tourne_hearts", "hand": false, "ouvert": '
     'false, "schneider_announced": false, "schwarz_announced": false, "matadors": 1, '
     '"bid": 14, "result": "won", "passt_mir_nicht": true}'),
    ('american1898 contra', 'american1898', {'contra': True}, 3, [0, 1, 2],
     {'declarer': '0',
      'game': 'solo_clubs',
      'matadors': '2',
      'bid': '40',
      'declarer_points': '61',
      'kontra': 'kontra',
      'kontra_by': '1'},
     '{"kind": "game", "declarer": 0, "game": "solo_clubs", "hand": false, "ouvert": '
     'false, "schneider_announced": false, "schwarz_announced": false, "matadors": 2, '
     '"bid": 40, "declarer_points": 61, "kontra_by": 1, "kontra": "kontra"}'),
]


def _posted(post: dict[str, Any]) -> QueryDict:
    data = QueryDict(mutable=True)
    data["version"] = "0"
    for key, value in post.items():
        if isinstance(value, list):
            data.setlist(key, value)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(("what", "system", "options", "players", "active", "post",
                          "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_form_builds_today_s_record(what: str, system: str, options: dict[str, Any],
                                        players: int, active: list[int],
                                        post: dict[str, Any], expected: str) -> None:
    form = DealForm(_posted(post), rules=Rules.of(system, options, players), active=active)
    assert form.is_valid(), form.errors
    assert json.dumps(form.to_record()) == expected


@pytest.mark.parametrize(("what", "system", "options", "players", "active", "post",
                          "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_browser_builds_the_same_record(what: str, system: str, options: dict[str, Any],
                                            players: int, active: list[int],
                                            post: dict[str, Any], expected: str) -> None:
    raw = {k: v if isinstance(v, list) else [v] for k, v in post.items()}
    for name in ("version", "request_id", "bid_more", "result", "concession"):  # as posted
        raw.setdefault(name, ["0" if name == "version" else ""])
    assert jsonapi.call("record_from_form", json.dumps(raw)) == expected


def test_the_profile_form_renders_the_registry_not_system_names() -> None:
    club = make_club()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_user(club, "admin"))
    html = client.get(reverse("scoring:profile-create", args=[club.slug])).content.decode()
    assert "data-systems" not in html
    found = re.search(r'<script id="rule-systems" type="application/json">(.*?)</script>',
                      html, re.S)
    assert found is not None
    assert json.loads(found.group(1)) == rulesets_json()
    assert html.count("<fieldset data-rule-options>") == 4
    # every option field of a system sits in a fieldset that profile.js shows for it
    for name in NAMES:
        for key in ruleset(name).option_keys:
            assert f'name="{key}"' in html, key


def test_the_table_screen_carries_what_each_declaration_implies() -> None:
    club = make_club()
    table = make_table(club)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_user(club, "scorer"))
    html = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    found = re.search(r'data-implies="([^"]*)"', html)
    assert found is not None
    implies = json.loads(found.group(1).replace("&quot;", '"'))
    assert implies == {k: list(v) for k, v in ruleset(table.evening.rules).implies.items()}
