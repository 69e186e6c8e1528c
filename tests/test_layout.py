"""The test tree's layout (CONTRIBUTING.md "Running the tests"): browser tests only in
tests/browser/, the engine's tests free of Django, no file named after an issue."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
BROWSER_MARK = re.compile(r"pytest\.mark\.browser\b")
DJANGO = re.compile(r"^\s*(from|import)\s+(django|pytest_django|skatclub)\b|"
                    r"^\s*from\s+scoring(?!\.engine)(\.\w+)*\s+import|"
                    r"^\s*from\s+scoring\s+import\s+(?!engine\b)", re.M)


def python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_browser_tests_live_in_tests_browser() -> None:
    outside = [p.relative_to(TESTS).as_posix() for p in python_files(TESTS)
               if "browser" not in p.relative_to(TESTS).parts[:1]
               and p.name != "test_layout.py" and BROWSER_MARK.search(p.read_text())]
    assert outside == [], f"move these browser tests to tests/browser/: {outside}"


def test_the_engine_tests_import_no_django() -> None:
    found = [p.relative_to(TESTS).as_posix() for p in python_files(TESTS / "engine")
             if DJANGO.search(p.read_text())]
    assert found == [], f"tests/engine runs with -p no:django; these need Django: {found}"


def test_no_test_file_is_named_after_an_issue() -> None:
    named = [p.relative_to(TESTS).as_posix() for p in python_files(TESTS)
             if re.search(r"issue\d*", p.name)]
    assert named == [], f"name these after what they test: {named}"
