"""`PATCH /v1/sessions/{id}/plan` and `GET /v1/cards` with the real agent on the real index:
an edit re-runs the search on the edited plan and holds on the next turn; bad edits are
4xx; cards carry catalog fields and offers elsewhere; the page and its files are served."""

from __future__ import annotations

import tomllib
from collections.abc import AsyncIterator
from fnmatch import fnmatch
from typing import Any

import httpx
import pytest
import pytest_asyncio

from app.api.app import create_app
from app.api.routes_page import STATIC_DIR
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api.conftest import serving
from tests.api.owner import SessionTokens
from tests.api.sse import parse_sse
from tests.conftest import REPO

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(600),
    pytest.mark.asyncio(loop_scope="module"),
]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(
    api_settings: Settings, shared_index: SearchIndex
) -> AsyncIterator[httpx.AsyncClient]:
    BREAKERS.reset()
    app = create_app(api_settings, runtime=Runtime(api_settings, index=shared_index))
    async with serving(app) as c:
        yield SessionTokens().install(c)  # the owner's token goes along, as on the page
    BREAKERS.reset()


async def turn(client: httpx.AsyncClient, message: str, sid: str | None = None) -> dict[str, Any]:
    body = {"message": message, **({"session_id": sid} if sid else {})}
    response = await client.post("/v1/chat?stream=false", json=body)
    assert response.status_code == 200, response.text
    doc: dict[str, Any] = response.json()
    return doc


async def test_an_edit_reruns_the_search_and_holds(client: httpx.AsyncClient) -> None:
    first = await turn(client, "wireless headphones under $40, not refurbished")
    sid = first["session_id"]
    assert first["plan"]["budget_usd"] == 40.0
    response = await client.patch(f"/v1/sessions/{sid}/plan", json={"budget_usd": None})
    assert response.status_code == 200, response.text
    events = parse_sse(response.text)
    kinds = [e.event for e in events]
    assert (kinds[0], kinds[1], kinds[-1]) == ("session", "plan", "done")
    assert events[0].data["session_id"] == sid
    assert "budget: none" in events[0].data["data"]["edit"]
    done = events[-1].data["data"]
    assert done["plan"]["budget_usd"] is None
    assert [c["term"] for c in done["plan"]["exclude"]] == ["refurbished"]
    assert "item_search" in [e.data["data"]["tool"] for e in events if e.event == "tool_end"]
    assert done["picks"]
    assert {p["item_id"] for p in done["picks"]} != {p["item_id"] for p in first["picks"]}
    slotted = [item_id for ids in done["slots"].values() for item_id in ids]
    assert slotted == [p["item_id"] for p in done["picks"]]

    view = (await client.get(f"/v1/sessions/{sid}")).json()
    assert view["plan"]["budget_usd"] is None
    assert view["picks"] == done["picks"]

    later = await turn(client, "which one is best?", sid)
    assert later["plan"]["budget_usd"] is None
    again = await turn(client, "under $25 then", sid)
    assert again["plan"]["budget_usd"] == 25.0


async def test_dropping_an_exclusion_without_streaming(client: httpx.AsyncClient) -> None:
    first = await turn(client, "a usb hub, not anker")
    sid = first["session_id"]
    response = await client.patch(
        f"/v1/sessions/{sid}/plan?stream=false", json={"drop_exclude": ["anker"]}
    )
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc["session_id"] == sid
    assert doc["plan"]["exclude"] == []
    assert doc["picks"]


async def test_in_stock_only_is_an_edit_and_cleared_by_one(client: httpx.AsyncClient) -> None:
    sid = (await turn(client, "a gaming mouse under $50"))["session_id"]
    url = f"/v1/sessions/{sid}/plan?stream=false"
    stocked = await client.patch(url, json={"in_stock": True})
    assert stocked.status_code == 200, stocked.text
    doc = stocked.json()
    assert doc["plan"]["in_stock"] is True
    assert doc["plan"]["budget_usd"] == 50.0
    assert all(p["availability"] in ("in_stock", "unknown") for p in doc["picks"])
    assert (await turn(client, "which is lightest?", sid))["plan"]["in_stock"] is True
    cleared = await client.patch(url, json={"in_stock": None})
    assert cleared.status_code == 200, cleared.text
    assert cleared.json()["plan"]["in_stock"] is False


