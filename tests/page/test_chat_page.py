"""The chat page in headless Chromium against the real agent on the real index, over real
HTTP on loopback, driven from the keyboard: three turns (a budget, "something cheaper",
"compare the first two"), a chip removed, a reload, both layouts, no console errors; the
catalog's facets as filters (shops, a price range) and a card's similar items."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.page.conftest import ServePage
from tests.page.driver import ChatPage

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

FIRST = "bluetooth headphones under $80"
BUDGET_USD = 80.0
UNNAMED_CONTROLS = """[...document.querySelectorAll('button, input, select')]
    .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                 && !e.textContent.trim())
    .map(e => e.outerHTML)"""
_BUDGET_CHIP = re.compile(r"Budget: under \$([0-9][0-9,]*\.[0-9]{2})")


def budget_chip(chat: ChatPage) -> float | None:
    for chip in chat.chips():
        found = _BUDGET_CHIP.search(chip)
        if found:
            return float(found.group(1).replace(",", ""))
    return None


def assert_within(chat: ChatPage, budget: float) -> list[str]:
    cards = chat.cards()
    assert cards, "the turn showed no cards"
    for card in cards:
        assert card.price_usd is not None, card
        assert card.price_usd <= budget + 0.005, (card, budget)
    return [card.item_id for card in cards]


def test_three_turns_a_chip_removed_and_a_reload(
    browser: Any, serve_page: ServePage, reports: Path
) -> None:
    with serve_page() as url:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        chat = ChatPage(context.new_page(), url)
        chat.open()

        chat.send(FIRST)
        assert budget_chip(chat) == BUDGET_USD, chat.chips()
        first_ids = assert_within(chat, BUDGET_USD)
        assert any(chip.startswith("Looking for:") for chip in chat.chips())
        assert chat.answers()
        assert chat.answers()[-1].strip()

        chat.send("something cheaper")
        lower = budget_chip(chat)
        assert lower is not None
        assert lower < BUDGET_USD
        cheaper_ids = assert_within(chat, lower)
        assert cheaper_ids != first_ids

        chat.send("compare the first two")
        table = chat.page.locator("#compare table")
        assert chat.page.locator("#compare").is_visible()
        titles = [c.title for c in chat.cards()[:2]]
        assert table.locator("thead th").all_text_contents()[1:] == titles
        assert table.locator("tbody th").all_text_contents()[:2] == ["Price", "Shop"]
        assert [c.item_id for c in chat.cards()] == cheaper_ids
        chat.page.screenshot(path=str(reports / "chat-page-1280.png"), full_page=True)

        remove = chat.page.locator("#chips .chip-remove[aria-label^='Remove Budget']")
        remove.focus()
        chat.page.keyboard.press("Enter")
        chat.wait_for_turn(4)
        assert budget_chip(chat) is None, chat.chips()
        edited_ids = [c.item_id for c in chat.cards()]
        assert edited_ids
        assert edited_ids != cheaper_ids
        assert max(c.price_usd or 0 for c in chat.cards()) > lower
        chips = chat.chips()

        chat.page.reload()
        chat.page.wait_for_selector("body[data-ready='true']")
        assert chat.user_lines()[:3] == [FIRST, "something cheaper", "compare the first two"]
        assert [c.item_id for c in chat.cards()] == edited_ids
        assert chat.chips() == chips

        unnamed = chat.page.evaluate(UNNAMED_CONTROLS)
        assert unnamed == [], "controls without a label or name"

        chat.page.set_viewport_size({"width": 375, "height": 812})
        overflow = chat.page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= 375, f"the page is {overflow} px wide at 375 px"
        chat.page.screenshot(path=str(reports / "chat-page-375.png"), full_page=True)
        assert chat.errors == []
        context.close()


def test_bundles_offers_and_compare_selected(browser: Any, serve_page: ServePage) -> None:
    with serve_page() as url:
        chat = ChatPage(browser.new_page(viewport={"width": 1280, "height": 900}), url)
        chat.open()

        chat.send("a laptop and a mouse")
        slots = chat.page.locator("#cards .slot .slot-name").all_text_contents()
        assert slots == ["laptop", "mouse"]
        firsts = [card.price_usd for card in chat.cards()]
        assert all(price is not None for price in firsts)
        total = chat.page.locator("#cards .bundle-total").text_content() or ""
        assert f"${sum(p for p in firsts if p is not None):,.2f}" in total
        chat.page.reload()
        chat.page.wait_for_selector("body[data-ready='true']")
        assert chat.page.locator("#cards .slot .slot-name").all_text_contents() == slots

        chat.page.locator("#new-session").focus()
        chat.page.keyboard.press("Enter")
        assert chat.cards() == []
        chat.send("sony headphones")
        chat.page.wait_for_selector("#cards .offers .offer")
        offer = chat.page.locator("#cards .offers .offer").first.text_content() or ""
        assert "save $" in offer

        boxes = chat.page.locator("#cards .compare-pick")
        for n in (0, 1):
            boxes.nth(n).focus()
            chat.page.keyboard.press("Space")
        chat.page.locator("#compare-selected").focus()
        chat.page.keyboard.press("Enter")
        table = chat.page.locator("#compare table")
        titles = [c.title for c in chat.cards()[:2]]
        assert table.locator("thead th").all_text_contents()[1:] == titles
        chat.page.wait_for_selector("#compare th:text('Cheapest elsewhere')")

        before = chat.turns()
        chat.page.select_option("#shop-scope", "amazon")
        chat.page.locator("#shop-apply").focus()
        chat.page.keyboard.press("Enter")
        chat.wait_for_turn(before + 1)
        assert "Shop: Amazon" in chat.chips()
        shops = chat.page.locator("#cards .card .shop").all_text_contents()
        assert shops
        assert set(shops) == {"Amazon"}

        assert chat.page.locator(".similar-button").count() == len(chat.cards())
        assert chat.page.locator("#facets").is_visible()
        assert chat.errors == []
        chat.page.close()


MARKUP = '<img src=x onerror="window.pwned=1"><b>bold</b>'
_RANGE = re.compile(r"\$([0-9][0-9,]*\.[0-9]{2}) to \$([0-9][0-9,]*\.[0-9]{2})")


def with_markup(route: Any, edit: Any) -> None:
    """Answer with the real server's JSON, edited by `edit(doc)` to carry markup in a text."""
    response = route.fetch()
    doc = response.json()
    edit(doc)
    route.fulfill(response=response, json=doc)


