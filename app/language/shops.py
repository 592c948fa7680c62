"""Which of the catalog's shops a shopper's messages limit the search to ("on walmart",
"not from amazon", "any shop"): the shops are the catalog's, the names shoppers use for them
are data (data/lexicon/shops.tsv), so an imported shop is scoped like a demo one."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from app.language.lexicon import table

__all__ = ["ShopNames"]

_NEGATED = re.compile(r"\b(?:not|no|except|without|avoid|but|never|skip)\b[\w\s]{0,12}$")
_ANY_SHOP = re.compile(
    r"\b(?:any|all|every|whatever)\s+(?:shops?|stores?|platforms?|sites?|retailers?)\b"
    r"|\banywhere\b"
)


@dataclass(frozen=True)
class ShopNames:
    """The catalog's shops (in catalog order) and the names that scope a search to each."""

    shops: tuple[str, ...]
    names: dict[str, str]
    """Name as written (lower case) -> shop."""
    bare: frozenset[str]
    """Names that scope the search when said alone, not only after on/from/at/only."""
    _scoped: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _alone: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        alternatives = "|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True))
        alone = "|".join(re.escape(n) for n in sorted(self.bare, key=len, reverse=True))
        scoped = rf"\b(?:on|from|at|in|via|through|only)\s+(?:the\s+)?({alternatives})\b"
        object.__setattr__(self, "_scoped", re.compile(scoped if self.names else r"(?!)"))
        object.__setattr__(
            self,
            "_alone",
            re.compile(rf"\b({alone})\b|\b({alternatives})\s+only\b") if self.names else None,
        )

    @classmethod
    def of(cls, shops: Iterable[str], brands: Iterable[str] = ()) -> ShopNames:
        """The names of `shops`: the lexicon's rows for them, and each shop's own name
        (spaced), which scopes alone unless it is also one of the catalog's `brands`."""
        ordered = tuple(dict.fromkeys(s.lower() for s in shops))
        brand_words = {b.lower() for b in brands}
        names: dict[str, str] = {}
        bare: set[str] = set()
        listed = set()
        for row in table("shop_names"):
            if row["shop"] in ordered:
                names[row["name"]] = row["shop"]
                listed.add(row["name"])
                if row["bare"] == "yes":
                    bare.add(row["name"])
        for shop in ordered:
            for name in {shop, re.sub(r"[-_.]+", " ", shop)}:
                if name not in listed:
                    names.setdefault(name, shop)
                    if name not in brand_words and len(name) > 2:
                        bare.add(name)
        return cls(ordered, names, frozenset(bare))

    @functools.cached_property
    def words(self) -> frozenset[str]:
        """Every word of every shop name: never a product keyword once the scope is read."""
        return frozenset(word for name in self.names for word in name.split())

    def scope(self, messages: Sequence[str], previous: Sequence[str] = ()) -> tuple[str, ...]:
        """The shops the messages limit the search to, in catalog order; a later message
        replaces an earlier scope, "not on X" removes X, "any shop" clears it."""
        scope = set(previous)
        for message in messages:
            low = " ".join(message.lower().split())
            if _ANY_SHOP.search(low):
                scope = set()
            wanted, unwanted = self._mentions(low)
            if wanted:
                scope = wanted
            if unwanted:
                scope = (scope or set(self.shops)) - unwanted
        return tuple(s for s in self.shops if s in scope)

    def _mentions(self, low: str) -> tuple[set[str], set[str]]:
        wanted: set[str] = set()
        unwanted: set[str] = set()
        found = list(self._scoped.finditer(low))
        if self._alone is not None:
            found += list(self._alone.finditer(low))
        for match in found:
            name = next(g for g in match.groups() if g)
            target = unwanted if _NEGATED.search(low[: match.start()]) else wanted
            target.add(self.names[name])
        return wanted - unwanted, unwanted
