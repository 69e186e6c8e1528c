"""The house's arrows point down (ARCHITECTURE.md): every import inside scoring/ goes from a
layer to the same layer or a lower one, read from the source with ast (lazy imports inside
functions count too).

    engine <- base <- models <- reads <- writes, notation <- forms, pdf, access
           <- web (views, templatetags, management, admin, urls, qr, offline)

Parts on one floor do not import each other.

Every module of scoring/ must have a layer: a new file outside the known places fails here
until ARCHITECTURE.md and LAYERS say where it stands."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCORING = ROOT / "scoring"

# (layer, rank, the modules or packages it holds). Lower rank = lower floor.
LAYERS: list[tuple[str, int, tuple[str, ...]]] = [
    ("engine", 0, ("scoring.engine",)),
    ("base", 1, ("scoring.money", "scoring.collation", "scoring.presets", "scoring.draw")),
    ("models", 2, ("scoring.models", "scoring.migrations", "scoring.apps", "scoring")),
    ("reads", 3, ("scoring.reads",)),
    ("writes", 4, ("scoring.writes",)),
    ("notation", 4, ("scoring.notation",)),
    ("forms", 5, ("scoring.forms",)),
    ("printing", 5, ("scoring.pdf",)),
    ("access", 5, ("scoring.access",)),
    ("web", 6, ("scoring.views", "scoring.templatetags", "scoring.management",
                "scoring.admin", "scoring.urls", "scoring.qr", "scoring.offline")),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> tuple[str, int] | None:
    """The layer of the longest prefix that holds ``module``."""
    best: tuple[int, str, int] | None = None
    for name, rank, prefixes in LAYERS:
        for prefix in prefixes:
            # the app's own package "scoring" holds only itself, not every module below it
            holds = module == prefix or (prefix != "scoring" and module.startswith(prefix + "."))
            if holds and (best is None or len(prefix) > best[0]):
                best = (len(prefix), name, rank)
    return None if best is None else (best[1], best[2])


MODULES = {module_name(path): path for path in sorted(SCORING.rglob("*.py"))}


def is_module(name: str) -> bool:
    return name in MODULES


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import of the file, relative ones resolved; ``from a import b``
    names ``a.b`` when that is a module of its own, else ``a``."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                candidate = f"{source}.{alias.name}"
                found.append((node.lineno, candidate if is_module(candidate) else source))
    return found


def arrows() -> list[tuple[str, int, str]]:
    """(importer, line, imported) for every import of a scoring module by a scoring module."""
    out = []
    for module, path in MODULES.items():
        for line, imported in imports_of(path):
            if imported == "scoring" or imported.startswith("scoring."):
                out.append((module, line, imported))
    return out


def test_every_module_has_a_layer() -> None:
    homeless = [m for m in MODULES if layer_of(m) is None]
    assert not homeless, ("modules without a layer (add them to LAYERS and ARCHITECTURE.md): "
                          f"{homeless}")


def test_the_arrows_point_down() -> None:
    upward = []
    for importer, line, imported in arrows():
        here, there = layer_of(importer), layer_of(imported)
        assert here is not None
        if there is None:
            continue  # not a module of the house (the test above finds homeless ones)
        if there[1] > here[1] or (there[1] == here[1] and there[0] != here[0]):
            upward.append(f"{MODULES[importer].relative_to(ROOT)}:{line}: {importer} ({here[0]}) "
                          f"imports {imported} ({there[0]})")
    assert not upward, "imports that run back up:\n" + "\n".join(upward)


def test_printing_never_imports_the_web_layer() -> None:
    bad = [f"{importer}:{line} imports {imported}" for importer, line, imported in arrows()
           if importer.startswith("scoring.pdf") and imported.startswith(
               ("scoring.views", "scoring.templatetags"))]
    assert not bad, bad


def test_the_engine_is_pure_python() -> None:
    """The engine imports no Django and nothing of scoring outside scoring.engine (it also runs
    in the browser under Pyodide)."""
    bad = []
    for module, path in MODULES.items():
        if not module.startswith("scoring.engine"):
            continue
        for line, imported in imports_of(path):
            top = imported.split(".")[0]
            if top == "django" or (top == "scoring" and not imported.startswith("scoring.engine")):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {imported}")
    assert not bad, bad


def test_a_new_module_outside_the_known_places_has_no_layer() -> None:
    assert layer_of("scoring.nowhere") is None
    assert layer_of("scoring") == ("models", 2)
    assert layer_of("scoring.views.offline_table") == ("web", 6)


@pytest.mark.parametrize(("importer", "imported", "upward"), [
    ("scoring.reads.sheet", "scoring.writes.services", True),
    ("scoring.pdf.grid", "scoring.templatetags.sheet_tags", True),
    ("scoring.engine.deal", "scoring.models", True),
    ("scoring.notation", "scoring.writes.services", True),  # same floor, another room
    ("scoring.views.entry", "scoring.forms.entry", False),
    ("scoring.writes.services", "scoring.reads.sheet", False),
    ("scoring.reads.standings", "scoring.reads.results", False),
])
def test_the_layers_tell_up_from_down(importer: str, imported: str, upward: bool) -> None:
    here, there = layer_of(importer), layer_of(imported)
    assert here is not None and there is not None
    assert (there[1] > here[1] or (there[1] == here[1] and there[0] != here[0])) is upward


def test_the_import_reader_sees_lazy_and_package_imports() -> None:
    """The reader finds imports inside functions and resolves ``from package import module``,
    so the tests above cannot pass by not looking."""
    found = {imported for _line, imported in imports_of(MODULES["scoring.writes.services"])}
    assert "scoring.writes.seating" in found  # from scoring.writes import seating
    assert "scoring.engine.settlement" in found  # imported inside a function
