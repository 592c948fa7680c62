"""Product types as shelves: which types file a product (its name, the catalogs' name for
it, the types of its kind: Icecat files desktops as PC or workstation) and which file a
rival kind of the same machine (a notebook is never a desktop)."""

from __future__ import annotations

from collections.abc import Collection

from app.catalog.product_nouns import catalog_name, category_words, head, is_generic_head
from app.language import lexicon

__all__ = ["rival_shelf_keys", "says_sort", "shelf_key", "shelf_keys", "unshelved_words"]

_DESKTOP_TYPES = lexicon.words("shelves_desktop_types")
_PORTABLE_TYPES = lexicon.words("shelves_portable_types")
_KIND_SHELVES = {"desktop": _DESKTOP_TYPES, "pc": _DESKTOP_TYPES, "computer": _DESKTOP_TYPES}
"""Product types under which catalogs file a kind of product that shoppers name otherwise:
Icecat types its desktops as PC, workstation, all-in-one PC or mini PC, never desktop."""

_SORT_SIGNS = lexicon.word_sets("shelves_sort_signs")
"""Words by which a title says a machine is of a sort without the sort's word: Icecat
titles its gaming PCs by their line (ASUS ROG, Lenovo Legion, MSI Trident)."""

_KIND_RIVALS = {
    "desktop": _PORTABLE_TYPES,
    "pc": _PORTABLE_TYPES,
    "tablet": ("notebook", "mobile workstation", *_DESKTOP_TYPES),
    "laptop": _DESKTOP_TYPES,
}
"""Product types of another kind of computer, by the asked product's noun: a notebook is
never a desktop, a PC nor a tablet, a PC never a laptop (2-in-1s are typed hybrid,
neither)."""


def shelf_key(category: str) -> tuple[str, ...]:
    """A product type's identity: its canonical words in order ("printer label" is no
    "label printer"), the generic names of a machine as one ("all-in-one computer" and
    "All-in-One PC" are one type)."""
    return tuple("pc" if is_generic_head(w) else w for w in category_words(category))


def shelf_keys(product: str) -> frozenset[tuple[str, ...]]:
    """The `shelf_key` of every product type that files the product: its own name, the
    catalogs' name for it, and the types of its kind ("desktop computer" -> pc, workstation,
    all-in-one pc, mini pc, pc barebone)."""
    names = [product, catalog_name(product), *_KIND_SHELVES.get(_kind(product), ())]
    return frozenset(shelf_key(name) for name in names)


def unshelved_words(product: str, product_type: str) -> tuple[str, ...]:
    """Words of the product's name that filing it under `product_type` does not say: the
    sort of a kind ("gaming" for a "gaming desktop" typed PC), which its title must say; a
    word the catalogs' name replaces ("thumb drive" -> usb flash drive) is no sort."""
    kept = shelf_key(catalog_name(product))
    said = {*shelf_key(product_type), _kind(product), "pc"}
    return tuple(w for w in shelf_key(product) if w in kept and w not in said)


def says_sort(words: Collection[str], sort: str) -> bool:
    """Whether a title's words say the sort of machine, by its word or its signs ("rog")."""
    return sort in words or not _SORT_SIGNS.get(sort, frozenset()).isdisjoint(words)


def rival_shelf_keys(product: str) -> frozenset[tuple[str, ...]]:
    """The `shelf_key` of every product type that files another kind of the product's machine
    ("desktop computer" -> notebook, tablet, mobile workstation); empty for most products."""
    return frozenset(shelf_key(name) for name in _KIND_RIVALS.get(_kind(product), ()))


def _kind(product: str) -> str:
    """The kind of computer the product names, by its noun; none for a type of its own ("mini
    pc", "all-in-one pc": a PC tower is no mini PC)."""
    return "" if shelf_key(product) in _OWN_TYPES else head(product) or ""


_OWN_TYPES = frozenset(shelf_key(t) for t in _DESKTOP_TYPES if t != "pc")
"""Desktop types shoppers name as such ("mini pc"), not by the kind."""
