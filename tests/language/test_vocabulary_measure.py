"""The typed-vocabulary measure counts word lists and regex word alternations typed into
Python (and nothing else), and every lexicon file parses."""

from __future__ import annotations

from pathlib import Path

from app.language.lexicon import LEXICON_DIR, read_lexicon, read_lists
from app.language.vocabulary_measure import lexicon_size, measure, vocabulary_lines


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
