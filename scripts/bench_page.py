"""Benchmark the chat page in headless Chromium against a real `pickwise serve` on loopback:
for each turn, the time from pressing Enter to the first streamed token and to the cards,
read with the browser's Performance API; p50 and p90 over the turns, as one JSON document.

    .venv/bin/python scripts/bench_page.py [--turns 10] [--chromium /usr/bin/chromium]

Figures depend on the machine's load, which is reported with them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_common import append_result, machine_load, percentile
from playwright.sync_api import sync_playwright

CONVERSATIONS = [
    ["wireless headphones under $100", "something cheaper"],
    ["a 4k monitor under $400", "other options"],
    ["a gaming mouse, not logitech", "under $40 please"],
    ["a usb-c hub with hdmi", "something cheaper"],
    ["a laptop with 16gb ram under $900", "compare the first two"],
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(url: str, server: subprocess.Popen[bytes], timeout_s: float = 300) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("pickwise serve exited before it was ready")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("pickwise serve did not become ready")


def run_turns(url: str, turns: int, chromium: str) -> list[dict[str, Any]]:
    """Drive the page from the keyboard, one conversation after another, until `turns`."""
    messages = [m for conversation in CONVERSATIONS for m in conversation][:turns]
    starts = {sum(len(c) for c in CONVERSATIONS[:n]) for n in range(len(CONVERSATIONS))}
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=args)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(300_000)
        page.route(re.compile(r"^https?://(?!127\.0\.0\.1)"), lambda route: route.abort())
        page.goto(url + "/")
        page.wait_for_selector("body[data-ready='true']")
        for n, message in enumerate(messages):
            if n in starts and n:
                page.click("#new-session")
            page.fill("#message", message)
            page.press("#message", "Enter")
            page.wait_for_selector(f"body[data-turns='{n + 1}']")
        timings: list[dict[str, Any]] = page.evaluate("window.pickwiseTimings")
        browser.close()
    return [{**t, "message": m} for t, m in zip(timings, messages, strict=True)]


def summary(values: list[float | None]) -> dict[str, float | int | None]:
    present = [v for v in values if v is not None]
    if not present:
        return {"n": 0, "p50_ms": None, "p90_ms": None}
    return {
        "n": len(present),
        "p50_ms": round(percentile(present, 50), 1),
        "p90_ms": round(percentile(present, 90), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--no-record", action="store_true", help="Do not append to results.")
    options = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app.cli.main",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
    )
    try:
        load_start = machine_load()
        wait_ready(url, server)
        turns = run_turns(url, options.turns, options.chromium)
    finally:
        server.terminate()
        server.wait(timeout=60)
    out = {
        "turns": len(turns),
        "enter_to_first_token": summary([t["first_token_ms"] for t in turns]),
        "enter_to_cards": summary([t["cards_ms"] for t in turns]),
        "enter_to_done": summary([t["done_ms"] for t in turns]),
        "load_1m_start": load_start,
        "load_1m_end": machine_load(),
        "per_turn": turns,
    }
    if not options.no_record:
        append_result("page", {k: v for k, v in out.items() if k != "per_turn"})
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
