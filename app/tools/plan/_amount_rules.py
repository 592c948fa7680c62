"""Amounts as shoppers write them, for the planner's keywords: counts spelled out ("three
foot" -> "3 foot"), pack counts either side ("pack of three" -> "3 pack"), and the part an
amount sizes ("64gb of ram" -> "64gb ram"), never the product itself."""

from __future__ import annotations

import functools
import re

from app.catalog.product_nouns import singular
from app.catalog.specs import BYTE_UNITS, UNITS, comparable, quantities, without_quantities
from app.language import lexicon
from app.language.lexicon import number_words
from app.tools.plan._lexicon_rules import ATTRIBUTE_NOUNS, SIZED_BY_NUMBER_ONLY, is_product_noun
from app.tools.plan._text_rules import NUMBER_WORDS, STOP_WORDS, Token

MEASURED = re.compile(r"\d+(?:\.\d+)?[a-z]+")
"""An amount written with its unit ("16gb", "3rd")."""
ORDINAL = re.compile(r"\d+(?:" + lexicon.alternation("amount_ordinal") + r")")
PIECES = frozenset({"pcs"})
"""Shoppers' "pcs" counts pieces ("2 pcs of toothpaste"), not computers."""
_COUNTED = frozenset({*PIECES, "pack", "packs", "pieces", "count"})
"""Words that count pieces after a number ("three pack", "2 pcs")."""
_LARGER_NUMBER = lexicon.word_set("amount_larger_number")
"""Words after which a spelled count is part of a longer number ("one point seventy-six")."""
TENS = number_words("tens")
TEENS = number_words("teen")
"""Numbers spelled before a unit only ("fifteen foot"): before a product they are sizes and
shades more often than counts, so they are no count words."""


def spelled_amount(low: str, words: list[Token], i: int) -> tuple[str, int] | None:
    """A count spelled out before its unit, in digits with the unit ("three foot" -> "3 foot",
    "twenty four inch" or "twenty-four inch" -> "24 inch") and the part it sizes ("one
    terabyte ssd" -> "1 terabyte ssd"), and how many words it took."""
    if i > 0 and words[i - 1].text in _LARGER_NUMBER:
        return None
    end = next((k for k in range(i + 1, min(i + 3, len(words))) if is_unit(words[k].text)), None)
    if end is None or any(
        low[words[k - 1].end : words[k].start].strip() for k in range(i + 1, end + 1)
    ):
        return None
    value = _spelled_number([part for w in words[i:end] for part in w.text.split("-")])
    if value is None:
        return None
    amount, after = f"{value} {words[end].text}", end + 1
    joined = after < len(words) and not low[words[end].end : words[after].start].strip()
    if joined and _sized_part(words[after].text):
        return f"{amount} {words[after].text}", after + 1 - i
    return amount, after - i


_SPELLED_SIZES = {("double", "a"): "aa", ("triple", "a"): "aaa"}
"""Battery sizes shoppers spell out ("triple a batteries"), as catalogs write them."""


def spelled_size(low: str, words: list[Token], i: int) -> tuple[str, int] | None:
    """A size spelled out in words ("triple a" -> "aaa"), and how many words it took."""
    if i + 1 >= len(words) or low[words[i].end : words[i + 1].start].strip(" -"):
        return None
    size = _SPELLED_SIZES.get((words[i].text, words[i + 1].text))
    return None if size is None else (size, 2)


def pack_of(low: str, words: list[Token], i: int) -> tuple[str, int] | None:
    """A pack's count after it as catalogs write it before ("pack of three" -> "3 pack"),
    and how many words it took."""
    if words[i].text != "pack":
        return None
    at = i + 2 if i + 1 < len(words) and words[i + 1].text == "of" else i + 1
    if at >= len(words) or low[words[i].end : words[at].start].split() != ["of"]:
        return None
    count = words[at].text
    value = int(count) if count.isdigit() else _spelled_number(count.split("-"))
    return None if value is None else (f"{value} pack", at + 1 - i)


