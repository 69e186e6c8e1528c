"""Arbitrary input never raises anything but SkatError, and never half-works."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import SkatError, evaluate, evaluate_record, evaluate_table
from scoring.engine.deal import RECORD_FIELDS

from .strategies import isko_game, isko_null, ramsch

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["game", "passed", "ramsch", "penalty", "misdeal", "kontra", "re", "none",
                     "clubs", "grand", "null", "isko", "american1898", "hoyle", "nullo",
                     "solo_hearts", "schenken", "declarer"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
field_names = st.sampled_from(sorted(RECORD_FIELDS | {"rules", "options", "players"}))


def _only_skat_errors(call: Callable[[Any], object], value: Any) -> None:
    try:
        result = call(value)
    except SkatError as err:
        assert isinstance(err.message, str) and err.message
        assert err.field is None or isinstance(err.field, str)
        json.dumps(err.as_dict())
    else:
        json.dumps(result)  # a result is always JSON


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_arbitrary_json_is_refused_cleanly(value: Any) -> None:
    _only_skat_errors(evaluate_record, value)


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(isko_game(), isko_null(), ramsch()), field_names, json_values,
       st.sampled_from(["isko", "american1898", "hoyle"]))
def test_a_valid_deal_with_one_field_garbled(deal: dict[str, Any], key: str, value: Any,
                                             rules: str) -> None:
    _only_skat_errors(evaluate, {**deal, "rules": rules, key: value})


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(isko_game(), isko_null(), ramsch()), min_size=1, max_size=8),
       st.integers(0, 7), field_names, json_values,
       st.dictionaries(st.sampled_from(["kontra", "ramsch", "bock", "spitze", "schenken",
                                        "grand_base", "rum", "schieberamsch"]),
                       json_values, max_size=2))
def test_a_table_with_a_garbled_deal(deals: list[dict[str, Any]], index: int, key: str,
                                     value: Any, options: dict[str, Any]) -> None:
    deals = [dict(d) for d in deals]
    deals[index % len(deals)][key] = value
    table = {"players": ["A", "B", "C"], "options": options, "deals": deals}
    try:
        evaluate_table(table)
    except SkatError as err:
        assert err.deal is None or 1 <= err.deal <= len(deals)
