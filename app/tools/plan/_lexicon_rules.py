"""Word lists the rule planner reasons with: product head nouns, compound modifiers, idioms.
Hand-made from real shopper requests (WebShop goals, electronics catalogs) and kept small;
entries are lower-case singular forms (compare with `singular(word)`)."""

from __future__ import annotations

from functools import lru_cache

from app.catalog.garment_sizes import SIZE_NAMES
from app.catalog.product_nouns import singular
from app.catalog.specs import UNITS
from app.language import lexicon
from app.tools.plan.catalog_words import current_vocabulary

PRODUCT_NOUNS = lexicon.word_set("lexicon_product_nouns")
"""Nouns that can head a product request ("a quiet gaming KEYBOARD")."""

COMPOUND_MODIFIERS = lexicon.word_set("lexicon_compound_modifiers")
"""Words that, just before a product noun, belong to the product's name ("GAMING keyboard")."""

PURPOSE_NOUNS = lexicon.word_set("lexicon_purpose_nouns")
"""What a product is used for, not what it is: "a laptop FOR SCHOOL" is a laptop, preferably
suited to school, and searching for "school" finds school software."""

CONTAINER_NOUNS = lexicon.word_set("lexicon_container_nouns")
"""Nouns that usually wrap the real product: "a pack of CHIPS", "a pair of SHOES"."""

ATTRIBUTE_NOUNS = lexicon.word_set("lexicon_attribute_nouns")
"""Parts and properties: never a bundle slot of their own ("with a steel frame and a
wood FINISH")."""

COLOR_COMPOUNDS = lexicon.word_set("lexicon_color_compounds")
"""Words "color" names a feature with ("a COLOR laser printer", "COLOR changing lights");
before anything else it only labels a colour ("in the color redwood", "color: black")."""
COLOR_WORDS = frozenset({"color", "colour"})
"""The words `is_color_label` reads; plural "colors" is left alone."""
_COLOR_NAMED_AFTER = lexicon.word_set("lexicon_color_named_after")
COLOUR_NAMES = lexicon.word_set("lexicon_colour_names")
"""Colour names: one asked is a colour, no brand, though a catalog has a brand of the name."""
RIVAL_FACETS = (
    COLOUR_NAMES,
    frozenset(lexicon.word_sets("audience_relations")),
    SIZE_NAMES,
)
"""Facets a product has one of at a time (its colour, its audience, its garment size): a
later one asked replaces an earlier one ("a red dress", then "blue instead")."""


def is_color_label(before: str | None, word: str, after: str | None) -> bool:
    """Whether `word` only labels the colour asked ("black COLOR", "COLOR: x-4i"), being no
    feature ("color printer", "full color") nor a thing ("hair color", "artificial color");
    plural "colors" is left alone, being as often an ingredient ("no artificial colors")."""
    if word not in COLOR_WORDS or before in _COLOR_NAMED_AFTER:
        return False
    return after not in COLOR_COMPOUNDS


FORM_PRODUCTS = {
    "earbud": (("over-ear", "headphones"), ("on-ear", "headphones")),
    "earphone": (("over-ear", "headphones"), ("on-ear", "headphones")),
}
"""Per product noun, forms it cannot take and the product that takes them: earbuds are
in-ear, so "over-ear" asks for headphones."""

PART_HOSTS = lexicon.word_set("lexicon_part_hosts")
COMPONENT_MAKERS = lexicon.word_set("lexicon_component_makers")
"""Makers of a computer's chips: named beside a `PART_HOSTS` product they ask its processor
or graphics, not its brand."""
SIZED_PARTS = lexicon.word_set("lexicon_sized_parts")
"""Parts of a `PART_HOSTS` product a later message may size alone ("a laptop", then "16gb
ram" or "i7 processor"): the product's requirement, not a new product."""

CONNECTORS = lexicon.word_set("lexicon_connectors")
"""Connectors that name a cable's or an adapter's kind: "a usb c cable" after "an hdmi
cable" asks for another product, not an HDMI cable with USB-C."""

CATALOG_ALIASES = {"laptop": "notebook"}
"""Another name catalogs give a product, searched beside the shopper's: spec-sheet titles call
every laptop a notebook, which BM25 alone cannot know."""

