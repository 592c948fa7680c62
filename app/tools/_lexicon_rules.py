"""Word lists the rule planner reasons with: product head nouns, compound modifiers, idioms.
Hand-made from real shopper requests (WebShop goals, electronics catalogs) and kept small;
entries are lower-case singular forms (compare with `singular(word)`)."""

from __future__ import annotations

from functools import lru_cache

from app.catalog.product_nouns import singular
from app.catalog.specs import UNITS
from app.tools._text_rules import word_set

PRODUCT_NOUNS = word_set(
    """
    laptop notebook computer desktop pc chromebook macbook tablet ipad kindle ereader monitor
    display screen tv television projector keyboard mouse mice trackpad touchpad webcam camera
    cam camcorder lens tripod monopod gimbal drone printer scanner router modem switch hub dock
    docking enclosure filter adapter charger cable cord plug outlet battery powerbank bank
    headphone headset earbud
    nas ups presenter inverter extender repeater splitter converter transmitter
    card reader cartridge ink pad mousepad
    earphone earpiece airpod speaker soundbar subwoofer amplifier amp receiver turntable player
    microphone mic radio phone smartphone iphone smartwatch watch band strap fitbit tracker
    console controller joystick gamepad ssd hdd drive harddrive memory ram processor cpu gpu
    motherboard stylus pen case cover sleeve skin protector stand mount holder bracket riser
    charging-station antenna flashlight lamp light bulb lantern sconce chandelier fixture fan
    heater humidifier dehumidifier purifier vacuum thermostat doorbell lock alarm sensor
    kettle toaster blender mixer grinder juicer microwave oven cooker fryer airfryer stove
    grill pan pot skillet wok knife knives scissors shears cutlery spoon fork plate bowl cup
    mug glass tumbler bottle jar container lid tray rack organizer basket bin box bag backpack
    handbag purse wallet tote suitcase luggage duffel pouch umbrella
    chair stool barstool bench sofa couch loveseat ottoman footstool recliner table desk
    nightstand dresser cabinet bookcase bookshelf shelf shelves wardrobe armoire sideboard bed
    daybed bunkbed mattress topper pillow pillowcase sham blanket throw comforter duvet quilt
    bedspread sheet linen towel rug mat carpet curtain drape blind shade valance mirror clock
    frame poster print painting canvas art tapestry wallpaper decal sticker backdrop
    background vase candle diffuser statue figurine ornament wreath decoration topper
    shirt t-shirt tshirt tee top tops blouse tunic tank polo henley sweater sweatshirt hoodie
    cardigan jacket coat blazer vest parka windbreaker suit dress gown skirt jumpsuit romper
    pants jean jeans trouser legging jegging shorts sweatpants jogger underwear
    brief boxer bra panty lingerie sock stocking tights pajama sleepwear robe swimsuit bikini
    swimwear hat cap beanie scarf glove mitten belt tie shoe sneaker boot sandal slipper
    loafer oxford pumps heels flats clog wedges flip-flop mules bootie outfit costume uniform
    necklace bracelet earring ring pendant anklet brooch jewelry sunglasses eyeglasses glasses
    shampoo conditioner soap bodywash cleanser lotion moisturizer cream serum toner mask
    scrub exfoliator sunscreen sunblock deodorant antiperspirant perfume cologne fragrance
    parfum toilette mist spray gel wax pomade oil balm lipstick lipgloss gloss liner eyeliner
    mascara eyeshadow shadow palette foundation concealer powder blush bronzer highlighter
    primer polish nail remover brush comb toothbrush toothpaste mouthwash floss flosser
    razor shaver trimmer clipper epilator straightener curler dryer hairdryer wig hairpiece
    extension extensions weave braid lash eyelash tweezer dye treatment shampoo kit
    tea coffee espresso creamer milk juice soda water drink beverage smoothie shake syrup
    wine beer liquor mixer snack chip crisp cracker cookie biscuit cake cupcake brownie candy
    chocolate truffle gum jerky bar granola cereal oatmeal oat bread bagel pasta noodle rice
    bean nut almond cashew peanut pecan pistachio walnut seed fruit berry raisin date sauce
    salsa dressing seasoning spice salt pepper sugar sweetener honey jam jelly butter ghee
    cheese yogurt sausage bacon meat chicken beef turkey fish tuna salmon sardine soup broth
    popcorn pretzel stick mix dispenser perspirant maker supplement vitamin protein capsule
    tablet gummy
    toy puzzle game doll lego book notebook journal planner calendar pen pencil marker crayon
    paint easel sketchbook binder folder envelope label tape stapler calculator
    binocular monocular telescope microscope tent sleeping-bag hammock cooler grill
    bicycle bike helmet scooter skateboard ball racket club dumbbell kettlebell treadmill
    leash collar harness crate litter aquarium feeder
    tool drill saw hammer wrench screwdriver ladder hose sprinkler mower trimmer
    faucet showerhead shower toilet sink tile
    diaper wipe pacifier stroller crib
    """
)
"""Nouns that can head a product request ("a quiet gaming KEYBOARD")."""

