"""The lexicon files: named lists in files by meaning, every list the code reads exists
exactly once, and a malformed file is a ConfigError naming the file and line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.errors import ConfigError
from app.language import lexicon
from app.language.lexicon import LEXICON_DIR, read_lexicon, read_lists, table

_APP = Path(__file__).parents[2] / "app"
_READERS = frozenset(
    {
        "table",
        "words",
        "word_set",
        "word_map",
        "word_groups",
        "word_sets",
        "word_lists",
        "kinds_by_noun",
    }
    | {"alternation", "_grouped"}
)


def _lists_read_by_code() -> dict[str, str]:
    """Each list name the code passes to a lexicon reader (`lexicon.word_set("x")`, or a
    reader imported from app.language.lexicon), and the first module that reads it."""
    found: dict[str, str] = {}
    for path in sorted(_APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "app.language.lexicon"
            for alias in node.names
        }
        own = path.name == "lexicon.py" and path.parent.name == "language"
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func, first = node.func, node.args[0]
            by_module = (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "lexicon"
                and func.attr in _READERS
            )
            by_name = (
                isinstance(func, ast.Name) and func.id in _READERS and (own or func.id in imported)
            )
            if (by_module or by_name) and isinstance(first, ast.Constant):
                found.setdefault(str(first.value), str(path.relative_to(_APP.parent)))
    return found


def test_every_list_the_code_reads_exists_and_every_list_is_read() -> None:
    read = _lists_read_by_code()
    lists = read_lexicon(LEXICON_DIR)
    assert len(read) > 100
    assert {name: where for name, where in read.items() if name not in lists} == {}
    assert sorted(set(lists) - set(read)) == []


def test_the_lists_are_few_files_by_meaning() -> None:
    paths = sorted(LEXICON_DIR.glob("*.tsv"))
    assert 15 <= len(paths) <= 30
    for path in paths:
        assert path.read_text(encoding="utf-8").startswith(f"# {path.name}: "), path


def test_the_lists_of_one_file_keep_their_columns_and_order(tmp_path: Path) -> None:
    (tmp_path / "numbers.tsv").write_text(
        "# numbers.tsv: test\nlist\tword\tindex\n# ordinals: picks\nordinals\tfirst\t0\n"
        "ordinals\tlast\t-1\n\nlist\tword\nfillers\tum\n",
        encoding="utf-8",
    )
    assert read_lists(tmp_path / "numbers.tsv") == {
        "ordinals": ({"word": "first", "index": "0"}, {"word": "last", "index": "-1"}),
        "fillers": ({"word": "um"},),
    }


def test_the_real_files_read_as_the_accessors_expect() -> None:
    assert table("ordinals")[0] == {"word": "first", "index": "0"}
    assert lexicon.word_set("filler_words") >= {"a", "the"}


def test_an_unknown_list_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="no lexicon list 'no_such_list'"):
        table("no_such_list")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("list\tword\tvalue\nfive\t5\n", "line 2"),
        ("# a comment\nlist\tword\tvalue\nnumbers\tfive\t\n", "line 3"),
        ("list\tword\nnumbers\tfive\textra\n", "line 2"),
        ("numbers\tfive\n", "line 1"),
        ("list\tword\tword\n", "line 1"),
        ("list\tword\na\tx\nb\ty\na\tz\n", "line 4"),
    ],
)
def test_a_malformed_lexicon_file_names_its_file_and_line(
    tmp_path: Path, text: str, line: str
) -> None:
    path = tmp_path / "words.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"words\.tsv, {line}\b"):
        read_lists(path)


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_a_lexicon_file_without_a_header_is_a_config_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "words.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="no header line"):
        read_lists(path)


def test_a_list_defined_in_two_files_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "a.tsv").write_text("list\tword\nfillers\tum\n", encoding="utf-8")
    (tmp_path / "b.tsv").write_text("list\tword\nfillers\tuh\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"'fillers' is defined twice: in a\.tsv and b\.tsv"):
        read_lexicon(tmp_path)


def test_a_missing_lexicon_file_or_directory_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        read_lists(tmp_path / "absent.tsv")
    with pytest.raises(ConfigError, match="no lexicon files"):
        read_lexicon(tmp_path)
