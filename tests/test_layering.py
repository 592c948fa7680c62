"""The house rules on imports, read from the source: no module imports another package's
private (`_name`) module, each layer imports only the layers below it, and the rooms of
app/tools (themselves layers) are entered only through the names their package offers."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCE_ROOTS = ("app", "harness", "scripts")

LAYERS: dict[str, int] = {
    "app.errors": 0,
    "app.config": 1,
    "app.telemetry": 1,
    "app.logging_setup": 2,
    "app.language": 2,
    "app.catalog": 3,
    "app.recall": 4,
    "app.tools.llm": 5,
    "app.tools.plan": 6,
    "app.tools.terms": 7,
    "app.tools": 8,
    "app.tools.planner": 9,
    "app.tools.search": 9,
    "app.tools.compare": 9,
    "app.tools.browse": 9,
    "app.tools.picker": 10,
    "app.tools.summary": 11,
    "app.agent": 12,
    "harness": 13,
    "app.runtime": 14,
    "app.runtime_agent": 15,
    "app.eval": 16,
    "app.api": 17,
    "app.cli": 17,
    "scripts": 18,
}
"""Rank of each area, from the bottom: an area imports only areas of a lower rank (or
itself), so areas of equal rank never import each other (the composition roots api and cli;
the tools planner, search, compare and browse). The rooms of app/tools rank among
themselves; `app.tools` itself is base and candidates, what every tool shares."""

TOOLS_ROOMS = sorted(area for area in LAYERS if area.startswith("app.tools."))
"""The sub-packages of app/tools: each says what it holds in its `__init__`'s `__all__`."""


@dataclass(frozen=True)
class Import:
    """One imported module path, where it is imported."""

    importer: str
    package: str
    target: str
    where: str


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_package(name: str) -> bool:
    return (REPO / Path(*name.split("."))).is_dir()


def _targets(node: ast.AST, package: str) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")
            base = base[: len(base) - node.level + 1]
            module = ".".join([*base, node.module] if node.module else base)
        else:
            module = node.module or ""
        yield module
        if _is_package(module):
            yield from (f"{module}.{alias.name}" for alias in node.names)


def project_imports() -> list[Import]:
    """Every import of a project module in the source roots, lazy and TYPE_CHECKING ones too."""
    found = []
    for root in SOURCE_ROOTS:
        for path in sorted((REPO / root).rglob("*.py")):
            name = _module_name(path)
            package = name if path.name == "__init__.py" else name.rpartition(".")[0]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                for target in _targets(node, package):
                    if target.split(".")[0] in ("app", "harness"):
                        where = f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}"
                        found.append(Import(name, package, target, where))
    return found


def private_owner(target: str) -> str | None:
    """The package that owns the first private (`_name`) module on `target`'s path, if any."""
    parts = target.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:i])
    return None


def area(module: str) -> str:
    """The area of `LAYERS` a module belongs to (the longest matching prefix)."""
    matches = [a for a in LAYERS if module == a or module.startswith(a + ".")]
    if not matches:
        raise AssertionError(f"{module} belongs to no layer: add its area to LAYERS")
    return max(matches, key=len)


IMPORTS = project_imports()


def test_the_scan_sees_the_project() -> None:
    importers = {i.importer for i in IMPORTS}
    assert {"app.runtime", "app.api.app", "app.cli.main", "harness.autopick"} <= importers
    assert any(i.target == "app.runtime" for i in IMPORTS)


def test_no_module_imports_another_package_s_private_module() -> None:
    """A `_name` module is imported only from its own package (or a package inside it)."""
    offenders = []
    for imp in IMPORTS:
        owner = private_owner(imp.target)
        if owner is None:
            continue
        if imp.package != owner and not imp.package.startswith(owner + "."):
            offenders.append(f"{imp.where}: {imp.importer} imports {imp.target}")
    assert offenders == []


def test_layers_import_only_downward() -> None:
    offenders = []
    for imp in IMPORTS:
        source, target = area(imp.importer), area(imp.target)
        if source != target and LAYERS[target] >= LAYERS[source]:
            offenders.append(f"{imp.where}: {source} imports {imp.target} ({target})")
    assert offenders == []


@pytest.mark.parametrize(
    ("target", "owner"),
    [
        ("app.tools.terms._specs", "app.tools.terms"),
        ("app.tools._base_helpers", "app.tools"),
        ("app.recall._cache_lru.TtlLru", "app.recall"),
        ("app.tools.search.item_search", None),
        ("app.agent.__init__", None),
    ],
)
def test_private_owner_reads_the_first_private_part(target: str, owner: str | None) -> None:
    assert private_owner(target) == owner


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("app.runtime", "app.runtime"),
        ("app.runtime_agent", "app.runtime_agent"),
        ("app.tools.search._run", "app.tools.search"),
        ("app.tools.base", "app.tools"),
        ("harness.autopick", "harness"),
        ("scripts.bench_search", "scripts"),
    ],
)
def test_area_is_the_longest_matching_prefix(module: str, expected: str) -> None:
    assert area(module) == expected


def test_every_module_of_app_tools_is_in_a_room() -> None:
    """app/tools holds only its rooms, base and candidates: a new module goes in a room."""
    tools = REPO / "app" / "tools"
    rooms = {room.rpartition(".")[2] for room in TOOLS_ROOMS}
    loose = sorted(p.name for p in tools.glob("*.py"))
    assert loose == ["__init__.py", "base.py", "candidates.py"]
    packages = {p.name for p in tools.iterdir() if (p / "__init__.py").exists()}
    assert packages == rooms
    nested = [p for room in rooms for p in (tools / room).rglob("*.py") if p.parent.name != room]
    assert nested == []


@pytest.mark.parametrize("room", TOOLS_ROOMS)
def test_every_room_declares_its_surface(room: str) -> None:
    """Each room's `__init__` lists what it offers in `__all__`, and offers it."""
    path = REPO / Path(*room.split(".")) / "__init__.py"
    declared = [
        ast.literal_eval(node.value)
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    ]
    assert len(declared) == 1, f"{path}: no __all__"
    names = list(declared[0])
    assert names, f"{room} offers nothing"
    assert len(set(names)) == len(names), "a name is listed twice"
    module = importlib.import_module(room)
    assert [n for n in names if not hasattr(module, n)] == []


def test_code_outside_a_room_imports_only_its_surface() -> None:
    """Outside a room (another room, the agent, the front ends) only the room's package is
    imported, and only names in its `__all__`: the room's modules stay free to change."""
    offenders = []
    for imp in IMPORTS:
        owner = area(imp.target)
        if owner not in TOOLS_ROOMS or area(imp.importer) == owner or imp.target == owner:
            continue
        package, _, name = imp.target.rpartition(".")
        if package != owner:
            offenders.append(f"{imp.where}: {imp.importer} imports {imp.target}")
        elif name not in importlib.import_module(owner).__all__:
            offenders.append(f"{imp.where}: {imp.target} is not in {owner}.__all__")
    assert offenders == []
