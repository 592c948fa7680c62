"""Parameters of the agent: per-turn budgets of the loop, the planner's repair and window,
and the lifetime and size of session state."""

from app.config.registry import REGISTRY

__all__ = [
    "AGENT_MAX_ITERATIONS",
    "AGENT_MAX_SEARCHES_PER_TURN",
    "AGENT_MAX_TOOL_CALLS_PER_STEP",
    "AGENT_MESSAGE_MAX_CHARS",
    "AGENT_TOOL_RESULT_MAX_CHARS",
    "PLANNER_LLM_REPAIRS",
    "SESSION_MAX_MESSAGES",
    "SESSION_MEMORY_MAX",
    "SESSION_PLANNER_MESSAGES",
    "SESSION_SQLITE_MAX",
    "SESSION_TTL_S",
]

AGENT_MAX_ITERATIONS = REGISTRY.declare(
    "AGENT_MAX_ITERATIONS",
    int,
    6,
    group="agent",
    minimum=1,
    maximum=50,
    description="Model calls per turn; past it the turn ends with a summary of the picks.",
)
AGENT_MAX_SEARCHES_PER_TURN = REGISTRY.declare(
    "AGENT_MAX_SEARCHES_PER_TURN",
    int,
    4,
    group="agent",
    minimum=1,
    maximum=20,
    description="item_search calls per turn; further ones get a 'search_limit' tool error.",
)
AGENT_MAX_TOOL_CALLS_PER_STEP = REGISTRY.declare(
    "AGENT_MAX_TOOL_CALLS_PER_STEP",
    int,
    8,
    group="agent",
    minimum=1,
    maximum=32,
    description="Tool calls run from one model reply; the rest get a 'too_many_calls' error.",
)
AGENT_TOOL_RESULT_MAX_CHARS = REGISTRY.declare(
    "AGENT_TOOL_RESULT_MAX_CHARS",
    int,
    6000,
    group="agent",
    minimum=200,
    maximum=100_000,
    description="Characters of one tool result the model reads; the rest is cut with a mark.",
)
AGENT_MESSAGE_MAX_CHARS = REGISTRY.declare(
    "AGENT_MESSAGE_MAX_CHARS",
    int,
    4000,
    group="agent",
    minimum=1,
    maximum=100_000,
    description="Longest shopper message a turn accepts.",
)
PLANNER_LLM_REPAIRS = REGISTRY.declare(
    "PLANNER_LLM_REPAIRS",
    int,
    1,
    group="agent",
    minimum=0,
    maximum=3,
    description="Retries of the LLM planner with the validation error before the rules take over.",
)
SESSION_PLANNER_MESSAGES = REGISTRY.declare(
    "SESSION_PLANNER_MESSAGES",
    int,
    6,
    group="agent",
    minimum=1,
    maximum=50,
    description="Recent user messages the plan is rebuilt from each turn.",
)
SESSION_MAX_MESSAGES = REGISTRY.declare(
    "SESSION_MAX_MESSAGES",
    int,
    20,
    group="agent",
    minimum=2,
    maximum=500,
    description="User and assistant messages of earlier turns kept for the LLM (oldest go first).",
)
SESSION_TTL_S = REGISTRY.declare(
    "SESSION_TTL_S",
    int,
    86_400,
    group="agent",
    minimum=1,
    maximum=30 * 86_400,
    description="Seconds a session lives after its last turn.",
)
SESSION_MEMORY_MAX = REGISTRY.declare(
    "SESSION_MEMORY_MAX",
    int,
    10_000,
    group="agent",
    minimum=1,
    maximum=10_000_000,
    description="Sessions kept by the in-process store (no REDIS_URL); oldest saves go first.",
)
SESSION_SQLITE_MAX = REGISTRY.declare(
    "SESSION_SQLITE_MAX",
    int,
    100_000,
    group="agent",
    minimum=1,
    maximum=100_000_000,
    description="Sessions kept by the embedded SQLite store under var/ (no REDIS_URL); past it "
    "the least recently saved go first (checked every 64 saves).",
)
