"""Product nouns in titles and category names: product-type heads, near-synonyms, and whether
a title names a product as the thing itself or only as what an accessory is for. Reranker
training labels pairs with these rules and item_picker sinks accessories with them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from app.catalog._accessory_words import ACCESSORY_NOUNS, COMPOUND_ACCESSORY_ENDINGS
from app.language import lexicon

__all__ = [
    "BROAD_HEADS",
    "ONE_PRODUCT_NAMES",
    "SERVICE_CATEGORIES",
    "SYNONYMS",
    "accessory_targets",
    "canonical",
    "catalog_name",
    "category_key",
    "category_words",
    "head",
    "head_positions",
    "is_accessory_category",
    "is_accessory_noun",
    "is_accessory_position",
    "is_broad",
    "is_generic_head",
    "kinds_of",
    "listed_as",
    "names_as_product",
    "names_only_as_target",
    "narrower_head",
    "normalise_query",
    "other_names",
    "overlaps",
    "plural",
    "query_variants",
    "singular",
    "sold_for_another",
    "tokens",
]

_TOKEN = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
_STOP = lexicon.word_set("title_stop_words")
_IRREGULAR = lexicon.word_map("irregular_plurals")
_NO_PLURAL = lexicon.word_set("no_plural_words")
_NO_S_END = lexicon.words("no_plural_s_endings")
_F_STEMS = lexicon.word_set("plural_ves_stems")
"""Stems whose plural ends in -ves ("shelves", "knives")."""
ONE_PRODUCT_NAMES = lexicon.word_groups("one_product_names")
"""Names of one product, the one used as canonical first: a title that says one says all."""
_NARROWER = lexicon.word_map("overlapping_heads")
SYNONYMS = {name: names[0] for names in ONE_PRODUCT_NAMES for name in names[1:]} | _NARROWER
"""Heads whose products overlap: never a negative for each other, one group in the split."""

BROAD_HEADS = lexicon.word_set("broad_heads")
"""Category heads too broad to say what a product is (listing shelves, not product types)."""

_WEAK_HEADS = lexicon.word_set("weak_heads")
_MACHINE_TRAITS = lexicon.word_set("machine_traits")
"""Words that say what kind of machine a generic name is, never which product: the head of
"mini pc" is pc, where that of "desktop pc" is desktop."""


def is_accessory_noun(word: str) -> bool:
    """Whether a noun names something made for another product ("sleeve", "charger")."""
    base = singular(word)
    if base in ACCESSORY_NOUNS:
        return True
    return any(base.endswith(e) and len(base) > len(e) + 1 for e in COMPOUND_ACCESSORY_ENDINGS)


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens; hyphenated words and model numbers stay whole."""
    return _TOKEN.findall(text.lower())