def amount_of(low: str, words: list[Token], i: int) -> tuple[str, int] | None:
    """An amount with the part it sizes after an "of" ("64gb of ram" -> "64gb ram"), and how
    many words it took."""
    if not MEASURED.fullmatch(words[i].text) or ORDINAL.fullmatch(words[i].text):
        return None
    part = part_of(low, words, i)
    return (f"{words[i].text} {part[0]}", part[1] + 1) if part else None


def part_of(low: str, words: list[Token], i: int) -> tuple[str, int] | None:
    """The part an amount ending at word `i` sizes, right after it, after an "of" or after a
    drive's interface ("32 gigabytes of ram", "16 gb ram" -> ram, "1 tb nvme ssd" -> nvme
    ssd), and how many words after `i` it took; None when none follows."""
    at = i + 2 if i + 1 < len(words) and words[i + 1].text == "of" else i + 1
    if at >= len(words):
        return None
    gap = low[words[i].end : words[at].start].split()
    part = words[at].text
    if not gap and part in _INTERFACES and at + 1 < len(words):
        drive = words[at + 1].text
        if low[words[at].end : words[at + 1].start].strip() == "" and drive in {"ssd", "hdd"}:
            return f"{part} {drive}", at + 1 - i
    joined = not gap and is_storage_part(part)
    if not (gap == ["of"] or joined) or not _sized_part(part):
        return None
    if is_storage_part(part) and not counts_bytes(words[i].text):
        return None
    return part, at - i


def counts_bytes(word: str) -> bool:
    """Whether a word is an amount of bytes or their unit, as memory and storage are sized
    ("16gb", "gb"; "10 inch" sizes no RAM)."""
    unit = UNITS.get(word)
    if unit is None:
        found = quantities(word)
        unit = found[0].unit if found else None
    return unit in BYTE_UNITS


_INTERFACES = lexicon.word_set("amount_interfaces")
"""How a drive connects, written between its size and its kind ("1 tb nvme ssd")."""


STORAGE_PARTS = frozenset({*SIZED_BY_NUMBER_ONLY, "ssd", "hdd"})
"""Parts an amount sizes written right after it ("16 gb ram", "1 tb ssd"); others need an
"of" ("3.5 ounce size" is no part)."""


def is_storage_part(word: str) -> bool:
    """Whether a word names memory or storage (`STORAGE_PARTS`, either number)."""
    return singular(word) in STORAGE_PARTS


STORAGE_FORMS = lexicon.word_set("amount_storage_forms")
"""Products that memory or storage with its size names the kind of ("a 32gb ram kit", "a 64gb
memory card", "a 2tb hdd enclosure"), where the amount sizes the product itself."""


def _sized_part(word: str) -> bool:
    """Whether an amount before the word sizes it as a part of the product ("ram", "ssd",
    "storage"), not the product itself ("10 pounds of chocolate")."""
    return singular(word) in ATTRIBUTE_NOUNS or singular(word) in SIZED_BY_NUMBER_ONLY


def is_unit(word: str) -> bool:
    """A unit a count goes with: a measure ("foot") or what counts pieces ("pack", "pcs")."""
    return word in UNITS or word in _COUNTED


def _spelled_number(parts: list[str]) -> int | None:
    if parts == ["one"]:
        return 1
    if parts[-1:] == ["hundred"]:
        lead = parts[:-1]
        many = 1 if lead in ([], ["one"], ["a"]) else _spelled_number(lead)
        return None if many is None else many * 100
    if len(parts) == 1:
        word = parts[0]
        return int(NUMBER_WORDS[word]) if word in NUMBER_WORDS else TENS.get(word, TEENS.get(word))
    ones = int(NUMBER_WORDS.get(parts[1], "0")) if len(parts) == 2 else 0
    return TENS[parts[0]] + ones if parts[0] in TENS and 0 < ones < 10 else None


