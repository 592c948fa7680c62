"""Parameters of the rule planner: how it reads budgets and how much text it keeps."""

from app.config.registry import REGISTRY

__all__ = [
    "PLANNER_AROUND_SLACK",
    "PLANNER_MAX_KEYWORDS",
    "PLANNER_MAX_MESSAGE_CHARS",
    "PLANNER_MAX_PHRASE_WORDS",
    "PLANNER_SIZE_STEP",
    "PLANNER_SPELL_MIN_ENGLISH_COUNT",
    "PLANNER_SPELL_MIN_LENGTH",
    "PLANNER_SPELL_MIN_TITLES",
]

PLANNER_AROUND_SLACK = REGISTRY.declare(
    "PLANNER_AROUND_SLACK",
    float,
    0.10,
    group="planner",
    minimum=0.0,
    maximum=0.5,
    description="Headroom added to an approximate budget ('around $100' caps at 110 with 0.10).",
)
PLANNER_SIZE_STEP = REGISTRY.declare(
    "PLANNER_SIZE_STEP",
    float,
    0.05,
    group="planner",
    minimum=0.0,
    maximum=0.5,
    description="How much larger (or smaller) 'something bigger' asks beside the first pick's "
    "screen, besides a whole inch: 0.05 reads a 21.5-inch monitor as at least 23 inch, a "
    "22-inch one being the same size class.",
)
PLANNER_MAX_KEYWORDS = REGISTRY.declare(
    "PLANNER_MAX_KEYWORDS",
    int,
    12,
    group="planner",
    minimum=1,
    maximum=50,
    description="Most keywords the rule planner keeps in a plan.",
)
PLANNER_MAX_PHRASE_WORDS = REGISTRY.declare(
    "PLANNER_MAX_PHRASE_WORDS",
    int,
    4,
    group="planner",
    minimum=1,
    maximum=8,
    description="Most words in one excluded, avoided, preferred or required phrase.",
)
PLANNER_MAX_MESSAGE_CHARS = REGISTRY.declare(
    "PLANNER_MAX_MESSAGE_CHARS",
    int,
    2000,
    group="planner",
    minimum=100,
    maximum=20_000,
    description="Characters of each user message the rule planner reads; the rest is ignored.",
)
PLANNER_SPELL_MIN_LENGTH = REGISTRY.declare(
    "PLANNER_SPELL_MIN_LENGTH",
    int,
    6,
    group="planner",
    minimum=3,
    maximum=30,
    description="Shortest unknown word the planner reads as a catalog word one edit away "
    "('hedphones' -> 'headphones'); shorter words are left as written.",
)
PLANNER_SPELL_MIN_TITLES = REGISTRY.declare(
    "PLANNER_SPELL_MIN_TITLES",
    int,
    3,
    group="planner",
    minimum=1,
    maximum=1000,
    description="Uses in catalog titles a word needs before a misspelling is read as it.",
)
PLANNER_SPELL_MIN_ENGLISH_COUNT = REGISTRY.declare(
    "PLANNER_SPELL_MIN_ENGLISH_COUNT",
    int,
    10_000,
    group="planner",
    minimum=1,
    maximum=100_000_000,
    description="Count in pyspellchecker's English corpus a word needs before a misspelling "
    "no catalog word fits is read as it ('somthing' -> 'something').",
)
