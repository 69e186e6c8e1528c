"""The engine is pure Python: importing it loads no Django, and it reads no settings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_imports_no_django() -> None:
    code = (
        "import sys, scoring.engine, scoring.engine.settlement, scoring.engine.bidding\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == ""


def test_no_engine_module_mentions_django() -> None:
    for path in (ROOT / "scoring" / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import django" not in text and "from django" not in text, path.name
