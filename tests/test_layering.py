"""The house rules on imports, read from the source: no module imports another package's
private (`_name`) module, and each layer imports only the layers below it."""

from __future__ import annotations

import ast
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
    "app.tools": 5,
    "app.agent": 6,
    "harness": 7,
    "app.runtime": 8,
    "app.runtime_agent": 9,
    "app.eval": 10,
    "app.api": 11,
    "app.cli": 11,
    "scripts": 12,
}
"""Rank of each area, from the bottom: an area imports only areas of a lower rank (or
itself), so the two composition roots of equal rank, api and cli, never import each other."""


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
        ("app.tools.terms._specs", "app.tools"),
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
        ("app.tools.search._run", "app.tools"),
        ("harness.autopick", "harness"),
        ("scripts.bench_search", "scripts"),
    ],
)
def test_area_is_the_longest_matching_prefix(module: str, expected: str) -> None:
    assert area(module) == expected
