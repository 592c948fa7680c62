"""Admin tokens: parsed into labels and digests only, checked in constant time; with no
token configured the admin routes do not exist while overrides are still followed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from fastapi import FastAPI
from pydantic import SecretStr

from app.api import metrics, routes_admin
from app.api._auth import AdminAuth
from app.api.errors import install_error_handlers
from app.config.settings import Settings
from app.errors import AuthError, ConfigError
from tests.admin.conftest import ALICE_TOKEN, BARE_TOKEN, bearer
from tests.api.conftest import serving


def test_tokens_are_kept_as_labels_and_digests_only() -> None:
    auth = AdminAuth.from_secret(SecretStr(f" alice:{ALICE_TOKEN} , {BARE_TOKEN},, "))
    assert auth.identify(f"Bearer {ALICE_TOKEN}") == "alice"
    assert auth.identify(f"bearer  {BARE_TOKEN} ").startswith("token-")
    kept = repr(vars(auth))
    assert ALICE_TOKEN not in kept
    assert BARE_TOKEN not in kept
    assert ALICE_TOKEN.encode() not in b"".join(t.digest for t in auth._tokens)


@pytest.mark.parametrize(
    ("header", "status"),
    [(None, 401), ("", 401), (f"Token {ALICE_TOKEN}", 401), ("Bearer", 401), ("Bearer x", 403)],
)
def test_a_missing_token_is_401_and_a_wrong_one_403(header: str | None, status: int) -> None:
    auth = AdminAuth.from_secret(SecretStr(f"alice:{ALICE_TOKEN}"))
    with pytest.raises(AuthError) as caught:
        auth.identify(header)
    assert caught.value.status == status


def test_no_tokens_turn_the_admin_api_off_and_duplicates_are_refused() -> None:
    assert not AdminAuth.from_secret(None).enabled
    assert not AdminAuth.from_secret(SecretStr(" , ")).enabled
    with pytest.raises(ConfigError, match="twice"):
        AdminAuth.from_secret(SecretStr("a:one,a:two"))


@pytest_asyncio.fixture
async def tokenless(tmp_path: Path, restored_registry: None) -> AsyncIterator[httpx.AsyncClient]:
    """An app with the admin wiring and metrics but no ADMIN_TOKENS (SQLite store)."""
    app = FastAPI()
    install_error_handlers(app)
    routes_admin.install(app, Settings(var_dir=tmp_path, redis_url=None, admin_tokens=None))
    metrics.install(app)
    async with serving(app) as client:
        yield client


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/admin/params"),
        ("PUT", "/v1/admin/params"),
        ("POST", "/v1/admin/params/reset"),
        ("GET", "/v1/admin/audit"),
    ],
)
async def test_without_tokens_the_admin_routes_are_404(
    tokenless: httpx.AsyncClient, method: str, path: str
) -> None:
    for headers in ({}, bearer(ALICE_TOKEN)):
        response = await tokenless.request(method, path, json={"values": {}}, headers=headers)
        assert response.status_code == 404
    assert (await tokenless.get("/metrics")).status_code == 200
