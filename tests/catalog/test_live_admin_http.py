"""The admin routes of live catalog changes over real HTTP on loopback: bad rows reported
and the rest applied, 401 without a token, 403 with a wrong one, 404 for an unknown item,
the change journal naming who made it; and two `pickwise serve` processes on one var dir,
where a change made through one shows on the other."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from pydantic import SecretStr

from app.api.app import create_app
from app.config.settings import Settings
from tests.admin.conftest import ADMIN_TOKENS, ALICE_TOKEN, bearer
from tests.admin.workers import serving_workers
from tests.api.live_server import live_server
from tests.catalog.live_catalog import LIVE_REDIS_URL, SHOP, live_catalog, stored

ALICE = bearer(ALICE_TOKEN)
DEADLINE_S = 30.0


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Iterator[Settings]:
    client = redis.Redis.from_url(LIVE_REDIS_URL)
    client.flushdb()
    base = live_catalog(tmp_path_factory.mktemp("live-http-var"), data_dir)
    yield base.model_copy(update={"admin_tokens": SecretStr(ADMIN_TOKENS)})
    client.flushdb()
    client.close()


@pytest.fixture(scope="module")
def url(settings: Settings) -> Iterator[str]:
    with live_server(create_app(settings)) as base:
        yield base


def _card(client: httpx.Client, base: str, item_id: str) -> dict[str, Any] | None:
    body = client.get(f"{base}/v1/cards", params={"ids": item_id, "offers": False}).json()
    return body["cards"][0] if body["cards"] else None


def test_put_applies_the_valid_rows_and_reports_the_bad_ones(settings: Settings, url: str) -> None:
    pillow = stored(settings, "brown-throw-pillows").model_dump(mode="json")
    rows = [
        {**pillow, "price": 9.5},
        {"id": "x1", "shop": SHOP, "price": 3},
        {"id": "x2", "shop": SHOP, "title": "Minus", "price": -4},
        "not an object",
    ]
    with httpx.Client(timeout=120) as client:
        response = client.put(f"{url}/v1/admin/catalog/items", json=rows, headers=ALICE)
        assert response.status_code == 200, response.text
        report = response.json()
        assert (report["upserted"], report["rejected"]) == (1, 3)
        assert [e["row"] for e in report["errors"]] == [2, 3, 4]
        card = _card(client, url, f"{SHOP}:brown-throw-pillows")
        assert card is not None
        assert card["price"] == 9.5
        changes = client.get(f"{url}/v1/admin/catalog/changes", headers=ALICE).json()
        assert changes["entries"][0]["actor"] == "alice"
        assert changes["entries"][0]["item_id"] == f"{SHOP}:brown-throw-pillows"


def test_the_admin_token_guards_every_route(url: str) -> None:
    with httpx.Client(timeout=60) as client:
        put = f"{url}/v1/admin/catalog/items"
        assert client.put(put, json=[]).status_code == 401
        assert client.put(put, json=[], headers=bearer("wrong")).status_code == 403
        gone = f"{url}/v1/admin/catalog/items/{SHOP}/bedside-table"
        assert client.delete(gone).status_code == 401
        assert client.delete(gone, headers=bearer("wrong")).status_code == 403
        assert client.put(put, json={"not": "a list"}, headers=ALICE).status_code in (400, 422)


def test_delete_removes_the_item_and_an_unknown_one_is_404(url: str) -> None:
    with httpx.Client(timeout=60) as client:
        gone = f"{url}/v1/admin/catalog/items/{SHOP}/bedside-table"
        assert client.delete(gone, headers=ALICE).status_code == 200
        assert _card(client, url, f"{SHOP}:bedside-table") is None
        assert client.delete(gone, headers=ALICE).status_code == 404
        missing = client.delete(f"{url}/v1/admin/catalog/items/{SHOP}/nothing", headers=ALICE)
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "not_found"


@pytest.mark.slow
def test_two_serve_processes_both_see_a_change(settings: Settings, tmp_path: Path) -> None:
    common = {
        "REDIS_URL": LIVE_REDIS_URL,
        "PICKWISE_VAR_DIR": str(settings.var_dir.resolve()),
        "PICKWISE_DATA_DIR": str(settings.data_dir.resolve()),
        "HF_HUB_OFFLINE": "1",
    }
    envs = {"a": {**common, "ADMIN_TOKENS": ADMIN_TOKENS}, "b": common}
    item = f"{SHOP}:yellow-watering-can"
    can = stored(settings, "yellow-watering-can").model_dump(mode="json")
    with serving_workers(envs, workdir=tmp_path) as workers, httpx.Client(timeout=120) as client:
        a, b = workers["a"].url, workers["b"].url
        assert (_card(client, b, item) or {}).get("price") == 40.99
        put = client.put(f"{a}/v1/admin/catalog/items", json=[{**can, "price": 7.0}], headers=ALICE)
        assert put.status_code == 200, put.text
        assert (_card(client, a, item) or {}).get("price") == 7.0, "the acknowledging worker"
        assert _eventually(lambda: (_card(client, b, item) or {}).get("price") == 7.0)
        gone = client.delete(
            f"{a}/v1/admin/catalog/items/{SHOP}/yellow-watering-can", headers=ALICE
        )
        assert gone.status_code == 200
        assert _card(client, a, item) is None
        assert _eventually(lambda: _card(client, b, item) is None)


def _eventually(check: Any) -> bool:
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False
