"""Category and is-shopping rules: the head product noun of the first noun chunk with up to
two noun modifiers ("a quiet GAMING KEYBOARD"), else a kind of the catalog in use ("a red
KURTA"), a tool asked by purpose ("something to charge my phone"), and "not shopping" only
for clear small talk."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from app.catalog.product_nouns import plural, singular
from app.catalog.profile_kinds import KindFilter
from app.catalog.specs import UNITS
from app.language import lexicon
from app.tools.plan._amount_rules import (
    MEASURED,
    PIECES,
    STORAGE_FORMS,
    TEENS,
    TENS,
    is_storage_part,
    is_unit,
)
from app.tools.plan._lexicon_rules import (
    AMBIGUOUS_HEADS,
    COLOUR_NAMES,
    COMPOUND_MODIFIERS,
    CONTAINER_NOUNS,
    HEADS_AFTER_A_PRODUCT,
    IMPLIED_MODIFIERS,
    ING_NOUNS,
    NOT_HEADS,
    PARTS_NAMED_LAST,
    PASSED_MODIFIERS,
    PRODUCT_PRONOUNS,
    TWO_WORD_NAMES,
    is_catalog_kind,
    is_product_noun,
)
from app.tools.plan._phrase_rules import BOUNDARY_WORDS
from app.tools.plan._story_rules import only_newness
from app.tools.plan._text_rules import (
    NUMBER_WORDS,
    SIZE_LABELS,
    STOP_WORDS,
    Allowed,
    Token,
    tokens,
)
from app.tools.plan.catalog_words import current_vocabulary

_CHUNK_BREAK = re.compile(r"[.,;:!?()\[\]\"&/]")
_REQUEST_LEAD = re.compile(
    r"\b(?:"
    + lexicon.alternation("category_request_lead")
    + r")\s+(?:me\s+)?(?:(?:a|an|some|the|new)\s+)?"
)
_SMALL_TALK = re.compile(
    (r"^\W*(?:" + lexicon.alternation("category_small_talk_1") + r")\b|\b(?:")
    + lexicon.alternation("category_small_talk")
    + r")\b"
)
PURPOSE_PRODUCTS = lexicon.word_map("category_purpose_products")
"""Verbs a shopper asks a tool for by purpose, and the product noun of that tool."""
_PURPOSE = re.compile(
    (
        r"\b(?:"
        + lexicon.alternation("category_purpose_1")
        + r")\s+(?:to|that\s+(?:can|will)|for)\s+("
    )
    + "|".join(PURPOSE_PRODUCTS)
    + r")\b"
)
_SHOPPING_WORDS = re.compile(r"\b(?:" + lexicon.alternation("category_shopping_words") + r")\b")


@dataclass(frozen=True)
class CategoryGuess:
    """The category phrase, its singular head noun, and the offsets of its words; `passed`:
    the offsets of words within them that describe the product apart from its name
    ("hdmi male-to-male cable"), left to the keywords."""

    category: str
    head: str
    start: int
    end: int
    passed: tuple[tuple[int, int], ...] = ()

    def claims(self, tok: Token) -> bool:
        """Whether the token is a word of the category phrase."""
        inside = self.start < tok.end and tok.start < self.end
        return inside and (tok.start, tok.end) not in self.passed


def chunks(low: str, start: int, end: int, allowed: Allowed) -> list[list[Token]]:
    """Runs of allowed words with no punctuation or function word between them."""
    runs: list[list[Token]] = [[]]
    prev: Token | None = None
    for tok in tokens(low, start, end):
        broken = prev is not None and bool(_CHUNK_BREAK.search(low, prev.end, tok.start))
        if not allowed(tok) or tok.text in BOUNDARY_WORDS or tok.text == "of" or broken:
            runs.append([])
        if allowed(tok) and tok.text not in BOUNDARY_WORDS and tok.text != "of":
            runs[-1].append(tok)
        prev = tok
    return [run for run in runs if run]


_OF_GAP = re.compile(r"\s+of\s+(?:(?:a|an|the|some)\s+)?")
"""What joins a container or an amount to what it holds ("a bag OF jerky", "36 pack OF ...")."""


def guess_category(low: str, start: int, end: int, allowed: Allowed) -> CategoryGuess | None:
    """The head product noun phrase of `low[start:end]`, or None when it names no product;
    a request by purpose ("something to charge my phone") asks for the tool of the verb."""
    purpose = _purpose(low, start, end, allowed)
    if purpose is not None:
        return purpose
    runs = chunks(low, start, end, allowed)
    for idx, run in enumerate(runs):
        head = _head_index(run)
        if head is None or _TRAIT_LEAD.search(low, max(0, run[head].start - 12), run[head].start):
            continue
        if singular(run[head].text) in CONTAINER_NOUNS and idx + 1 < len(runs):
            after = low[run[head].end : runs[idx + 1][0].start]
            inner = _head_index(runs[idx + 1])
            if _OF_GAP.fullmatch(after) and inner is not None:
                run, head = runs[idx + 1], inner
        return _phrase(run, head)
    return _catalog_kind(runs)


_TRAIT_LEAD = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(PRODUCT_PRONOUNS))) + r")\s+$")
"""A word standing for the product right before a noun: the noun is a trait of it ("something
LIGHT"), so it heads no product."""


def _catalog_kind(runs: list[list[Token]]) -> CategoryGuess | None:
    """Where no lexicon noun heads a run, the first run that ends in a kind of the catalog in
    use ("a red KURTA with embroidery" on a fashion catalog), or in one and a container of it
    ("a KURTA set", before the container itself); only last, as an ambiguous head: a
    catalog's kinds are read from its titles, not checked by hand ("MACHINE washable")."""
    for run in runs:
        last = len(run) - 1
        held = last > 0 and singular(run[last].text) in CONTAINER_NOUNS
        for k in (last - 1, last) if held else (last,):
            if run[k].text not in PIECES and is_catalog_kind(run[k].text):
                return _phrase(run, k)
    return None


def _purpose(low: str, start: int, end: int, allowed: Allowed) -> CategoryGuess | None:
    """ "something to charge my phone" -> charger, before any product the verb acts on."""
    m = _PURPOSE.search(low, start, end)
    if m is None:
        return None
    verb = next(iter(tokens(low, m.start(1), m.end(1))), None)
    if verb is None or not allowed(verb):
        return None
    if any(is_product_noun(t.text) for t in tokens(low, start, m.start())):
        return None
    product = PURPOSE_PRODUCTS[m.group(1)]
    return CategoryGuess(product, product, m.start(1), m.end(1))


def fallback_category(low: str, start: int, end: int, allowed: Allowed) -> CategoryGuess | None:
    """For nouns the lexicon lacks: the last words of the chunk after "i need a", "find me"
    (newness may come between: "i need a new watchband")."""
    for m in _REQUEST_LEAD.finditer(low, start, end):
        runs = chunks(low, m.end(), end, allowed)
        if not runs or not only_newness(low[m.end() : runs[0][0].start]):
            continue
        for run, after in zip(runs, [*runs[1:], None], strict=True):
            words = _name_words(run, skip=STOP_WORDS)
            if words:
                category = " ".join(t.text for t in words)
                head = singular(words[-1].text)
                return CategoryGuess(category, head, words[0].start, words[-1].end)
            if after is None or not _OF_GAP.fullmatch(low, run[-1].end, after[0].start):
                break  # only an amount "of" the product passes on ("a 36 pack of applesauce")
    return None


_BARE_LEAD = re.compile(r"\W*(?:(?:a|an|some)\s+)?")
BARE_MAX_WORDS = 3
"""A message of more words than this is a sentence, not a product typed as in a search box."""


def bare_category(low: str, allowed: Allowed) -> CategoryGuess | None:
    """For a message that is a short noun phrase and nothing else ("dog food", "a piano",
    "baby formula under $20"): its last words, as `fallback_category` reads them after "i
    need a"; words the lexicon knows in another role never head one ("the red one")."""
    lead = _BARE_LEAD.match(low)
    start = lead.end() if lead else 0
    said = [t for t in tokens(low, start, len(low)) if allowed(t)]
    runs = chunks(low, start, len(low), allowed)
    if len(runs) != 1 or runs[0] != said or len(said) > BARE_MAX_WORDS:
        return None
    if len(said) == 1 and start == 0:
        return None  # one word alone may be a wish ("wireless"); "a piano" is a product
    head = said[-1].text
    if not _may_head(head) or not all(_may_modify(t.text) for t in said):
        return None
    words = _name_words(said, skip=COLOUR_NAMES)
    if not words:
        return None
    category = " ".join(t.text for t in words)
    return CategoryGuess(category, singular(head), words[0].start, words[-1].end)


def _name_words(run: list[Token], skip: Collection[str]) -> list[Token]:
    """The last two words of a run that may name a product the lexicon lacks: no count and
    no unit after one ("a 24 hour timer" is a timer, not an "hour timer")."""
    kept = [
        t
        for k, t in enumerate(run)
        if t.text not in skip and not _is_count(t.text) and not _counted_unit(run, k)
    ]
    return kept[-2:]


def _may_head(word: str) -> bool:
    """Whether a word typed alone may name a product: no word the lexicon or the catalog
    knows in another role (a colour, a unit, a brand), no feature ("noise cancelling")."""
    if word in STOP_WORDS or word in NOT_HEADS or singular(word) in NOT_HEADS:
        return False
    if word.endswith("ing") and word not in ING_NOUNS:
        return False
    known = current_vocabulary()
    kinds = KindFilter(brands=known.brands, attribute_values=known.attribute_values)
    return kinds.is_kind(singular(word))


def _may_modify(word: str) -> bool:
    return word not in STOP_WORDS and word not in NUMBER_WORDS


def clearly_not_shopping(low: str, has_product: bool, has_findings: bool, n_keywords: int) -> bool:
    """Greetings, thanks and small talk that name no product, price or constraint."""
    if has_product or has_findings or _SHOPPING_WORDS.search(low):
        return False
    return n_keywords == 0 or bool(_SMALL_TALK.search(low))


def _head_index(run: list[Token]) -> int | None:
    """The last product noun of the run, passing over one that a measured spec makes part of
    an earlier product's description ("laptop 16 gb RAM", "gaming laptop 1tb SSD"; not a
    container: "3 ounce bag of jerky") and a processor after a machine; a word that heads
    only after a product noun takes its place ("monitor arm"), or memory or storage in a list
    of sized parts ("tablet ram 2gb rom 16gb")."""
    for k in range(len(run) - 1, -1, -1):
        if not _heads(run, k):
            continue
        size = _part_size(run, k)
        if size and _head_index(run[: k - size]) is not None:
            continue
        if _in_spec_list(run, k) and _head_index(run[:k]) is not None:
            continue
        if run[k].text in PARTS_NAMED_LAST and k > 0 and _head_index(run[:k]) is not None:
            continue
        if k + 1 < len(run) and singular(run[k + 1].text) in HEADS_AFTER_A_PRODUCT:
            return k + 1
        return k
    return None


def _part_size(run: list[Token], k: int) -> int:
    """How many words before the k-th state the size that makes it a sized part, not a
    container, with a word before them; 0 when none do."""
    size = _size_before(run, k)
    return size if 0 < size < k and singular(run[k].text) not in CONTAINER_NOUNS else 0


def _sized_storage(run: list[Token], k: int) -> bool:
    """Whether the k-th word is memory or storage with its size ("8 gb RAM mini computer"),
    which describes the product, not its kind."""
    return is_storage_part(run[k].text) and _size_before(run, k) > 0


def _size_before(run: list[Token], k: int) -> int:
    """How many words before the k-th state a measured size ("16gb", "16 gb"), or 0."""
    if k > 0 and MEASURED.fullmatch(run[k - 1].text):
        return 1
    if k > 1 and run[k - 2].text[0].isdigit() and run[k - 1].text in UNITS:
        return 2
    return 0


def _size_after(run: list[Token], k: int) -> bool:
    """Whether the k-th word is memory or storage whose size follows it ("ram 2gb", "storage
    64 gb"), a part named before its size."""
    if not is_storage_part(run[k].text) or k + 1 >= len(run):
        return False
    nxt = run[k + 1].text
    unit_next = k + 2 < len(run) and nxt[0].isdigit() and run[k + 2].text in UNITS
    return bool(MEASURED.fullmatch(nxt)) or unit_next


def _in_spec_list(run: list[Token], k: int) -> bool:
    """Whether the k-th word is a part named before its size with another sized part after
    ("ram 2gb rom 16gb"): the product's specs, where "laptop ram 16gb" alone is laptop RAM."""
    if not _size_after(run, k):
        return False
    return any(_size_after(run, j) or _sized_storage(run, j) for j in range(k + 2, len(run)))


def _heads(run: list[Token], k: int) -> bool:
    """Whether the k-th word can head the run: a product noun (an ambiguous one only last or
    before its size), or a noun that names a product after the word before it ("power
    strip")."""
    word = run[k].text
    if _two_word_name(run, k):
        return True
    if word in PIECES:
        return False
    if k > 0 and run[k - 1].text in _PARTICLE_VERBS.get(word, ()):
        return False
    if k > 0 and run[k - 1].text in _MORE_WORDS and is_storage_part(word):
        return False  # "what about more ram" asks it of the laptop in hand
    last = k == len(run) - 1 or run[k + 1].text in SIZE_LABELS  # "a top size small"
    return is_product_noun(word) and (word not in AMBIGUOUS_HEADS or last)


_PARTICLE_VERBS = {"ups": lexicon.word_set("category_particle_verbs")}
"""Nouns that are another word after a verb ("pop ups", "push ups" are no UPS)."""


def _two_word_name(run: list[Token], k: int) -> bool:
    """Whether the k-th word and the one before it make a `TWO_WORD_NAMES` name."""
    return k > 0 and (run[k - 1].text, singular(run[k].text)) in TWO_WORD_NAMES


_SPLIT_NAMES = lexicon.word_map("split_product_names")
"""Product names of two words whose second half is a product noun of its own, by the one
word catalogs write: "a smart watch" is a smartwatch, not a watch."""


def _phrase(run: list[Token], head: int) -> CategoryGuess:
    joined = _joined_head(run, head)
    last = head - 1 if joined else head
    first, taken, passed, implied = last, 0, [], []
    noun = joined or run[head].text
    while first > 0 and taken < 2:
        tok = run[first - 1]
        if singular(noun) in IMPLIED_MODIFIERS.get(tok.text, ()):
            implied.append(tok)
            first -= 1
            continue
        if tok.text in PASSED_MODIFIERS:
            passed.append(tok)
            first -= 1
            continue
        names = (
            (first == last and _two_word_name(run, last))
            or tok.text in COMPOUND_MODIFIERS
            or (is_product_noun(tok.text) and tok.text not in AMBIGUOUS_HEADS)
        )
        sized = _sized_storage(run, first - 1) and singular(noun) not in STORAGE_FORMS
        if not names or _counted_unit(run, first - 1) or sized:
            break
        first, taken = first - 1, taken + 1
    while passed and passed[-1] is run[first]:
        first += 1
        passed.pop()
    words = [t.text for t in run[first:last] if t not in passed and t not in implied] + [noun]
    spans = tuple((t.start, t.end) for t in passed)
    return CategoryGuess(" ".join(words), singular(noun), run[first].start, run[head].end, spans)


_MORE_WORDS = lexicon.word_set("category_more_words")
"""Words before memory or storage that ask more of the product in hand ("more ram")."""
_COUNT_WORDS = lexicon.word_set("category_count_words")
"""Count words beside NUMBER_WORDS, TENS and TEENS that end a count before its unit ("one hundred
foot"); "one" is no number word elsewhere, being as often a pronoun."""


def _counted_unit(run: list[Token], k: int) -> bool:
    """Whether the k-th word is the unit of a count before it ("3 foot hdmi cables", "three
    foot"), not a modifier of the product ("foot massager")."""
    return k > 0 and is_unit(run[k].text) and _is_count(run[k - 1].text)


def _is_count(word: str) -> bool:
    """A number, written or spelled ("3", "2.6", "twenty", "hundred")."""
    spelled = word in NUMBER_WORDS or word in TENS or word in TEENS or word in _COUNT_WORDS
    return word[0].isdigit() or spelled


def _joined_head(run: list[Token], head: int) -> str | None:
    """The one-word name of a split head ("smart watches" -> "smartwatches"), or None."""
    if head == 0:
        return None
    word = run[head].text
    joined = _SPLIT_NAMES.get(f"{run[head - 1].text} {singular(word)}")
    if joined is None:
        return None
    return joined if singular(word) == word else plural(joined)
