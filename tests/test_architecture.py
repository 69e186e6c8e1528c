"""The house's arrows point down (ARCHITECTURE.md): every import inside scoring/ goes from a
layer to the same layer or a lower one, read from the source with ast (lazy imports inside
functions count too).

    engine <- base <- models <- reads <- writes, notation <- forms, pdf, access, demo
           <- web (views, templatetags, management, admin, urls, qr, offline)

Parts on one floor do not import each other.

Every module of scoring/ must have a layer: a new file outside the known places fails here
until ARCHITECTURE.md and LAYERS say where it stands.

Views only show (issue 36): no view asks a model's manager; at most 12 modules directly in
scoring/. ARCHITECTURE.md is checked against the code where it can be: its diagram against
LAYERS, its list of arrows against the imports, the files its tables name, the modules they
must name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCORING = ROOT / "scoring"

# (layer, rank, the modules or packages it holds). Lower rank = lower floor.
LAYERS: list[tuple[str, int, tuple[str, ...]]] = [
    ("engine", 0, ("scoring.engine",)),
    ("base", 1, ("scoring.money", "scoring.collation", "scoring.presets", "scoring.draw",
                  "scoring.spreadsheet")),
    ("models", 2, ("scoring.models", "scoring.migrations", "scoring.apps", "scoring")),
    ("reads", 3, ("scoring.reads",)),
    ("writes", 4, ("scoring.writes",)),
    ("notation", 4, ("scoring.notation",)),
    ("forms", 5, ("scoring.forms",)),
    ("printing", 5, ("scoring.pdf",)),
    ("access", 5, ("scoring.access",)),
    ("demo", 5, ("scoring.demo",)),  # demo data, written through the writes
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
    found = {imported for _line, imported in imports_of(MODULES["scoring.writes.imports"])}
    assert "scoring.writes.scores" in found  # from scoring.writes import scores
    assert "scoring.reads.rule_words" in found  # imported inside a function


def circles(edges: list[tuple[str, str]]) -> list[list[str]]:
    """The loops among modules (strongly connected parts of more than one module)."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_modules_import_each_other_in_a_circle() -> None:
    """Arrows inside one part may point either way, but never round in a loop (lazy imports
    inside functions included): a loop means neither module can be understood, or moved,
    without the other. A package's __init__ only hands names on and is left out."""
    edges = [(importer, imported) for importer, _line, imported in arrows()
             if MODULES.get(imported, ROOT).name != "__init__.py"
             and MODULES[importer].name != "__init__.py" and importer != imported]
    assert not circles(edges), circles(edges)


def test_the_circle_finder_sees_a_loop() -> None:
    assert circles([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]) == [["a", "b", "c"]]
    assert circles([("a", "b"), ("b", "c")]) == []


# ---------------------------------------------------------------- one CSV writer (issue 26)

CSV_HOME = "scoring.spreadsheet"


def csv_writers(source: str, filename: str = "<source>") -> list[int]:
    """The lines of ``source`` that make a csv writer (csv.writer, csv.DictWriter, or either
    imported from csv by name)."""
    lines = []
    for node in ast.walk(ast.parse(source, filename)):
        attribute = (isinstance(node, ast.Attribute) and node.attr in ("writer", "DictWriter")
                     and isinstance(node.value, ast.Name) and node.value.id == "csv")
        imported = (isinstance(node, ast.ImportFrom) and node.module == "csv" and any(
            alias.name in ("writer", "DictWriter") for alias in node.names))
        if attribute or imported:
            lines.append(getattr(node, "lineno", 0))
    return lines


def test_every_csv_is_written_by_the_one_helper() -> None:
    """Only scoring/spreadsheet.py makes a csv writer: every CSV goes through its ``cell``,
    which keeps a typed name such as =HYPERLINK(…) from becoming a formula. A module that
    answers text/csv takes its text from ``csv_text`` (or the sheet's ``sheet_csv``)."""
    writers = [f"{module}:{line}" for module, path in MODULES.items() if module != CSV_HOME
               for line in csv_writers(path.read_text(encoding="utf-8"), str(path))]
    assert not writers, f"csv writers outside {CSV_HOME}: {writers}"
    answering = [module for module, path in MODULES.items()
                 if "text/csv" in (text := path.read_text(encoding="utf-8"))
                 and "csv_text(" not in text and "sheet_csv(" not in text]
    assert not answering, f"CSV answers not written by {CSV_HOME}: {answering}"


