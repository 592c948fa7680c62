"""Every runtime tunable, declared once, one module per group.

Import a parameter from its group module and call `.get()` at the moment you need the
value. Importing this package declares all groups, so the registry is always complete.
"""

from app.config.params import (
    api,
    breakers,
    cache,
    category_kb,
    compare,
    index,
    item_search,
    planner,
    recall,
    search,
)

__all__ = [
    "api",
    "breakers",
    "cache",
    "category_kb",
    "compare",
    "index",
    "item_search",
    "planner",
    "recall",
    "search",
]