MINIMUM_CUE = "at least "
ABOVE_CUE = "over "
"""How the planner writes an asked minimum: "at least 24 inch", "at least 16gb ram", or
"over 50 inch" when the amount itself is too little."""

MAXIMUM_CUE = "at most "
BELOW_CUE = "under "
"""How the planner writes an asked maximum: "at most 14 inch", or "under 24 inch" when the
amount itself is too much."""

SIZED_BY_NUMBER_ONLY = lexicon.word_set("lexicon_sized_by_number_only")
"""Parts that product titles state by their size alone ("16 GB DDR4-SDRAM", "128 GB"): a
search for "laptop 16gb ram" asks for "16gb", since "ram" finds memory modules."""


def catalog_alias(category: str | None) -> str:
    """The catalogs' other name for the category's head noun, in the same number ("gaming
    laptops" -> "notebooks"), or "" when there is none."""
    words = (category or "").lower().split()
    if not words:
        return ""
    alias = CATALOG_ALIASES.get(singular(words[-1]), "")
    return alias + "s" if alias and singular(words[-1]) != words[-1] else alias


_AMOUNT_WORDS = frozenset({"or", "of"})
"""Words between a sized part's amounts and its name ("8gb or 16gb ram", "16gb of ram")."""


def _sized(word: str) -> bool:
    return singular(word) in SIZED_BY_NUMBER_ONLY


_BOUND_CUES = (MINIMUM_CUE, ABOVE_CUE, MAXIMUM_CUE, BELOW_CUE)


def without_cue(term: str) -> str:
    """An asked bound's amount without the planner's cue ("at least 24 inch" -> "24 inch");
    a term whose cue word starts a name ("over ear headphones") as it is."""
    for cue in _BOUND_CUES:
        if term.startswith(cue) and term[len(cue) : len(cue) + 1].isdigit():
            return term[len(cue) :]
    return term


def beside_product(term: str, category: str | None) -> str:
    """A must-have as it reads beside the product it belongs to: a sized part as titles of
    the product state it ("16gb ram" -> "16gb", "8gb or 16gb ram" -> "8gb or 16gb", "ram
    2gb" -> "2gb"), an
    asked bound by its amount ("at least 24 inch" -> "24 inch"), a part named by another
    product's noun by its trait alone ("backlit keyboard" for a laptop -> "backlit":
    "keyboard" finds keyboards; "rtx graphics card" -> "rtx", the part's own name left out
    where a trait remains; a count of it stays whole: "dual camera" is no "dual" sim), or
    by a part noun ("usb ports" -> "usb"), but not by a part's colour ("brown switches" -> "":
    a brown keyboard has no brown switches); any other term, or
    one naming the category itself ("16gb ram" for ram), as it is."""
    term = without_cue(term)
    first, *parts = term.split() or [""]
    product = set((category or "").lower().split())
    if not parts or product & set(parts):
        return term
    if _sized(first) and all(w[:1].isdigit() for w in parts):
        return " ".join(parts)
    if first[:1].isdigit():
        *amounts, last = term.split()
        said = all(w in _AMOUNT_WORDS or w[:1].isdigit() or w in UNITS for w in amounts)
        return " ".join(w for w in amounts if w != "of") if said and _sized(last) else term
    *traits, noun = term.split()
    part = is_product_noun(noun) or singular(noun) in ATTRIBUTE_NOUNS
    counted = all(w in _COUNT_TRAITS for w in traits)
    if category and part and not counted and not any(is_product_noun(w) for w in traits):
        own = [w for w in traits if w not in COMPOUND_MODIFIERS] or traits
        return "" if all(w in COLOUR_NAMES for w in own) else " ".join(own)
    return term


_COUNT_TRAITS = lexicon.word_set("lexicon_count_traits")
"""Traits that count the part they name, which the part's name must say beside them."""

PLAIN_ADJECTIVES = lexicon.word_set("lexicon_plain_adjectives")
"""Adjectives that end a negated list ("no added sugar and NATURAL" is not "no natural")."""

FREE_FEATURES = lexicon.word_set("lexicon_free_features")
"""'X-free' that names a feature, not an ingredient: "hands-free" is no exclude on hands."""

