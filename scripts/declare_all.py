"""Give every public module under app/ and harness/ that lacks one an `__all__` of the public
names it defines (functions, classes, constants, aliases), placed after its imports.

    .venv/bin/python scripts/declare_all.py [--check]

`--check` lists the modules without one and exits 1 (tests/test_public_surface.py checks the
same). Re-run it after a merge instead of resolving `__all__` conflicts by hand.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = ("app", "harness")
NOT_EXPORTED = frozenset({"log", "logger"})
TYPING_HELPERS = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple"})


def public_modules() -> list[Path]:
    """Every module whose own name is public, package `__init__` files excluded."""
    found = []
    for root in ROOTS:
        for path in sorted((REPO / root).rglob("*.py")):
            if not path.name.startswith("_"):
                found.append(path)
    return found


def declares_all(tree: ast.Module) -> bool:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            return True
    return False


def _is_typing_helper(value: ast.expr | None) -> bool:
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return name in TYPING_HELPERS


def public_names(tree: ast.Module) -> list[str]:
    """Names the module defines at top level that are not private, in isort-style order."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign) and not _is_typing_helper(node.value):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and not _is_typing_helper(node.value)
        ):
            names.append(node.target.id)
    public = {n for n in names if not n.startswith("_") and n not in NOT_EXPORTED}
    return sorted(public, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))


def _prelude_end(tree: ast.Module) -> int:
    """The last line of the leading docstring, imports and `if TYPE_CHECKING:` blocks."""
    end = 0
    for i, node in enumerate(tree.body):
        docstring = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        type_checking = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        if not (docstring or type_checking or isinstance(node, ast.Import | ast.ImportFrom)):
            break
        end = node.end_lineno or end
    return end


def declare(path: Path) -> bool:
    """Insert `__all__` into `path` when it lacks one and defines public names."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    names = public_names(tree)
    if declares_all(tree) or not names:
        return False
    lines = text.splitlines(keepends=True)
    at = _prelude_end(tree)
    listed = ", ".join(f'"{n}"' for n in names)
    lines.insert(at, f"\n__all__ = [{listed}]\n")
    path.write_text("".join(lines), encoding="utf-8")
    return True


def main(argv: list[str]) -> int:
    if "--check" in argv:
        missing = [p for p in public_modules() if not declares_all(ast.parse(p.read_text()))]
        for path in missing:
            print(path.relative_to(REPO))
        return 1 if missing else 0
    for path in public_modules():
        if declare(path):
            print(f"declared __all__ in {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
