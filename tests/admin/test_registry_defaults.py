"""Every tunable is declared, and each default is what the code does when nothing overrides
it: measured through the behaviour that depends on it, not by reading the parameter back.
A static check keeps modules from reading the environment for a parameter or freezing a
parameter's value at import time."""

from __future__ import annotations

import ast
import importlib
import re
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
import pytest_asyncio
import redis.asyncio

import app.config.params  # noqa: F401  (declares every group)
from app.catalog.item import Item
from app.config.params import breakers, cache, item_search, picker, recall, search
from app.config.registry import REGISTRY, Param
from app.config.settings import Settings
from app.errors import DependencyDown
from app.recall._cache_redis import RedisCacheStore
from app.recall.breakers import SPECS, BreakerRegistry, guarded
from app.recall.filters import SearchFilters
from app.recall.pipeline import RecallPipeline
from app.recall.retriever import Hit
from app.recall.search_cache import SearchCache, search_cache_key
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from app.tools.base import ToolContext, invoke_tool
from app.tools.candidates import Candidate
from app.tools.picker.item_picker import ItemPickerResult, ItemPickerTool
from app.tools.plan.shopping_plan import ShoppingPlan
from app.tools.search._args import ItemSearchArgs, resolve_scope
from app.tools.search._postfilters import ItemMatchers, apply_postfilters
from app.tools.search._relevance import ScoredHit
from app.tools.search.item_search import ItemSearchResult
from tests.admin.conftest import REDIS_URL

REPO = Path(__file__).resolve().parents[2]
SOURCES = sorted([*(REPO / "app").rglob("*.py"), *(REPO / "harness").rglob("*.py")])

REQUIRED = {
    "RELEVANCE_FLOOR", "RELEVANCE_FLOOR_LEXICAL", "MAX_TOP_K", "DEFAULT_TOP_K",
    "ITEM_SEARCH_RENDER_CAP", "ITEM_SEARCH_PROBE_LIMIT", "ITEM_SEARCH_EXPANSION_MAX_VARIANTS",
    "SEARCH_CACHE_TTL_S", "SEARCH_CACHE_EMPTY_TTL_S", "SEARCH_CACHE_LOCK_TTL_MS",
    "FUSION_METHOD", "RRF_K", "FUSION_WEIGHT_DENSE", "FUSION_WEIGHT_BM25", "AUTOPICK",
    "AGENT_MAX_ITERATIONS", "AGENT_MAX_SEARCHES_PER_TURN", "LLM_MODEL", "LLM_PLANNER_MODEL",
    "LLM_TEMPERATURE", "LLM_PLANNER_TEMPERATURE", "LLM_TIMEOUT_S", "LLM_API_KEY",
    "VECTOR_QUERY_TIMEOUT_S", "PICK_DISPLAY_CAP", "PICK_GATE_FLOOR", "PICK_REL_SHOW_RATIO",
}  # fmt: skip
KNOWN_NAME_CLASHES = {
    ("app/tools/browse/category_insight.py", "MAX_TOP_K"): "category_insight's own schema cap",
}


def defaults(*params: Param[Any]) -> None:
    """Fail unless every param is at its default here (no env value, no override)."""
    for param in params:
        assert REGISTRY.source(param.name) == "default", f"unset {param.name} to run this test"


def test_every_tunable_is_declared_with_type_bounds_group_and_description() -> None:
    declared = {p.name: p for p in REGISTRY}
    assert set(declared) >= REQUIRED
    for name in breakers.BREAKER_NAMES:
        assert {f"BREAKER_{name.upper()}_FAIL_MAX", f"BREAKER_{name.upper()}_RESET_S"} <= set(
            declared
        )
    for p in declared.values():
        assert p.group, p.name
        assert len(p.description) > 10, p.name
        if p.kind in (int, float):
            assert p.minimum is not None, p.name
            assert p.maximum is not None, p.name
            assert p.minimum <= p.default <= p.maximum, p.name
        secretive = re.search(r"(^|_)(KEY|TOKEN|PASSWORD|SECRET)$", p.name) is not None
        assert p.secret == secretive, p.name
    assert {p.name for p in declared.values() if p.name.startswith("PICK_")} >= {
        "PICK_RERANK_K", "PICK_GATE_PENALTY", "PICK_W_RECALL", "PICK_W_GATE", "PICK_W_MUST",
        "PICK_W_PREFER", "PICK_W_AVOID", "PICK_W_CHEAP", "PICK_W_SPEC", "PICK_W_UNNAMED",
        "PICK_W_FORM", "PICK_W_BRAND", "PICK_DUP_JACCARD",
    }  # fmt: skip


@pytest.fixture(scope="module")
def offline_runtime(built_index: Settings, admin_index: SearchIndex) -> Runtime:
    return Runtime(built_index.model_copy(update={"redis_url": None}), index=admin_index)