def test_the_csv_check_sees_a_writer() -> None:
    assert csv_writers("import csv\nw = csv.writer(out)\n") == [2]
    assert csv_writers("from csv import DictWriter\n") == [1]
    assert csv_writers("import csv\nr = csv.reader(f)\n") == []


# ---------------------------------------------------------------- modules by role (issue 27)

ENGINE = "scoring.engine"


def engine_public_names() -> set[str]:
    """The names of ``scoring.engine.__all__``, read from its source."""
    tree = ast.parse((SCORING / "engine" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and any(isinstance(target, ast.Name)
                                                 and target.id == "__all__"
                                                 for target in node.targets)):
            return set(ast.literal_eval(node.value))
    return set()


def engine_reaches(source: str, module: str, *, package: bool = False,
                   public: set[str] | None = None) -> list[str]:
    """What ``source`` (module ``module``, outside the engine) takes from the engine other than
    a public name of ``scoring.engine``: an import of a submodule (``from scoring.engine.deal
    import …``, ``import scoring.engine.deal``, relative ones too), a private name or one not
    in ``public`` (``from scoring.engine import _context``), or an attribute path into a
    submodule (``scoring.engine.table.evaluate``)."""
    public = engine_public_names() if public is None else public
    here = module if package else module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {alias.name}" for alias in node.names
                      if alias.name.startswith(ENGINE + ".")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[:len(base) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            if origin.startswith(ENGINE + "."):
                found.append(f"{node.lineno}: from {origin} import …")
            elif origin == ENGINE:
                found += [f"{node.lineno}: from {origin} import {alias.name} (not public)"
                          for alias in node.names if alias.name not in public]
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
              and node.value.attr == "engine" and isinstance(node.value.value, ast.Name)
              and node.value.value.id == "scoring" and not node.attr.startswith("__")
              and node.attr not in public):
            found.append(f"{node.lineno}: scoring.engine.{node.attr}")
    return found


def reaches_of(module: str) -> list[str]:
    path = MODULES[module]
    return engine_reaches(path.read_text(encoding="utf-8"), module,
                          package=path.name == "__init__.py")


def test_only_the_engines_public_api_is_imported() -> None:
    """Outside scoring/engine every import of the engine is ``from scoring.engine import X``
    with X in its ``__all__``: never a submodule, never a private name (make a helper that
    others need public in the engine, with a name and a docstring, and add it to __all__)."""
    bad = [f"{MODULES[module].relative_to(ROOT)}:{reach}" for module in MODULES
           if not (module == ENGINE or module.startswith(ENGINE + "."))
           for reach in reaches_of(module)]
    assert not bad, "imports past the engine's public API:\n" + "\n".join(bad)


def test_the_engine_check_sees_a_reach() -> None:
    public = {"evaluate_table", "same_deal"}

    def reaches(source: str) -> list[str]:
        return engine_reaches(source, "scoring.views.probe", public=public)

    assert reaches("from scoring.engine.deal import legal_bids\n") == [
        "1: from scoring.engine.deal import …"]
    assert reaches("from scoring.engine import _context, evaluate_table\n") == [
        "1: from scoring.engine import _context (not public)"]
    assert reaches("import scoring.engine.table\n") == ["1: import scoring.engine.table"]
    assert reaches("from ..engine.fields import same_deal\n") == [
        "1: from scoring.engine.fields import …"]
    assert reaches("import scoring.engine\nx = scoring.engine.table.evaluate\n") == [
        "2: scoring.engine.table"]
    assert reaches("from scoring.engine import evaluate_table, same_deal\n"
                   "import scoring.engine\nd = scoring.engine.__file__\n") == []
    assert "generate_deals" in engine_public_names()


# No module of scoring/ longer than this: past it a module holds more than one role.
MAX_LINES = 800


def test_no_module_is_over_800_lines() -> None:
    long = {module: lines for module, path in MODULES.items()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    over = [f"{MODULES[m].relative_to(ROOT)}: {n} lines" for m, n in sorted(long.items())]
    assert not over, f"modules over {MAX_LINES} lines (split them by role): {over}"


# ---------------------------------------------------------------- rule systems (issue 27)

# The registry (scoring/engine/rulesets) is the only place that knows a rule system by name:
# everything else asks ruleset(name). Migrations (frozen history) and demo data (a demo club's
# rules are data) aside; presets.py is the rule profiles a club starts with, data too.
SYSTEM_NAMES = frozenset({"isko", "american1898", "hoyle"})
SYSTEM_CONSTANTS = frozenset({"ISKO", "AMERICAN1898", "HOYLE"})
SYSTEM_DATA = frozenset({"scoring.presets"})


def system_names_in(source: str, filename: str = "<source>") -> list[str]:
    """Where ``source`` spells a rule system's name ("isko" …) or compares with one of the
    engine's or the model's constants (``rules == ISKO``, ``!= RuleSystem.HOYLE``)."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Constant) and node.value in SYSTEM_NAMES:
            found.append(f"{node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                name = (side.attr if isinstance(side, ast.Attribute)
                        else side.id if isinstance(side, ast.Name) else None)
                if name in SYSTEM_CONSTANTS:
                    found.append(f"{node.lineno}: compares {name}")
    return found


def _asks_the_registry(module: str) -> bool:
    parts = module.split(".")
    return not (module == "scoring.engine" or module.startswith("scoring.engine.")
                or "migrations" in parts or any(p.startswith("demo") for p in parts)
                or module in SYSTEM_DATA)


def test_no_rule_system_is_named_outside_the_engine() -> None:
    named = {str(path.relative_to(ROOT)): found for module, path in MODULES.items()
             if _asks_the_registry(module)
             and (found := system_names_in(path.read_text(encoding="utf-8"), str(path)))}
    assert not named, f"ask scoring.engine.ruleset(name) instead: {named}"


def test_no_template_or_script_names_a_rule_system() -> None:
    """The pages render what they need of a system from the registry (a json_script, a
    data attribute); no template or script spells a system's name or data-systems."""
    quoted = [f"{q}{n}{q}" for n in sorted(SYSTEM_NAMES) for q in "\"'"]
    found = []
    for folder, pattern in ((ROOT / "templates", "*.html"), (ROOT / "static" / "js", "*.js")):
        for path in sorted(folder.rglob(pattern)):
            if "vendor" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(ROOT)}: {word}" for word in ["data-systems", *quoted]
                      if word in text]
    assert not found, found


