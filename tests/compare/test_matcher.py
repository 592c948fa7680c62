"""The product matcher on hand-written, real-looking offer pairs: model numbers, the prefix
trap, capacities and screen sizes, brands, colours and editions; and its text readers."""

from __future__ import annotations

import itertools

import pytest

from app.catalog._match_text import (
    bare_numbers,
    is_code,
    model_field_codes,
    quantities,
    title_codes,
)
from app.catalog._match_weights import FITTED_THRESHOLD
from app.catalog.item import Item, Platform
from app.catalog.matching import ProductMatcher
from app.config.params.compare import COMPARE_MATCH_THRESHOLD

_ids = itertools.count()


def offer(
    platform: Platform,
    title: str,
    *,
    brand: str | None = None,
    model: str | None = None,
    price: float | None = None,
) -> Item:
    return Item(
        item_id=f"{platform}:hand{next(_ids)}",
        platform=platform,
        title=title,
        brand=brand,
        model_number=model,
        price_usd=price,
        source="test",
    )


# fmt: off
SAME = {
    "model number in one field, the other's title": (
        offer("walmart", "Panasonic KX-TG4500B 5.8 GHz Expandable Cordless Phone",
              brand="Panasonic", model="kx-tg4500b", price=59.88),
        offer("amazon", "Panasonic kxtg4500b Cordless Telephone with Answering System Black",
              brand="Panasonic", price=54.99),
    ),
    "model number fields equal, titles far apart": (
        offer("walmart", "Pioneer 10 Subwoofer with Single Voice Coil", brand="Pioneer",
              model="ts-w259s4", price=113.0),
        offer("amazon", "Pioneer Champion Series 10-inch Single 4-Ohm Subwoofer ts-w259s4",
              brand="Pioneer", model="ts-w259s4", price=89.0),
    ),
    "code only in the titles, no brand field": (
        offer("abt", "Canon PowerShot SD1100 IS Blue Digital Camera sd1100isblu"),
        offer("buy", "Canon PowerShot SD1100 IS 8.0 Megapixel Digital Camera Blue sd1100isblu",
              price=199.0),
    ),
    "software title inside a longer one": (
        offer("amazon", "Microsoft Office 2004 Standard (Mac)", brand="Microsoft", price=399.99),
        offer("google", "Microsoft Office 2004 Standard", price=369.99),
    ),
}

DIFFERENT = {
    "prefix trap: same stem, different colour suffix": (
        offer("walmart", "Brother TN-210M Magenta Toner Cartridge", brand="Brother",
              model="tn-210m", price=54.99),
        offer("amazon", "Brother TN-210BK Black Toner Cartridge", brand="Brother",
              model="tn-210bk", price=49.99),
    ),
    "capacity mismatch": (
        offer("walmart", "Kingston DataTraveler 101 G2 16GB USB 2.0 Flash Drive",
              brand="Kingston", price=12.99),
        offer("amazon", "Kingston DataTraveler 101 G2 32GB USB 2.0 Flash Drive",
              brand="Kingston", price=19.99),
    ),
    "capacity in the model number": (
        offer("walmart", "Kingston DataTraveler 16GB USB Flash Drive dt101g2/16gb",
              brand="Kingston", model="dt101g2/16gb", price=12.99),
        offer("amazon", "Kingston DataTraveler 32GB USB Flash Drive dt101g2/32gb",
              brand="Kingston", model="dt101g2/32gb", price=19.99),
    ),
    "screen size mismatch": (
        offer("walmart", 'Dell Inspiron 15.6" Laptop Intel Core i5 4GB 500GB', brand="Dell",
              price=549.0),
        offer("amazon", 'Dell Inspiron 17.3" Laptop Intel Core i5 4GB 500GB', brand="Dell",
              price=599.0),
    ),
    "brand mismatch": (
        offer("walmart", "SanDisk Ultra 32GB microSDHC Class 10 Memory Card with Adapter",
              brand="SanDisk", price=19.99),
        offer("amazon", "Samsung EVO 32GB microSDHC Class 10 Memory Card with Adapter",
              brand="Samsung", price=18.99),
    ),
    "colour variant": (
        offer("walmart", "Kodak EasyShare M552 Pink 14MP Digital Camera", brand="Kodak",
              model="m552 pink", price=99.0),
        offer("amazon", "Kodak EasyShare M552 14 MP Digital Camera Black", brand="Kodak",
              model="m552 black", price=95.0),
    ),
    "upgrade edition": (
        offer("amazon", "Adobe Photoshop CS3 Upgrade [Mac]", brand="Adobe", price=199.0),
        offer("google", "Adobe Photoshop CS3 for Mac", price=649.0),
    ),
    "version mark": (
        offer("amazon", "Adobe Photoshop CS3 [Mac]", brand="Adobe", price=649.0),
        offer("google", "Adobe Photoshop CS4 for Mac", price=649.0),
    ),
}
# fmt: on


