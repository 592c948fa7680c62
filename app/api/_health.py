"""Probes behind `/healthz`: one small report per dependency, each bounded in time and
marked `critical` when serving a chat turn is impossible without it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Any, Literal

from app.api._admission import TurnGate
from app.api._state import ApiState
from app.config.params.api import HEALTH_PROBE_TIMEOUT_S
from app.config.params.llm import LLM_MODEL
from app.recall.breakers import BREAKERS, BreakerState

Status = Literal["ok", "degraded", "down"]
Report = dict[str, Any]

_CRITICAL_BREAKERS = frozenset({"qdrant"})
_LLM_ROLES = ("llm_planner", "llm_agent")
_PROBE_SESSION = "healthz-probe"

log = logging.getLogger(__name__)


async def probe(call: Callable[[], Awaitable[object]]) -> tuple[bool, str | None]:
    """Await `call()` within the probe timeout: (True, None), or (False, why it failed)."""
    limit = HEALTH_PROBE_TIMEOUT_S.get()
    try:
        async with asyncio.timeout(limit):
            result = await call()
    except TimeoutError:
        return False, f"no answer within {limit:g}s"
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if result is False:
        return False, "probe answered false"
    return True, None


def _component(status: Status, critical: bool, **fields: Any) -> Report:
    return {"status": status, "critical": critical, **fields}


async def _engine_report(
    call: Callable[[], Awaitable[object]], backend: str, remote: bool, critical: bool
) -> Report:
    """One engine behind a Protocol: its backend, whether remote, and a probe's answer; an
    unreachable critical engine is down, any other degraded."""
    ok, error = await probe(call)
    failed: Status = "down" if critical else "degraded"
    return _component(
        "ok" if ok else failed,
        critical,
        backend=backend,
        remote=remote,
        reachable=ok,
        **_error(error),
    )


async def index_reports(state: ApiState) -> dict[str, Report]:
    """The search index (version, items), its vector store and its lexical store (backend,
    reachable); recall runs on without the lexical source, so that one is not critical."""
    index = state.runtime.index
    manifest = index.manifest
    index_report = _component(
        "ok",
        True,
        version=index.version,
        items=len(index.items),
        collection=index.collection,
        embedder=manifest.model_id,
        built_at=manifest.built_at,
    )
    store, lexical = index.store, index.bm25
    store_report = await _engine_report(
        lambda: store.collection_exists(index.collection), store.name, store.remote, True
    )
    lexical_report = await _engine_report(
        lambda: asyncio.to_thread(lexical.count), lexical.name, lexical.remote, False
    )
    return {"index": index_report, "vector_store": store_report, "lexical_store": lexical_report}


async def cache_report(state: ApiState) -> Report:
    """Search cache: L1 always there; L2 backend, whether the cache uses it, and a ping."""
    cache = state.runtime.cache
    ok, error = await probe(cache.l2.ping)
    healthy = ok and cache.l2_available
    return _component(
        "ok" if healthy else "degraded",
        False,
        l1={"available": True},
        l2={
            "backend": cache.l2.name,
            "remote": cache.l2.remote,
            "in_use": cache.l2_available,
            "reachable": ok,
            "errors": cache.stats.l2_errors,
            **_error(error or cache.l2_down_reason),
        },
    )


async def session_report(state: ApiState) -> Report:
    """The agent's session store: its backend and whether a lookup gets an answer. An
    unreachable store is degraded, not down: new sessions are still answered (not saved, and
    the turn says so); only turns of existing sessions are refused (503)."""
    store = state.sessions
    if store is None:
        return _component("down", True, error="the agent exposes no session store")
    ok, error = await probe(lambda: store.get(_PROBE_SESSION))
    serving = {} if ok else {"serving": "new sessions only, not saved"}
    return _component(
        "ok" if ok else "degraded",
        False,
        backend=store.name,
        remote=store.remote,
        reachable=ok,
        **serving,
        **_error(error),
    )


def reranker_report(state: ApiState) -> Report:
    """item_picker's relevance gate: the reranker it holds, or why it runs without one."""
    picker = state.runtime.tools.get("item_picker")
    reranker = getattr(picker, "reranker", None)
    if reranker is not None:
        return _component(
            "ok", False, available=True, model=reranker.model_id, remote=reranker.remote
        )
    why = getattr(picker, "reranker_unavailable", None) or "item_picker holds no reranker"
    return _component("degraded", False, available=False, error=why)


def llm_report(state: ApiState, breakers: list[BreakerState]) -> Report:
    """The chat model when one is configured, else the offline policy. Each role has its own
    breaker: an open planner breaker means rules plans, an open agent one the offline policy;
    either makes the component degraded."""
    model = state.runtime.chat_model
    if model is None:
        return _component("ok", False, mode="offline_policy", configured=False)
    roles = {b.name: b.state for b in breakers if b.name in _LLM_ROLES}
    status: Status = "degraded" if "open" in roles.values() else "ok"
    forms = getattr(model, "structured_forms", {})
    return _component(
        status,
        False,
        mode="llm" if roles.get("llm_agent") != "open" else "offline_policy",
        planner="llm" if roles.get("llm_planner") != "open" else "rules",
        configured=True,
        model=LLM_MODEL.get(),
        breakers=roles,
        structured_output={name: form for (_, name), form in forms.items()},
    )


def breaker_report(breakers: list[BreakerState]) -> Report:
    """Every breaker with its state; an open critical one takes serving down."""
    open_names = {b.name for b in breakers if b.state == "open"}
    status: Status = "ok"
    if open_names:
        status = "down" if open_names & _CRITICAL_BREAKERS else "degraded"
    return _component(
        status,
        bool(open_names & _CRITICAL_BREAKERS),
        states=[
            {k: v for k, v in asdict(b).items() if k in ("name", "state", "failures", "fail_max")}
            for b in breakers
        ],
    )


def admission_report(gate: TurnGate | None) -> Report:
    """Turns in flight against the limit; being at capacity is ok (refusals are 429s)."""
    return _component("ok", False, **(gate.report() if gate is not None else {}))


async def health(state: ApiState, gate: TurnGate | None = None) -> Report:
    """Every component and the overall status: down when a critical one is down."""
    breakers = BREAKERS.states()
    indexes, cache, sessions = await asyncio.gather(
        index_reports(state), cache_report(state), session_report(state)
    )
    components: dict[str, Report] = {
        **indexes,
        "search_cache": cache,
        "session_store": sessions,
        "reranker": reranker_report(state),
        "llm": llm_report(state, breakers),
        "breakers": breaker_report(breakers),
        "admission": admission_report(gate),
    }
    return {"status": overall(components), "components": components}


def overall(components: dict[str, Report]) -> Status:
    """down if any critical component is down, degraded if anything is not ok, else ok."""
    statuses = [c["status"] for c in components.values()]
    if any(c["status"] == "down" and c["critical"] for c in components.values()):
        return "down"
    return "ok" if all(s == "ok" for s in statuses) else "degraded"


def _error(error: str | None) -> dict[str, str]:
    return {"error": error} if error else {}