def test_the_system_name_check_sees_a_name() -> None:
    assert system_names_in('if rules == "isko":\n    pass\n') == ["1: 'isko'"]
    assert system_names_in("ok = evening.rules != RuleSystem.HOYLE\n") == ["1: compares HOYLE"]
    assert system_names_in("x = ISKO\nkey = 'isko_tournament'\n") == []


# ---------------------------------------------------------------- views only show (issue 36)

MANAGERS = ("objects", "_default_manager")


def model_queries(source: str, filename: str = "<source>") -> list[str]:
    """Where ``source`` asks a model's manager itself: an attribute ``objects`` or
    ``_default_manager`` (``Player.objects.get(…)``, ``type(x)._default_manager``)."""
    return [f"{node.lineno}: .{node.attr}" for node in ast.walk(ast.parse(source, filename))
            if isinstance(node, ast.Attribute) and node.attr in MANAGERS]


def querying_views(root: Path, allowed: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    """The modules under ``root``/scoring/views that query models (those in ``allowed``, by
    their path inside views/, aside): a view reads through reads/ and changes through
    writes/."""
    views = root / "scoring" / "views"
    found = {}
    for path in sorted(views.rglob("*.py")):
        name = path.relative_to(views).as_posix()
        if name not in allowed and (hits := model_queries(path.read_text(encoding="utf-8"),
                                                          str(path))):
            found[name] = hits
    return found


def test_views_only_show() -> None:
    """No view asks a model's manager: reads go through a selector in scoring/reads/, changes
    through a service in scoring/writes/."""
    found = querying_views(ROOT)
    assert not found, f"views that query models (use reads/ and writes/): {found}"


def test_the_view_check_sees_a_planted_query(tmp_path: Path) -> None:
    views = tmp_path / "scoring" / "views"
    (views / "deep").mkdir(parents=True)
    (views / "clean.py").write_text(
        "from scoring.reads.people import player\n\ndef page(pk):\n"
        "    return player(pk)  # not .objects. in a comment, nor 'Player.objects' text\n")
    assert querying_views(tmp_path) == {}
    (views / "planted.py").write_text(
        "from scoring.models import Player\n\ndef page(pk):\n"
        "    return Player.objects.get(pk=pk)\n")
    (views / "deep" / "manager.py").write_text("def page(obj):\n"
                                               "    return type(obj)._default_manager.all()\n")
    assert querying_views(tmp_path) == {"deep/manager.py": ["2: ._default_manager"],
                                        "planted.py": ["4: .objects"]}
    assert querying_views(tmp_path, frozenset({"planted.py", "deep/manager.py"})) == {}


# At most this many modules directly in scoring/ (scoring/*.py; its __init__.py not counted):
# a module that belongs to a part goes into the part's package (issue 36: the two draws
# into scoring/draw/).
MAX_FLAT_MODULES = 12


def flat_modules(root: Path) -> list[str]:
    """The modules directly in ``root``/scoring, __init__.py not counted."""
    return sorted(path.name for path in (root / "scoring").glob("*.py")
                  if path.name != "__init__.py")


def test_scoring_holds_at_most_12_flat_modules() -> None:
    flat = flat_modules(ROOT)
    assert len(flat) <= MAX_FLAT_MODULES, (
        f"{len(flat)} modules directly in scoring/ (at most {MAX_FLAT_MODULES}; put a part's "
        f"module into its package): {flat}")


def test_the_flat_module_check_sees_a_13th(tmp_path: Path) -> None:
    package = tmp_path / "scoring"
    (package / "views").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "views" / "home.py").write_text("")
    for n in range(MAX_FLAT_MODULES):
        (package / f"module{n:02d}.py").write_text("")
    assert len(flat_modules(tmp_path)) == MAX_FLAT_MODULES  # __init__ and packages aside
    (package / "league_draw.py").write_text("")
    assert len(flat_modules(tmp_path)) == MAX_FLAT_MODULES + 1 > MAX_FLAT_MODULES


