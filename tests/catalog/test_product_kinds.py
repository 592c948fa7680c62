"""A word before a product noun that makes it another product ("Graphics Tablet")."""

from __future__ import annotations

import pytest

from app.catalog.product_kinds import names_kind, other_kind, other_kind_in


@pytest.mark.parametrize(
    ("text", "asked", "kind"),
    [
        ("StarTech.com 6 ft. HDMI to DisplayPort Cable - 4K", ("hdmi",), "hdmi to displayport"),
        ("StarTech 2 m HDMI to Mini DisplayPort Cable", ("hdmi",), "hdmi to displayport"),
        ("StarTech DisplayPort 1.2 to HDMI Cable", ("hdmi",), "displayport to hdmi"),
        ("StarTech 2 m USB-C to DisplayPort 1.2 Cable", ("usb-c",), "usb-c to displayport"),
        ("StarTech HDMI to DisplayPort Cable", ("hdmi", "displayport"), None),
        ("Anker USB-C to USB-A cable", ("usb-c",), None),
        ("Manhattan HDMI Cable, 4K, 1.8m, Male to Male", ("hdmi",), None),
    ],
)
def test_a_cable_from_the_asked_kind_to_a_rival_one_is_an_adapter(
    text: str, asked: tuple[str, ...], kind: str | None
) -> None:
    """ "a hdmi cable 6ft that supports 4k" had picked HDMI to DisplayPort cables first."""
    assert other_kind(text, "cable", (*asked, "cable")) == (f"{kind} cable" if kind else None)


@pytest.mark.parametrize(
    ("text", "noun", "asked", "kind"),
    [
        ("Genius Easypen i405 Graphics Tablet Silver", "tablet", (), "graphics tablet"),
        ("Wacom intuos4 Small Pen Tablet", "tablet", ("tablet",), "pen tablet"),
        ("graphics tablets", "tablet", (), "graphics tablets"),
        ("Coby Kyros 7-inch Android Touchscreen Tablet", "tablet", (), None),
        ("Wacom Pen Tablet", "tablet", ("tablet", "drawing"), None),
        ("Wacom Pen Tablet", "tablet", ("graphics", "tablet"), None),
        ("Pen Tablet and Android Tablet bundle", "tablet", (), None),
        ("Motorola MBP36 baby monitor", "monitor", (), "baby monitor"),
        ("AOC 27B2H computer monitor", "monitor", (), None),
        ("Yamaha PSR-E373 Piano Keyboard", "keyboard", (), "piano keyboard"),
        ("Genius Graphics Tablet", "mouse", (), None),
        ("Tablet", "tablet", (), None),
        ("Motorola t305 Bluetooth Visor Speaker Phone Car Kit", "speaker", (), "speaker phone"),
        ("Jabra Speak 510 Speaker Phone", "speaker", ("speaker", "phone"), None),
        ("Sony Portable Bluetooth Speaker MBS-100 docking speaker", "speaker", (), None),
        ("Ea Sports Battlefield 1942 : Deluxe Edition (PC) Game", "pc", ("gaming",), "pc game"),
        ("Evergirl: PC CD-Rom Video Game", "pc", ("gaming", "pc"), "pc cd-rom"),
        ("Encore Monopoly Here & Now Board Game PC", "pc", (), "game pc"),
        ("iBUYPOWER Gaming PC Computer Desktop Element 9260", "pc", ("gaming",), None),
        ("Battlefield 1942 (PC) Game", "pc", ("pc", "game"), None),
    ],
)
def test_a_word_beside_the_noun_names_another_kind_unless_asked(
    text: str, noun: str, asked: tuple[str, ...], kind: str | None
) -> None:
    assert other_kind(text, noun, asked) == kind


def test_any_text_of_an_item_may_name_the_other_kind() -> None:
    assert other_kind_in(("Wacom intuos4 Wireless", "graphics tablets"), "tablet") == (
        "graphics tablets"
    )
    assert other_kind_in(("Samsung Galaxy Tab S6", None), "tablet") is None