async def test_max_top_k_caps_and_render_cap_limits_item_search(
    offline_runtime: Runtime,
) -> None:
    defaults(search.MAX_TOP_K, item_search.ITEM_SEARCH_RENDER_CAP)
    async with offline_runtime as runtime:
        args = {"query": "usb hub", "top_k": search.MAX_TOP_K.maximum}
        outcome = await invoke_tool(runtime.tool("item_search"), args, ToolContext("s", "t"))
    result = outcome.output
    assert isinstance(result, ItemSearchResult)
    assert result.top_k == search.MAX_TOP_K.default < result.requested_top_k
    assert len(result.hits) > item_search.ITEM_SEARCH_RENDER_CAP.default
    shown = [line for line in result.render().splitlines() if line.startswith("[")]
    assert len(shown) == item_search.ITEM_SEARCH_RENDER_CAP.default


def _scored(relevance: float) -> ScoredHit:
    item = Item(
        item_id=f"amazon:{uuid.uuid4().hex[:6]}", title="usb hub", platform="amazon", source="test"
    )
    fused = cast(Any, SimpleNamespace(item_id=item.item_id))
    return ScoredHit(fused, item, relevance, lexical=False)


def test_the_relevance_floor_and_the_floor_once_a_hit_passes_it() -> None:
    defaults(item_search.RELEVANCE_FLOOR, item_search.RELEVANCE_FLOOR_FOUND)
    floor = item_search.RELEVANCE_FLOOR.default
    found = item_search.RELEVANCE_FLOOR_FOUND.default
    scope = resolve_scope(
        ItemSearchArgs(query="usb hub"), ShoppingPlan(), default_top_k=10, max_top_k=50
    )
    below, at, low = _scored(floor - 1e-6), _scored(floor), _scored(found)
    kept, removed = apply_postfilters([below], ItemMatchers(scope))
    assert kept == []
    assert removed.relevance_floor == 1
    # once `at` passes, every hit needs only the found floor (never more than the floor)
    bar = min(floor, found)
    kept, removed = apply_postfilters([below, at, low], ItemMatchers(scope))
    assert kept == [h for h in (below, at, low) if (h.relevance or 0.0) >= bar]
    assert removed.relevance_floor == 3 - len(kept)


@pytest_asyncio.fixture
async def redis_cache() -> AsyncIterator[tuple[SearchCache, redis.asyncio.Redis]]:
    client = redis.asyncio.Redis.from_url(REDIS_URL)
    await client.flushdb()
    cache_ = SearchCache(RedisCacheStore.from_url(REDIS_URL, timeout_s=5.0))
    yield cache_, client
    await cache_.close()
    await client.flushdb()
    await client.aclose()


@pytest.mark.parametrize("found", [True, False])
async def test_the_search_cache_ttls_are_the_redis_ttls_written(
    redis_cache: tuple[SearchCache, redis.asyncio.Redis], found: bool
) -> None:
    ttl = cache.SEARCH_CACHE_TTL_S if found else cache.SEARCH_CACHE_EMPTY_TTL_S
    defaults(ttl, cache.SEARCH_CACHE_ENABLED)
    store, client = redis_cache
    key = search_cache_key("v-test", "usb hub", SearchFilters(), 10)

    async def fetch() -> Sequence[Hit]:
        return [Hit("amazon:1", 0.9)] if found else []

    await store.get_or_fetch(key, fetch)
    written_ms = await client.pttl(key.l2_key)
    assert ttl.default * 1000 - 30_000 < written_ms <= ttl.default * 1000


async def test_each_breaker_opens_after_its_default_number_of_failures() -> None:
    registry = BreakerRegistry()

    async def failing() -> None:
        raise ConnectionError("refused")

    for name, spec in SPECS.items():
        defaults(spec.fail_max, spec.reset_s)
        failures = 0
        while registry.state(name).state == "closed":
            with pytest.raises(DependencyDown):
                await guarded(name, failing, registry=registry, timed=False)
            failures += 1
            assert failures <= (spec.fail_max.maximum or 0)
        assert failures == spec.fail_max.default, name
        assert registry.state(name).reset_s == spec.reset_s.default


class _Retriever:
    def __init__(self, source: str, ids: list[str]) -> None:
        self.source = source
        self._ids = ids

    async def recall(self, query: str, filters: SearchFilters, *, top_k: int) -> list[Hit]:
        return [Hit(i, 1.0 / (n + 1)) for n, i in enumerate(self._ids[:top_k])]


async def test_fusion_is_weighted_min_max_with_dense_weighed_above_bm25() -> None:
    defaults(recall.FUSION_METHOD, recall.FUSION_WEIGHT_DENSE, recall.FUSION_WEIGHT_BM25)
    pipeline = RecallPipeline([_Retriever("dense", ["a", "b"]), _Retriever("bm25", ["b", "c"])])
    response = await pipeline.run("q", SearchFilters(), top_k=3)
    scores = {h.item_id: h.score for h in response.hits}
    # min-max per source: each source's best scores 1, its last 0, times the source's weight
    assert scores["a"] == pytest.approx(recall.FUSION_WEIGHT_DENSE.default)
    assert scores["b"] == pytest.approx(recall.FUSION_WEIGHT_BM25.default)
    assert scores["c"] == 0
    assert [h.item_id for h in response.hits] == ["a", "b", "c"]
    assert response.config.fusion == recall.FUSION_METHOD.default


