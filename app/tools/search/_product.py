"""Which product a search asks for, and whether a hit is one. When no hit names the product,
item_search recalls the product alone ("monitor macbook" found only Mini DVI adapters), and
under hard filters it probes such a result like a short one ("a power bank under $50":
power cords and toys, while every power bank costs more)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from app.catalog.add_ons import describes_add_on, names_only_as_add_on_target
from app.catalog.item import Item
from app.catalog.model_codes import ModelCode, named_codes, query_codes
from app.catalog.product_kinds import card_words, other_kind
from app.catalog.product_lines import line_kind, with_line_kind
from app.catalog.product_nouns import (
    canonical,
    catalog_name,
    category_words,
    head,
    is_accessory_noun,
    is_generic_head,
    kinds_of,
    listed_as,
    names_as_product,
    singular,
    tokens,
)
from app.catalog.profile_kinds import title_kind
from app.catalog.shelves import (
    rival_shelf_keys,
    says_sort,
    shelf_key,
    shelf_keys,
    unshelved_words,
)
from app.catalog.short_names import to_short_names, with_short_names
from app.language import lexicon
from app.tools.plan import ShoppingPlan, is_catalog_kind, is_product_noun, plan_from_text
from app.tools.terms import find_specs


def asked_product(query: str, planned: str | None = None, given: str | None = None) -> str | None:
    """The product a search asks for, from typed values only (the query is never read as a
    plan): the product the caller named (`given`: the slot's category, or what the model
    said it searches for, "laptop sleeve"), else the plan's category for the slot when the
    query names its noun, else None."""
    named = " ".join((given or "").lower().split())
    if named:
        return named
    if planned and names_noun(query, planned):
        return planned
    return None


def searched_product(
    query: str, plan: ShoppingPlan, planned: str | None, given: str | None
) -> str | None:
    """The product a search asks for (`asked_product`); a search outside any plan (the plan
    names no product words: the CLI, an evaluation) has its query read once instead."""
    if given is None and not (plan.category or plan.bundle or plan.keywords or plan.must_have):
        return read_product(query)
    return asked_product(query, planned, given)


def read_product(query: str) -> str | None:
    """The product a search made outside any plan asks for ("pickwise search power bank":
    "power bank"): its query is the shopper's text, read here once by the rule planner."""
    return plan_from_text([query]).category or None


def names_noun(request: str, product: str) -> bool:
    """Whether the request says the product's noun, in any number or a near-synonym
    ("laptops" or "notebook" for laptop)."""
    noun = head(product)
    return noun is not None and noun in {canonical(t) for t in tokens(request)}


def accessory_asked(product: str, request: str, features: Iterable[str] = ()) -> str | None:
    """The accessory the rule planner reads in a request that names `product` only as what
    the accessory is for ("laptop sleeve" for a laptop; not "camera 1080p carrying case",
    where the case is asked beside the camera), else None; an accessory among the
    product's must-have `features` is a part of it ("laptop stylus" for a laptop with a
    stylus)."""
    noun = head(product)
    read = plan_from_text([request]).category
    read_noun = head(read) if read else None
    if noun is None or read is None or read_noun is None or read_noun == noun:
        return None
    if not is_accessory_noun(read_noun) or noun not in category_words(read):
        return None
    featured = {canonical(t) for feature in features for t in tokens(feature)}
    return None if read_noun in featured else read


def names_product(item: Item, product: str, request: str = "") -> bool:
    """`_names` for the product as asked, by its catalog name ("usb stick" is named by a
    "USB flash drive") or by a kind a broad product covers (a necklace is jewelry), or an
    item the catalog files as it (a "Tower Black PC" typed PC is a desktop pc)."""
    names = dict.fromkeys((product, catalog_name(product), *kinds_of(product)))
    return any(_names(item, name, request) for name in names) or on_shelf(item, product)