@pytest.mark.parametrize(
    ("text", "asked", "kind"),
    [
        ("Cables Unlimited 3 High-Speed HDMI Cable Black", ("coaxial", "cable"), "hdmi cable"),
        ("C2G 3ft Snagless Patch Cable networking cable", ("coax", "cable"), "patch cable"),
        ("Philips Cat 6 cable", ("coaxial", "cable"), "cat6 cable"),
        ("C2G 3m 75Ohm BNC Cable coaxial cable Black", ("coaxial", "cable"), None),
        ("Startech Coaxial High Resolution Monitor VGA Cable", ("coaxial", "cable"), None),
        ("Belkin USB cable", ("coaxial", "cable"), "usb cable"),
        ("Tripp Lite USB 2.0 Hi-Speed A/B Cable (M/M)", ("coaxial", "cable"), "usb cable"),
        ("Anker USB-C to USB-C cable", ("usb", "cable"), None),
        ("Anker USB-C to USB-C cable", ("lightning", "cable"), "usb cable"),
        ("C2G 12ft Pro XLR Male to XLR Female audio cable", ("hdmi", "cable"), "xlr cable"),
        ("C2G 3ft DB9 M/M Cable - Black DB9M", ("coaxial", "cable"), "db9 cable"),
        (
            "C2G 10ft IEEE-1284 DB25M to C36M Parallel printer cable 3.04 m Gray",
            ("10 foot", "copper", "coaxial", "cable"),
            "ieee-1284 cable",
        ),
        (
            "Cables Unlimited hdb15 Male to Female Svga Cable 100 Feet",
            ("hdmi", "cable"),
            "hdb15 cable",
        ),
        ("GE High-Speed HDMI Cables with Ethernet", ("ethernet", "cable"), "hdmi cable"),
        ("GE High-Speed HDMI Cables with Ethernet", ("hdmi", "cable"), None),
        ("Cables Unlimited HDMI Cable", ("cable",), None),
        ("ko-101 Video Cable - 100 ft - White", ("ethernet", "cable"), "video cable"),
    ],
)
def test_a_cable_of_a_rival_kind_is_another_kind(
    text: str, asked: tuple[str, ...], kind: str | None
) -> None:
    """An HDMI cable is no coaxial cable: the asked kind must be named, outside a feature."""
    assert other_kind(text, "cable", asked) == kind


@pytest.mark.parametrize(
    ("text", "noun", "asked", "kind"),
    [
        (
            "Canon Powershot Elph 300 HS Digital Camera",
            "camera",
            ("surveillance",),
            "digital camera",
        ),
        ("Trendnet Internet Surveillance Camera", "camera", ("surveillance",), None),
        ("Defender Digital Wireless DVR Security Camera", "camera", ("digital",), None),
        ("Canon SS-650 Shoulder Strap", "strap", ("smartwatch",), "shoulder strap"),
        ("Bower ss2477bk Digital Camera Wrist Strap", "strap", ("smartwatch",), "camera strap"),
        (
            "Manhattan 179317 headphones/headset Head-band Black",
            "band",
            ("smartwatch",),
            "head band",
        ),
        (
            "10 Pack Sport Bands Compatible with Fitbit Charge 2 Bands",
            "band",
            ("smartwatch",),
            None,
        ),
    ],
)
def test_a_camera_strap_or_band_of_a_rival_kind_is_another_kind(
    text: str, noun: str, asked: tuple[str, ...], kind: str | None
) -> None:
    assert other_kind(text, noun, (*asked, noun)) == kind


@pytest.mark.parametrize(
    ("text", "asked", "kind"),
    [
        ('LG AN-GXDV55 flat panel desk mount 139.7 cm (55") Black', ("tv", "wall"), "desk mount"),
        ("Newstar flat screen ceiling mount", ("tv", "wall"), "ceiling mount"),
        ("Sanus Full Motion Wall TV Mount", ("tv", "wall"), None),
        ("Peerless Adjustable TV Mount", ("tv", "wall"), None),
        ("Clingo Universal Hands-Free Car Mount for iPhone", ("phone", "car"), None),
        ("Newstar notebook desk mount", ("phone", "car"), "desk mount"),
        ("Newstar TV/Monitor Wall Mount", ("tv",), None),
    ],
)
def test_a_mount_for_another_place_is_another_kind(
    text: str, asked: tuple[str, ...], kind: str | None
) -> None:
    assert other_kind(text, "mount", (*asked, "mount")) == kind


def test_a_memory_stick_is_no_graphics_card() -> None:
    memory_stick = "Sony 8gb Memory Stick Pro Duo Card msmt8g"
    assert other_kind(memory_stick, "card", ("graphics", "card")) == "stick card"
    assert other_kind(memory_stick, "card", ("memory", "stick", "card")) is None


def test_a_landline_phone_is_no_android_phone() -> None:
    assert other_kind("Uniden Black Slimline Corded Phone", "phone", ("android", "phone")) == (
        "corded phone"
    )
    assert other_kind("HTC Sensation 4g Android Phone T-Mobile", "phone", ("android",)) is None
    assert other_kind("Panasonic DECT 6.0 Cordless Phone", "phone", ("cordless",)) is None
    assert other_kind("Panasonic DECT 6.0 Cordless Phone", "phone", ("phone",)) is None


@pytest.mark.parametrize(
    ("text", "asked", "kind"),
    [
        ("Lexmark 15R0140 printer cabinet/stand White", ("tv", "stand"), "printer stand"),
        ("Samsung DLP TV Stand in Black", ("tv", "stand"), None),
        ("3M Adjustable Monitor Stand", ("tv", "stand"), "monitor stand"),
        ("3M Adjustable Monitor Stand", ("stand",), None),
    ],
)
def test_a_stand_for_another_product_is_another_kind(
    text: str, asked: tuple[str, ...], kind: str | None
) -> None:
    """A printer stand is no TV stand, though the cross-encoder scored one 0.99 as one."""
    assert other_kind(text, "stand", asked) == kind