def _picker_items() -> list[Item]:
    words = ["black", "white", "silver", "blue", "red", "grey", "green", "gold"]
    return [
        Item(
            item_id=f"amazon:{n}",
            title=f"usb hub {n + 3} port {colour}",
            brand=f"maker{n}",
            price_usd=20.0 + n,
            source="test",
            platform="amazon",
        )
        for n, colour in enumerate(words)
    ]


async def _pick(index: SearchIndex, items: list[Item]) -> ItemPickerResult:
    tool = ItemPickerTool(
        cast(Any, SimpleNamespace(items={i.item_id: i for i in items})), index.embedder
    )
    plan = ShoppingPlan(category="usb hub", must_have=("usb hub",), prefer=("port",))
    ctx = ToolContext("s", "t", plan=plan)
    ctx.candidates.replace(
        "main",
        [
            Candidate(
                item_id=i.item_id, slot="main", query="usb hub", recall_score=1 / (60 + r), rank=r
            )
            for r, i in enumerate(items, start=1)
        ],
    )
    outcome = await invoke_tool(tool, {"slot": "main"}, ctx)
    assert isinstance(outcome.output, ItemPickerResult), outcome.output.render()
    return outcome.output


async def test_the_display_cap_is_what_limits_the_picks(admin_index: SearchIndex) -> None:
    defaults(picker.PICK_DISPLAY_CAP, picker.PICK_REL_SHOW_RATIO)
    items = _picker_items()
    assert len(items) > picker.PICK_DISPLAY_CAP.default + 1
    result = await _pick(admin_index, items)
    assert len(result.picks) == picker.PICK_DISPLAY_CAP.default
    with REGISTRY.overridden(PICK_DISPLAY_CAP=picker.PICK_DISPLAY_CAP.default + 1):
        wider = await _pick(admin_index, items)
    assert len(wider.picks) == picker.PICK_DISPLAY_CAP.default + 1


def _import_time_nodes(tree: ast.Module) -> Iterator[ast.AST]:
    """Nodes evaluated when the module is imported: not function bodies, but defaults,
    decorators, class bodies and module statements."""
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            stack += [*node.decorator_list, *node.args.defaults]
            stack += [d for d in node.args.kw_defaults if d is not None]
            continue
        if isinstance(node, ast.Lambda):
            stack += node.args.defaults
            continue
        yield node
        stack += list(ast.iter_child_nodes(node))


def _param_read(node: ast.AST, names: set[str]) -> str | None:
    """The parameter a `PARAM.get()` / `REGISTRY.value("PARAM")` call reads, if it is one."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    owner = node.func.value
    owner_name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
    if node.func.attr == "get" and owner_name in names and not node.args:
        return str(owner_name)
    if node.func.attr == "value" and owner_name == "REGISTRY":
        return "REGISTRY.value"
    return None


def _environ_key(node: ast.AST) -> str | None:
    """The constant key of an `os.environ[...]`, `os.environ.get(...)` or `os.getenv(...)`."""
    key: ast.expr | None
    if isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("environ"):
        key = node.slice
    elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith(
        ("environ.get", "getenv", "environ.setdefault")
    ):
        key = node.args[0] if node.args else None
    else:
        return None
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def test_no_module_reads_the_environment_for_a_param_or_reads_one_at_import() -> None:
    names = {p.name for p in REGISTRY}
    env_names = names | {alias for p in REGISTRY for alias in p.env_aliases}
    problems = []
    for path in SOURCES:
        where = str(path.relative_to(REPO))
        tree = ast.parse(path.read_text(), filename=where)
        if where != "app/config/registry.py":
            for node in ast.walk(tree):
                key = _environ_key(node)
                if key in env_names:
                    problems.append(f"{where}:{getattr(node, 'lineno', 0)} reads env {key}")
        for node in _import_time_nodes(tree):
            read = _param_read(node, names)
            if read is not None:
                problems.append(f"{where}:{getattr(node, 'lineno', 0)} reads {read} at import")
    assert problems == []


def test_a_module_global_named_like_a_parameter_is_that_parameter() -> None:
    names = {p.name for p in REGISTRY}
    problems = []
    for path in SOURCES:
        where = str(path.relative_to(REPO))
        module = importlib.import_module(where.removesuffix(".py").replace("/", "."))
        for name in sorted(names & set(vars(module))):
            value = vars(module)[name]
            if value is not REGISTRY.param(name) and (where, name) not in KNOWN_NAME_CLASHES:
                problems.append(f"{where}: {name} = {value!r}")
    assert problems == []


def test_no_setting_shares_a_name_with_a_parameter() -> None:
    names = {p.name for p in REGISTRY} | {a for p in REGISTRY for a in p.env_aliases}
    clashes = []
    for field_name, field in Settings.model_fields.items():
        choices = getattr(field.validation_alias, "choices", [field_name])
        clashes += [str(c) for c in choices if str(c).upper() in names]
    assert clashes == []
