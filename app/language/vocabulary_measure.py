"""Counts the vocabulary still typed into Python: lines of string-literal collections of words
and of regex word alternations in app/ and harness/, split into product vocabulary (a product
term the lexicon knows) and grammar. Issue 30 asks for no product vocabulary typed in code."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

from app.language.lexicon import LEXICON_DIR, read_lexicon, read_lists

__all__ = [
    "FUNCTION_WORD_LISTS",
    "MIN_WORDS",
    "PRODUCT_LISTS",
    "ROOTS",
    "lexicon_size",
    "measure",
    "product_terms",
    "vocabulary_lines",
    "vocabulary_spans",
]

ROOTS = ("app", "harness")
MIN_WORDS = 3
"""A literal holds vocabulary when it has at least this many words (or alternatives)."""
PRODUCT_LISTS = (
    *("lexicon_product_nouns", "lexicon_ambiguous_heads", "kind_nouns", "lexicon_connectors"),
    *("head_swaps", "catalog_names", "overlapping_heads", "one_product_names", "broad_heads"),
    "product_lines",
    *("accessory_nouns", "compound_accessory_endings", "add_on_nouns", "add_on_part_nouns"),
    *("lexicon_part_hosts", "lexicon_sized_parts", "lexicon_sized_by_number_only"),
    *("lexicon_parts_named_last", "terms_gpu_parts", "specs_storage_kinds"),
    *("amount_storage_forms", "amount_interfaces", "shelves_desktop_types"),
    *("shelves_portable_types", "lexicon_component_makers", "picker_terms_gpu_lines"),
    *("shelves_sort_signs", "picker_contrary_traits", "picker_contrary_drives"),
    *("terms_implied_by", "picker_also_fits", "units", "text_units", "specs_byte_units"),
    *("standards_generations", "standards_wifi_generations"),
    *("lexicon_colour_names", "match_text_colours", "match_text_same_colour"),
)
"""The lexicon lists that name products, their parts, kinds, accessories, makers' lines and
audiences, and the traits, standards, colours and units titles state of them: their words
are product terms. Lists of words around products (filler, clauses, attribute nouns, weak
heads) are not."""
FUNCTION_WORD_LISTS = ("filler_words", "phrase_boundary_words")
"""English function words, in any shop: never a product term, though a product list holds
them ("in" as inches, "for" before a size)."""
_TERM_COLUMNS = frozenset({"word", "means", "key", "noun", "unit", "written"})
"""The columns of a lexicon row that hold words (not patterns, numbers or group labels)."""
_WORD = re.compile(r"[a-z0-9][a-z0-9'&.+/ -]{0,40}")
_REGEX_SPACE = re.compile(r"\\[bs][+*?]?|\\-")
"""Word boundaries and spaces inside a pattern, read as a space between words."""
_REGEX_SYNTAX = re.compile(r"\\[a-zA-Z]|\(\?(?:P<\w+>|[:=!<]*)|\{[^}]*\}")
"""Escapes, group openers and counts of a pattern, dropped before its words are read."""
_TERM = re.compile(r"[a-z0-9][a-z0-9_'&+/.-]*")
"""A word of a literal; an identifier ("product_title") stays one word, naming a field."""
_ALTERNATIVE = r"[a-z][a-z' -]*[a-z]"
_ALTERNATION = re.compile(rf"(?<![a-z\\]){_ALTERNATIVE}(?:\|{_ALTERNATIVE}){{2,}}")


def vocabulary_lines(source: str) -> set[int]:
    """Line numbers of one module's source that hold typed vocabulary: a set, list, tuple or
    dict literal of at least MIN_WORDS words, a string of words split into a list, or a
    string with a regex word alternation."""
    return {line for span, _ in vocabulary_spans(source) for line in span}


def vocabulary_spans(source: str) -> list[tuple[range, frozenset[str]]]:
    """Each piece of typed vocabulary in one module's source: the lines it spans and the
    words (and multi-word entries) it holds, lower-cased."""
    tree = ast.parse(source)
    skip = _skipped_constants(tree)
    states = _code_states(tree)
    spans: list[tuple[range, frozenset[str]]] = []
    for node in ast.walk(tree):
        if _holds_vocabulary(node, tree, skip):
            spans.append((_span(node), frozenset() if id(node) in states else _words_of(node)))
        for text in _word_list_texts(node):
            spans.append((_span(text), _words_of(text)))
    return spans


def product_terms(directory: Path = LEXICON_DIR) -> frozenset[str]:
    """The words of the PRODUCT_LISTS (each entry and each word of it), less the English
    function words of FUNCTION_WORD_LISTS and single characters."""
    lists = read_lexicon(directory)
    function_words = {row["word"] for name in FUNCTION_WORD_LISTS for row in lists.get(name, ())}
    terms: set[str] = set()
    for name in PRODUCT_LISTS:
        for row in lists.get(name, ()):
            for column, value in row.items():
                if column in _TERM_COLUMNS:
                    low = value.lower()
                    terms.update({low, *low.split()})
    return frozenset(t for t in terms if len(t) > 1 and t not in function_words)


def measure(
    root: Path, packages: Iterable[str] = ROOTS, lexicon_dir: Path = LEXICON_DIR
) -> dict[str, object]:
    """Typed vocabulary lines per file and in total, split into product vocabulary (a line
    of a piece that holds a product term) and grammar (the rest), and the lexicon's size."""
    terms = product_terms(lexicon_dir)
    per_file: dict[str, int] = {}
    product_files: dict[str, list[str]] = {}
    product = 0
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            spans = vocabulary_spans(path.read_text(encoding="utf-8"))
            lines = {line for span, _ in spans for line in span}
            named = {line for span, words in spans if words & terms for line in span}
            if lines:
                per_file[str(path.relative_to(root))] = len(lines)
            if named:
                found = sorted({w for _, words in spans for w in words & terms})
                product_files[str(path.relative_to(root))] = found
                product += len(named)
    ordered = dict(sorted(per_file.items(), key=lambda item: (-item[1], item[0])))
    total = sum(per_file.values())
    return {
        "typed_vocabulary_lines": total,
        "product_vocabulary_lines": product,
        "grammar_lines": total - product,
        "product_vocabulary_files": product_files,
        "files": ordered,
        **lexicon_size(lexicon_dir),
    }


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


def _code_states(tree: ast.Module) -> set[int]:
    """The nodes inside `Literal[...]` types: states of the code ("closed", "open"), counted
    as typed words but never as product vocabulary."""
    return {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript) and _name_of(node.value) == "Literal"
        for inner in ast.walk(node.slice)
    }


def _name_of(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _words_of(node: ast.AST) -> frozenset[str]:
    """The entries and words of a piece of vocabulary: each string's whole text and its words;
    a pattern's words once its regex syntax is dropped."""
    words: set[str] = set()
    for constant in ast.walk(node):
        if isinstance(constant, ast.Constant) and isinstance(constant.value, str):
            text = constant.value
            if _is_alternation(constant):
                text = _REGEX_SPACE.sub(" ", _REGEX_SYNTAX.sub(" ", text)).replace("|", " ")
                words.update(_TERM.findall(text.lower()))
            else:
                words.update({text.lower(), *_TERM.findall(text.lower())})
    return frozenset(words)


def _span(node: ast.AST) -> range:
    assert isinstance(node, ast.expr)
    return range(node.lineno, (node.end_lineno or node.lineno) + 1)
