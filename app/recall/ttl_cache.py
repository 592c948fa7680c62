"""The in-process TTL-LRU map of the search cache's L1, for other layers' memos."""

from app.recall._cache_lru import TtlLru

__all__ = ["TtlLru"]
