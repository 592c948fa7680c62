"""Counts the product vocabulary still typed into Python: lines of string-literal collections
of words and of regex word alternations in app/ and harness/. Issue 30 asks for 0, with the
vocabulary kept in data/lexicon/*.tsv instead; this is the measure that tracks it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

from app.language.lexicon import LEXICON_DIR, read_lists

__all__ = ["MIN_WORDS", "ROOTS", "lexicon_size", "measure", "vocabulary_lines"]

ROOTS = ("app", "harness")
MIN_WORDS = 3
"""A literal holds vocabulary when it has at least this many words (or alternatives)."""
_WORD = re.compile(r"[a-z0-9][a-z0-9'&.+/ -]{0,40}")
_REGEX_SPACE = re.compile(r"\\[bs][+*?]?|\\-")
"""Word boundaries and spaces inside a pattern, read as a space between words."""
_ALTERNATIVE = r"[a-z][a-z' -]*[a-z]"
_ALTERNATION = re.compile(rf"(?<![a-z\\]){_ALTERNATIVE}(?:\|{_ALTERNATIVE}){{2,}}")


def vocabulary_lines(source: str) -> set[int]:
    """Line numbers of one module's source that hold typed vocabulary: a set, list, tuple or
    dict literal of at least MIN_WORDS words, a string of words split into a list, or a
    string with a regex word alternation."""
    tree = ast.parse(source)
    skip = _skipped_constants(tree)
    lines: set[int] = set()
    for node in ast.walk(tree):
        if _holds_vocabulary(node, tree, skip):
            lines.update(_span(node))
        for text in _word_list_texts(node):
            lines.update(_span(text))
    return lines


def measure(root: Path, packages: Iterable[str] = ROOTS) -> dict[str, object]:
    """Typed vocabulary lines per file and in total, and the lexicon files' size."""
    per_file: dict[str, int] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            count = len(vocabulary_lines(path.read_text(encoding="utf-8")))
            if count:
                per_file[str(path.relative_to(root))] = count
    ordered = dict(sorted(per_file.items(), key=lambda item: (-item[1], item[0])))
    return {"typed_vocabulary_lines": sum(per_file.values()), "files": ordered, **lexicon_size()}


def lexicon_size(directory: Path = LEXICON_DIR) -> dict[str, object]:
    """How many lexicon files there are, how many named lists and entries (rows) they hold,
    and the entries per file."""
    lists = {path.stem: read_lists(path) for path in sorted(directory.glob("*.tsv"))}
    entries = {stem: sum(len(rows) for rows in named.values()) for stem, named in lists.items()}
    return {
        "lexicon_files": len(entries),
        "lexicon_lists": sum(len(named) for named in lists.values()),
        "lexicon_entries": sum(entries.values()),
        "lexicon": entries,
    }


def _word_list_texts(node: ast.AST) -> list[ast.Constant]:
    """Strings of words split into a list: `word_set("a b c")`, `"a b c".split()`."""
    texts: list[ast.expr] = []
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if "word" in name:
            texts = list(node.args)
        elif name == "split" and isinstance(func, ast.Attribute) and not node.args:
            texts = [func.value]
    return [
        text
        for text in texts
        if isinstance(text, ast.Constant)
        and isinstance(text.value, str)
        and len(text.value.split()) >= MIN_WORDS
        and all(_WORD.fullmatch(word.lower()) for word in text.value.split())
    ]


def _holds_vocabulary(node: ast.AST, tree: ast.Module, skip: set[int]) -> bool:
    if isinstance(node, ast.Constant):
        return id(node) not in skip and _is_alternation(node)
    if isinstance(node, ast.Set | ast.List | ast.Tuple | ast.Dict):
        return _is_word_literal(node) and not _is_all(node, tree)
    return False


def _is_word(node: ast.expr | None) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and _WORD.fullmatch(node.value) is not None
        and any(char.isalpha() for char in node.value)
    )


def _is_plain(node: ast.expr | None) -> bool:
    if isinstance(node, ast.Tuple):
        return all(_is_plain(element) for element in node.elts)
    return isinstance(node, ast.Constant)


def _is_word_literal(node: ast.Set | ast.List | ast.Tuple | ast.Dict) -> bool:
    if isinstance(node, ast.Dict):
        keys = node.keys
        if not all(_is_word(key) for key in keys):
            return False
        return len(keys) >= MIN_WORDS and all(_is_plain(value) for value in node.values)
    words = [element for element in node.elts if _is_word(element)]
    return len(words) >= MIN_WORDS and len(words) == len(node.elts)


def _is_alternation(node: ast.Constant) -> bool:
    if not isinstance(node.value, str):
        return False
    return _ALTERNATION.search(_REGEX_SPACE.sub(" ", node.value)) is not None


def _is_all(node: ast.expr, tree: ast.Module) -> bool:
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and statement.value is node:
            return any(isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets)
    return False


def _skipped_constants(tree: ast.Module) -> set[int]:
    """Docstrings: prose, not vocabulary."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def _span(node: ast.AST) -> range:
    assert isinstance(node, ast.expr)
    return range(node.lineno, (node.end_lineno or node.lineno) + 1)
