"""Every seed case and regression as one line of data in tests/engine/cases/*.jsonl.

The case id is the test id, so a failure reads like the rule book: "M-01", "A-05g" …
See tests/engine/cases/README.md for the format.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from scoring.engine import (
    SkatError,
    auction,
    card_points,
    evaluate,
    evaluate_table,
    is_legal_bid,
    matadors,
)
from scoring.engine.games import SUIT_NAMES
from scoring.engine.settlement import parse_settlement_options, parse_stake, settle

CASES = Path(__file__).parent / "cases"


def _load() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*.jsonl")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            case = json.loads(line)
            case["_where"] = f"{path.name}:{lineno}"
            skip = case["kind"] == "skip"
            marks = [pytest.mark.skip(reason=case.get("note", ""))] if skip else []
            params.append(pytest.param(case, id=case["id"], marks=marks))
    return params


ALL = _load()


def test_case_ids_are_unique() -> None:
    ids = [p.id for p in ALL]
    assert len(ids) == len(set(ids))


def test_every_seed_case_is_present() -> None:
    ids = {p.id for p in ALL}
    expected = (
        [f"M-{i:02}" for i in range(1, 18)] + [f"A-{i:02}" for i in range(1, 34)]
        + [f"H-{i:02}" for i in range(1, 18)] + [f"S-{i:02}" for i in range(1, 7)]
        + [f"P-{i:02}" for i in range(1, 12)] + [f"R-{i:02}" for i in range(1, 10)]
    )
    missing = [e for e in expected if not any(i == e or i.startswith(e) for i in ids)]
    assert not missing, f"seed cases without a line: {missing}"


def _subset(actual: Any, expected: Any, path: str = "") -> None:
    """Every key of ``expected`` must match; dict entries of 0 may be missing in ``actual``."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual and value == 0:
                continue
            assert key in actual, f"{path}.{key} missing in {actual!r}"
            _subset(actual[key], value, f"{path}.{key}")
        if path.endswith("entries") or path.endswith("seeger_fabian"):
            extra = {k: v for k, v in actual.items() if v and k not in expected}
            assert not extra, f"{path}: unexpected entries {extra}"
    elif isinstance(expected, list) and expected and isinstance(expected[0], dict) \
            and "number" in expected[0]:
        by_number = {row["number"]: row for row in actual}
        for row in expected:
            _subset(by_number[row["number"]], row, f"{path}[{row['number']}]")
    elif isinstance(expected, list) and expected and isinstance(expected[0], dict) \
            and "payer" in expected[0]:
        got = sorted((p["payer"], p["payee"], p["amount"]) for p in actual)
        want = sorted((p["payer"], p["payee"], p["amount"]) for p in expected)
        assert got == want, f"{path}: {got} != {want}"
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


def _run(case: dict[str, Any]) -> Any:
    kind, data = case["kind"], case["input"]
    if kind == "deal":
        return evaluate(data)
    if kind == "table":
        return evaluate_table(data)
    if kind == "settle":
        return settle(
            data["totals"], stake=parse_stake(data.get("stake", "0")),
            currency=data.get("currency", "EUR"),
            options=parse_settlement_options(data.get("settlement")),
        )
    if kind == "matadors":
        trump = None if "grand" in data["game"] else _trump(data["game"])
        return {"matadors": matadors(data["cards"], trump)}
    if kind == "card_points":
        return {"points": card_points(data["cards"])}
    if kind == "legal_bid":
        return {"legal": is_legal_bid(data.get("rules", "isko"), data["bid"],
                                      data.get("options"))}
    if kind == "auction":
        return auction(data["calls"], data.get("rules", "isko"), data.get("options"))
    raise AssertionError(f"unknown case kind {kind}")


def _trump(game: str) -> str:
    suit = game.rsplit("_", 1)[-1]
    return SUIT_NAMES[suit][0]


@pytest.mark.parametrize("case", ALL)
def test_case(case: dict[str, Any]) -> None:
    where = f"{case['_where']} {case.get('note', '')}"
    if case["kind"] == "error":
        data = case["input"]
        with pytest.raises(SkatError) as caught:
            evaluate_table(data) if "deals" in data else evaluate(data)
        _subset(caught.value.as_dict(), case["expect"], where)
        return
    _subset(_jsonable(_run(case)), case["expect"], where)


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=lambda o: str(o) if isinstance(o, Decimal) else o))
