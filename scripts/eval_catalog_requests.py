"""Run the labelled fashion requests against an imported catalog and print the figures.

PICKWISE_VAR_DIR=var-myntra python scripts/eval_catalog_requests.py [--split heldout]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from app.config import get_settings
from app.eval.catalog_requests import load_requests, run_requests, score
from app.runtime import Runtime
from app.runtime_agent import build_agent

REQUESTS = (
    Path(__file__).resolve().parents[1] / "tests" / "catalog" / "data" / "fashion_requests.json"
)


async def main(split: str | None, shop: str, show: bool) -> None:
    requests = [r for r in load_requests(REQUESTS) if split is None or r.split == split]
    async with Runtime(get_settings()) as runtime:
        outcomes = await run_requests(build_agent(runtime), requests, (shop,))
    if show:
        for o in outcomes:
            for p in [*o.picks, *o.follow_picks]:
                print(o.request.id, "|", p.title, "|", p.brand, p.price, p.currency, p.attributes)
    print(json.dumps({"split": split or "all", **score(outcomes)}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", choices=["tune", "heldout"])
    parser.add_argument("--shop", default="myntra")
    parser.add_argument("--show", action="store_true")
    ns = parser.parse_args()
    asyncio.run(main(ns.split, ns.shop, ns.show))
