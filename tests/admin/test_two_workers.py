"""Two `pickwise serve` processes sharing the real Redis and the built index: an admin change
on one changes item_search on the other within a deadline, an invalid batch changes nothing,
a reset restores the defaults, and the secret in the environment shows up nowhere."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from app.config.settings import Settings
from tests.admin.conftest import ADMIN_TOKENS, ALICE_TOKEN, REDIS_URL, SECRET_MARKER, bearer
from tests.admin.workers import Worker, serving_workers

pytestmark = pytest.mark.slow

ALICE = bearer(ALICE_TOKEN)
QUERY = "usb-c hub with hdmi"
FLOORS_AT_ONE = {"RELEVANCE_FLOOR": 1.0, "RELEVANCE_FLOOR_LEXICAL": 1.0}
DEADLINE_S = 60.0


@pytest.fixture(scope="module")
def workers(
    built_index: Settings, redis_db: redis.Redis, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Worker]]:
    """'a' serves the admin API; 'b' has no admin tokens. Both log JSON and hold the secret."""
    common = {
        "REDIS_URL": REDIS_URL,
        "PICKWISE_VAR_DIR": str(built_index.var_dir.resolve()),
        "PICKWISE_DATA_DIR": str(built_index.data_dir.resolve()),
        "HF_HUB_OFFLINE": "1",
        "LOG_JSON": "true",
        "LLM_API_KEY": SECRET_MARKER,
    }
    envs = {"a": {**common, "ADMIN_TOKENS": ADMIN_TOKENS}, "b": common}
    with serving_workers(envs, workdir=tmp_path_factory.mktemp("workers")) as running:
        yield running


@pytest.fixture(scope="module")
def seen() -> list[str]:
    """Every response body and header block of the module, checked for the secret at the end."""
    return []


@pytest.fixture
def http(seen: list[str]) -> Iterator[Callable[..., httpx.Response]]:
    with httpx.Client(timeout=120) as client:

        def call(method: str, url: str, **kw: Any) -> httpx.Response:
            response = client.request(method, url, **kw)
            seen.append(str(response.headers) + response.text)
            return response

        yield call


def picks(http: Callable[..., httpx.Response], worker: Worker) -> list[dict[str, Any]]:
    """The picks of a fresh one-turn session on `worker` (the offline agent: item_search, then
    item_picker on what it kept)."""
    response = http("POST", worker.url + "/v1/chat?stream=false", json={"message": QUERY})
    assert response.status_code == 200, response.text
    return list(response.json()["picks"])


def params_version(http: Callable[..., httpx.Response], worker: Worker) -> float:
    text = http("GET", worker.url + "/metrics").text
    for family in text_string_to_metric_families(text):
        if family.name == "pickwise_params_version":
            return float(family.samples[0].value)
    raise AssertionError("no pickwise_params_version")


def eventually(check: Callable[[], bool]) -> bool:
    """Poll until `check` holds or the deadline passes; a deadline, not a timing claim."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return check()


def test_a_change_on_one_worker_reaches_the_other(
    workers: dict[str, Worker], http: Callable[..., httpx.Response]
) -> None:
    a, b = workers["a"], workers["b"]
    assert picks(http, b)
    put = http("PUT", a.url + "/v1/admin/params", json={"values": FLOORS_AT_ONE}, headers=ALICE)
    assert put.status_code == 200, put.text
    version = put.json()["version"]
    assert eventually(lambda: picks(http, b) == [])
    assert params_version(http, b) == version
    assert http("GET", b.url + "/v1/admin/params", headers=ALICE).status_code == 404


def test_an_invalid_batch_changes_nothing_on_either_worker(
    workers: dict[str, Worker], http: Callable[..., httpx.Response]
) -> None:
    a, b = workers["a"], workers["b"]
    before = params_version(http, a)
    bad = {"RELEVANCE_FLOOR": 0.5, "RELEVANCE_FLOOR_LEXICAL": 0.15, "MAX_TOP_K": 0}
    put = http("PUT", a.url + "/v1/admin/params", json={"values": bad}, headers=ALICE)
    assert put.status_code == 400
    assert put.json()["error"]["key"] == "MAX_TOP_K"
    listed = http("GET", a.url + "/v1/admin/params", headers=ALICE).json()
    assert listed["version"] == before
    floors = {p["name"]: p["value"] for p in listed["params"] if p["name"] in FLOORS_AT_ONE}
    assert floors == FLOORS_AT_ONE
    assert params_version(http, b) == before
    assert picks(http, b) == []


def test_a_reset_restores_the_defaults_everywhere_and_is_audited(
    workers: dict[str, Worker], http: Callable[..., httpx.Response]
) -> None:
    a, b = workers["a"], workers["b"]
    reset = http("POST", a.url + "/v1/admin/params/reset", json={}, headers=ALICE)
    assert sorted(e["key"] for e in reset.json()["changed"]) == sorted(FLOORS_AT_ONE)
    assert eventually(lambda: picks(http, b) != [])
    audit = http("GET", a.url + "/v1/admin/audit", headers=ALICE).json()["entries"]
    assert [(e["key"], e["action"], e["actor"]) for e in audit] == [
        ("RELEVANCE_FLOOR_LEXICAL", "reset", "alice"),
        ("RELEVANCE_FLOOR", "reset", "alice"),
        ("RELEVANCE_FLOOR_LEXICAL", "set", "alice"),
        ("RELEVANCE_FLOOR", "set", "alice"),
    ]
    assert [(e["old"], e["new"]) for e in audit[:2]] == [(1.0, 0.15), (1.0, 0.5)]
    key = next(
        p
        for p in http("GET", a.url + "/v1/admin/params", headers=ALICE).json()["params"]
        if p["name"] == "LLM_API_KEY"
    )
    assert (key["value"], key["source"]) == ("********", "env")


def test_the_secret_appears_in_no_response_and_no_log_line(
    workers: dict[str, Worker], seen: list[str]
) -> None:
    assert seen
    for text in seen:
        assert SECRET_MARKER not in text
    for worker in workers.values():
        lines = worker.log.read_text().splitlines()
        assert SECRET_MARKER not in "\n".join(lines)
        docs = [json.loads(line) for line in lines if line.startswith("{")]
        assert any(d["logger"] == "uvicorn.access" for d in docs)
