"""Schemathesis against the app's own OpenAPI document, over real HTTP on loopback, with the
admin header and the real agent: no 5xx, and every status, header and body as documented.
Bounded: a few examples per operation, no shrinking; sessions and overrides on a private
redis-server so nothing shared is written."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import schemathesis
from pydantic import SecretStr
from schemathesis import Case
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.api.app import create_app
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api.live_server import live_server
from tests.redis_process import free_port, start_redis, stop_redis

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

ADMIN_TOKEN = "fuzz-admin-token-0123456789"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES = 12
"""Per operation; a valid chat example runs a whole turn of the real agent."""


@pytest.fixture(scope="module")
def served_api(
    built_index: Settings, shared_index: SearchIndex
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The production app with an admin token, on its own Redis; its URL and document."""
    port = free_port()
    redis = start_redis(port)
    settings = built_index.model_copy(
        update={
            "redis_url": f"redis://127.0.0.1:{port}/0",
            "openai_base_url": None,
            "admin_tokens": SecretStr(ADMIN_TOKEN),
        }
    )
    BREAKERS.reset()
    app = create_app(settings, runtime=Runtime(settings, index=shared_index))
    try:
        with live_server(app) as base:
            yield base, app.openapi()
    finally:
        stop_redis(redis)
        BREAKERS.reset()


def test_every_answer_is_documented_and_none_is_a_5xx(
    served_api: tuple[str, dict[str, Any]],
) -> None:
    base, document = served_api
    schema = schemathesis.openapi.from_dict(document)
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    results = list(schema.get_all_operations())
    assert all(isinstance(r, Ok) for r in results), [r for r in results if not isinstance(r, Ok)]
    operations = [r.ok() for r in results if isinstance(r, Ok)]
    assert {f"{op.method.upper()} {op.path}" for op in operations} >= {
        "POST /v1/chat",
        "GET /v1/sessions/{session_id}",
        "GET /healthz",
        "PUT /v1/admin/params",
    }
    for operation in operations:

        @hypothesis.given(case=operation.as_strategy())
        @hypothesis.settings(
            max_examples=EXAMPLES,
            deadline=None,
            phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
            suppress_health_check=list(hypothesis.HealthCheck),
            database=None,
        )
        def answers_as_documented(case: Case) -> None:
            case.call_and_validate(base_url=base, headers=headers, checks=CHECKS, timeout=120)

        answers_as_documented()
