"""The vocabulary of shopper text (filler words, number words, product nouns, cue patterns),
read from the named lists of data/lexicon/*.tsv: words true of English shopping in any shop
are data, so adding one is an edit to a file, not to a rule."""

from __future__ import annotations

import functools
from pathlib import Path

from app.errors import ConfigError

__all__ = [
    "LEXICON_DIR",
    "LIST_COLUMN",
    "Rows",
    "alternation",
    "currency_patterns",
    "filler_words",
    "kinds_by_noun",
    "number_words",
    "ordinals",
    "read_lexicon",
    "read_lists",
    "table",
    "units",
    "word_groups",
    "word_lists",
    "word_map",
    "word_set",
    "word_sets",
    "words",
]

LEXICON_DIR = Path(__file__).resolve().parents[2] / "data" / "lexicon"
LIST_COLUMN = "list"
"""The first column of every lexicon row: the name of the list the row belongs to."""
_NUMBER_USES = frozenset({"count", "teen", "tens", "quantity"})

Rows = tuple[dict[str, str], ...]


@functools.cache
def _lexicon() -> dict[str, Rows]:
    return read_lexicon(LEXICON_DIR)


def table(name: str) -> Rows:
    """The rows of the list `name`, whichever file of data/lexicon holds it; the files are
    read once per process."""
    try:
        return _lexicon()[name]
    except KeyError:
        raise ConfigError(f"no lexicon list {name!r} in {LEXICON_DIR}") from None


def read_lexicon(directory: Path) -> dict[str, Rows]:
    """Every list of a directory's *.tsv files by name; a name defined twice is an error."""
    lists: dict[str, Rows] = {}
    found_in: dict[str, str] = {}
    paths = sorted(directory.glob("*.tsv"))
    if not paths:
        raise ConfigError(f"no lexicon files (*.tsv) in {directory}")
    for path in paths:
        for name, rows in read_lists(path).items():
            if name in lists:
                raise ConfigError(
                    f"lexicon list {name!r} is defined twice: in {found_in[name]} and {path.name}"
                )
            lists[name] = rows
            found_in[name] = path.name
    return lists


def read_lists(path: Path) -> dict[str, Rows]:
    """The lists of one lexicon file, each as its rows of column -> value, in file order.
    '#' lines are comments; a line `list<TAB>column...` names the columns of the rows after
    it; every row starts with its list's name, and a list's rows stand together."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the lexicon file {path}: {exc}") from exc
    lists: dict[str, list[dict[str, str]]] = {}
    columns: list[str] = []
    current = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        values = line.split("\t")
        if values[0] == LIST_COLUMN:
            columns = _columns(values[1:], path, number)
            current = ""
            continue
        name = _row_list(values, columns, path, number)
        if name != current and name in lists:
            raise ConfigError(f"{path}, line {number}: list {name!r} is defined twice")
        current = name
        lists.setdefault(name, []).append(dict(zip(columns, values[1:], strict=True)))
    if not columns:
        raise ConfigError(f"{path} has no header line ({LIST_COLUMN}<TAB>column...)")
    return {name: tuple(rows) for name, rows in lists.items()}


def _columns(names: list[str], path: Path, number: int) -> list[str]:
    if not names or not all(names) or len(set(names)) != len(names):
        raise ConfigError(f"{path}, line {number}: a header names distinct non-empty columns")
    return names


def _row_list(values: list[str], columns: list[str], path: Path, number: int) -> str:
    """The list a row belongs to, once the row is known to fit its header."""
    if not columns:
        raise ConfigError(f"{path}, line {number}: a row before the header line")
    if len(values) != len(columns) + 1 or not all(values):
        shape = ", ".join([LIST_COLUMN, *columns])
        raise ConfigError(
            f"{path}, line {number}: a row needs {len(columns) + 1} non-empty tab-separated"
            f" columns ({shape})"
        )
    return values[0]


def filler_words() -> frozenset[str]:
    """Function words and request filler that never become keywords."""
    return word_set("filler_words")


def number_words(use: str) -> dict[str, int]:
    """Spelled numbers of one use (count, teen, tens, quantity), in file order."""
    if use not in _NUMBER_USES:
        raise ConfigError(f"unknown number-word use {use!r}; one of {sorted(_NUMBER_USES)}")
    rows = [row for row in table("number_words") if row["use"] == use]
    return {row["word"]: _int(row["value"], "number_words") for row in rows}


def ordinals() -> dict[str, int]:
    """Words naming one of the picks shown, as an index into them (-1: the last)."""
    return {row["word"]: _int(row["index"], "ordinals") for row in table("ordinals")}


def currency_patterns() -> tuple[tuple[str, str], ...]:
    """(pattern of the currency as written, ISO code), in order: the first match wins."""
    return tuple((row["written"], row["code"]) for row in table("currencies"))


def units() -> dict[str, tuple[str, ...]]:
    """Each canonical unit and the ways it is written, in file order."""
    return {unit: tuple(forms) for unit, forms in _grouped("units", "unit", "written").items()}


def _int(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError as exc:
        raise ConfigError(f"lexicon list {name!r}: {value!r} is not a whole number") from exc


def words(name: str) -> tuple[str, ...]:
    """The words of a one-column list (column `word`), in file order."""
    return tuple(row["word"] for row in table(name))


def word_set(name: str) -> frozenset[str]:
    """The words of a one-column list (column `word`), as a set."""
    return frozenset(words(name))


def word_map(name: str) -> dict[str, str]:
    """Each word (column `word`) and what it stands for (column `means`), in file order."""
    return {row["word"]: row["means"] for row in table(name)}


def word_groups(name: str) -> tuple[tuple[str, ...], ...]:
    """Groups of words (column `group` names the group, `word` a member), in file order."""
    return tuple(tuple(members) for members in _grouped(name, "group").values())


def word_sets(name: str) -> dict[str, frozenset[str]]:
    """Each key (column `key`) and its set of words (column `word`), in file order."""
    return {key: frozenset(members) for key, members in _grouped(name, "key").items()}


def word_lists(name: str) -> dict[str, tuple[str, ...]]:
    """Each key (column `key`) and its words (column `word`), both in file order (the first
    word the most usual)."""
    return {key: tuple(members) for key, members in _grouped(name, "key").items()}


def kinds_by_noun(name: str) -> dict[str, tuple[frozenset[str], ...]]:
    """Per noun (column `noun`), its kinds (column `kind` numbers one) as sets of the words
    (column `word`) that name them, in file order."""
    kinds: dict[str, dict[str, list[str]]] = {}
    for row in table(name):
        kinds.setdefault(row["noun"], {}).setdefault(row["kind"], []).append(row["word"])
    return {
        noun: tuple(frozenset(words) for words in by_kind.values())
        for noun, by_kind in kinds.items()
    }


def alternation(name: str) -> str:
    """The rows of a pattern list (column `pattern`) joined as one regex alternation, in file
    order (the order a regex tries them in)."""
    return "|".join(row["pattern"] for row in table(name))


def _grouped(name: str, key: str, value: str = "word") -> dict[str, list[str]]:
    """The `value` column of a file's rows grouped by its `key` column, both in file order."""
    groups: dict[str, list[str]] = {}
    for row in table(name):
        groups.setdefault(row[key], []).append(row[value])
    return groups