def keeps_next(word: str, nxt: str) -> bool:
    """Whether a number keeps the next word: a bare number or an ordinal its unit or noun
    ("4 ounce", "3rd generation"), an amount with its unit only the part it sizes ("1tb
    ssd", not "8gb ddr4" or "512gb samsung")."""
    if not word[0].isdigit() or nxt in STOP_WORDS:
        return False
    if MEASURED.fullmatch(word) and not ORDINAL.fullmatch(word):
        return singular(nxt) in ATTRIBUTE_NOUNS or is_product_noun(nxt)
    return True


_MANY_PER_PRODUCT = lexicon.word_set("amount_many_per_product")
"""Units a product states of several parts ("16gb" of ram, "512gb" of storage): a bare
amount of one does not replace another."""


def same_measure(earlier: str, later: str, *, one_part: bool = False) -> bool:
    """Whether a later term sizes what an earlier one did, in one unit ("27 inch" then "32
    inch", "at least 16gb ram" then "32gb ram", "4k" then "1440p"): it replaces it. A bare
    amount in gb sizes the same thing as another only for a product of one such part
    (`one_part`: "a 2tb drive", then "4tb"; not a laptop's "16gb", then "512gb")."""
    measure = _measure(earlier)
    if measure is None or earlier == later or measure != _measure(later):
        return False
    unit, rest = measure
    return bool(rest) or unit not in _MANY_PER_PRODUCT or one_part


@functools.lru_cache(maxsize=4096)
def _measure(term: str) -> tuple[str, tuple[str, ...]] | None:
    """The unit of a term's one amount and the words beside it ("at least 16gb ram" -> gb,
    ("ram",)); None without exactly one amount. Read once per term, not once per pair the
    planner compares on every replayed message."""
    found = quantities(term)
    if len(found) != 1:
        return None
    unit = comparable(found[0].value, found[0].unit)[1]
    return unit, tuple(without_quantities(term).split())


def product_count(tokens_before: list[Token]) -> Token | None:
    """The count of products asked right before the product's words ("two usb cables", "2
    usb c chargers", "ten 12 foot cables"), over the words describing them: how many to
    buy, which no title says. A number after a describing word is a model's ("iphone 13
    case"), one before a unit or a stop word an amount ("12 foot", "3 piece", "2 in 1")."""
    first = max(0, len(tokens_before) - _COUNT_REACH)
    for k in range(len(tokens_before) - 1, first - 1, -1):
        word = tokens_before[k].text
        after = tokens_before[k + 1].text if k + 1 < len(tokens_before) else None
        if _count_word(word) and not (after is not None and is_unit(after)):
            if after in _AMOUNT_NOUNS or _stops_at(tokens_before, k + 1):
                return None
            before = tokens_before[k - 1].text if k > 0 else None
            return tokens_before[k] if before is None or before in _COUNT_LEADS else None
        if _stops_at(tokens_before, k):
            return None
    return None


def _stops_at(words: list[Token], i: int) -> bool:
    """Whether the i-th word is a stop word that ends a count's reach (not the "one" of "one
    hundred", nor a number)."""
    if i >= len(words) or words[i].text not in STOP_WORDS or words[i].text[:1].isdigit():
        return False
    return words[i].text != "one" or i + 1 >= len(words) or words[i + 1].text != "hundred"


_COUNT_REACH = 5
"""How many words before a product's noun a count of it may stand."""
_COUNT_LEADS = lexicon.word_set("amount_count_leads")
"""Words a count of products follows ("i need two", "looking for 3", "get me 2")."""
_AMOUNT_NOUNS = lexicon.word_set("amount_amount_nouns")
"""Words that make a number before them a spec, not a count ("3 piece", "4 color", "8
channel", "4 bay", "iphone 11 pro", "two lights" of a vanity light)."""


def _count_word(word: str) -> bool:
    """A bare count from one to twelve, in digits or spelled ("2", "two"): larger numbers
    before a product are mostly sizes and shades ("18 natural hair extensions")."""
    return word in NUMBER_WORDS or (word.isdigit() and word[0] != "0" and int(word) <= 12)
