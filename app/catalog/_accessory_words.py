"""The words that name accessories, made for another product ("laptop SLEEVE", "tv MOUNT"):
whole nouns, and the endings of product names written as one word ("GoRiser")."""

from __future__ import annotations

from app.language import lexicon

ACCESSORY_NOUNS = lexicon.word_set("accessory_nouns")
"""Nouns that make the word before them a modifier: "laptop sleeve", "mouse pad", "tv mount"."""

COMPOUND_ACCESSORY_ENDINGS = lexicon.words("compound_accessory_endings")
"""Accessory nouns that also end product names written as one word ("GoRiser", "MacSleeve");
only ones that end no common non-accessory word ("cover" ends "discover", "pad" "ipad")."""