COMPOUND_MODIFIERS = word_set(
    """
    gaming office desk computer laptop phone cell tablet car bike kitchen bath bathroom
    shower bed bedroom living dining patio garden outdoor indoor wall floor ceiling table
    window door hair face eye eyebrow lip nail skin body foot hand beard baby kid kids dog
    cat pet coffee tea wine water beer usb hdmi ethernet bluetooth tv wifi power memory
    foam storage shoe book tool toy gift birthday party wedding christmas halloween travel
    camping hiking running yoga gym fitness sports golf tennis soccer basketball swim
    picture photo makeup tooth teeth dental oral sleep night lunch snack protein energy
    sandwich pizza cake cookie chocolate fruit vegetable salad soup rice noodle pasta
    remote game video audio sound studio stereo home theater vanity accent end side coffee
    dish dinner bar bread paper ink laser inkjet sd microsd micro graphics sim flash hard
    sdhc sdxc microsdhc microsdxc compactflash cf cfexpress xqd banana dslr slr mirrorless kvm
    network av hidden spy
    external solid state printer toner cooling heating thumb jump surge all-in-one optical
    running walking work dress rain snow winter summer ski hockey light pendant tank crop
    dvd cd mp3 mp4 media blu-ray streaming record coaxial coax patch surveillance security
    dash ip web ac dc
    """
)
"""Words that, just before a product noun, belong to the product's name ("GAMING keyboard")."""

PURPOSE_NOUNS = word_set(
    """
    school college university class classes student students study studying homework
    podcast podcasts podcasting streaming meeting meetings call calls conferencing
    presentation presentations movie movies home office work business travel traveling
    editing photography
    """
)
"""What a product is used for, not what it is: "a laptop FOR SCHOOL" is a laptop, preferably
suited to school, and searching for "school" finds school software."""

CONTAINER_NOUNS = word_set(
    "pair set pack package bottle jar box bag can case piece bundle kit tube packet carton "
    "container roll sheet cup bunch assortment variety collection"
)
"""Nouns that usually wrap the real product: "a pack of CHIPS", "a pair of SHOES"."""

ATTRIBUTE_NOUNS = word_set(
    "sole outsole frame finish shade base closure design fit size color colour port strap "
    "handle heel toe processor ssd hdd ram drive storage battery screen display lining pocket "
    "waist waistband zipper button lace print pattern flavor flavour scent style material "
    "version model edition configuration capacity resolution warranty wheel arm back leg seat"
)
"""Parts and properties: never a bundle slot of their own ("with a steel frame and a
wood FINISH")."""

COLOR_COMPOUNDS = word_set(
    """
    printer printers printing print prints laser inkjet copier copies copy scanner scanning ink
    toner cartridge cartridges page pages ppm display displays screen screens touchscreen touch
    lcd led tv tvs television monitor monitors e-reader camera cameras video night photo photos
    sensor changing matching correction temperature accuracy gamut depth output multifunction
    all-in-one
    """
)
"""Words "color" names a feature with ("a COLOR laser printer", "COLOR changing lights");
before anything else it only labels a colour ("in the color redwood", "color: black")."""
COLOR_WORDS = frozenset({"color", "colour"})
"""The words `is_color_label` reads; plural "colors" is left alone."""
_COLOR_NAMED_AFTER = word_set("full true hair artificial natural food")
COLOUR_NAMES = word_set(
    """black white silver gray grey red blue green pink purple gold brown orange yellow beige
    navy teal violet ivory bronze"""
)
"""Colour names: one asked is a colour, no brand, though a catalog has a brand of the name."""


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

PART_HOSTS = word_set(
    "laptop notebook netbook chromebook macbook desktop pc computer workstation tablet ipad "
    "phone smartphone iphone"
)
COMPONENT_MAKERS = word_set("intel amd nvidia qualcomm snapdragon mediatek")
"""Makers of a computer's chips: named beside a `PART_HOSTS` product they ask its processor
or graphics, not its brand."""
SIZED_PARTS = word_set("ram memory ssd hdd storage processor cpu gpu battery screen display")
"""Parts of a `PART_HOSTS` product a later message may size alone ("a laptop", then "16gb
ram" or "i7 processor"): the product's requirement, not a new product."""

CONNECTORS = word_set(
    """hdmi displayport vga dvi usb usb-c usb-a micro-usb mini-usb lightning thunderbolt
    ethernet coaxial coax rca optical toslink aux xlr sata"""
)
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

SIZED_BY_NUMBER_ONLY = word_set("ram memory storage rom")
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
    by a part noun ("usb ports" -> "usb"); any other term, or
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
        own = [w for w in traits if w not in COMPOUND_MODIFIERS]
        return " ".join(own or traits)
    return term


_COUNT_TRAITS = word_set("dual triple quad single double twin")
"""Traits that count the part they name, which the part's name must say beside them."""

