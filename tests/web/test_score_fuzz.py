"""`manage.py score` on arbitrary input: always one JSON document, exit 0 or 1."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.test_fuzz import json_values

# Text that is JSON-like but often not JSON: truncated, trailing commas, NaN …
near_json = st.one_of(
    json_values.map(json.dumps),
    json_values.map(lambda v: json.dumps(v)[:-1]),
    st.text(alphabet='{}[]":,0123456789.-eEtrufalsnNI ', max_size=40),
)


def _score_file(path: Path) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    status = 0
    try:
        call_command("score", str(path), stdout=out)
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, json.loads(out.getvalue())


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(near_json.map(str.encode), st.binary(max_size=40)))
def test_any_input_gives_json_and_no_traceback(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "input.json"
    path.write_bytes(raw)
    status, payload = _score_file(path)
    assert status in (0, 1)
    if status:
        assert set(payload) == {"error"}
        assert not payload["error"]["message"].startswith("internal error")
