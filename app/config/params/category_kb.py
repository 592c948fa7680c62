"""Parameters of the category knowledge base and the category_insight tool."""

from app.config.registry import REGISTRY

__all__ = [
    "GROUP",
    "KB_CONFIDENCE_AMBIGUITY_PENALTY",
    "KB_CONFIDENCE_COSINE_CEIL",
    "KB_CONFIDENCE_COSINE_FLOOR",
    "KB_CONFIDENCE_MARGIN_FULL",
    "KB_CONFIDENCE_THRESHOLD",
    "KB_DEPTH",
    "KB_MIN_ITEMS",
    "KB_TOP_K",
    "KB_WEIGHT_BM25",
    "KB_WEIGHT_DENSE",
]

GROUP = "category_kb"

KB_MIN_ITEMS = REGISTRY.declare(
    "KB_MIN_ITEMS",
    int,
    5,
    group=GROUP,
    minimum=1,
    maximum=10_000,
    description="Fewest catalog items a category needs to get a card (cards are cached per "
    "value; a change builds a new card set on next load).",
)
KB_WEIGHT_DENSE = REGISTRY.declare(
    "KB_WEIGHT_DENSE",
    float,
    0.7,
    group=GROUP,
    minimum=0.0,
    maximum=1.0,
    description="Weight of the dense (embedding) side when fusing min-max normalised card scores.",
)
KB_WEIGHT_BM25 = REGISTRY.declare(
    "KB_WEIGHT_BM25",
    float,
    0.3,
    group=GROUP,
    minimum=0.0,
    maximum=1.0,
    description="Weight of the BM25 side when fusing min-max normalised card scores.",
)
KB_DEPTH = REGISTRY.declare(
    "KB_DEPTH",
    int,
    50,
    group=GROUP,
    minimum=2,
    maximum=2000,
    description="Cards asked of each side before fusion; min-max normalisation runs over them.",
)
KB_TOP_K = REGISTRY.declare(
    "KB_TOP_K",
    int,
    3,
    group=GROUP,
    minimum=1,
    maximum=20,
    description="Cards category_insight returns when the caller gives no top_k.",
)
KB_CONFIDENCE_THRESHOLD = REGISTRY.declare(
    "KB_CONFIDENCE_THRESHOLD",
    float,
    0.4,
    group=GROUP,
    minimum=0.0,
    maximum=1.0,
    description="category_insight names a category only when its confidence reaches this.",
)
KB_CONFIDENCE_COSINE_FLOOR = REGISTRY.declare(
    "KB_CONFIDENCE_COSINE_FLOOR",
    float,
    0.35,
    group=GROUP,
    minimum=-1.0,
    maximum=1.0,
    description="Cosine of the best card at or below which its dense evidence counts as 0 "
    "(unrelated queries stay under about 0.4 with all-MiniLM-L6-v2).",
)
KB_CONFIDENCE_COSINE_CEIL = REGISTRY.declare(
    "KB_CONFIDENCE_COSINE_CEIL",
    float,
    0.85,
    group=GROUP,
    minimum=-1.0,
    maximum=1.0,
    description="Cosine of the best card at or above which its dense evidence counts as 1 "
    "(a query that names the category); must exceed the floor.",
)
KB_CONFIDENCE_MARGIN_FULL = REGISTRY.declare(
    "KB_CONFIDENCE_MARGIN_FULL",
    float,
    0.2,
    group=GROUP,
    minimum=0.001,
    maximum=1.0,
    description="Fused-score margin of the best card over the second at which confidence "
    "takes no ambiguity penalty.",
)
KB_CONFIDENCE_AMBIGUITY_PENALTY = REGISTRY.declare(
    "KB_CONFIDENCE_AMBIGUITY_PENALTY",
    float,
    0.25,
    group=GROUP,
    minimum=0.0,
    maximum=1.0,
    description="Share of confidence lost when the best card ties the second (scaled down "
    "linearly as the margin grows to KB_CONFIDENCE_MARGIN_FULL).",
)