PLAIN_ADJECTIVES = word_set(
    """
    natural organic low high easy long short vegan kosher keto healthy fresh good great soft
    hard light dark heavy big small large medium little new old cheap affordable quiet loud
    comfortable durable portable lightweight waterproof simple quick best nice beautiful cute
    pretty strong premium quality real pure clean safe extra super mini
    """
)
"""Adjectives that end a negated list ("no added sugar and NATURAL" is not "no natural")."""

FREE_FEATURES = word_set(
    """
    hands hand cruelty wrinkle tangle frizz hassle worry maintenance tool tools streak lint
    scratch drip spill leak stress pain tear glare flicker fade smudge fingerprint clog
    crease care trouble fuss mess tax duty toll royalty risk stain germ static cord wire
    rinse noise key latch lag shake bubble fringe
    """
)
"""'X-free' that names a feature, not an ingredient: "hands-free" is no exclude on hands."""

FREEABLE = word_set(
    """
    gluten sugar paraben parabens bpa alcohol oil fat fluoride dairy fragrance sulfate
    sulfates soy nut nuts caffeine lead gmo gmos grain lactose acid phthalate phthalates
    silicone silicones latex cadmium mercury nickel chemical chemicals pesticide egg wheat
    corn peanut msg preservative preservatives formaldehyde ammonia talc cholesterol sodium
    salt carb carbs meat dye dyes soda aluminum scent perfume sls sles pvc plastic toxin
    toxins allergen allergens fillers filler artificial
    """
)
"""Ingredients and materials shoppers list before '-free' ("sulfate and paraben free")."""

NO_FEATURES = word_set(
    "slip show iron rinse frills fuss mess spill drip streak pull touch tie sew tangle break "
    "shred fog glare scratch smudge fade stain contact squeak"
)
"""'no X' that names a feature ("no-slip soles", "no-show socks"): a must-have, not an exclude."""

NEGATION_OBJECT_STOPS = word_set(
    """
    only just sure more less over above under below exceeding to necessarily needed required
    necessary important problem bad that at in for if when yet quite exactly available even
    really much many too very so longer bigger larger smaller higher lower wider heavier
    later sooner earlier fewer greater cheaper pricier budget preference preferences idea
    problem worries worry thanks thank matter need rush way doubt clue one ones big deal limit
    price cost clear certain used working be been being was is are it i you we they me my
    your our their this these those what how why where who which made a an the any all
    other else available included matter fan crazy keen sure quite entirely wait sorry
    interested
    actually nevermind never
    """
)
"""Words right after "not"/"no"/"without" that mean the phrase is no exclusion."""

ING_NOUNS = word_set(
    "ring string king wing spring swing sling thing icing seasoning frosting stuffing filling "
    "coloring colouring flavoring flavouring clothing bedding lighting packaging wiring "
    "padding dressing topping sweetening shortening ceiling railing siding flooring"
)
"""Words ending in -ing that are nouns, not verbs ("no artificial COLORING")."""


AMBIGUOUS_HEADS = word_set(
    "top light throw switch watch mask shade band tank gloss shadow mist art"
)
"""Product nouns that are as often adjectives or parts; they head a request only when last."""


TWO_WORD_NAMES = frozenset(
    {
        ("power", "strip"),
        ("led", "strip"),
        ("light", "strip"),
        ("mini", "pc"),
        ("mini", "computer"),
        ("docking", "station"),
        ("access", "point"),
        ("charging", "station"),
        ("battery", "backup"),
        ("portable", "charger"),
        ("range", "extender"),
        ("signal", "booster"),
        ("ball", "head"),
        ("watch", "band"),
        ("watch", "strap"),
        ("remote", "control"),
        ("privacy", "filter"),
    }
)
"""Product names of two words whose first word is no compound modifier elsewhere and whose
second may name no product alone: a "power strip" (not "bacon strips"), a "mini pc" (not a
"mini speaker" apart from speakers)."""

PARTS_NAMED_LAST = frozenset({"processor", "processors", "cpu", "cpus"})
"""Parts shoppers name after the machine that holds them ("hp desktop pc intel core j4025
processor" asks for the PC)."""

HEADS_AFTER_A_PRODUCT = frozenset({"arm"})
"""Nouns that name a product only after another ("a monitor arm"); alone they are body
parts or brands ("arm & hammer", "arms lumbar support")."""

PASSED_MODIFIERS = frozenset(
    {"male-to-male", "male-to-female", "female-to-male", "female-to-female"}
)
"""Words between a product's name and its noun that describe the item, not the product
("hdmi male-to-male cables" asks for HDMI cables, male to male)."""
IMPLIED_MODIFIERS = {"external": word_set("monitor display keyboard mouse")}
"""Modifiers every such product is, which no title says: "an external monitor for my
macbook" asks for a monitor ("external" names a product for drives and cd drives)."""


@lru_cache(maxsize=8192)
def is_product_noun(word: str) -> bool:
    """True when `word` (any number) can head a product request."""
    return word in PRODUCT_NOUNS or singular(word) in PRODUCT_NOUNS


def is_gerund(word: str) -> bool:
    """True for an -ing verb form ("without disturbing"), false for -ing nouns ("coloring")."""
    return len(word) > 5 and word.endswith("ing") and word not in ING_NOUNS
