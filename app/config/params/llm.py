"""Parameters of the OpenAI-compatible LLM: model names, temperatures, timeout and key.

The endpoint itself is a setting (`OPENAI_BASE_URL`); with none, Pickwise runs offline."""

from app.config.registry import REGISTRY

__all__ = [
    "LLM_API_KEY",
    "LLM_HANG_OPENS_BREAKERS",
    "LLM_MAX_TOKENS",
    "LLM_MODEL",
    "LLM_PLANNER_MODEL",
    "LLM_PLANNER_TEMPERATURE",
    "LLM_TEMPERATURE",
    "LLM_TIMEOUT_S",
    "LLM_TURN_DEADLINE_S",
]

LLM_MODEL = REGISTRY.declare(
    "LLM_MODEL",
    str,
    "gpt-4o-mini",
    group="llm",
    description="Model of the agent loop, the shopping summary and chat fallback answers.",
)
LLM_PLANNER_MODEL = REGISTRY.declare(
    "LLM_PLANNER_MODEL",
    str,
    "",
    group="llm",
    description="Model of the planner's structured-output call; empty: LLM_MODEL.",
)
LLM_TEMPERATURE = REGISTRY.declare(
    "LLM_TEMPERATURE",
    float,
    0.2,
    group="llm",
    minimum=0.0,
    maximum=2.0,
    description="Sampling temperature of the agent loop and of written answers.",
)
LLM_PLANNER_TEMPERATURE = REGISTRY.declare(
    "LLM_PLANNER_TEMPERATURE",
    float,
    0.0,
    group="llm",
    minimum=0.0,
    maximum=2.0,
    description="Sampling temperature of the planner (0: as repeatable as the model allows).",
)
LLM_TIMEOUT_S = REGISTRY.declare(
    "LLM_TIMEOUT_S",
    float,
    30.0,
    group="llm",
    minimum=0.1,
    maximum=600.0,
    description="Timeout of one completion request; its role's breaker (llm_planner, "
    "llm_agent) counts a timeout. The turn's LLM_TURN_DEADLINE_S may cut it shorter.",
)
LLM_TURN_DEADLINE_S = REGISTRY.declare(
    "LLM_TURN_DEADLINE_S",
    float,
    20.0,
    group="llm",
    minimum=0.1,
    maximum=600.0,
    description="Seconds all model calls of one turn may take together; each call's timeout "
    "is clamped to what is left, and after it the turn completes with the rules.",
)
LLM_HANG_OPENS_BREAKERS = REGISTRY.declare(
    "LLM_HANG_OPENS_BREAKERS",
    bool,
    True,
    group="llm",
    description="A model call that waited at least half of LLM_TURN_DEADLINE_S and was cut "
    "by it opens the breakers of its role and of the roles the turn still needed at once "
    "(until their half-open trial); false: each such turn counts one failure per role.",
)
LLM_MAX_TOKENS = REGISTRY.declare(
    "LLM_MAX_TOKENS",
    int,
    1024,
    group="llm",
    minimum=16,
    maximum=32_768,
    description="Most tokens one completion may generate.",
)
LLM_API_KEY = REGISTRY.declare(
    "LLM_API_KEY",
    str,
    "",
    group="llm",
    secret=True,
    env_aliases=("OPENAI_API_KEY",),
    description="API key of the LLM endpoint; local servers usually need none.",
)