def _names(item: Item, product: str, request: str) -> bool:
    """Whether the item's title or known category (when the noun heads it: not a mouse's
    "keyboards mice input devices") names the product's noun as the thing itself, not as
    what an accessory is for ("Laptop Sleeve", "screen protector Mobile
    phone/Smartphone", a description saying "Screen Protector"; what follows a "+" comes
    with it) nor as another kind
    ("Graphics Tablet" for a tablet, unless the request says "drawing"); a hyphenated
    compound names it too ("Power-Bank"), and so does its product line ("Galaxy Tab")."""
    noun = head(product)
    if noun is None or describes_add_on(item.description, noun):
        return False
    shelf = to_short_names((item.known_category or "").lower())
    if filed_as_accessory(shelf, noun):
        return False
    title = item.title.lower()
    maker = f"{(item.brand or '').lower()} "
    if len(maker) > 1 and title.startswith(maker) and title[len(maker) :].strip():
        title = title[len(maker) :]  # the maker's name says no product: "Lychee bags Backpack"
    texts = [as_sold(title), shelf if shelf and head(shelf) == noun else ""]
    texts += [_split_compounds(text, noun) for text in texts if "-" in text]
    texts = [with_short_names(text) for text in texts]
    texts += _as_its_line(texts[0])
    asked = (*category_words(product), *tokens(request))
    return any(
        names_as_product(text, noun)
        and not names_only_as_add_on_target(text, noun)
        and not names_only_as_feature(text, noun)
        and other_kind(text, noun, asked) is None
        for text in texts
    ) and _says_modifiers(" ".join(texts), product, noun)


def _as_its_line(title: str) -> list[str]:
    """The title read with the kind its product line says, when it names no product: a
    "Samsung Galaxy Tab S6 Lite" names a tablet, a "ThinkPad T14 512 GB SSD" a laptop."""
    if line_kind(title) is None or names_a_product(title):
        return []
    return [with_line_kind(title)]


_SIZE_UNIT = re.compile(r"\d*(?:[kmgt]b)")


def names_a_product(title: str) -> bool:
    """Whether the title names a product noun other than as a sized part ("512 GB SSD")."""
    words = tokens(title)
    return any(
        is_product_noun(word) and not (i and _SIZE_UNIT.fullmatch(words[i - 1]))
        for i, word in enumerate(words)
    )


def filed_as_accessory(category: str, noun: str) -> bool:
    """Whether the catalog files the item as an accessory of the product: its category names
    the noun before an accessory ("tablet security enclosure" for a tablet), so a title that
    names the product too ("Tablet Stand") does not make it one."""
    filed = head(category)
    if filed is None or filed == noun or not is_accessory_noun(filed):
        return False
    return names_noun(category, noun)


_PLUS = re.compile(r"\s\+\s")
_WITHOUT = re.compile(r"(?<![\w/])w/o\b")
_WITH = re.compile(r"(?<![\w/])w/(?!o\b)\s*")
"""Titles' short forms of "without" and "with" ("Enclosure w/ Fan" is an enclosure)."""


def as_sold(title: str) -> str:
    """The title with a "+" between products (and "w/") read as "with": what follows comes
    with the first ("Micro SDXC Card + Adapter" is a card, sold with an adapter), and a
    bracket after an accessory as what it is for ("Holder (iPhone / iPod)" holds them)."""
    spelled = _WITHOUT.sub("without", _WITH.sub("with ", title))
    return _BRACKETED.sub(_bracket_as_target, _PLUS.sub(" with ", spelled))


_BRACKETED = re.compile(r"([A-Za-z]+)\s*\(([^()]*)\)")


def _bracket_as_target(match: re.Match[str]) -> str:
    word, inside = match.group(1), match.group(2)
    return f"{word} for {inside}" if is_accessory_noun(singular(word)) else match.group(0)


def _split_compounds(text: str, noun: str) -> str:
    """`text` with the hyphenated compounds that hold the noun split ("Power-Bank",
    "Triple-Monitor"); other hyphens stay, so "USB-C Docking Station" still reads as one
    accessory after the noun. A compound after one letter is a word of its own ("T-shirt"
    is no shirt, an "E-Book" no book), one ending in a descriptor a description
    ("Shoe-Style Sandals")."""

    def split(match: re.Match[str]) -> str:
        compound = match.group(0)
        parts = compound.split("-")
        if len(parts[0]) == 1 or parts[-1] in _DESCRIPTORS:
            return compound
        held = any(canonical(part) == noun for part in parts)
        return compound.replace("-", " ") if held else compound

    return _HYPHENATED.sub(split, text)


