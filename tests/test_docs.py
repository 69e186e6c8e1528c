"""The documentation's links and pictures, where the Sphinx build of ``make docs`` does not
look (it checks the pages under docs/ and their toctrees, internal links and images, with
every warning an error):

- README.md and CONTRIBUTING.md / ARCHITECTURE.md are not pages of the site: each of their
  relative links must name a file (and a heading, where it names one) that exists;
- every relative link of a page under docs/ names a file that exists (Sphinx would take a
  link to a missing non-page file as a download and only warn when building);
- every picture under docs/ is shown by a page, is at most 1,024 px wide and small, and the
  handbook's pictures are the ones the browser test takes (make docs-screens writes them all);
- nothing of the site is fetched from elsewhere: no picture, style sheet or script with an
  address of another host, and the theme is Sphinx's own;
- a reference to a README section in the code names a heading the README has.

Pure file reading: no Django, no build, no network.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PICTURES = DOCS / "handbuch" / "bilder"
SCREENS_TEST = ROOT / "tests" / "browser" / "test_handbook_screens_browser.py"
MAX_WIDTH = 1024
MAX_BYTES = 150_000

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"(!?)\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def prose(text: str) -> str:
    """The Markdown without its code (fenced blocks and inline code), where links are text."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def links(path: Path) -> list[tuple[bool, str]]:
    """(is an image, target) of every Markdown link in the file's prose."""
    return [(bang == "!", target) for bang, target in LINK.findall(prose(path.read_text()))]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and MyST (myst_heading_anchors) make it."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The headings' anchors of a page, with those of the files it includes (MyST's
    ``{include}``: docs/developers/architecture.md is ARCHITECTURE.md)."""
    text = path.read_text()
    found = {slug(title) for _level, title in HEADING.findall(prose(text))}
    for included in re.findall(r"^```\{include\}\s+(\S+)", text, re.M):
        found |= anchors((path.parent / included).resolve())
    return found


def local(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) and not target.startswith("//")


def broken(path: Path) -> list[str]:
    """The relative links of a Markdown file that name a missing file or heading."""
    found = []
    for _image, target in links(path):
        if not local(target):
            continue
        name, _hash, anchor = unquote(target).partition("#")
        dest = (path.parent / name).resolve() if name else path
        if not dest.exists():
            found.append(f"{path.relative_to(ROOT)}: {target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            found.append(f"{path.relative_to(ROOT)}: {target} (no such heading)")
    return found


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)


def test_the_top_level_documents_link_only_to_what_exists() -> None:
    found = [b for name in ("README.md", "CONTRIBUTING.md", "ARCHITECTURE.md")
             for b in broken(ROOT / name)]
    assert found == []


def test_the_readme_points_at_each_readers_part() -> None:
    targets = {target for _image, target in links(ROOT / "README.md")}
    for start in ("docs/handbuch/index.md", "docs/operators/index.md",
                  "docs/developers/index.md"):
        assert start in targets, f"README.md does not link {start}"
    assert len((ROOT / "README.md").read_text().splitlines()) < 300


def test_every_link_of_a_page_names_a_file_that_exists() -> None:
    assert [b for page in pages() for b in broken(page)] == []


def test_every_picture_is_shown_small_and_nothing_is_fetched_from_elsewhere() -> None:
    shown: set[Path] = set()
    remote = []
    for page in pages():
        for image, target in links(page):
            if image and not local(target):
                remote.append(f"{page.relative_to(ROOT)}: {target}")
            elif image:
                shown.add((page.parent / unquote(target)).resolve())
    assert remote == [], "a picture from another host: commit it under docs/ instead"
    pictures = {p.resolve() for p in DOCS.rglob("*") if p.suffix.lower() in
                {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"} and "_build" not in p.parts}
    assert sorted(str(p.relative_to(ROOT)) for p in pictures - shown) == [], (
        "pictures no page shows")
    assert sorted(str(p.relative_to(ROOT)) for p in shown - pictures) == [], (
        "pictures a page shows that are not there")
    for picture in sorted(pictures):
        if picture.suffix.lower() == ".png":
            width, _height = png_size(picture)
            assert width <= MAX_WIDTH, (picture, width)
        assert picture.stat().st_size <= MAX_BYTES, (picture, picture.stat().st_size)


def test_the_handbooks_pictures_are_the_ones_the_browser_test_takes() -> None:
    taken = set(re.findall(r"save\(page, shots, \"([\w-]+)\"", SCREENS_TEST.read_text()))
    committed = {p.stem for p in PICTURES.glob("*.png")}
    assert taken == committed, (
        "make docs-screens writes the pictures the test takes; commit exactly those "
        f"(missing: {sorted(taken - committed)}, not taken: {sorted(committed - taken)})")


def test_the_site_uses_sphinxs_own_theme_and_no_outside_assets() -> None:
    conf = (DOCS / "conf.py").read_text()
    assert re.search(r"^html_theme = \"alabaster\"$", conf, re.M)
    assert not re.search(r"html_(css|js)_files|https?://", conf), (
        "the site is built offline: no style sheets or scripts from elsewhere")
    raw_html = [f"{page.relative_to(ROOT)}" for page in pages()
                if re.search(r"<(script|link|img|iframe)\b[^>]*\b(src|href)=[\"']?(https?:)?//",
                             page.read_text(), re.I)]
    assert raw_html == []


def test_references_to_a_readme_section_name_one_it_has() -> None:
    """Comments and docstrings name a README section by its title in quotes after the word
    README; the README keeps only a few sections (the rest is in docs/): such a reference must
    name one of them."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    headings = {title for _level, title in HEADING.findall((ROOT / "README.md").read_text())}
    stale = []
    for name in tracked:
        path = ROOT / name
        if not name or path.suffix not in {".py", ".js", ".html", ".pin", ".md", ".toml",
                                           ".css", ".txt", ""} or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        for match in re.finditer(r"README[,:]?\s+[\"“]([^\"”\n]+)[\"”]", text):
            if match.group(1) not in headings:
                stale.append(f"{name}: README \"{match.group(1)}\"")
    assert stale == [], "point these at the docs/ page that holds the section now"