@pytest.mark.parametrize(
    ("text", "noun", "asked", "kind"),
    [
        ("Anker USB-C to USB-C cable", "cable", ("usb-c", "cable"), None),
        ("C2G 12ft Pro XLR audio cable", "cable", ("usb", "c", "cable"), "xlr cable"),
        ("Samsung Car Charger Auto Black", "charger", ("wall", "charger"), "car charger"),
        ("Kensington Wall Charger for Mini & Micro USB Devices", "charger", ("wall",), None),
        ("Tripp Lite Portable Charger 10,050mAh Bank", "charger", ("ac",), "portable charger"),
        ("Tripp Lite Wireless Car Charger - 15W, Qi", "charger", ("car", "charger"), None),
        ("Verbatim 1 tb USB 2.0 Portable External Hard Drive", "drive", ("optical",), "hard drive"),
        ("HP External USB DVD RW Drive optical disc drive", "drive", ("optical", "drive"), None),
        ("ASUS Slim External DVD-RW Drive", "drive", ("dvd", "drive"), None),
        ("SanDisk Cruzer USB Flash Drive", "drive", ("hard", "drive"), "flash drive"),
        ("SanDisk Cruzer USB Flash Drive", "drive", ("usb", "drive"), None),
        ("MSI MPG 110R Mid Tower Gaming Computer Case", "case", ("iphone",), "tower case"),
        ("Washington Redskins iPod Touch 4g Hard Case", "case", ("headphones",), "ipod case"),
        ("Incipio Feather Case for iPad 2", "case", ("phone", "case"), "ipad case"),
        ("Samsung EF-QG985 mobile phone case", "case", ("galaxy", "case"), None),
        ("Case Logic QPB-201 Pink", "case", ("smartwatch",), None),
        ("PanzerGlass Screen protector iPad Air", "protector", ("galaxy",), "ipad protector"),
        ("StarTech 4 Port VGA Distribution Amplifier", "amplifier", ("power",), "vga amplifier"),
        ("LevelOne HDMI over Cat.5 Long Range Receiver", "receiver", ("av",), "cat5 receiver"),
        ("Denon 7.1 Channel AV Receiver", "receiver", ("av", "receiver"), None),
        ("V7 128GB SDXC Card V10 U1 A1 CL10 UHD", "card", ("microsd",), "sdxc card"),
        ("V7 8GB Class 10 Micro SDHC Card + Adapter", "card", ("sd", "card"), None),
        ("v7 32gb SD Card Class 6 SDHC", "card", ("micro", "sd", "card"), "sd card"),
        ("StarTech 15 ft Coax VGA Monitor Cable", "cable", ("coaxial", "cable"), "vga cable"),
        ("Philips coax cable 5m", "cable", ("coaxial", "cable"), None),
        ("Sandisk 32gb Microsdhc Memory Card", "card", ("micro", "sd", "card"), None),
        ("Pan Tilt Surveillance Camera", "camera", ("camera", "vlogging"), "surveillance camera"),
        ("Creative PCI Sound Blaster Audio Sound Card", "card", ("graphics",), "sound card"),
        ("Kingston 2 gb ddr3 Dimm Desktop Memory", "memory", ("dell", "laptop"), "dimm memory"),
        ("Corsair 2 gb 240-pin ddr3 Memory Kit", "memory", ("laptop",), "240-pin memory"),
        ("Kingston 4gb ddr3 Sodimm Notebook Memory", "memory", ("laptop",), None),
        ("Kingston 4gb ddr3 Sodimm Notebook Memory", "ram", ("desktop",), "sodimm ram"),
    ],
)
def test_chargers_drives_cases_memory_and_standards_name_their_kind(
    text: str, noun: str, asked: tuple[str, ...], kind: str | None
) -> None:
    """A car charger is no wall charger, a hard drive no optical drive, a computer case no
    phone case, desktop memory no laptop memory, and an asked standard counts by its family
    as a title's does ("usb-c" asks for a USB cable)."""
    assert other_kind(text, noun, asked) == kind


@pytest.mark.parametrize(
    ("product", "says_kind"),
    [("coaxial cable", True), ("sd card", True), ("memory card", False), ("cable", False)],
)
def test_a_name_may_say_a_kind_of_its_noun(product: str, says_kind: bool) -> None:
    assert names_kind(product) is says_kind


@pytest.mark.parametrize(
    ("text", "noun", "kind"),
    [
        ('Samsung Spinpoint F3 1000GB HDD 3.5" Serial ATA II', "ssd", "hdd drive"),
        ("Samsung 860 EVO 1TB SSD", "ssd", None),
        ("Crucial MX500 1TB Internal Solid State Drive", "ssd", None),
        ("WD Blue 1TB Internal Hard Drive", "hdd", None),
        ("SanDisk Ultra SDHC 32GB", "microsd", "sdhc card"),
        ("Nintendo Switch Pro Controller", "switch", None),
    ],
)
def test_a_kind_asked_as_the_product_rules_out_its_rivals(
    text: str, noun: str, kind: str | None
) -> None:
    """ "an ssd" is a kind of drive asked by its own name: an HDD is another kind, as it is
    of "an ssd drive"; nouns the lexicon names no family for are left alone."""
    assert other_kind(text, noun, (noun,)) == kind
