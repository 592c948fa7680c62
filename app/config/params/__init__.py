"""Every runtime tunable, declared once, one module per group.

Import a parameter from its group module and call `.get()` at the moment you need the
value. Importing this package declares all groups, so the registry is always complete.
"""

from app.config.params import (
    admin,
    agent,
    api,
    breakers,
    cache,
    catalog,
    category_kb,
    compare,
    index,
    item_search,
    llm,
    picker,
    planner,
    recall,
    reranker,
    search,
)

__all__ = [
    "admin",
    "agent",
    "api",
    "breakers",
    "cache",
    "catalog",
    "category_kb",
    "compare",
    "index",
    "item_search",
    "llm",
    "picker",
    "planner",
    "recall",
    "reranker",
    "search",
]
