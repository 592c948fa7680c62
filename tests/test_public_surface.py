"""Every public module of app/ and harness/ says what it offers: an `__all__` of names that
exist in it (`scripts/declare_all.py` adds one where it is missing)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PUBLIC = sorted(
    path
    for root in ("app", "harness")
    for path in (REPO / root).rglob("*.py")
    if not path.name.startswith("_")
)


def declared_all(path: Path) -> list[str] | None:
    """The literal `__all__` of a module, or None when it declares none."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list | tuple), f"{path}: __all__ is not a literal list"
            return [str(name) for name in value]
    return None


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts)


def test_the_scan_sees_the_public_modules() -> None:
    names = {module_name(p) for p in PUBLIC}
    assert {"app.runtime", "app.runtime_agent", "app.tools.search.item_search"} <= names
    assert not any(name.rpartition(".")[2].startswith("_") for name in names)


def test_every_public_module_declares_all() -> None:
    missing = [str(p.relative_to(REPO)) for p in PUBLIC if declared_all(p) is None]
    assert missing == [], "run scripts/declare_all.py"


@pytest.mark.parametrize("path", PUBLIC, ids=module_name)
def test_every_name_in_all_exists(path: Path) -> None:
    names = declared_all(path) or []
    assert len(set(names)) == len(names), "a name is listed twice"
    module = importlib.import_module(module_name(path))
    assert [n for n in names if not hasattr(module, n)] == []
