"""The `/v1/embeddings` endpoint of the scripted OpenAI-compatible server: every request is
answered with `embed(texts)` (by default deterministic hashed character-trigram vectors; a
test may set the real model's encoder), rows listed in reverse order as a real server may,
and its inputs are recorded; `status` other than 200 makes it fail."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import Body, FastAPI
from fastapi.responses import JSONResponse

Embed = Callable[[list[str]], Sequence[Sequence[float]]]
HASHED_DIMENSION = 64


def hashed_vectors(texts: list[str]) -> list[list[float]]:
    """Counts of each text's character trigrams hashed into `HASHED_DIMENSION` buckets, plus
    a constant first component (never a zero row)."""
    rows = []
    for text in texts:
        row = [0.0] * HASHED_DIMENSION
        row[0] = 1.0
        padded = f"  {text.lower()} "
        for i in range(len(padded) - 2):
            row[1 + zlib.crc32(padded[i : i + 3].encode()) % (HASHED_DIMENSION - 1)] += 1.0
        rows.append(row)
    return rows


class ScriptedEmbeddings:
    """The endpoint's script (`embed`, `status`) and what it received (`inputs`)."""

    def __init__(self) -> None:
        self.embed: Embed = hashed_vectors
        self.status = 200
        self.inputs: list[list[str]] = []

    def reset(self) -> None:
        self.embed, self.status, self.inputs = hashed_vectors, 200, []

    def install(self, app: FastAPI) -> None:
        """Serve `POST /v1/embeddings` on `app` (a sync route: FastAPI runs it in a thread,
        so a real model's encoder does not block the chat endpoint)."""

        @app.post("/v1/embeddings")
        def embeddings(body: dict[str, Any] = Body(...)) -> JSONResponse:
            return self.answer(body)

    def answer(self, body: dict[str, Any]) -> JSONResponse:
        raw = body.get("input", [])
        texts = [raw] if isinstance(raw, str) else [str(t) for t in raw]
        self.inputs.append(texts)
        if self.status != 200:
            error = {"message": "scripted failure", "type": "scripted", "code": None}
            return JSONResponse({"error": error}, status_code=self.status)
        data = [
            {"object": "embedding", "index": i, "embedding": [float(x) for x in vector]}
            for i, vector in reversed(list(enumerate(self.embed(texts))))
        ]
        usage = {"prompt_tokens": len(texts), "total_tokens": len(texts)}
        return JSONResponse(
            {"object": "list", "data": data, "model": body.get("model"), "usage": usage}
        )
