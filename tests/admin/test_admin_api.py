"""The admin API in-process on one real app (real index, real agent on a scripted LLM, Redis
db 15): the auth matrix, listing, batch updates that fail whole, resets, the audit log, and
a secret that never comes back in any response or log record."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import pytest_asyncio
import redis
from pydantic import SecretStr

from app.api.app import create_app
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.logging_setup import JsonFormatter, TurnContext
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.admin.conftest import (
    ADMIN_TOKENS,
    ALICE_TOKEN,
    BARE_TOKEN,
    REDIS_URL,
    SECRET_MARKER,
    bearer,
)
from tests.api.conftest import serving
from tests.fakes.scripted_openai import Call, ScriptedOpenAI, calls, fail, say, structured

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

ALICE = bearer(ALICE_TOKEN)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(
    built_index: Settings,
    admin_index: SearchIndex,
    redis_db: redis.Redis,
    restored_registry: None,
    scripted_openai_server: ScriptedOpenAI,
) -> AsyncIterator[httpx.AsyncClient]:
    settings = built_index.model_copy(
        update={
            "redis_url": REDIS_URL,
            "admin_tokens": SecretStr(ADMIN_TOKENS),
            "openai_base_url": scripted_openai_server.base_url,
        }
    )
    app = create_app(settings, runtime=Runtime(settings, index=admin_index))
    async with serving(app) as c:
        yield c


@pytest_asyncio.fixture(autouse=True, loop_scope="module")
async def _no_overrides(client: httpx.AsyncClient) -> AsyncIterator[None]:
    yield
    response = await client.post("/v1/admin/params/reset", json={}, headers=ALICE)
    assert response.status_code == 200


async def params_by_name(client: httpx.AsyncClient) -> dict[str, dict[str, Any]]:
    response = await client.get("/v1/admin/params", headers=ALICE)
    assert response.status_code == 200, response.text
    return {p["name"]: p for p in response.json()["params"]}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/v1/admin/params", None),
        ("PUT", "/v1/admin/params", {"values": {"MAX_TOP_K": 7}}),
        ("POST", "/v1/admin/params/reset", {}),
        ("GET", "/v1/admin/audit", None),
    ],
)
@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": f"Basic {ALICE_TOKEN}"}, 401),
        ({"Authorization": "Bearer "}, 401),
        (bearer("not-a-token"), 403),
        (bearer(ALICE_TOKEN + "x"), 403),
        (ALICE, 200),
        (bearer(BARE_TOKEN), 200),
    ],
)
async def test_the_auth_matrix(
    client: httpx.AsyncClient,
    method: str,
    path: str,
    body: dict[str, Any] | None,
    headers: dict[str, str],
    status: int,
) -> None:
    response = await client.request(method, path, json=body, headers=headers)
    assert response.status_code == status, response.text
    if status != 200:
        assert response.json()["error"]["code"] == "unauthorized"
        assert REGISTRY.value("MAX_TOP_K") == 50


async def test_every_parameter_is_listed_with_its_declaration_and_source(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/v1/admin/params", headers=ALICE)
    doc = response.json()
    assert doc["store"] == "redis"
    listed = {p["name"]: p for p in doc["params"]}
    assert set(listed) == {p.name for p in REGISTRY}
    floor = listed["RELEVANCE_FLOOR"]
    assert floor["value"] == REGISTRY.value("RELEVANCE_FLOOR")
    assert (floor["default"], floor["minimum"], floor["maximum"]) == (0.5, -1.0, 1.0)
    assert (floor["group"], floor["type"], floor["secret"]) == ("item_search", "float", False)
    assert floor["description"]
    assert floor["source"] in {"default", "env"}
    assert listed["FUSION_METHOD"]["choices"] == ["rrf", "weighted", "combmnz"]
    assert listed["LLM_API_KEY"]["secret"] is True


async def test_a_batch_applies_at_once_and_is_audited_with_the_holder(
    client: httpx.AsyncClient,
) -> None:
    response = await client.put(
        "/v1/admin/params",
        json={"values": {"RELEVANCE_FLOOR": 0.62, "PICK_DISPLAY_CAP": "2", "AUTOPICK": False}},
        headers=ALICE,
    )
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc["version"] == REGISTRY.version
    changed = {e["key"]: e for e in doc["changed"]}
    assert set(changed) == {"RELEVANCE_FLOOR", "PICK_DISPLAY_CAP", "AUTOPICK"}
    assert (changed["PICK_DISPLAY_CAP"]["old"], changed["PICK_DISPLAY_CAP"]["new"]) == (3, 2)
    assert changed["AUTOPICK"]["actor"] == "alice"
    assert (REGISTRY.value("RELEVANCE_FLOOR"), REGISTRY.value("PICK_DISPLAY_CAP")) == (0.62, 2)
    listed = await params_by_name(client)
    assert listed["PICK_DISPLAY_CAP"]["source"] == "override"
    assert listed["PICK_DISPLAY_CAP"]["value"] == 2

    bare = await client.put(
        "/v1/admin/params", json={"values": {"RRF_K": 30}}, headers=bearer(BARE_TOKEN)
    )
    (entry,) = bare.json()["changed"]
    assert entry["actor"].startswith("token-")
    assert BARE_TOKEN not in bare.text

    audit = (await client.get("/v1/admin/audit?limit=4", headers=ALICE)).json()["entries"]
    assert audit[0]["key"] == "RRF_K"
    assert {e["key"] for e in audit[1:]} == {"RELEVANCE_FLOOR", "PICK_DISPLAY_CAP", "AUTOPICK"}
    assert all(e["at"].endswith("+00:00") for e in audit)
    assert audit[0]["version"] == audit[1]["version"] + 1


@pytest.mark.parametrize(
    ("values", "key"),
    [
        ({"RELEVANCE_FLOOR": 0.7, "MAX_TOP_K": 0}, "MAX_TOP_K"),
        ({"RELEVANCE_FLOOR": 0.7, "FUSION_METHOD": "best"}, "FUSION_METHOD"),
        ({"RELEVANCE_FLOOR": 0.7, "AUTOPICK": "maybe"}, "AUTOPICK"),
        ({"RELEVANCE_FLOOR": 0.7, "NO_SUCH_PARAM": 1}, "NO_SUCH_PARAM"),
        ({"RELEVANCE_FLOOR": "high"}, "RELEVANCE_FLOOR"),
    ],
)
async def test_an_invalid_batch_is_a_400_naming_the_key_and_changes_nothing(
    client: httpx.AsyncClient, values: dict[str, Any], key: str
) -> None:
    before_version = REGISTRY.version
    before_audit = (await client.get("/v1/admin/audit", headers=ALICE)).json()
    response = await client.put("/v1/admin/params", json={"values": values}, headers=ALICE)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["key"]) == ("invalid_param", key)
    assert key in error["message"]
    assert REGISTRY.version == before_version
    assert REGISTRY.value("RELEVANCE_FLOOR") == 0.5
    assert (await client.get("/v1/admin/audit", headers=ALICE)).json() == before_audit


async def test_a_malformed_body_is_a_422(client: httpx.AsyncClient) -> None:
    response = await client.put("/v1/admin/params", json={"MAX_TOP_K": 7}, headers=ALICE)
    assert response.status_code == 422
    assert REGISTRY.value("MAX_TOP_K") == 50


async def test_reset_one_key_then_all_restores_the_defaults(client: httpx.AsyncClient) -> None:
    await client.put(
        "/v1/admin/params", json={"values": {"MAX_TOP_K": 9, "RRF_K": 20}}, headers=ALICE
    )
    one = await client.post("/v1/admin/params/reset", json={"keys": ["MAX_TOP_K"]}, headers=ALICE)
    assert [(e["key"], e["action"], e["old"], e["new"]) for e in one.json()["changed"]] == [
        ("MAX_TOP_K", "reset", 9, 50)
    ]
    listed = await params_by_name(client)
    assert (listed["MAX_TOP_K"]["value"], listed["MAX_TOP_K"]["source"]) == (50, "default")
    assert listed["RRF_K"]["value"] == 20
    unknown = await client.post("/v1/admin/params/reset", json={"keys": ["NOPE"]}, headers=ALICE)
    assert unknown.status_code == 400
    assert unknown.json()["error"]["key"] == "NOPE"
    everything = await client.post("/v1/admin/params/reset", headers=ALICE)
    assert [e["key"] for e in everything.json()["changed"]] == ["RRF_K"]
    assert REGISTRY.overrides() == {}
    assert REGISTRY.value("RRF_K") == 60


async def test_a_secret_never_comes_back_in_a_response_or_a_log_record(
    client: httpx.AsyncClient, scripted_openai: ScriptedOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    texts: list[str] = []

    async def call(method: str, path: str, **kw: Any) -> httpx.Response:
        response = await client.request(method, path, **kw)
        texts.append(str(response.headers) + response.text)
        return response

    put = await call("PUT", "/v1/admin/params", json={"values": {"LLM_API_KEY": SECRET_MARKER}})
    assert put.status_code == 401
    put = await call(
        "PUT", "/v1/admin/params", json={"values": {"LLM_API_KEY": SECRET_MARKER}}, headers=ALICE
    )
    assert put.status_code == 200
    assert REGISTRY.value("LLM_API_KEY") == SECRET_MARKER
    kept = await call(
        "PUT", "/v1/admin/params", json={"values": {"LLM_API_KEY": "", "RRF_K": 61}}, headers=ALICE
    )
    assert [e["key"] for e in kept.json()["changed"]] == ["RRF_K"]
    assert REGISTRY.value("LLM_API_KEY") == SECRET_MARKER
    bad = await call(
        "PUT", "/v1/admin/params", json={"values": {"LLM_API_KEY": [SECRET_MARKER]}}, headers=ALICE
    )
    assert bad.status_code == 400

    listed = await call("GET", "/v1/admin/params", headers=ALICE)
    key = next(p for p in listed.json()["params"] if p["name"] == "LLM_API_KEY")
    assert (key["value"], key["source"]) == ("********", "override")
    audit = await call("GET", "/v1/admin/audit", headers=ALICE)
    assert any(
        e["key"] == "LLM_API_KEY" and e["new"] == "********" for e in audit.json()["entries"]
    )

    scripted_openai.script("plan", fail(500))
    scripted_openai.script("tools", calls(Call("item_search", {"query": "usb hub"})), say("Done."))
    turn = await call("POST", "/v1/chat?stream=false", json={"message": "a usb hub"})
    assert turn.status_code == 200, turn.text
    await call("GET", "/metrics")
    await call("GET", "/healthz")
    await call("POST", "/v1/admin/params/reset", json={"keys": ["LLM_API_KEY"]}, headers=ALICE)

    assert texts
    for text in texts:
        assert SECRET_MARKER not in text
    assert caplog.records
    for record in caplog.records:
        assert SECRET_MARKER not in record.getMessage()
    assert SECRET_MARKER not in caplog.text


async def test_log_lines_of_a_turn_carry_its_session_and_turn_ids(
    client: httpx.AsyncClient, scripted_openai: ScriptedOpenAI
) -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(TurnContext())
    handler.setFormatter(JsonFormatter())
    app_logger = logging.getLogger("app")
    level = app_logger.level
    app_logger.addHandler(handler)
    app_logger.setLevel(logging.INFO)
    scripted_openai.script("plan", structured("not json"), structured("{still not json"))
    scripted_openai.script("tools", say("What kind of hub?"))
    try:
        turn = await client.post("/v1/chat?stream=false", json={"message": "a usb hub"})
    finally:
        app_logger.removeHandler(handler)
        app_logger.setLevel(level)
    assert turn.status_code == 200, turn.text
    docs = [json.loads(line) for line in out.getvalue().splitlines()]
    planner = [d for d in docs if d["logger"] == "app.tools.planner.planner"]
    assert planner
    for doc in planner:
        assert doc["turn_id"] == turn.headers["x-turn-id"]
        assert doc["session_id"] == turn.headers["x-session-id"]
