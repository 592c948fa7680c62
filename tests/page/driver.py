"""The chat page as a test drives it, keyboard first: type and press Enter, wait for the
turn to end, read back the cards, chips and compare table, and collect console errors."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

TURN_TIMEOUT_MS = 180_000
_MONEY = re.compile(r"\$([0-9][0-9,]*\.?[0-9]*)")


@dataclass(frozen=True)
class Card:
    item_id: str
    title: str
    price_text: str

    @property
    def price_usd(self) -> float | None:
        """The USD amount on the card (the converted one when the shop's differs)."""
        found = _MONEY.findall(self.price_text)
        return float(found[-1].replace(",", "")) if found else None


@dataclass
class ChatPage:
    """One browser page on the chat page of `base_url`."""

    page: Any
    base_url: str
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.set_default_timeout(TURN_TIMEOUT_MS)
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        self.page.route(re.compile(r"^https?://(?!127\.0\.0\.1)"), lambda route: route.abort())

    def _on_console(self, message: Any) -> None:
        if message.type != "error":
            return
        where = str((message.location or {}).get("url", ""))
        if where and urlsplit(where).netloc != urlsplit(self.base_url).netloc:
            return  # a shop's image this offline machine cannot fetch: the placeholder shows
        self.errors.append(f"console: {message.text} ({where})")

    def open(self) -> None:
        self.page.goto(self.base_url + "/")
        self.page.wait_for_selector("body[data-ready='true']")

    def turns(self) -> int:
        return int(self.page.get_attribute("body", "data-turns") or 0)

    def send(self, message: str) -> None:
        """Type into the message box and press Enter; return once the turn has ended."""
        before = self.turns()
        self.page.focus("#message")
        self.page.keyboard.type(message)
        self.page.keyboard.press("Enter")
        self.wait_for_turn(before + 1)

    def wait_for_turn(self, count: int) -> None:
        """Wait until `count` turns have ended (the page's CSP allows no evaluated strings,
        so this waits on the attribute the page keeps)."""
        self.page.wait_for_selector(f"body[data-turns='{count}']", timeout=TURN_TIMEOUT_MS)

    def cards(self) -> list[Card]:
        found = self.page.eval_on_selector_all(
            "#cards .card",
            """cards => cards.map(c => ({
                item_id: c.dataset.itemId,
                title: c.querySelector('.title').textContent,
                price_text: c.querySelector('.price').textContent}))""",
        )
        return [Card(**card) for card in found]

    def chips(self) -> list[str]:
        return [t.strip() for t in self.page.locator("#chips .chip-label").all_text_contents()]

    def answers(self) -> list[str]:
        return self.page.locator("#conversation .line.assistant .text").all_text_contents()

    def user_lines(self) -> list[str]:
        return self.page.locator("#conversation .line.user .text").all_text_contents()

    def timings(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("window.pickwiseTimings"))