async def test_edits_in_a_row_each_hold(client: httpx.AsyncClient) -> None:
    """Each edit is stored and read back between turns, and the planner starts from the plan
    the earlier edits made: every later edit changes its field and leaves the rest."""
    sid = (await turn(client, "sony headphones"))["session_id"]
    url = f"/v1/sessions/{sid}/plan?stream=false"
    steps: list[tuple[dict[str, Any], tuple[Any, ...]]] = [
        ({"platforms": ["amazon"]}, (None, None, ["amazon"], False)),
        ({"budget_min_usd": 20, "budget_usd": 100}, (100.0, 20.0, ["amazon"], False)),
        ({"budget_min_usd": None}, (100.0, None, ["amazon"], False)),
        ({"in_stock": True}, (100.0, None, ["amazon"], True)),
        ({"in_stock": None}, (100.0, None, ["amazon"], False)),
    ]
    for body, expected in steps:
        response = await client.patch(url, json=body)
        assert response.status_code == 200, response.text
        plan = response.json()["plan"]
        got = tuple(plan[k] for k in ("budget_usd", "budget_min_usd", "platforms", "in_stock"))
        assert got == expected, body


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({}, 422),
        ({"budget_usd": -1}, 422),
        ({"in_stock": "yes please"}, 422),
        ({"category": "tv"}, 422),
        ({"drop_must_have": ["no such term"]}, 400),
    ],
)
async def test_bad_edits_are_4xx(
    client: httpx.AsyncClient, body: dict[str, Any], status: int
) -> None:
    sid = (await turn(client, "a gaming mouse under $50"))["session_id"]
    response = await client.patch(f"/v1/sessions/{sid}/plan?stream=false", json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["message"]


async def test_an_unknown_session_is_404(client: httpx.AsyncClient) -> None:
    response = await client.patch("/v1/sessions/nosuchsession123/plan", json={"budget_usd": 9})
    assert response.status_code == 404
    bad = await client.patch("/v1/sessions/bad id!/plan", json={"budget_usd": 9})
    assert bad.status_code == 422


async def test_cards_carry_catalog_fields_and_offers(client: httpx.AsyncClient) -> None:
    picks = (await turn(client, "a 4k monitor under $400"))["picks"]
    ids = [p["item_id"] for p in picks]
    response = await client.get("/v1/cards", params={"ids": [*ids, "amazon:nosuchitem"]})
    assert response.status_code == 200, response.text
    doc = response.json()
    assert [c["item_id"] for c in doc["cards"]] == ids
    assert doc["unknown"] == ["amazon:nosuchitem"]
    for card, pick in zip(doc["cards"], picks, strict=True):
        assert (card["title"], card["platform"]) == (pick["title"], pick["platform"])
        assert "description" not in card
        assert isinstance(card["offers"], list)
        assert all(o["item_id"] != card["item_id"] for o in card["offers"])
    plain = (await client.get("/v1/cards", params={"ids": ids[:1], "offers": "false"})).json()
    assert "offers" not in plain["cards"][0]


async def test_bad_card_requests_are_4xx(client: httpx.AsyncClient) -> None:
    assert (await client.get("/v1/cards")).status_code == 422
    many = [f"amazon:{n}" for n in range(200)]
    assert (await client.get("/v1/cards", params={"ids": many})).status_code == 400


async def test_the_page_and_its_files_are_served(client: httpx.AsyncClient) -> None:
    page = await client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert '<script type="module" src="/static/js/app.js">' in page.text
    script = await client.get("/static/js/app.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]
    assert (await client.get("/static/../routes_page.py")).status_code == 404


async def test_every_page_file_is_package_data() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["app.api"]
    files = [p.relative_to(STATIC_DIR.parent).as_posix() for p in STATIC_DIR.rglob("*.*")]
    assert files
    missing = [f for f in files if not any(fnmatch(f, pattern) for pattern in patterns)]
    assert missing == []
