"""The chat page in headless Chromium against a scripted agent (real server, real index for
the cards route): markup in a title or an answer shows as text, the stop button cancels the
turn on the server, a refused turn or a failed dependency shows a plain banner, a session
token the server issues goes with every later request about the session, and facets and
similar items hide when the server answers 501 or 404 for them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.api import scripted_agent as script
from tests.page.conftest import ServePage
from tests.page.driver import ChatPage

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

MARKUP = '<img src=x onerror="window.pwned=1"><b>bold</b>'


def test_markup_shows_as_text(browser: Any, serve_page: ServePage) -> None:
    with serve_page(script.ScriptedAgent()) as url:
        chat = ChatPage(browser.new_page(), url)
        chat.open()
        chat.send(MARKUP)
        [card] = chat.cards()
        assert card.title == MARKUP.title()
        assert chat.answers() == [f"Here is {MARKUP}."]
        assert chat.user_lines() == [MARKUP]
        for markup in ("#conversation img", "#conversation b", ".card-body img", ".card-body b"):
            assert chat.page.locator(markup).count() == 0, markup
        assert chat.page.evaluate("window.pwned") is None
        assert chat.page.locator(".card .placeholder").count() == 1
        assert chat.page.locator(".card .stock").all_text_contents() == ["Pre-order"]
        assert chat.errors == []
        chat.page.close()


def test_stop_cancels_the_turn(browser: Any, serve_page: ServePage) -> None:
    agent = script.ScriptedAgent()
    with serve_page(agent) as url:
        chat = ChatPage(browser.new_page(), url)
        chat.open()
        chat.page.focus("#message")
        chat.page.keyboard.type(script.HANG)
        chat.page.keyboard.press("Enter")
        chat.page.wait_for_selector("#feed .step.running")
        assert chat.page.is_enabled("#stop")
        assert agent.started.wait(timeout=30)
        chat.page.keyboard.press("Escape")
        chat.wait_for_turn(1)
        assert agent.cancelled.wait(timeout=30), "the server did not cancel the turn"
        notes = chat.page.locator("#conversation .line.note .text").all_text_contents()
        assert notes[-1] == "Stopped."
        assert chat.page.is_enabled("#send")
        assert chat.errors == []
        chat.page.close()


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        (script.FAIL_BEFORE, "down (redis)"),
        (script.ERROR_EVENT, "down"),
        (script.REJECT, "refused: the agent rejects this message"),
    ],
)
def test_a_banner_says_why_a_turn_failed(
    browser: Any, serve_page: ServePage, message: str, shown: str
) -> None:
    with serve_page(script.ScriptedAgent()) as url:
        chat = ChatPage(browser.new_page(), url)
        chat.open()
        chat.send(message)
        banner = chat.page.locator("#banner")
        assert banner.is_visible()
        assert shown in (banner.text_content() or "")
        chat.page.locator("#banner-close").focus()
        chat.page.keyboard.press("Enter")
        assert not banner.is_visible()
        assert all("Failed to load resource" in e for e in chat.errors), chat.errors
        chat.page.close()


def test_the_session_token_goes_with_every_request_about_the_session(
    browser: Any, serve_page: ServePage
) -> None:
    with serve_page(script.ScriptedAgent()) as url:
        chat = ChatPage(browser.new_page(), url)
        sent: list[tuple[str, str, str | None]] = []
        chat.page.on(
            "request",
            lambda r: (
                sent.append((r.method, r.url, r.headers.get("x-session-token")))
                if "/v1/" in r.url
                else None
            ),
        )
        chat.open()
        chat.send("usb hub")
        chat.send("usb cable")
        chat.page.reload()
        chat.page.wait_for_selector("body[data-ready='true']")
        assert chat.user_lines() == ["usb hub", "usb cable"]
        chats = [(m, t) for m, u, t in sent if u.endswith("/v1/chat")]
        kept = chat.page.evaluate("JSON.parse(localStorage.getItem('pickwise.session'))")
        sid, token = kept["id"], kept["token"]
        assert len(token) >= 40, "the token the server issued with the session"
        assert chats == [("POST", None), ("POST", token)]
        reads = [t for m, u, t in sent if m == "GET" and f"/v1/sessions/{sid}" in u]
        assert reads == [token]
        assert chat.errors == []
        chat.page.close()


def test_facets_and_similar_items_hide_when_the_server_answers_501_or_404(
    browser: Any, serve_page: ServePage
) -> None:
    absent = {"error": {"code": "not_implemented", "message": "not on this server"}}
    with serve_page(script.ScriptedAgent()) as url:
        chat = ChatPage(browser.new_page(), url)
        chat.page.route(
            re.compile(r"/v1/catalog/facets$"), lambda route: route.fulfill(status=501, json=absent)
        )
        chat.open()
        assert chat.page.locator("#facets").is_hidden()
        assert chat.page.locator("#shop-scope option").count() == 1, "no catalog shops yet"

        chat.send("usb hub")
        button = chat.page.locator(".similar-button")
        assert button.count() == 1
        button.focus()
        chat.page.keyboard.press("Enter")
        note = chat.page.locator(".card .similar .note")
        note.wait_for()
        assert note.text_content() == "No similar items for this one."
        assert button.count() == 0, "the server does not know the scripted item: 404"

        chat.page.route(
            re.compile(r"/v1/items/[^/]+/similar\?"),
            lambda route: route.fulfill(status=501, json=absent),
        )
        chat.send("usb cable")
        chat.page.locator(".similar-button").click()
        chat.page.wait_for_selector(".similar-button", state="detached")
        chat.send("usb charger")
        assert len(chat.cards()) == 1
        assert chat.page.locator(".similar-button").count() == 0
        assert all("Failed to load resource" in e for e in chat.errors), chat.errors
        chat.page.close()
