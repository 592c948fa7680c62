"""The price_compare tool: offers for the same product across sources, grouped and
compared."""

from app.tools.compare.price_compare import (
    ComparedItem,
    Offer,
    PriceCompareArgs,
    PriceCompareResult,
    PriceCompareTool,
    ProductGroup,
)

__all__ = [
    "ComparedItem",
    "Offer",
    "PriceCompareArgs",
    "PriceCompareResult",
    "PriceCompareTool",
    "ProductGroup",
]