def test_facets_filter_the_plan_and_similar_items_list_other_products(
    browser: Any, serve_page: ServePage, page_index: Any
) -> None:
    with serve_page() as url:
        chat = ChatPage(browser.new_page(viewport={"width": 1280, "height": 900}), url)
        chat.page.route(
            re.compile(r"/v1/catalog/facets$"),
            lambda route: with_markup(
                route, lambda d: d["facets"]["brands"].insert(0, {"value": MARKUP, "count": 1})
            ),
        )
        chat.page.route(
            re.compile(r"/v1/items/[^/]+/similar\?"),
            lambda route: with_markup(
                route, lambda d: d["items"][0].update(title=MARKUP + d["items"][0]["title"])
            ),
        )
        chat.open()
        facets = chat.page.locator("#facets")
        assert facets.is_visible()
        shops = chat.page.locator("#facets .facet-shop")
        assert shops.count() == len(page_index.manifest.platforms)
        assert chat.page.locator("#facet-shops-apply").is_disabled(), "filters wait for a plan"
        scope = chat.page.locator("#shop-scope option").all_text_contents()
        assert len(scope) == len(page_index.manifest.platforms) + 1
        brand = chat.page.locator("#facets .facet-value").first
        assert (brand.text_content() or "").startswith(MARKUP)
        brand.focus()
        chat.page.keyboard.press("Enter")
        assert chat.page.input_value("#message") == MARKUP
        chat.page.fill("#message", "")

        chat.send("sony headphones")
        assert chat.page.locator("#facet-shops-apply").is_enabled()
        chat.page.locator("#facets .facet-shop[value='amazon']").focus()
        chat.page.keyboard.press("Space")
        chat.page.locator("#facet-shops-apply").focus()
        chat.page.keyboard.press("Enter")
        chat.wait_for_turn(2)
        assert "Shop: Amazon" in chat.chips()
        cards = chat.cards()
        assert cards
        assert set(chat.page.locator("#cards .card .shop").all_text_contents()) == {"Amazon"}

        first = chat.page.locator("#cards .card").first
        first.locator(".similar-button").focus()
        chat.page.keyboard.press("Enter")
        first.locator(".similar-list li").first.wait_for()
        listed = first.locator(".similar-list li")
        ids = [listed.nth(n).get_attribute("data-item-id") for n in range(listed.count())]
        assert ids
        assert cards[0].item_id not in ids
        titles = first.locator(".similar-title").all_text_contents()
        assert titles[0].startswith(MARKUP)
        assert first.locator(".similar-button").get_attribute("aria-expanded") == "true"

        middle = chat.page.locator("#facets .facet-range").nth(1)
        found = _RANGE.search(middle.text_content() or "")
        assert found, middle.text_content()
        low, high = (float(g.replace(",", "")) for g in found.groups())
        middle.focus()
        chat.page.keyboard.press("Enter")
        chat.wait_for_turn(3)
        assert budget_chip(chat) == high, chat.chips()
        assert any(chip.startswith("Budget: over") for chip in chat.chips())
        for card in chat.cards():
            assert card.price_usd is not None
            assert low - 0.005 <= card.price_usd <= high + 0.005, (card, low, high)

        stock = chat.page.locator("#in-stock")
        assert not stock.is_checked()
        stock.focus()
        chat.page.keyboard.press("Space")
        chat.wait_for_turn(4)
        assert "In stock only" in chat.chips()
        assert stock.is_checked()
        assert budget_chip(chat) == high, "the stock wish keeps the rest of the plan"
        assert "in stock" in chat.answers()[-1], "the demo lists no stock: the answer says so"
        assert chat.page.locator("#cards .card .stock").count() == 0
        chat.page.locator("#chips .chip-remove[aria-label='Remove In stock only']").focus()
        chat.page.keyboard.press("Enter")
        chat.wait_for_turn(5)
        assert "In stock only" not in chat.chips()
        assert not stock.is_checked()

        for markup in ("#facets img", "#facets b", ".similar img", ".similar b"):
            assert chat.page.locator(markup).count() == 0, markup
        assert chat.page.evaluate("window.pwned") is None
        assert chat.page.evaluate(UNNAMED_CONTROLS) == []
        assert chat.errors == []
        chat.page.close()