FREEABLE = lexicon.word_set("lexicon_freeable")
"""Ingredients and materials shoppers list before '-free' ("sulfate and paraben free")."""

NO_FEATURES = lexicon.word_set("lexicon_no_features")
"""'no X' that names a feature ("no-slip soles", "no-show socks"): a must-have, not an exclude."""

NEGATION_OBJECT_STOPS = lexicon.word_set("lexicon_negation_object_stops")
"""Words right after "not"/"no"/"without" that mean the phrase is no exclusion."""

PRODUCT_PRONOUNS = lexicon.word_set("product_pronouns")
"""Words standing for the product ("SOMETHING light"): the word after one is a trait of it."""

WITH_GUARD = lexicon.word_set("preference_with_guard")
"""Words after which "with" is no must-have but a verb's ("compatible with", "WORKS with")."""

ING_NOUNS = lexicon.word_set("lexicon_ing_nouns")
"""Words ending in -ing that are nouns, not verbs ("no artificial COLORING")."""


AMBIGUOUS_HEADS = lexicon.word_set("lexicon_ambiguous_heads")
"""Product nouns that are as often adjectives or parts; they head a request only when last."""


TWO_WORD_NAMES = frozenset(
    (first, second)
    for first, seconds in lexicon.word_sets("two_word_names").items()
    for second in seconds
)
"""Product names of two words whose first word is no compound modifier elsewhere and whose
second may name no product alone: a "power strip" (not "bacon strips"), a "mini pc" (not a
"mini speaker" apart from speakers)."""

PARTS_NAMED_LAST = lexicon.word_set("lexicon_parts_named_last")
"""Parts shoppers name after the machine that holds them ("hp desktop pc intel core j4025
processor" asks for the PC)."""

HEADS_AFTER_A_PRODUCT = lexicon.word_set("heads_after_a_product")
"""Nouns that name a product only after another ("a monitor arm"); alone they are body
parts or brands ("arm & hammer", "arms lumbar support")."""

PASSED_MODIFIERS = lexicon.word_set("lexicon_passed_modifiers")
"""Words between a product's name and its noun that describe the item, not the product
("hdmi male-to-male cables" asks for HDMI cables, male to male)."""
IMPLIED_MODIFIERS = {"external": lexicon.word_set("lexicon_implied_modifiers")}
"""Modifiers every such product is, which no title says: "an external monitor for my
macbook" asks for a monitor ("external" names a product for drives and cd drives)."""


@lru_cache(maxsize=8192)
def is_product_noun(word: str) -> bool:
    """True when `word` (any number) can head a product request."""
    return word in PRODUCT_NOUNS or singular(word) in PRODUCT_NOUNS


def is_catalog_kind(word: str) -> bool:
    """True when `word` (any number) is a kind of the catalog in use that the lexicon lacks
    (`use_catalog_vocabulary`) and knows in no other role (a part or property, a purpose, a
    word of asking to shop): it heads a request only where no lexicon noun does."""
    if is_product_noun(word) or not current_vocabulary().names_kind(word):
        return False
    return word not in _NO_CATALOG_HEADS and singular(word) not in _NO_CATALOG_HEADS


_NO_CATALOG_HEADS = (
    ATTRIBUTE_NOUNS
    | PURPOSE_NOUNS
    | COLOR_WORDS
    | {
        row["pattern"]
        for row in lexicon.table("category_shopping_words")
        if row["pattern"].isalpha()
    }
)
"""Words the rules read in another role than a product's name, whatever a catalog's titles
end in: "SHOP for a bedframe", "a contemporary DESIGN", "COLOUR should be blue"."""
NOT_HEADS = _NO_CATALOG_HEADS | COLOUR_NAMES | PLAIN_ADJECTIVES
"""Words that never head a product typed alone: the roles above, colours, plain adjectives
(the kind filter refuses units, numbers, ordinals and the catalog's brands besides)."""


def is_gerund(word: str) -> bool:
    """True for an -ing verb form ("without disturbing"), false for -ing nouns ("coloring")."""
    return len(word) > 5 and word.endswith("ing") and word not in ING_NOUNS
