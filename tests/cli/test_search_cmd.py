"""`pickwise search` on the real index: the JSON document, how options become item_search
arguments and session excludes, the readable list, and tool errors exiting non-zero."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from app.cli import search_cmd
from app.cli.main import app
from app.config.settings import Settings
from app.recall.search_index import SearchIndex
from app.runtime import Runtime

HIT_KEYS = {"item_id", "platform", "title", "brand", "price_usd", "rating", "score"}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def index(built_index: Settings) -> Iterator[SearchIndex]:
    """One opened index (and model) for every command of the module."""
    opened = SearchIndex.open(built_index)
    yield opened
    asyncio.run(opened.close())


@pytest.fixture(autouse=True)
def _reuse_index(
    monkeypatch: pytest.MonkeyPatch, built_index: Settings, index: SearchIndex
) -> None:
    monkeypatch.setattr(search_cmd, "get_settings", lambda: built_index)
    monkeypatch.setattr(search_cmd, "open_runtime", lambda settings: Runtime(settings, index=index))


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["search", *args])


def run_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_document_shape() -> None:
    doc = run_json("laptop", "--max-price", "5")
    assert {
        "hits",
        "filtered_out",
        "price_only",
        "relaxed",
        "expanded",
        "per_source_counts",
        "failed_sources",
        "cache",
    } <= set(doc)
    assert doc["hits"]
    for hit in doc["hits"]:
        assert set(hit) >= HIT_KEYS
        assert hit["price_usd"] <= 5
    assert doc["filtered_out"]
    assert all({"item_id", "reason"} <= set(b) for b in doc["filtered_out"])
    assert doc["price_only"]["budget_usd"] == 5
    assert doc["price_only"]["cheapest_usd"] > 5
    assert (doc["relaxed"], doc["expanded"]) == (False, False)
    assert set(doc["per_source_counts"]) == {"dense", "bm25", "bm25_sheet"}  # Icecat has sheets
    assert doc["failed_sources"] == {}
    assert doc["cache"] == "miss"


def test_options_become_arguments_and_session_excludes() -> None:
    doc = run_json(
        "wireless mouse",
        "--platform",
        "amazon",
        "--platform",
        "walmart",
        "--top-k",
        "4",
        "--min-rating",
        "4",
        "--exclude-brand",
        "Microsoft",
        "--exclude",
        "Bluetooth",
    )
    assert len(doc["hits"]) == 4
    assert {h["platform"] for h in doc["hits"]} <= {"amazon", "walmart"}
    assert all(h["brand"] != "Microsoft" for h in doc["hits"])
    assert all("bluetooth" not in h["title"].lower() for h in doc["hits"])
    assert doc["relaxed"] is True
    applied = doc["applied"]
    assert applied["brand_exclude"] == ["Microsoft"]
    assert applied["exclude_terms"] == ["bluetooth"]
    brand = run_json("hdmi cable", "--brand", "Sony", "--top-k", "3")
    assert [h["brand"] for h in brand["hits"]] == ["Sony"] * 3


def test_a_price_range_bounds_the_hits_and_names_what_fell_below() -> None:
    doc = run_json("tv", "--min-price", "300", "--max-price", "600")
    assert doc["hits"]
    assert all(300 <= h["price_usd"] <= 600 for h in doc["hits"])
    assert doc["applied"]["price_usd_min"] == 300
    narrow = run_json("tv", "--min-price", "5000", "--max-price", "5001")
    assert narrow["hits"] == []
    assert "price_floor" in {b["reason"] for b in narrow["filtered_out"]}
    upside_down = run("tv", "--min-price", "600", "--max-price", "300", "--json")
    assert upside_down.exit_code == 2
    assert "price_usd_min" in json.loads(upside_down.stdout)["error"]["message"]


def test_readable_list() -> None:
    result = run("hdmi cable", "--top-k", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line[:3] for line in lines[:3]] == [" 1.", " 2.", " 3."]
    assert lines[3].startswith("cache: ")


def test_tool_error_prints_its_message_and_exits_non_zero() -> None:
    result = run("   ")
    assert result.exit_code == 2
    assert "invalid_arguments" in result.stderr
    assert "query" in result.stderr
    as_json = run("mouse", "--min-rating", "9", "--json")
    assert as_json.exit_code == 2
    error = json.loads(as_json.stdout)["error"]
    assert error["code"] == "invalid_arguments"
    assert "min_rating" in error["message"]
