"""What the routes share, set up by the lifespan: the settings, the opened runtime, the agent
and the session store it keeps its sessions in."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from app.agent.events import ChatAgent
from app.agent.session import SessionStore
from app.config.settings import Settings
from app.errors import ConfigError
from app.runtime import Runtime


@dataclass
class ApiState:
    """The long-lived objects of one app instance."""

    settings: Settings
    agent: ChatAgent
    sessions: SessionStore | None
    runtime: Runtime


def api_state(request: Request) -> ApiState:
    """The state the lifespan stored on the app; a ConfigError when it never ran."""
    state = getattr(request.app.state, "api", None)
    if not isinstance(state, ApiState):
        raise ConfigError("the API was not started through its lifespan")
    return state
