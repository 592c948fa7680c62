"""`pickwise pick` on the real index: the JSON document, options laid over the planner's
plan (budget, excludes, brands, platforms), a bundle picking per slot, the readable text."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from app.cli import pick_cmd
from app.cli.main import app
from app.config.settings import Settings
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from app.tools.picker.item_picker import STAGES

PICK_KEYS = {"item_id", "title", "platform", "price_usd", "reason", "gate_score", "offers"}
LOGITECH = re.compile(r"(?<![0-9a-z])logitech(?![0-9a-z])", re.IGNORECASE)

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
    monkeypatch.setattr(pick_cmd, "get_settings", lambda: built_index)
    monkeypatch.setattr(pick_cmd, "open_runtime", lambda settings: Runtime(settings, index=index))


def run_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["pick", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_json_document_shape() -> None:
    doc = run_json("gaming keyboard under $80, not logitech")
    assert {"picks", "stages"} <= set(doc)
    assert 1 <= len(doc["picks"]) <= 3
    for pick in doc["picks"]:
        assert set(pick) >= PICK_KEYS
        assert pick["price_usd"] <= 80
        assert not LOGITECH.search(pick["title"])
        assert isinstance(pick["reason"], str)
        assert pick["reason"]
        for offer in pick["offers"]:
            assert {"item_id", "platform", "price_usd", "cheapest", "saving_usd"} <= set(offer)
    assert [s["name"] for s in doc["stages"]] == list(STAGES)
    for stage in doc["stages"]:
        assert set(stage) == {"name", "ms", "in", "out"}
        assert stage["out"] <= stage["in"]
    assert doc["stages"][-1]["out"] == len(doc["picks"])


def test_options_override_the_plan() -> None:
    doc = run_json(
        "wireless mouse",
        "--max-price",
        "30",
        "--exclude",
        "Bluetooth",
        "--exclude-brand",
        "Logitech",
        "--platform",
        "amazon",
        "--platform",
        "walmart",
    )
    assert doc["picks"]
    for pick in doc["picks"]:
        assert pick["price_usd"] <= 30
        assert pick["platform"] in {"amazon", "walmart"}
        assert "bluetooth" not in pick["title"].lower()
        assert (pick["brand"] or "").lower() != "logitech"
        assert all(o["platform"] in {"amazon", "walmart"} for o in pick["offers"])


def test_a_bundle_picks_one_per_slot() -> None:
    doc = run_json("i need a tv and a soundbar")
    assert [p["slot"] for p in doc["picks"]] == ["tv", "soundbar"]


def test_plan_with_options() -> None:
    plan = pick_cmd.plan_with_options(
        "gluten-free snacks under $10",
        max_price=5,
        exclude=[" Soy ", "gluten"],
        platforms=["Amazon"],
    )
    assert (plan.budget_usd, plan.platforms) == (5, ("amazon",))
    assert plan.exclude_terms == ("gluten", "soy")
    assert plan.must_have == ("gluten free",)


def test_readable_output() -> None:
    result = CliRunner().invoke(app, ["pick", "usb flash drive", "--max-price", "20"])
    assert result.exit_code == 0, result.output
    assert "item_picker main:" in result.stdout
    assert "why:" in result.stdout
