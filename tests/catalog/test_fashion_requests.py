"""The fashion proof: the Myntra catalog (12,491 products, INR) imported with the CLI
contract command into its own var dir, indexed, and 60 labelled requests (rupee and dollar
budgets, genders, colours, brands, excludes, "something cheaper") run as chat turns scoped
to the shop. No pick may break a budget or an exclusion; the shares of picks of the asked
kind, colour and gender must stay above their floors. The held-out requests were never
tuned on.

The var dir is `PICKWISE_MYNTRA_VAR` (default `var-myntra` in the checkout); it is imported
and built when missing, which embeds 12k texts (tens of minutes on two CPU cores)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.config.settings import Settings
from app.eval.catalog_requests import RequestOutcome, load_requests, run_requests, score
from app.runtime import Runtime
from app.runtime_agent import build_agent

REPO = Path(__file__).resolve().parents[2]
REQUESTS = Path(__file__).parent / "data" / "fashion_requests.json"
FLOORS = {"kind_share": 0.75, "colour_share": 0.9, "gender_share": 0.9}


@pytest.fixture(scope="module")
def outcomes(myntra_settings: Settings) -> list[RequestOutcome]:
    async def run() -> list[RequestOutcome]:
        async with Runtime(myntra_settings) as runtime:
            return await run_requests(build_agent(runtime), load_requests(REQUESTS), ("myntra",))

    return asyncio.run(run())


def test_the_request_file_is_the_promised_mix() -> None:
    requests = load_requests(REQUESTS)
    assert len(requests) >= 40
    assert {r.split for r in requests} == {"tune", "heldout"}
    currencies = {r.budget.currency for r in requests if r.budget}
    assert currencies == {"INR", "USD"}
    assert any(r.exclude_brands for r in requests)
    assert any(r.follow_up == "something cheaper" for r in requests)


def test_every_pick_states_its_listed_and_converted_price(outcomes: list[RequestOutcome]) -> None:
    picks = [p for o in outcomes for p in [*o.picks, *o.follow_picks]]
    assert picks
    for pick in picks:
        assert pick.platform == "myntra"
        assert pick.currency == "INR"
        assert pick.price is not None
        assert pick.price_usd == pytest.approx(pick.price * 0.0116, abs=0.006)


@pytest.mark.parametrize("split", ["tune", "heldout"])
def test_no_budget_or_exclusion_is_broken(outcomes: list[RequestOutcome], split: str) -> None:
    figures = score([o for o in outcomes if o.request.split == split])
    print(split, figures)
    assert figures["budget_violations"] == 0
    assert figures["exclusion_violations"] == 0
    assert figures["follow_ups_not_cheaper"] == 0
    for name, floor in FLOORS.items():
        assert figures[name] >= floor, (name, figures)
