"""Compact JSON form of cached hits: `[[item_id, score, payload], ...]` as UTF-8 bytes."""

from __future__ import annotations

import json
from collections.abc import Sequence

from app.recall.retriever import Hit


def encode_hits(hits: Sequence[Hit]) -> bytes:
    """Hits as compact JSON; the payload must be JSON-serialisable (store payloads are)."""
    rows = [[h.item_id, float(h.score), dict(h.payload)] for h in hits]
    return json.dumps(rows, separators=(",", ":"), ensure_ascii=False).encode()


def decode_hits(raw: bytes) -> list[Hit]:
    """Fresh `Hit` objects from `encode_hits` output; ValueError if `raw` is not that form."""
    rows = json.loads(raw)
    if not isinstance(rows, list):
        raise ValueError("cached hits are not a JSON list")
    hits = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == 3 and isinstance(row[2], dict)):
            raise ValueError(f"malformed cached hit {row!r:.80}")
        item_id, score, payload = row
        hits.append(Hit(str(item_id), float(score), payload))
    return hits
