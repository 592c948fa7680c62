"""The typed-vocabulary measure counts word lists and regex word alternations typed into
Python (and nothing else), and every lexicon file parses."""

from __future__ import annotations

from pathlib import Path

from app.language.lexicon import LEXICON_DIR, read_lexicon, read_lists
from app.language.vocabulary_measure import (
    PRODUCT_LISTS,
    lexicon_size,
    measure,
    product_terms,
    vocabulary_lines,
)


def test_a_typed_word_set_counts_every_line_it_spans() -> None:
    lines = ["WORDS = frozenset(", "    {", '"sleeve",', '"case",', '"pouch",', "    }", ")"]
    source = "\n".join(lines) + "\n"
    assert vocabulary_lines(source) == {2, 3, 4, 5, 6}


def test_a_word_map_and_a_regex_alternation_count() -> None:
    source = (
        'import re\nPLURALS = {"mice": "mouse", "feet": "foot", "men": "man"}\n'
        'CHEAP = re.compile(r"\\b(?:cheap|budget|low\\s+cost)\\b")\n'
    )
    assert vocabulary_lines(source) == {2, 3}


def test_a_string_of_words_split_into_a_list_counts() -> None:
    source = (
        'A = word_set(\n    """\n    laptop tablet\n    phone\n    """\n)\nB = "x y z".split()\n'
    )
    assert vocabulary_lines(source) == {2, 3, 4, 5, 7}


def test_code_that_holds_no_vocabulary_counts_nothing() -> None:
    source = (
        '"""A docstring that says cheap|budget|affordable."""\n'
        '__all__ = ["alpha", "beta", "gamma"]\n'
        'PAIR = ("one", "two")\n'
        'CODE = re.compile(r"[A-Z]{2,}\\d+")\n'
        'SETTINGS = {"timeout": 3, "retries": some_call()}\n'
        'log.info("starting the index build")\n'
    )
    assert vocabulary_lines(source) == set()


def test_measure_totals_files_under_the_roots(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "words.py").write_text('W = ("a1", "b2", "c3")\n', encoding="utf-8")
    (tmp_path / "app" / "plain.py").write_text("X = 1\n", encoding="utf-8")
    result = measure(tmp_path, packages=("app",))
    assert result["typed_vocabulary_lines"] == 1
    assert result["files"] == {"app/words.py": 1}
    assert {result["product_vocabulary_lines"], result["grammar_lines"]} == {0, 1}


def _lexicon(tmp_path: Path) -> Path:
    """A lexicon of one product list and one function-word list."""
    lexicon = tmp_path / "lexicon"
    lexicon.mkdir()
    (lexicon / "nouns.tsv").write_text(
        "# nouns.tsv: test\nlist\tword\n# lexicon_product_nouns: products\n"
        "lexicon_product_nouns\tsleeve\nlexicon_product_nouns\tgraphics card\n"
        "lexicon_product_nouns\tfor\n# filler_words: function words\nfiller_words\tfor\n",
        encoding="utf-8",
    )
    return lexicon


def test_a_product_word_literal_is_product_vocabulary_and_grammar_is_not(
    tmp_path: Path,
) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "nouns.py").write_text(
        'NOUNS = frozenset({"pouch", "sleeve", "case"})\nGPU = ("video", "graphics", "card")\n',
        encoding="utf-8",
    )
    (tmp_path / "app" / "grammar.py").write_text(
        'import re\nNOT = re.compile(r"\\b(?:not|no|without)\\s+(?:for|with|a)\\b")\n'
        'State = Literal["sleeve", "open", "closed"]\n',
        encoding="utf-8",
    )
    result = measure(tmp_path, packages=("app",), lexicon_dir=_lexicon(tmp_path))
    assert result["typed_vocabulary_lines"] == 4
    assert result["product_vocabulary_lines"] == 2
    assert result["grammar_lines"] == 2
    assert result["product_vocabulary_files"] == {"app/nouns.py": ["card", "graphics", "sleeve"]}


def test_product_terms_are_the_product_lists_words_less_function_words(tmp_path: Path) -> None:
    assert product_terms(_lexicon(tmp_path)) == {"sleeve", "graphics card", "graphics", "card"}


def test_every_product_list_the_measure_reads_exists() -> None:
    assert sorted(set(PRODUCT_LISTS) - set(read_lexicon(LEXICON_DIR))) == []
    assert {"laptop", "ssd", "usb", "black", "gb"} <= product_terms()


def test_every_lexicon_file_parses_and_holds_entries() -> None:
    paths = sorted(LEXICON_DIR.glob("*.tsv"))
    assert paths
    for path in paths:
        lists = read_lists(path)
        assert lists, path
        assert all(lists.values()), path
    size = lexicon_size()
    assert size["lexicon_files"] == len(paths)
    assert size["lexicon_lists"] == len(read_lexicon(LEXICON_DIR))
    assert size["lexicon_entries"] == sum(len(rows) for rows in read_lexicon(LEXICON_DIR).values())
