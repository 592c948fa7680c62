"""Parameters of price_compare: the same-product threshold and how far it looks for offers."""

from app.config.registry import REGISTRY

__all__ = [
    "COMPARE_DEFAULT_ITEMS",
    "COMPARE_DENSE_CANDIDATES",
    "COMPARE_LEXICAL_CANDIDATES",
    "COMPARE_MATCH_THRESHOLD",
    "COMPARE_MAX_CODE_HITS",
    "COMPARE_MAX_ITEMS",
    "COMPARE_MAX_OFFERS",
    "SIMILAR_FETCH_FACTOR",
]

COMPARE_MATCH_THRESHOLD = REGISTRY.declare(
    "COMPARE_MATCH_THRESHOLD",
    float,
    0.33,
    group="compare",
    minimum=0.05,
    maximum=0.99,
    description="Matcher probability from which two offers count as one product (fitted on the "
    "ditto valid splits; raise it for fewer, surer matches).",
)
COMPARE_DEFAULT_ITEMS = REGISTRY.declare(
    "COMPARE_DEFAULT_ITEMS",
    int,
    5,
    group="compare",
    minimum=1,
    maximum=50,
    description="Candidates of the slot compared when the caller names no item ids.",
)
COMPARE_MAX_ITEMS = REGISTRY.declare(
    "COMPARE_MAX_ITEMS",
    int,
    20,
    group="compare",
    minimum=1,
    maximum=100,
    description="Most items one price_compare call may compare.",
)
COMPARE_MAX_OFFERS = REGISTRY.declare(
    "COMPARE_MAX_OFFERS",
    int,
    5,
    group="compare",
    minimum=1,
    maximum=50,
    description="Most offers listed per compared item, most probable matches first.",
)
COMPARE_LEXICAL_CANDIDATES = REGISTRY.declare(
    "COMPARE_LEXICAL_CANDIDATES",
    int,
    30,
    group="compare",
    minimum=0,
    maximum=500,
    description="BM25 hits on the item's title, from the other platforms, that the matcher scores.",
)
COMPARE_DENSE_CANDIDATES = REGISTRY.declare(
    "COMPARE_DENSE_CANDIDATES",
    int,
    10,
    group="compare",
    minimum=0,
    maximum=500,
    description="Nearest stored vectors, from the other platforms, that the matcher scores.",
)
COMPARE_MAX_CODE_HITS = REGISTRY.declare(
    "COMPARE_MAX_CODE_HITS",
    int,
    50,
    group="compare",
    minimum=0,
    maximum=1000,
    description="Items sharing a model number or EAN with the compared item that get scored.",
)
SIMILAR_FETCH_FACTOR = REGISTRY.declare(
    "SIMILAR_FETCH_FACTOR",
    int,
    4,
    group="compare",
    minimum=1,
    maximum=50,
    description="Neighbours similar_items asks the vector store for per item wanted (plus 8): "
    "room for the listings of the same product and the plan's exclusions it drops after the "
    "store; a round that keeps too few asks this many times more again.",
)