_HYPHENATED = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
_DESCRIPTORS = lexicon.word_set("compound_descriptors")
_FEATURE_REACH = 4
"""How many words after "with" a feature may come ("Webcam with Snapshot and Microphone")."""


def names_only_as_feature(title: str, noun: str) -> bool:
    """Whether every mention of the noun comes after another product's noun and either a
    "with" ("USB Binaural Headset with Microphone" is a headset, not a microphone) or an
    amount sizing it as a part ("Desktop Computer ... 1TB SSD" is a computer, not an SSD)."""
    words = tokens(title)
    found = [i for i, w in enumerate(words) if canonical(w) == noun]
    return bool(found) and all(_is_feature_at(words, i, noun) for i in found)


def _is_feature_at(words: list[str], at: int, noun: str) -> bool:
    withs = [i for i in range(max(0, at - _FEATURE_REACH), at) if words[i] == "with"]
    sized = any(s.part for s in find_specs(" ".join(words[max(0, at - 2) : at + 1])))
    if not withs and not sized:
        return False
    before = words[: withs[-1]] if withs else words[: max(0, at - 2)]
    return any(is_product_noun(w) and canonical(w) != noun for w in before)


def _modifiers_said_by() -> dict[str, frozenset[str]]:
    """title word -> the shopper's modifiers it says: a "Projection Screen" is a projector
    screen, a "LaserJet Printer" a laser printer, a "Bluetooth Mouse" a wireless mouse."""
    out: dict[str, set[str]] = {"projection": {"projector"}}
    for modifier, words in lexicon.word_sets("terms_implied_by").items():
        for word in words:
            out.setdefault(word, set()).add(modifier)
    return {word: frozenset(modifiers) for word, modifiers in out.items()}


_MODIFIERS_SAID_BY = _modifiers_said_by()


def _says_modifiers(text: str, product: str, noun: str) -> bool:
    """Whether every other word of the product's name ("gaming" of "gaming mouse") is in
    `text`: a mouse that never says it is for gaming is not shown to be a gaming mouse. Any
    generic name of a machine says another ("Desktop PC" for a desktop computer)."""
    said = {canonical(t) for t in tokens(text)}
    said |= {canonical(part) for word in said if "-" in word for part in word.split("-")}
    said |= {m for word in said & _MODIFIERS_SAID_BY.keys() for m in _MODIFIERS_SAID_BY[word]}
    said |= {part for word in said for part in card_words(word)}
    generic = any(is_generic_head(word) for word in said)
    return all(
        word in said or (generic and is_generic_head(word))
        for word in category_words(product)
        if word != noun
    )


def none_named(items: Iterable[Item], product: str | None, request: str = "") -> bool:
    """True when a product is asked and no item names it."""
    return product is not None and not any(names_product(item, product, request) for item in items)


def on_rival_shelf(item: Item, product: str) -> bool:
    """Whether the catalog files the item as another kind of the product's machine (a
    notebook, when a desktop is asked)."""
    shelf = item.product_type
    return shelf is not None and shelf_key(shelf) in rival_shelf_keys(product)


def on_shelf(item: Item, product: str) -> bool:
    """Whether the catalog files the item as the product: its product type (from
    the title or the spec sheet) is the product's name ("Mini PC" for a mini pc), the
    catalogs' name for it, or a type of its kind ("PC" for a desktop) when its title says the
    sort asked ("gaming desktop": ROG, Legion)."""
    shelf = item.product_type
    if shelf is None or shelf_key(shelf) not in shelf_keys(product):
        return False
    sorts = unshelved_words(product, shelf)
    words = {canonical(t) for t in tokens(f"{item.title} {item.brand or ''}")} if sorts else set()
    return all(says_sort(words, sort) for sort in sorts)


def sibling_product(title: str, category: str) -> str | None:
    """The other product a title names with the category's modifier when it never names the
    category's product ("Power Cord" for a power bank, "Gaming Mouse" for a gaming
    keyboard), or None."""
    words = tokens(category)
    if len(words) < 2:
        return None
    noun, modifier = canonical(words[-1]), words[-2]
    said = tokens(title)
    if any(canonical(w) == noun for w in said):
        return None
    return next(
        (
            f"{modifier} {said[i + 1]}"
            for i in range(len(said) - 1)
            if said[i] == modifier
            and is_product_noun(said[i + 1])
            and _other_product(said[i + 1], noun)
        ),
        None,
    )


