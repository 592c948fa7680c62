"""The benchmark and demo query files: one query a line, comments skipped, an empty or
missing file a ConfigError."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import ConfigError
from app.eval.bench_search import COLD_WARM_QUERIES
from app.eval.demo import SEARCHES
from app.eval.query_files import read_queries


def test_a_query_file_reads_its_lines_in_order_without_comments(tmp_path: Path) -> None:
    (tmp_path / "q.txt").write_text("# q.txt: test\nusb cable\n\n  27 inch monitor \n")
    assert read_queries("q", tmp_path) == ("usb cable", "27 inch monitor")


def test_an_empty_or_missing_query_file_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("# empty.txt: nothing\n")
    with pytest.raises(ConfigError, match="no queries"):
        read_queries("empty", tmp_path)
    with pytest.raises(ConfigError, match="cannot read"):
        read_queries("missing", tmp_path)


def test_the_shipped_query_files_hold_the_bench_and_demo_queries() -> None:
    assert len(COLD_WARM_QUERIES) == 12
    assert COLD_WARM_QUERIES[0] == "noise cancelling headphones"
    assert SEARCHES == ("usb flash drive 32gb", "noise cancelling headphones", "27 inch 4k monitor")
