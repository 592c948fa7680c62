"""Parameters of item_picker (how candidates are gated, weighed and shown) and of the autopick
harness that runs it on the model's behalf."""

from app.config.registry import REGISTRY

__all__ = [
    "AUTOPICK",
    "PICK_CHEAPEST_SPREAD",
    "PICK_CHEAP_QUANTILE",
    "PICK_DISPLAY_CAP",
    "PICK_DUP_JACCARD",
    "PICK_GATE_FLOOR",
    "PICK_GATE_PENALTY",
    "PICK_REL_SHOW_RATIO",
    "PICK_RERANK_K",
    "PICK_SHELF_GATE",
    "PICK_W_AVOID",
    "PICK_W_BRAND",
    "PICK_W_CHEAP",
    "PICK_W_CHEAP_ASKED",
    "PICK_W_FORM",
    "PICK_W_FRESH",
    "PICK_W_GATE",
    "PICK_W_MUST",
    "PICK_W_NEAR_PRICE",
    "PICK_W_PREFER",
    "PICK_W_RECALL",
    "PICK_W_SPEC",
    "PICK_W_UNNAMED",
]

PICK_RERANK_K = REGISTRY.declare(
    "PICK_RERANK_K",
    int,
    15,
    group="picker",
    minimum=0,
    maximum=200,
    description="Candidates (best recall first, accessories last, after the hard filters) "
    "the cross-encoder relevance gate scores and whose titles stage 4 embeds; the rest are "
    "ranked without a gate score and matched on their words only.",
)
PICK_GATE_FLOOR = REGISTRY.declare(
    "PICK_GATE_FLOOR",
    float,
    0.3,
    group="picker",
    minimum=0.0,
    maximum=1.0,
    description="Cross-encoder score below which a candidate sinks (penalised, never dropped).",
)
PICK_SHELF_GATE = REGISTRY.declare(
    "PICK_SHELF_GATE",
    float,
    1.0,
    group="picker",
    minimum=0.0,
    maximum=1.0,
    description="Least gate score of a candidate the catalog files as the asked product (its "
    "Icecat product type, from the title or the spec sheet): the cross-encoder misreads long spec "
    "titles ('Shuttle XPC nano ... Mini PC' scores 0.05 for 'mini pc'); 0 leaves it alone.",
)
PICK_GATE_PENALTY = REGISTRY.declare(
    "PICK_GATE_PENALTY",
    float,
    0.5,
    group="picker",
    minimum=0.0,
    maximum=1.0,
    description="Fraction of its weighted score a candidate below the gate floor loses; keep "
    "1 - PICK_GATE_PENALTY under PICK_REL_SHOW_RATIO so a sunk item is not shown beside a "
    "comparable one above the floor.",
)
PICK_W_RECALL = REGISTRY.declare(
    "PICK_W_RECALL",
    float,
    1.0,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of the recall score (min-max scaled within the slot).",
)
PICK_W_GATE = REGISTRY.declare(
    "PICK_W_GATE",
    float,
    2.0,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of the cross-encoder gate score (0 for items it did not score).",
)
PICK_W_MUST = REGISTRY.declare(
    "PICK_W_MUST",
    float,
    1.5,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of the must-have match: mean over must-have terms of 1 when the title "
    "says it, else the cosine of term and title (clamped at 0).",
)
PICK_W_PREFER = REGISTRY.declare(
    "PICK_W_PREFER",
    float,
    0.75,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of the preference match (prefer terms and the plan's keywords), "
    "computed like the must-have match.",
)
PICK_W_AVOID = REGISTRY.declare(
    "PICK_W_AVOID",
    float,
    1.0,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight subtracted per unit of avoid match (the strongest avoid term: 1 when "
    "the title says it, else its cosine with the title).",
)
PICK_W_CHEAP = REGISTRY.declare(
    "PICK_W_CHEAP",
    float,
    0.3,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of cheapness: 1 - price/budget with a budget, else the log price "
    "scaled between the cheapest and dearest items the gate keeps (cheapest 1); 0 for an "
    "unknown price.",
)
PICK_W_FRESH = REGISTRY.declare(
    "PICK_W_FRESH",
    float,
    0.3,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of freshness: the release year min-max scaled within the slot (newest "
    "1); 0.5 for an item of unknown year, so shop listings without one are neither.",
)
PICK_W_CHEAP_ASKED = REGISTRY.declare(
    "PICK_W_CHEAP_ASKED",
    float,
    1.5,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of cheapness when the shopper asked for a low price without naming "
    "one ('a cheap tablet', 'the cheapest ssd'); PICK_W_CHEAP when it is higher.",
)
PICK_CHEAPEST_SPREAD = REGISTRY.declare(
    "PICK_CHEAPEST_SPREAD",
    float,
    3.0,
    group="picker",
    minimum=1.0,
    maximum=1000.0,
    description="For a shopper who asked for the cheapest ('the cheapest usb c cable'), a pick "
    "is shown only when it costs at most this many times the cheapest pick stating as much "
    "of the request: a $551 cable is no answer beside $36 ones.",
)
PICK_CHEAP_QUANTILE = REGISTRY.declare(
    "PICK_CHEAP_QUANTILE",
    float,
    0.5,
    group="picker",
    minimum=0.0,
    maximum=1.0,
    description="For a shopper who asked for a low price ('a cheap ssd'), a pick is shown only "
    "when it costs no more than this quantile of the prices of the candidates naming the "
    "product (0.5: the median); a $545 enterprise drive is no cheap ssd.",
)
PICK_W_NEAR_PRICE = REGISTRY.declare(
    "PICK_W_NEAR_PRICE",
    float,
    1.5,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of nearness to a price said as approximate ('a laptop around $1500'): "
    "1 - |price - that price| / that price, at least 0; 0 for every item without one. Such a "
    "price is a wish as 'cheap' is (PICK_W_CHEAP_ASKED), and cheapness then counts 0.",
)
PICK_W_SPEC = REGISTRY.declare(
    "PICK_W_SPEC",
    float,
    2.0,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of the numeric-spec match ('16 inch', '1tb'): the share of asked "
    "specs the title carries.",
)
PICK_W_BRAND = REGISTRY.declare(
    "PICK_W_BRAND",
    float,
    1.5,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of being of a brand the shopper named ('a dell laptop', 'sony or "
    "bose headphones'), on top of the word's own prefer weight: 1 for an item of any named "
    "brand, else 0.",
)
PICK_W_FORM = REGISTRY.declare(
    "PICK_W_FORM",
    float,
    1.0,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight of the asked forms a product is one at a time ('wireless', 'dual', "
    "'inkjet', 'over-ear'): the share of them the title or spec sheet states.",
)
PICK_W_UNNAMED = REGISTRY.declare(
    "PICK_W_UNNAMED",
    float,
    1.0,
    group="picker",
    minimum=0.0,
    maximum=10.0,
    description="Weight taken off a title that says neither every word of the product's "
    "name ('Electric Dryer' for a hair dryer, 'Mechanical Pencils' for a keyboard) nor its "
    "noun with an asked spec, when another candidate says the name: the cross-encoder "
    "overlooks a modifier, and a shared word can carry an unrelated title past it.",
)
PICK_REL_SHOW_RATIO = REGISTRY.declare(
    "PICK_REL_SHOW_RATIO",
    float,
    0.6,
    group="picker",
    minimum=0.0,
    maximum=1.0,
    description="A pick is shown only when its score is at least this share of the best one.",
)
PICK_DISPLAY_CAP = REGISTRY.declare(
    "PICK_DISPLAY_CAP",
    int,
    3,
    group="picker",
    minimum=1,
    maximum=10,
    description="Most picks shown per slot (a bundle shows one per slot).",
)
PICK_DUP_JACCARD = REGISTRY.declare(
    "PICK_DUP_JACCARD",
    float,
    0.6,
    group="picker",
    minimum=0.0,
    maximum=1.0,
    description="Title-token Jaccard from which two candidates count as one product (merged; "
    "same brand and same price also merge).",
)
AUTOPICK = REGISTRY.declare(
    "AUTOPICK",
    bool,
    True,
    group="harness",
    description="Run price_compare and item_picker for the model after a successful "
    "item_search (the autopick harness); AUTOPICK=0 leaves picking to the model.",
)