def singular(word: str) -> str:
    """A plain English singular, good enough for product nouns ("batteries", "mice", "cases",
    "shelves", "lenses"); words with digits or hyphens stay as they are."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 2 or not word.isalpha() or word in _NO_PLURAL or word.endswith(_NO_S_END):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("ves") and word[:-3] in _F_STEMS:
        return word[:-3] + ("fe" if word.startswith("kni") else "f")
    if word.endswith(("ches", "shes", "xes", "sses", "zes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def other_names(word: str) -> tuple[str, ...]:
    """The other names of the product a singular noun names ("laptop" -> notebook,
    netbook), none for a noun with one name."""
    return next(
        (tuple(n for n in names if n != word) for names in ONE_PRODUCT_NAMES if word in names), ()
    )


_LISTED_AS = lexicon.word_lists("listed_as")


def listed_as(product: str) -> tuple[str, ...]:
    """Names a shop may list the product under instead ("lamp" -> light), most usual first;
    none for most products, and none for a compound the vocabulary does not list ("desk
    lamp" is no "desk light": its modifier may not fit the other name)."""
    key = normalise_query(product)
    return _LISTED_AS.get(key) or _LISTED_AS.get(singular(key)) or ()


_KINDS_OF = lexicon.word_lists("kinds_of")


def kinds_of(product: str) -> tuple[str, ...]:
    """The kinds a broad product noun covers, each a product of its own ("jewelry" ->
    necklace, bracelet, earring ...): an item that names one names the broad product too."""
    key = normalise_query(product)
    return _KINDS_OF.get(key) or _KINDS_OF.get(singular(key)) or ()


def canonical(word: str) -> str:
    """The singular of a word with near-synonymous product heads folded together."""
    base = singular(word)
    return SYNONYMS.get(base, base)


def category_words(category: str) -> tuple[str, ...]:
    """The canonical content words of a category name, in order."""
    return tuple(canonical(t) for t in tokens(category) if t not in _STOP)


def category_key(category: str) -> frozenset[str]:
    """Order-free identity of a category: "bags cases" and "cases bags" are one category."""
    return frozenset(category_words(category))


def is_generic_head(word: str) -> bool:
    """Whether a canonical word names a machine only generically ("computer", "pc", "system"),
    so one such word may stand for another ("desktop pc" is a desktop computer)."""
    return word in _WEAK_HEADS


def head(category: str) -> str | None:
    """The product noun of a category name: its last content word ("usb flash drives" -> drive),
    passing over a generic last word ("laptop computers" -> laptop) unless only a trait of
    the machine comes before it ("mini pc" -> pc)."""
    words = category_words(category)
    strong = [w for w in words if w not in _WEAK_HEADS]
    if strong and words[-1] in _WEAK_HEADS and strong[-1] not in _MACHINE_TRAITS:
        return strong[-1]
    return words[-1] if words else None


def is_broad(category: str) -> bool:
    """Shelf names like "electronics - general" or "computers accessories" name no one type."""
    words = category_words(category)
    if not words or len(category.strip()) <= 3:
        return True
    return head(category) in BROAD_HEADS or "general" in words


def is_accessory_category(category: str) -> bool:
    """Whether a specific category names an accessory type ("mobile phone case", "projector
    lamp"); a shelf name ("computers accessories") says nothing and is not one."""
    noun = head(category)
    return noun is not None and not is_broad(category) and is_accessory_noun(noun)


SERVICE_CATEGORIES = lexicon.word_set("service_categories")
"""Icecat's types of services sold for a product ("HP 3 year Pickup and Return Notebook
Only Service Bundle"): never the product, though their titles name it."""
_SERVICE_WORDS = lexicon.word_set("service_words")


def sold_for_another(category: str, asked: Iterable[str]) -> bool:
    """Whether items of `category` are sold for another product: an accessory type, or a
    service such as a warranty extension, unless the request asks for a service."""
    if is_accessory_category(category):
        return True
    return category.lower() in SERVICE_CATEGORIES and not _SERVICE_WORDS.intersection(asked)


def narrower_head(product: str) -> str | None:
    """The product's own noun when it names a narrower product of a broader head ("earbuds"
    of headphones: "earbud"), which a title of the broader one does not say; else None."""
    words = tokens(product)
    noun = singular(words[-1]) if words else ""
    return noun if noun in _NARROWER else None


def overlaps(a: str, b: str) -> bool:
    """Whether products of category `a` may also be products of `b`: the same key, a synonym
    head, or one a narrower form of the other ("printers" / "laser printers")."""
    key_a, key_b = category_key(a), category_key(b)
    if key_a == key_b:
        return True
    if head(a) != head(b):
        return False
    return key_a <= key_b or key_b <= key_a


def _surface_forms(word: str) -> set[str]:
    forms = {word}
    forms.update(w for w, canon in SYNONYMS.items() if canon == word)
    return forms


def head_positions(title_tokens: Sequence[str], word: str) -> list[int]:
    """Indices of tokens that are `word` (canonically, any number)."""
    forms = _surface_forms(word)
    return [i for i, t in enumerate(title_tokens) if singular(t) in forms]


def is_accessory_position(title_tokens: Sequence[str], i: int) -> bool:
    """True when token `i` only says what the product is for: "<word> sleeve", "for <word>"."""
    after = singular(title_tokens[i + 1]) if i + 1 < len(title_tokens) else ""
    if after and is_accessory_noun(after) and after != singular(title_tokens[i]):
        return True
    before = title_tokens[max(0, i - 3) : i]
    return "for" in before or "fits" in before or "compatible" in before


def names_as_product(title: str, word: str) -> bool:
    """Whether the title names `word` as the product itself at least once."""
    toks = tokens(title)
    positions = head_positions(toks, word)
    return any(not is_accessory_position(toks, i) for i in positions)


def names_only_as_target(title: str, word: str) -> bool:
    """Whether every mention of `word` in the title is what an accessory is for."""
    toks = tokens(title)
    positions = head_positions(toks, word)
    return bool(positions) and all(is_accessory_position(toks, i) for i in positions)


def accessory_targets(title: str, known: frozenset[str]) -> list[tuple[str, str]]:
    """(surface word, canonical head) of known product heads the title names only as an
    accessory's target, e.g. "Targus sleeve for 15in laptops" -> [("laptops", "laptop")]."""
    toks = tokens(title)
    found: dict[str, str] = {}
    for tok in toks:
        canon = canonical(tok)
        if canon in known and canon not in found.values() and names_only_as_target(title, canon):
            found[tok] = canon
    return list(found.items())


_CATALOG_NAMES = lexicon.word_map("catalog_names")


def catalog_name(phrase: str) -> str:
    """The name catalogs give a product that shoppers call otherwise ("usb stick" -> "usb
    flash drive", "thumb drives" -> "usb flash drives"); other phrases come back as they are."""
    key = normalise_query(phrase)
    if key in _CATALOG_NAMES:
        return _CATALOG_NAMES[key]
    if key.endswith("s") and key[:-1] in _CATALOG_NAMES:
        return _CATALOG_NAMES[key[:-1]] + "s"
    return phrase


def normalise_query(text: str) -> str:
    """Lower-case, single-spaced form used to compare query strings."""
    return " ".join(text.lower().split())


_SWAPS = lexicon.word_map("head_swaps")


def plural(word: str) -> str:
    """A plain English plural of a product noun."""
    if word == "mouse":
        return "mice"
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def query_variants(query: str) -> list[str]:
    """Other ways a shopper says the same query: the other number of its last word, and a
    synonym for a product noun ("notebook case" -> "notebook cases", "laptop case")."""
    words = query.split()
    if not words:
        return []
    out: list[str] = []
    last = words[-1]
    if last.isalpha():
        single = singular(last)
        out.append(" ".join([*words[:-1], single if single != last else plural(last)]))
    for i, word in enumerate(words):
        single = singular(word)
        if single in _SWAPS and word.isalpha():
            swapped = _SWAPS[single] if single == word else plural(_SWAPS[single])
            out.append(" ".join([*words[:i], swapped, *words[i + 1 :]]))
    return [v for v in dict.fromkeys(out) if v != query]
