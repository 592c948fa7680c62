"""Which title head nouns name a kind of product: the word a title ends in is often a colour,
a size, a unit, a model word or what the product is for ("Case for Samsung Galaxy S"), and
only a plausible product noun may become a category the planner reads as a product."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from app.catalog.product_nouns import catalog_name, singular, tokens
from app.catalog.standards import standards_in
from app.language import lexicon

__all__ = [
    "MIN_HEAD_SHARE",
    "MIN_KIND_LETTERS",
    "PRICE_BAND",
    "CatalogVocabulary",
    "KindFilter",
    "said_words",
    "title_head",
    "title_kind",
]

PRICE_BAND = 4.0
"""A number said of a product is read as its price from a quarter of the kind's lower
quartile to four times its upper one."""
MIN_KIND_LETTERS = 3
"""Shorter heads are letters of model names and sizes ("s", "m", "aa"), not kinds."""
MIN_HEAD_SHARE = 0.1
"""A kind heads at least this share of the titles that say it: a word titles mostly use as
a modifier ("usb", "wireless", "home", a brand) ends only a few of them."""

_CLAUSE = re.compile(
    r"\s(?:" + "|".join(lexicon.words("title_clause_words")) + r")\s|[,(|\[]", re.IGNORECASE
)
"""Where a title's product name ends: what comes after says what it is for, made of, or its
variant ("Case for Samsung Galaxy S", "Kurta with Embroidered Detail", "Ink, Magenta")."""


def _lexicon_not_kinds() -> frozenset[str]:
    """Words the lexicon knows as something other than a product kind."""
    unit_forms = {form for forms in lexicon.units().values() for form in forms}
    numbers = {row["word"] for row in lexicon.table("number_words")}
    return frozenset(
        {
            *lexicon.word_set("lexicon_colour_names"),
            *lexicon.word_set("match_text_colours"),
            *lexicon.word_set("text_units"),
            *unit_forms,
            *numbers,
            *lexicon.ordinals(),
            *lexicon.filler_words(),
            *lexicon.word_set("title_stop_words"),
            *lexicon.words("profile_not_kinds"),
        }
    )


_NOT_KINDS = _lexicon_not_kinds()


def title_head(title: str) -> str | None:
    """The singular head noun of a title's product name: the last alphabetic word before the
    first clause that only describes it ("Roadster Men Black Slim Fit Jeans" -> jeans,
    "Slim Case for iPhone 15 Pro" -> case)."""
    name = _product_name(title)
    words = [w for w in tokens(name) if w.isalpha() or "-" in w]
    words = words or [w for w in tokens(title) if w.isalpha() or "-" in w]
    return singular(words[-1]) if words else None


def title_kind(title: str, is_kind: Callable[[str], bool]) -> str | None:
    """The last word of a title's product name that `is_kind` accepts, singular: past the
    colour or model word a title may end in ("Fastrack Men Blue Analogue Watch" -> watch)."""
    words = reversed(tokens(_product_name(title)))
    word = next((w for w in words if w.isalpha() and is_kind(w)), None)
    return singular(word) if word else None


def _product_name(title: str) -> str:
    """The title up to the first clause that only describes the product (`_CLAUSE`)."""
    cut = _CLAUSE.search(f" {title} ")
    return title[: cut.start()] if cut else title


@dataclass(frozen=True)
class KindFilter:
    """What a catalog says is no kind beside the lexicon: its brands, its attribute values
    (colours, sizes, genders as the catalog lists them) and the units its titles write."""

    brands: frozenset[str] = frozenset()
    attribute_values: frozenset[str] = frozenset()
    units: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls,
        brands: Iterable[str],
        attributes: Mapping[str, Mapping[str, int]],
        units: Iterable[str],
    ) -> KindFilter:
        """The filter for a catalog's brands, attribute values and title units."""
        names = {b.lower() for b in brands}
        return cls(
            brands=frozenset(names | {singular(b) for b in names}),
            attribute_values=frozenset(v for values in attributes.values() for v in values),
            units=frozenset(units),
        )

    def is_kind(self, word: str) -> bool:
        """Whether a singular head noun can name a kind of product in this catalog."""
        if len(word) < MIN_KIND_LETTERS or not word.replace("-", "").isalpha():
            return False
        if len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
            return False  # a participle ("certified", "unshielded", "wired")
        if standards_in(word):
            return False  # a standard a product has ("make it usb-c"), not one it is
        forms = {word, singular(word)}
        known = (_NOT_KINDS, self.brands, self.attribute_values, self.units)
        return not any(forms & words for words in known)


def said_words(title: str) -> set[str]:
    """The singular words a title says, each once: what a head's share is counted against."""
    return {singular(w) for w in tokens(title) if w.isalpha() or "-" in w}


@dataclass(frozen=True)
class CatalogVocabulary:
    """The product vocabulary a catalog adds to the lexicon's at start-up: its kinds (each
    in singular and plural form) and its brands, lower-cased."""

    kinds: frozenset[str] = field(default_factory=frozenset)
    brands: frozenset[str] = field(default_factory=frozenset)
    attribute_values: frozenset[str] = field(default_factory=frozenset)
    """Every value the catalog's attributes take, lower-cased ("men", "black", "xl")."""
    currency: str = "USD"
    """The currency most of the catalog is priced in: what a bare amount ("under 500") means."""
    price_bands: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    """Per singular kind noun, the USD prices a number said of it may be (`PRICE_BAND`
    around its quartiles): "a laptop between 800 and 1200" is prices, "13 and 15" is not."""

    def names_kind(self, word: str) -> bool:
        """Whether a word (any number) is one of the catalog's kinds."""
        return word in self.kinds or singular(word) in self.kinds

    def plausible_price(self, noun: str, usd: float) -> bool:
        """Whether `usd` may be a price of the kind `noun` names (its catalog name too); False
        where the catalog lists no prices for it."""
        for name in dict.fromkeys((singular(noun), singular(catalog_name(noun)))):
            band = self.price_bands.get(name)
            if band is not None:
                return band[0] <= usd <= band[1]
        return False
