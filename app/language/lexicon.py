"""The language-general vocabulary of shopper text (filler words, number words, ordinals,
currencies), read from data/lexicon/*.tsv: words true of English shopping in any shop are
data, so adding one is an edit to a file, not to a rule."""

from __future__ import annotations

import functools
from pathlib import Path

from app.errors import ConfigError

__all__ = [
    "LEXICON_DIR",
    "alternation",
    "currency_patterns",
    "filler_words",
    "kinds_by_noun",
    "number_words",
    "ordinals",
    "read_table",
    "table",
    "units",
    "word_groups",
    "word_map",
    "word_set",
    "word_sets",
    "words",
]

LEXICON_DIR = Path(__file__).resolve().parents[2] / "data" / "lexicon"
_NUMBER_USES = frozenset({"count", "teen", "tens", "quantity"})


@functools.cache
def table(name: str) -> tuple[dict[str, str], ...]:
    """The rows of data/lexicon/<name>.tsv, read once per process."""
    return read_table(LEXICON_DIR / f"{name}.tsv")


def read_table(path: Path) -> tuple[dict[str, str], ...]:
    """The rows of a lexicon file as column -> value: '#' lines are comments, the first
    other line names the columns, every row has them all."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read the lexicon file {path}: {exc}") from exc
    lines = [line for line in lines if line.strip() and not line.startswith("#")]
    if not lines:
        raise ConfigError(f"{path} has no header line")
    columns = lines[0].split("\t")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        values = line.split("\t")
        if len(values) != len(columns) or not all(values):
            raise ConfigError(f"{path}: row {number} needs {len(columns)} non-empty columns")
        rows.append(dict(zip(columns, values, strict=True)))
    return tuple(rows)


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
        raise ConfigError(f"data/lexicon/{name}.tsv: {value!r} is not a whole number") from exc


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
