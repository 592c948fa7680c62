"""Parameters of the item_search tool: the relevance floor, result and probe sizes, and
when a thin result triggers a relaxed search or query expansion."""

from app.config.registry import REGISTRY

__all__ = [
    "ITEM_SEARCH_EXPANSION_MAX_VARIANTS",
    "ITEM_SEARCH_FILTERED_OUT_CAP",
    "ITEM_SEARCH_MIN_HITS",
    "ITEM_SEARCH_NAMED_FIRST_WINDOW",
    "ITEM_SEARCH_NEAR_PRICE_FLOOR",
    "ITEM_SEARCH_POOL",
    "ITEM_SEARCH_PROBE_LIMIT",
    "ITEM_SEARCH_RELEVANCE_WEIGHT",
    "ITEM_SEARCH_RELEVANCE_WINDOW",
    "ITEM_SEARCH_RENDER_CAP",
    "ITEM_SEARCH_SHEET_LIMIT",
    "ITEM_SEARCH_SHELF_LIMIT",
    "ITEM_VECTOR_MEMO_SIZE",
    "RELEVANCE_FLOOR",
    "RELEVANCE_FLOOR_FOUND",
    "RELEVANCE_FLOOR_LEXICAL",
]

RELEVANCE_FLOOR = REGISTRY.declare(
    "RELEVANCE_FLOOR",
    float,
    0.5,
    group="item_search",
    minimum=-1.0,
    maximum=1.0,
    description="Cosine (query vs item vector) a hit needs to count as relevant on meaning "
    "alone; tuned on the Icecat dev judgments so gibberish queries return nothing.",
)
RELEVANCE_FLOOR_LEXICAL = REGISTRY.declare(
    "RELEVANCE_FLOOR_LEXICAL",
    float,
    0.15,
    group="item_search",
    minimum=-1.0,
    maximum=1.0,
    description="Cosine a hit that the lexical source (BM25) also matched needs to count as "
    "relevant; lower than RELEVANCE_FLOOR because the shared words are evidence too.",
)
RELEVANCE_FLOOR_FOUND = REGISTRY.declare(
    "RELEVANCE_FLOOR_FOUND",
    float,
    -1.0,
    group="item_search",
    minimum=-1.0,
    maximum=1.0,
    description="Cosine every hit needs once some hit of the same recall passes the floors "
    "above: they have then told a search that found something from gibberish, and dense hits "
    "below them are often relevant (extended judgments: -1, the default, keeps them all). "
    "Never stricter than the other floors (1 leaves them whole). The widening, refocus and "
    "probe decisions read only the hits that pass the whole floor (`on_topic`).",
)
ITEM_SEARCH_POOL = REGISTRY.declare(
    "ITEM_SEARCH_POOL",
    int,
    50,
    group="item_search",
    minimum=1,
    maximum=1000,
    description="Fused hits item_search takes from each recall before its post-filters "
    "(at least the top_k asked).",
)
ITEM_SEARCH_RENDER_CAP = REGISTRY.declare(
    "ITEM_SEARCH_RENDER_CAP",
    int,
    8,
    group="item_search",
    minimum=1,
    maximum=100,
    description="Hits shown to the model in the text rendering; every kept hit is still "
    "registered as a candidate for later tools.",
)
ITEM_SEARCH_PROBE_LIMIT = REGISTRY.declare(
    "ITEM_SEARCH_PROBE_LIMIT",
    int,
    8,
    group="item_search",
    minimum=1,
    maximum=100,
    description="Hits of the probe recall without hard filters, run to explain a short result.",
)
ITEM_SEARCH_FILTERED_OUT_CAP = REGISTRY.declare(
    "ITEM_SEARCH_FILTERED_OUT_CAP",
    int,
    5,
    group="item_search",
    minimum=0,
    maximum=50,
    description="Blocked items listed with their reason in a result.",
)
ITEM_SEARCH_EXPANSION_MAX_VARIANTS = REGISTRY.declare(
    "ITEM_SEARCH_EXPANSION_MAX_VARIANTS",
    int,
    3,
    group="item_search",
    minimum=0,
    maximum=10,
    description="Rewritten queries (no LLM) recalled when a search stays too thin.",
)
ITEM_SEARCH_MIN_HITS = REGISTRY.declare(
    "ITEM_SEARCH_MIN_HITS",
    int,
    3,
    group="item_search",
    minimum=1,
    maximum=100,
    description="Fewer kept hits than this triggers the relaxed search (min_rating dropped) "
    "and then query expansion.",
)
ITEM_SEARCH_NEAR_PRICE_FLOOR = REGISTRY.declare(
    "ITEM_SEARCH_NEAR_PRICE_FLOOR",
    float,
    0.7,
    group="item_search",
    minimum=0.0,
    maximum=1.0,
    description="A price said as approximate ('a laptop around $1500') is also searched from "
    "this share of it up (from $1,050): the hits there that name the product go first, then "
    "the search at any price under the budget. A preference, never a block; 0 turns it off.",
)
ITEM_VECTOR_MEMO_SIZE = REGISTRY.declare(
    "ITEM_VECTOR_MEMO_SIZE",
    int,
    8192,
    group="item_search",
    minimum=1,
    maximum=1_000_000,
    description="Item vectors memoised by item_search to score lexical-only hits against the "
    "query without asking the vector store again.",
)
ITEM_SEARCH_SHEET_LIMIT = REGISTRY.declare(
    "ITEM_SEARCH_SHEET_LIMIT",
    int,
    20,
    group="item_search",
    minimum=0,
    maximum=100,
    description="Items of the asked product looked up by spec sheet when no hit states a "
    "must-have that only sheets list (touchscreen, wifi 6); 0 turns the lookup off.",
)

ITEM_SEARCH_SHELF_LIMIT = REGISTRY.declare(
    "ITEM_SEARCH_SHELF_LIMIT",
    int,
    10,
    group="item_search",
    minimum=0,
    maximum=100,
    description="Items whose Icecat product type (from the title or the spec sheet) is the "
    'asked product ("mini pc") put first when fewer than half the hits are of it; 0 turns '
    "the lookup off.",
)
ITEM_SEARCH_NAMED_FIRST_WINDOW = REGISTRY.declare(
    "ITEM_SEARCH_NAMED_FIRST_WINDOW",
    int,
    20,
    group="item_search",
    minimum=0,
    maximum=1000,
    description="Hits, counted from the top, among which those that name the asked product "
    "(not an accessory for it) go first when the query is just the product's name, each "
    "group in recalled order; 0 turns it off. Chosen on the extended judgments' tuning half.",
)
ITEM_SEARCH_RELEVANCE_WEIGHT = REGISTRY.declare(
    "ITEM_SEARCH_RELEVANCE_WEIGHT",
    float,
    0.0,
    group="item_search",
    minimum=0.0,
    maximum=1.0,
    description="Share of the relevance cross-encoder's score (trained on rated shopper "
    "queries held apart from the evaluation) in the order of the first hits, the rest the "
    "fused score scaled 0..1 over them; 0 (the default: the tuning half's best weight lowered "
    "the held-out half, docs/evaluation.md) keeps the fused order. Without a trained model the "
    "fused order stays and the result says why.",
)
ITEM_SEARCH_RELEVANCE_WINDOW = REGISTRY.declare(
    "ITEM_SEARCH_RELEVANCE_WINDOW",
    int,
    30,
    group="item_search",
    minimum=1,
    maximum=256,
    description="Hits, counted from the top, that the relevance cross-encoder scores and "
    "reorders; the hits past it keep their place.",
)