@pytest.mark.parametrize("case", list(SAME))
def test_same_product(matcher: ProductMatcher, case: str) -> None:
    left, right = SAME[case]
    score = matcher.score(left, right)
    assert score.same_product, (case, score)
    assert score.reasons
    assert max(score.reasons.values()) > 0


@pytest.mark.parametrize("case", list(DIFFERENT))
def test_different_products(matcher: ProductMatcher, case: str) -> None:
    left, right = DIFFERENT[case]
    assert not matcher.score(left, right).same_product, case


def test_evidence_names_what_decided(matcher: ProductMatcher) -> None:
    same = matcher.score(*SAME["model number fields equal, titles far apart"])
    assert same.reasons["model_exact"] > 0
    assert same.reasons["code_exact"] > 0
    trap = matcher.score(*DIFFERENT["prefix trap: same stem, different colour suffix"])
    assert trap.reasons["code_conflict"] < 0
    assert "code_exact" not in trap.reasons
    assert matcher.score(*DIFFERENT["capacity mismatch"]).reasons["quantity_conflict"] < 0
    assert matcher.score(*DIFFERENT["screen size mismatch"]).reasons["quantity_conflict"] < 0
    assert matcher.score(*DIFFERENT["brand mismatch"]).reasons["brand_conflict"] < 0
    assert matcher.score(*DIFFERENT["colour variant"]).reasons["colour_conflict"] < 0


def test_scores_are_symmetric(matcher: ProductMatcher) -> None:
    for left, right in [*SAME.values(), *DIFFERENT.values()]:
        assert matcher.score(left, right).probability == matcher.score(right, left).probability


def test_threshold_is_read_at_call_time(matcher: ProductMatcher) -> None:
    pair = SAME["software title inside a longer one"]
    assert COMPARE_MATCH_THRESHOLD.get() == FITTED_THRESHOLD
    probability = matcher.score(*pair).probability
    assert matcher.score(*pair, threshold=min(probability + 0.01, 1.0)).same_product is False
    assert matcher.same_product(*pair)


def test_model_like_tokens() -> None:
    assert all(map(is_code, ["kx-tg4500b", "960-000048", "cli-226", "51645a", "36834nbl"]))
    assert not any(map(is_code, ["16gb", "3-button", "2-in-1", "10/100", "1080p", "2007"]))
    codes, joined = title_codes("buffalo linkstation duo ls-wx1.0 tl r1 nas")
    assert "lswx10" in codes
    assert "lswx10tlr1" in joined
    assert model_field_codes("p-fd4gb / mini-efm1") == {"pfd4gb", "miniefm1"}
    assert model_field_codes("dt101g2/16gb") == {"dt101g216gb"}


def test_quantities_and_numbers() -> None:
    assert quantities('dell 15.6" laptop 4 gb 1tb') == {"inch": {15.6}, "bytes": {4.0, 1000.0}}
    assert bare_numbers("office 2004 v. 3.0 7th edition cs3") == {"2004", "3", "7", "cs3"}