# ---------------------------------------------------------------- ARCHITECTURE.md is true

ARCHITECTURE = ROOT / "ARCHITECTURE.md"
# Packages the part table names as a whole (one module per feature, command or migration).
WHOLE_PACKAGES = frozenset({"views", "templatetags", "management", "migrations"})
PY_NAME = re.compile(r"[\w/]*\w\.py\b")
FOLDER = re.compile(r"`(\w+)/`")


def doc_tables(text: str) -> dict[str, list[list[str]]]:
    """The markdown tables of ``text`` by their first header cell: rows of cells (the
    header and the |---| line left out)."""
    tables: dict[str, list[list[str]]] = {}
    current: list[list[str]] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if current is None:
            current = tables.setdefault(cells[0], [])
        elif not set(line) <= set("|-: "):
            current.append(cells)
    return tables


def missing_named_files(root: Path, text: str) -> list[str]:
    """The .py files the part table and the page table name that do not exist. A name with
    a folder is a path inside scoring/ (or the checkout); a bare name is in the folder of the
    name before it in the same cell, in a folder the row's part names, or in scoring/."""
    tables = doc_tables(text)
    missing = []
    for header in ("part", "page"):
        for row in tables.get(header, []):
            own = FOLDER.findall(row[0]) if header == "part" else []
            for cell in row:
                last = ""
                for name in PY_NAME.findall(cell):
                    if "/" in name:
                        last = name.rpartition("/")[0]
                        places = [root / "scoring" / name, root / name]
                    else:
                        places = [*(root / "scoring" / folder / name
                                    for folder in (last, *own, "")), root / name]
                    if not any(place.is_file() for place in places):
                        missing.append(f"{row[0]}: {name}")
    return missing


def unnamed_modules(root: Path, text: str) -> list[str]:
    """The modules of ``root``/scoring that ARCHITECTURE.md's part table does not name: a
    module of a package in the row whose part is that package (by name, or a folder above it
    inside the package), a module directly in scoring/ anywhere in the table, the packages of
    WHOLE_PACKAGES as a whole; and the view modules the page table does not name (in any
    column: views/tables.py is the season pages' sortable tables)."""
    tables = doc_tables(text)
    part_rows = [" | ".join(row) for row in tables.get("part", [])]
    page_views = " ".join(" ".join(row[1:]) for row in tables.get("page", []))
    scoring = root / "scoring"
    unnamed = []
    for path in sorted(scoring.rglob("*.py")):
        rel = path.relative_to(scoring)
        if path.name == "__init__.py" and len(rel.parts) > 1:
            continue
        top = rel.parts[0]
        if len(rel.parts) == 1:
            named = path.name == "__init__.py" or any(
                path.name in PY_NAME.findall(row) for row in part_rows)
        elif top in WHOLE_PACKAGES:
            named = any(f"{top}/" in row for row in part_rows)
            if top == "views" and path.name not in PY_NAME.findall(page_views) and not any(
                    name.endswith(f"/{path.name}") for name in PY_NAME.findall(page_views)):
                unnamed.append(f"{rel} (in the page table)")
        else:
            inner = rel.relative_to(top)
            names = {inner.name} | {f"{parent.as_posix()}/" for parent in inner.parents
                                    if parent.as_posix() != "."}
            rows = [row for row in part_rows if f"`{top}/`" in row.split(" | ")[0]]
            named = any(name in row for row in rows for name in names)
        if not named:
            unnamed.append(str(rel))
    return unnamed


