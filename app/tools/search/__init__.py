"""The item_search tool: catalog search for one plan slot, with its scope, post-filters,
named-product and code lookups, shelves and sheets."""

from app.tools.search._ordering import RelevanceOrder
from app.tools.search._product import (
    accessorized_product,
    accessory_asked,
    another_product,
    as_sold,
    is_named_target,
    names_a_product,
    names_as_compound_modifier,
    names_noun,
    names_only_as_feature,
    names_product,
    none_named,
    on_rival_shelf,
    on_shelf,
    sibling_product,
    target_codes,
)
from app.tools.search.item_search import (
    ItemSearchArgs,
    ItemSearchResult,
    ItemSearchTool,
    RelevanceFloor,
)

__all__ = [
    "ItemSearchArgs",
    "ItemSearchResult",
    "ItemSearchTool",
    "RelevanceFloor",
    "RelevanceOrder",
    "accessorized_product",
    "accessory_asked",
    "another_product",
    "as_sold",
    "is_named_target",
    "names_a_product",
    "names_as_compound_modifier",
    "names_noun",
    "names_only_as_feature",
    "names_product",
    "none_named",
    "on_rival_shelf",
    "on_shelf",
    "sibling_product",
    "target_codes",
]
