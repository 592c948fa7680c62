"""Parameters of the recall pipeline: fusion method, source weights, failure policy, depth.

Source weights are one float parameter per source, named `FUSION_WEIGHT_<SOURCE>`, so the
registry validates each value; a source without a declared weight fuses with weight 1.0.
"""

from app.config.registry import REGISTRY, Param

__all__ = [
    "BM25_STANDARD_WEIGHT",
    "FUSION_METHOD",
    "FUSION_METHODS",
    "FUSION_WEIGHT_BM25",
    "FUSION_WEIGHT_DENSE",
    "FUSION_WEIGHT_PREFIX",
    "RECALL_CUT_HEAD",
    "RECALL_DEPTH",
    "RECALL_NEAR_BEST",
    "RECALL_PARALLEL",
    "RECALL_POLICIES",
    "RECALL_POLICY",
    "RECALL_SHEET_SHARE",
    "RRF_K",
    "declare_fusion_weight",
    "fusion_weights",
]

FUSION_METHODS: tuple[str, ...] = ("rrf", "weighted", "combmnz")
RECALL_POLICIES: tuple[str, ...] = ("loose", "strict")
FUSION_WEIGHT_PREFIX = "FUSION_WEIGHT_"

FUSION_METHOD = REGISTRY.declare(
    "FUSION_METHOD",
    str,
    "weighted",
    group="recall",
    choices=FUSION_METHODS,
    description="How per-source hit lists are fused: reciprocal rank (rrf), weighted "
    "min-max scores (weighted) or CombMNZ over min-max scores (combmnz). Weighted, with "
    "FUSION_WEIGHT_DENSE, was chosen on the extended judgments' tuning half.",
)
RRF_K = REGISTRY.declare(
    "RRF_K",
    int,
    60,
    group="recall",
    minimum=1,
    maximum=1000,
    description="The k of reciprocal rank fusion: score = sum of weight / (k + rank).",
)
RECALL_POLICY = REGISTRY.declare(
    "RECALL_POLICY",
    str,
    "loose",
    group="recall",
    choices=RECALL_POLICIES,
    description="loose: a failing source is reported and the others still answer; "
    "strict: any failing source fails the search.",
)
RECALL_PARALLEL = REGISTRY.declare(
    "RECALL_PARALLEL",
    bool,
    True,
    group="recall",
    description="Query the recall sources concurrently (true) or one after another (false).",
)
RECALL_DEPTH = REGISTRY.declare(
    "RECALL_DEPTH",
    int,
    100,
    group="recall",
    minimum=1,
    maximum=1000,
    description="Hits asked of each source before fusion (at least the requested top_k).",
)
RECALL_NEAR_BEST = REGISTRY.declare(
    "RECALL_NEAR_BEST",
    float,
    0.9,
    group="recall",
    minimum=0.0,
    maximum=1.0,
    description="Share of a source's best score a hit needs to be kept in the fused cut "
    "ahead of hits that only their fused score ranks higher (after RECALL_CUT_HEAD); 0 cuts "
    "by fused score alone. Chosen on the extended judgments' tuning half (Recall@100).",
)
RECALL_CUT_HEAD = REGISTRY.declare(
    "RECALL_CUT_HEAD",
    float,
    0.3,
    group="recall",
    minimum=0.0,
    maximum=1.0,
    description="Share of the fused cut taken by fused score alone before the near-best "
    "hits of each source (RECALL_NEAR_BEST).",
)
RECALL_SHEET_SHARE = REGISTRY.declare(
    "RECALL_SHEET_SHARE",
    float,
    0.3,
    group="recall",
    minimum=0.0,
    maximum=1.0,
    description="Share of the fused cut given to the same fusion with the sheet store "
    "(listings plus their spec sheets' words) in place of BM25: its best hits not already "
    "taken fill the last places. 0 turns it off; catalogs without spec sheets have none. "
    "Chosen on the extended judgments' tuning half (Recall@100).",
)
BM25_STANDARD_WEIGHT = REGISTRY.declare(
    "BM25_STANDARD_WEIGHT",
    int,
    2,
    group="recall",
    minimum=1,
    maximum=5,
    description="Times a named standard (usbc, cat6, wifi6) counts in a BM25 query: the "
    "shopper asked for it, so it outweighs one plain word such as 'laptop'.",
)


def declare_fusion_weight(source: str, default: float = 1.0) -> Param[float]:
    """Declare the fusion weight of a recall source; call once, from a params module."""
    return REGISTRY.declare(
        f"{FUSION_WEIGHT_PREFIX}{source.upper()}",
        float,
        default,
        group="recall",
        minimum=0.0,
        maximum=100.0,
        description=f"Weight of the {source!r} source in fusion (0 keeps its hits but adds "
        "nothing to their scores).",
    )


FUSION_WEIGHT_BM25 = declare_fusion_weight("bm25")
FUSION_WEIGHT_DENSE = declare_fusion_weight("dense", 2.0)


def fusion_weights() -> dict[str, float]:
    """Every declared source weight in force now, keyed by lower-case source name."""
    return {
        p.name.removeprefix(FUSION_WEIGHT_PREFIX).lower(): float(p.get())
        for p in REGISTRY
        if p.name.startswith(FUSION_WEIGHT_PREFIX)
    }
