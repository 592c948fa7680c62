"""`GET /v1/catalog/facets` and `GET /v1/items/{id}/similar` over real HTTP on loopback with
the real agent on the real index: facets match the index, similar items leave out the same
product and honour a session's plan, bad input is a documented 4xx."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.api.app import create_app
from app.config.params.api import FACETS_TOP
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api.live_server import live_server

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

MOUSE = "Agama m-300 USB Black Blister Retractable Mini Mouse for Notebook Great Portability"
TWIN = "Genius Agama m-300 Retractable Mini Mouse - Optical - USB - Black"


@pytest.fixture(scope="module")
def client(api_settings: Settings, shared_index: SearchIndex) -> Iterator[httpx.Client]:
    BREAKERS.reset()
    app = create_app(api_settings, runtime=Runtime(api_settings, index=shared_index))
    with live_server(app) as url, httpx.Client(base_url=url, timeout=120) as http:
        yield http
    BREAKERS.reset()


def item_id(index: SearchIndex, platform: str, title: str) -> str:
    [found] = [
        i.item_id for i in index.items.values() if (i.platform, i.title) == (platform, title)
    ]
    return found


def error_of(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


def test_facets_describe_the_indexed_catalog(
    client: httpx.Client, shared_index: SearchIndex
) -> None:
    response = client.get("/v1/catalog/facets")
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc["index_version"] == shared_index.version
    facets = doc["facets"]
    assert facets["items"] == shared_index.manifest.items
    assert {s["value"]: s["count"] for s in facets["shops"]} == shared_index.manifest.platforms
    assert facets["display_currency"] == "USD"
    assert [c["value"] for c in facets["currencies"]] == ["USD"]
    assert facets["has_ratings"] is False
    categories = facets["categories"]
    assert len(categories) == FACETS_TOP.get() < facets["categories_total"]
    counts = [c["count"] for c in categories]
    assert counts == sorted(counts, reverse=True)
    listed = sum(
        1 for i in shared_index.items.values() if i.known_category == categories[0]["value"]
    )
    assert counts[0] == listed
    for category in categories:
        prices = category["prices_usd"]
        if prices is not None:
            assert (
                prices["min"] <= prices["p25"] <= prices["median"] <= prices["p75"] <= prices["max"]
            )
    brands = [b["count"] for b in facets["brands"]]
    assert brands == sorted(brands, reverse=True)
    assert facets["brands_total"] > len(brands)

    top = client.get("/v1/catalog/facets", params={"top": 3}).json()["facets"]
    assert len(top["brands"]) == len(top["categories"]) == 3
    assert top["brands"] == facets["brands"][:3]
    for bad in ("0", "501", "many"):
        error = error_of(client.get("/v1/catalog/facets", params={"top": bad}), 422)
        assert error["code"] == "validation_error"


def test_similar_items_leave_out_the_item_and_its_twin(
    client: httpx.Client, shared_index: SearchIndex
) -> None:
    anchor = item_id(shared_index, "amazon", MOUSE)
    twin = item_id(shared_index, "walmart", TWIN)
    response = client.get(f"/v1/items/{anchor}/similar", params={"k": 5})
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc["item_id"] == anchor
    assert doc["category"] == "mice"
    ids = [i["item_id"] for i in doc["items"]]
    assert len(ids) == 5
    assert anchor not in ids
    assert twin not in ids
    assert doc["left_out"]["same_product"] >= 1
    assert all(i["category"] == "mice" for i in doc["items"])
    assert len(client.get(f"/v1/items/{anchor}/similar", params={"k": 1}).json()["items"]) == 1
    assert len(client.get(f"/v1/items/{anchor}/similar").json()["items"]) == 5


def test_a_session_plan_limits_the_similar_items(
    client: httpx.Client, shared_index: SearchIndex
) -> None:
    turn = client.post(
        "/v1/chat?stream=false", json={"message": "a mini mouse under $15, not logitech"}
    )
    assert turn.status_code == 200, turn.text
    sid, plan = turn.json()["session_id"], turn.json()["plan"]
    owner = {"X-Session-Token": turn.json()["session_token"]}
    assert plan["budget_usd"] == 15.0
    assert "logitech" in [c["term"] for c in plan["exclude"]]
    anchor = item_id(shared_index, "amazon", MOUSE)
    open_ = client.get(f"/v1/items/{anchor}/similar", params={"k": 20}).json()["items"]
    assert any((i["price_usd"] or 0) > 15 for i in open_), "the plan has something to remove"

    asked = {"k": 20, "session_id": sid}
    stranger = client.get(f"/v1/items/{anchor}/similar", params=asked)
    assert "no session" in error_of(stranger, 404)["message"], "only the owner's plan applies"
    doc = client.get(f"/v1/items/{anchor}/similar", params=asked, headers=owner).json()
    assert doc["items"]
    assert doc["limits"]["budget_usd"] == 15.0
    logitech = re.compile(r"(?<![0-9a-z])logitech(?![0-9a-z])", re.IGNORECASE)
    for item in doc["items"]:
        assert item["price_usd"] is not None
        assert item["price_usd"] <= 15.0
        assert not logitech.search(f"{item['title']} {item['brand'] or ''}")


def test_bad_requests_are_documented_4xx(client: httpx.Client, shared_index: SearchIndex) -> None:
    anchor = item_id(shared_index, "amazon", MOUSE)
    error = error_of(client.get("/v1/items/amazon:doesnotexist/similar"), 404)
    assert error["code"] == "not_found"
    assert "amazon:doesnotexist" in error["message"]
    for k in ("0", "21", "five"):
        assert error_of(client.get(f"/v1/items/{anchor}/similar", params={"k": k}), 422)
    assert error_of(client.get(f"/v1/items/{'x' * 81}/similar"), 422)
    missing = client.get(f"/v1/items/{anchor}/similar", params={"session_id": "nosuchsession1"})
    assert "no session" in error_of(missing, 404)["message"]
    bad = client.get(f"/v1/items/{anchor}/similar", params={"session_id": "bad id!"})
    assert error_of(bad, 422)["code"] == "validation_error"

    paths = client.get("/openapi.json").json()["paths"]
    similar = paths["/v1/items/{item_id}/similar"]["get"]["responses"]
    assert {"200", "400", "404", "422", "503"} <= set(similar)
    facets = paths["/v1/catalog/facets"]["get"]["responses"]
    assert {"200", "400", "422"} <= set(facets)
