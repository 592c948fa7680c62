"""`pickwise search QUERY`: dense search over the index with payload filters."""

from __future__ import annotations

import asyncio

import typer

from app.cli._output import emit_json
from app.config import get_settings
from app.config.params.search import DEFAULT_TOP_K, MAX_TOP_K
from app.errors import InvalidRequest
from app.recall.filters import SearchFilters
from app.recall.search_index import SearchIndex


def register(app: typer.Typer) -> None:
    """Add the `search` command to the root CLI."""
    app.command("search")(search)


def search(
    query: str = typer.Argument(..., help="What the shopper is looking for."),
    platform: list[str] = typer.Option([], "--platform", help="Platform(s) to search; repeatable."),
    max_price: float | None = typer.Option(None, "--max-price", help="Budget in USD."),
    min_rating: float | None = typer.Option(None, "--min-rating", help="Minimum rating (0-5)."),
    top_k: int | None = typer.Option(None, "--top-k", help="How many hits."),
    json_out: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Search the catalog and print the best hits with platform and price."""
    if not query.strip():
        raise InvalidRequest("the query is empty")
    k = top_k or DEFAULT_TOP_K.get()
    if not 1 <= k <= MAX_TOP_K.get():
        raise InvalidRequest(f"--top-k must be between 1 and {MAX_TOP_K.get()}")
    filters = SearchFilters.build(platforms=platform, price_max=max_price, rating_min=min_rating)
    hits = asyncio.run(_search(query, filters, k))
    if json_out:
        emit_json({"hits": hits})
        return
    for rank, hit in enumerate(hits, 1):
        price = "n/a" if hit["price_usd"] is None else f"${hit['price_usd']:.2f}"
        typer.echo(f"{rank:>2}. [{hit['platform']}] {hit['title'][:80]}  {price}  ({hit['score']:.3f})")


async def _search(query: str, filters: SearchFilters, top_k: int) -> list[dict[str, object]]:
    index = SearchIndex.open(get_settings())
    try:
        vector = (await asyncio.to_thread(index.embedder.encode_queries, [query]))[0]
        hits = await index.store.search(index.collection, vector.tolist(), filters, limit=top_k)
    finally:
        await index.close()
    return [
        {
            "item_id": h.item_id,
            "platform": h.payload.get("platform"),
            "title": h.payload.get("title"),
            "brand": h.payload.get("brand"),
            "price_usd": h.payload.get("price_usd"),
            "rating": h.payload.get("rating"),
            "score": round(h.score, 4),
        }
        for h in hits
    ]
