"""Browsing tools: similar items to one item, and a category's insight (its facets, prices
and top items)."""

from app.tools.browse.category_insight import (
    CardBrief,
    CategoryInsightArgs,
    CategoryInsightResult,
    CategoryInsightTool,
)
from app.tools.browse.similar_items import (
    MAX_K,
    SimilarItem,
    SimilarItemsArgs,
    SimilarItemsResult,
    SimilarItemsTool,
    limits_of,
)

__all__ = [
    "MAX_K",
    "CardBrief",
    "CategoryInsightArgs",
    "CategoryInsightResult",
    "CategoryInsightTool",
    "SimilarItem",
    "SimilarItemsArgs",
    "SimilarItemsResult",
    "SimilarItemsTool",
    "limits_of",
]