def another_product(item: Item, category: str, request: str = "") -> str | None:
    """The other kind of product an item's title names when it never says the asked one, in
    any role, nor a name shops list it as (a watch for "sunglasses from fastrack", a hood for
    "a hoodie"; not a "Laptop Riser", an accessory for the laptop), or None."""
    names = (category, *listed_as(category))
    if any(names_noun(item.title, n) or names_product(item, n, request) for n in names):
        return None
    own = {canonical(noun) for name in names if (noun := head(name))}
    kind = title_kind(item.title, lambda w: is_product_noun(w) or is_catalog_kind(w))
    return kind if kind is not None and canonical(kind) not in own else None


def accessorized_product(title: str, category: str) -> str | None:
    """The product an asked accessory is for, when the title is that product and names no
    accessory ("Galaxy Watch ... smartwatch" for smartwatch bands), or None."""
    words = tokens(category)
    if len(words) < 2:
        return None
    noun, target = canonical(words[-1]), canonical(words[-2])
    if not (is_accessory_noun(noun) or noun in _ASKED_ACCESSORIES):
        return None
    said = tokens(title)
    if not any(canonical(w) == target for w in said):
        return None
    return target if _is_the_product(said, title, target) else None


def target_codes(category: str, musts: Iterable[str]) -> tuple[ModelCode, ...]:
    """The model codes the must-haves name when the asked product is an accessory or a
    supply ("ink" that must have "officejet 6500"): the model it is for; none otherwise."""
    noun = head(category)
    if noun is None or not is_accessory_noun(noun):
        return ()
    return query_codes(" ".join(musts))


def is_named_target(item: Item, codes: Sequence[ModelCode]) -> bool:
    """Whether the item is the model an asked accessory is for (`target_codes`: the OfficeJet
    6500 printer for its ink): it writes one of the codes and no accessory noun."""
    said = tokens(item.title)
    return named_codes(item, codes) > 0 and not any(is_accessory_noun(canonical(w)) for w in said)


_ASKED_ACCESSORIES = frozenset({"band"})
"""Nouns that name an accessory when asked after its product ("smartwatch bands") but are
no accessory noun in titles, which use them otherwise ("Dual Band Router", "Fit band")."""


def _is_the_product(said: list[str], title: str, target: str) -> bool:
    """Whether a title names the target product as itself: not only as what an add-on is
    for, and with no accessory noun at all."""
    if not is_product_noun(target) or is_accessory_noun(target):
        return False
    if any(is_accessory_noun(canonical(w)) for w in said):
        return False
    return not names_only_as_add_on_target(title, target)


def _other_product(word: str, noun: str) -> bool:
    """Whether the word names a product other than the noun; one generic name of a machine
    is not another product than the next ("Desktop PC" is a desktop computer)."""
    said = canonical(word)
    return said != noun and not (is_generic_head(said) and is_generic_head(noun))


_CONNECTIVES = frozenset({"with", "and", "for", "&", "plus", "incl", "including", "or"})


def names_as_compound_modifier(title: str, noun: str) -> bool:
    """True when the title names the noun only inside a hyphenated word that describes
    another product or an accessory named right after it ("Triple-Monitor USB-C Docking
    Station", "Dual-Monitor Arm"); a one-letter lead makes the product's own name (a Y-Cable)."""
    words = tokens(title.lower())
    if any(canonical(w) == noun for w in words):
        return False
    for i, word in enumerate(words):
        parts = word.split("-")
        if len(parts) > 1 and len(parts[0]) > 1 and canonical(parts[-1]) == noun:
            return _describes_next(words[i + 1 : i + 4], noun)
    return False


def _describes_next(after: Sequence[str], noun: str) -> bool:
    """Whether a product or accessory noun other than `noun` follows before a connective."""
    for word in after:
        if word in _CONNECTIVES:
            return False
        if canonical(word) != noun and (
            is_product_noun(word) or is_accessory_noun(canonical(word))
        ):
            return True
    return False
