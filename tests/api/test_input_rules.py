"""The input rules over real HTTP (uvicorn on loopback, a scripted agent, no Redis): text
that is not valid Unicode anywhere in a JSON body is 422, a number out of any representable
range is 400 naming the key, neither is ever a 500 or an internal error text, and no
credential (admin or session token, in the query string or a header) reaches a log line,
uvicorn's access log included."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import pytest
from pydantic import SecretStr

from app.api.app import create_app
from app.config.settings import Settings
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api import scripted_agent as script
from tests.api.live_server import live_server

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

ADMIN_TOKEN = "adm-7f3c2a91e4d0b6"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
JSON = {"content-type": "application/json"}
_CAPTURED = ("", "uvicorn.access", "uvicorn.error")


class Lines(logging.Handler):
    """Every log line the process writes while installed, formatted."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture(scope="module")
def served(no_redis: Settings, shared_index: SearchIndex) -> Iterator[tuple[str, Lines]]:
    settings = no_redis.model_copy(update={"admin_tokens": SecretStr(f"ops:{ADMIN_TOKEN}")})
    app = create_app(
        settings, agent=script.ScriptedAgent(), runtime=Runtime(settings, index=shared_index)
    )
    lines = Lines()
    with live_server(app, log_level="info") as url:
        for name in _CAPTURED:
            logging.getLogger(name).addHandler(lines)
        try:
            yield url, lines
        finally:
            for name in _CAPTURED:
                logging.getLogger(name).removeHandler(lines)


@pytest.fixture
def client(served: tuple[str, Lines]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served[0], timeout=60) as c:
        yield c


def assert_clean(response: httpx.Response, status: int) -> None:
    assert response.status_code == status, response.text
    assert "Traceback" not in response.text
    assert "internal" not in response.text


@pytest.mark.parametrize(
    ("method", "path", "body", "where"),
    [
        ("POST", "/v1/chat", b'{"message": "\\udfff"}', "body.message"),
        ("POST", "/v1/chat", b'{"message": "usb \\ud800 hub"}', "body.message"),
        ("POST", "/v1/chat", b'{"message": "hi", "session_id": "\\udc00"}', "body.session_id"),
        ("POST", "/v1/chat", b'{"message": "\xed\xbf\xbf"}', "body"),
        ("POST", "/v1/chat", b'{"message": "\xff"}', "body"),
        ("PATCH", "/v1/sessions/abcdefgh/plan", b'{"drop_exclude": ["\\udfff"]}', "body"),
        ("PUT", "/v1/admin/params", b'{"values": {"X": {"\\udfff": 1}}}', "body.values.X"),
    ],
)
def test_text_that_is_not_unicode_is_422(
    client: httpx.Client, method: str, path: str, body: bytes, where: str
) -> None:
    response = client.request(method, path, content=body, headers={**JSON, **ADMIN})
    assert_clean(response, 422)
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert error["message"].startswith(where)
    assert "Unicode" in error["message"] or "UTF-8" in error["message"]


def test_a_surrogate_pair_is_ordinary_text(client: httpx.Client) -> None:
    response = client.post(
        "/v1/chat?stream=false", content=b'{"message": "\\ud83d\\ude00 usb hub"}', headers=JSON
    )
    assert response.status_code == 200, response.text
    assert response.json()["answer"] == "Here is \U0001f600 usb hub."


@pytest.mark.parametrize(
    ("key", "raw"),
    [
        ("SSE_KEEPALIVE_S", "1" + "0" * 400),
        ("SSE_KEEPALIVE_S", "-1" + "0" * 400),
        ("SSE_KEEPALIVE_S", "1e400"),
        ("API_MAX_TURNS_IN_FLIGHT", "1" + "0" * 400),
        ("API_MAX_TURNS_IN_FLIGHT", "1" + "0" * 30),
        ("API_MAX_TURNS_IN_FLIGHT", "1e400"),
    ],
)
def test_a_number_out_of_range_is_400_naming_the_key(
    client: httpx.Client, key: str, raw: str
) -> None:
    body = f'{{"values": {{"{key}": {raw}}}}}'.encode()
    response = client.put("/v1/admin/params", content=body, headers={**JSON, **ADMIN})
    assert_clean(response, 400)
    error = response.json()["error"]
    assert (error["code"], error["key"]) == ("invalid_param", key)
    assert key in error["message"]
    assert len(error["message"]) < 200


def test_a_number_too_long_to_read_is_a_4xx(client: httpx.Client) -> None:
    body = b'{"values": {"SSE_KEEPALIVE_S": 1' + b"0" * 5000 + b"}}"
    response = client.put("/v1/admin/params", content=body, headers={**JSON, **ADMIN})
    assert 400 <= response.status_code < 500
    assert "Traceback" not in response.text


def test_no_token_reaches_a_log_line(client: httpx.Client, served: tuple[str, Lines]) -> None:
    lines = served[1]
    first = client.post("/v1/chat?stream=false", json={"message": "usb hub"})
    sid, token = first.json()["session_id"], first.json()["session_token"]
    client.post(
        "/v1/chat",
        json={"session_id": sid, "message": "cheaper"},
        headers={"X-Session-Token": token},
    )
    client.get(f"/v1/sessions/{sid}?session_token={token}")
    client.get(f"/v1/sessions/{sid}", headers={"X-Session-Token": token})
    client.get(f"/v1/admin/params?token={ADMIN_TOKEN}")
    client.get(f"/v1/admin/params?x=1&access_token={ADMIN_TOKEN}", headers=ADMIN)
    client.put("/v1/admin/params", json={"values": {"SSE_KEEPALIVE_S": "x"}}, headers=ADMIN)
    logged = "\n".join(lines.lines)
    assert "/v1/admin/params?token=***" in logged, "the access log was not captured"
    assert "access_token=***" in logged
    assert f"session_token={token}" not in logged
    assert token not in logged
    assert ADMIN_TOKEN not in logged
