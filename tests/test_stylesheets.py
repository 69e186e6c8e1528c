"""Our stylesheets are well formed: every rule closed before the next begins.

A rule left open (a merge once cut `.button.danger {` short) swallows every rule after it
without any error: the browser drops them silently and pages grow wider than the phone.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STYLESHEETS = sorted((ROOT / "static" / "css").glob("*.css")) + sorted(
    (ROOT / "scoring").rglob("*.css"))
COMMENT = re.compile(r"/\*.*?\*/", re.S)
STRING = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")


def unclosed_rule(css: str) -> str | None:
    """The first selector whose block holds a declaration block of its own, or None.

    Only @media, @supports and similar at-rules may hold blocks; a plain rule that opens
    a second block before closing its first was left open."""
    text = STRING.sub('""', COMMENT.sub("", css))
    stack: list[str] = []
    start = 0
    for match in re.finditer(r"[{}]", text):
        if match.group() == "{":
            selector = text[start:match.start()].strip().split(";")[-1].strip()
            if stack and not stack[-1].startswith("@"):
                return stack[-1]
            stack.append(selector)
        else:
            if not stack:
                return "} without {"
            stack.pop()
        start = match.end()
    return stack[-1] if stack else None


@pytest.mark.parametrize("path", STYLESHEETS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rule_is_closed(path: Path) -> None:
    assert unclosed_rule(path.read_text(encoding="utf-8")) is None


def test_an_open_rule_is_found() -> None:
    assert unclosed_rule(".a {\n  color: red;\n\n.b {\n  color: blue;\n}\n") == ".a"
    assert unclosed_rule("@media (max-width: 40rem) {\n  .a { color: red; }\n}\n") is None
    assert unclosed_rule(".a { color: red; }\n}") == "} without {"