def diagram_floors(text: str) -> dict[int, set[str]]:
    """The layer diagram (the first code block): each floor's modules and packages, as
    module names (``views/`` -> ``scoring.views``, ``qr.py`` -> ``scoring.qr``)."""
    block = text.split("```")[1]
    floors: dict[int, set[str]] = {}
    for line in block.splitlines():
        found = re.match(r"\s*(\d+)\s+\w+\s+(.*)", line)
        if found:
            floors[int(found[1])] = {"scoring." + name.removesuffix(".py").rstrip("/")
                                     for name in re.findall(r"\b\w+/|\b\w+\.py\b", found[2])}
    return floors


def layer_floors() -> dict[int, set[str]]:
    floors: dict[int, set[str]] = {}
    for _name, rank, prefixes in LAYERS:
        floors.setdefault(rank, set()).update(p for p in prefixes if p != "scoring")
    return floors


def test_the_diagram_shows_the_layers() -> None:
    assert diagram_floors(ARCHITECTURE.read_text(encoding="utf-8")) == layer_floors()


def documented_arrows(text: str) -> dict[str, set[str]]:
    """The list of arrows between parts in ARCHITECTURE.md ("- forms → reads, models (…)");
    "every part below it" is every part of a lower floor."""
    rank = {name: r for name, r, _prefixes in LAYERS}
    arrows_of: dict[str, set[str]] = {}
    for found in re.finditer(r"^- (\w+) → ([^(\n]*)", text, re.MULTILINE):
        part, targets = found[1], found[2].strip().rstrip(";.").strip()
        arrows_of[part] = ({name for name, r in rank.items() if r < rank[part]}
                           if targets == "every part below it"
                           else {t.strip() for t in targets.split(",")})
    return arrows_of


def actual_arrows() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for importer, _line, imported in arrows():
        here, there = layer_of(importer), layer_of(imported)
        if here is not None and there is not None and here[0] != there[0]:
            found.setdefault(here[0], set()).add(there[0])
    return found


def test_the_documented_arrows_are_the_imports() -> None:
    """ARCHITECTURE.md lists every arrow between two parts that an import makes, and no
    other (an arrow that is allowed but unused is left out of the list)."""
    assert documented_arrows(ARCHITECTURE.read_text(encoding="utf-8")) == actual_arrows()


def test_architecture_md_names_only_files_that_exist() -> None:
    missing = missing_named_files(ROOT, ARCHITECTURE.read_text(encoding="utf-8"))
    assert not missing, f"ARCHITECTURE.md names files that do not exist: {missing}"


def test_architecture_md_names_every_module() -> None:
    unnamed = unnamed_modules(ROOT, ARCHITECTURE.read_text(encoding="utf-8"))
    assert not unnamed, f"modules ARCHITECTURE.md's tables do not name: {unnamed}"


DOC = """# A house

```
 1 top       views/  urls.py
 0 bottom    engine/
```

- web → every part below it
- reads → models, engine (a comment)

| part | what it holds | may import |
|---|---|---|
| `engine/` | rules.py (the rules), gone.py | nothing |
| `reads/` | sheet.py, views/home.py | engine |
| web | views/ (thin), urls.py | all |

| page | view | reads |
|---|---|---|
| home | views/home.py, missing.py | reads/sheet.py |
"""


def test_the_architecture_checks_see_what_is_wrong(tmp_path: Path) -> None:
    for name in ("engine/rules.py", "engine/extra.py", "reads/sheet.py", "reads/new.py",
                 "views/home.py", "views/errors.py", "urls.py", "qr.py", "__init__.py"):
        (tmp_path / "scoring" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "scoring" / name).write_text("")
    assert missing_named_files(tmp_path, DOC) == ["`engine/`: gone.py", "home: missing.py"]
    assert unnamed_modules(tmp_path, DOC) == [
        "engine/extra.py", "qr.py", "reads/new.py", "views/errors.py (in the page table)"]
    assert diagram_floors(DOC) == {1: {"scoring.views", "scoring.urls"},
                                   0: {"scoring.engine"}}
    assert documented_arrows(DOC)["reads"] == {"models", "engine"}
    assert "engine" in documented_arrows(DOC)["web"]
