"""Remote embedder: any OpenAI-compatible `/embeddings` endpoint over HTTP."""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import numpy as np

from app.config.settings import Settings
from app.errors import ConfigError, DependencyDown
from app.recall.embedder import Progress, length_sorted_batches, normalise_rows


class OpenAIEmbedder:
    """Calls `POST {base_url}/embeddings` with batches of texts; vectors are re-normalised."""

    remote = True

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        batch_size: int = 64,
        dimension: int | None = None,
        timeout_s: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"), headers=headers, timeout=timeout_s, transport=transport
        )
        self._model = model
        self._batch_size = batch_size
        self.model_id = f"openai:{model}"
        self.dimension = dimension or int(self._post(["dimension probe"]).shape[1])

    @classmethod
    def from_settings(cls, settings: Settings) -> OpenAIEmbedder:
        """Build from `EMBEDDER_URL`, `EMBEDDER_MODEL` and `EMBEDDER_API_KEY`."""
        if not settings.embedder_url:
            raise ConfigError("EMBEDDER_BACKEND=openai needs EMBEDDER_URL")
        key = settings.embedder_api_key.get_secret_value() if settings.embedder_api_key else None
        return cls(
            settings.embedder_url,
            settings.embedder_model,
            api_key=key,
            batch_size=settings.embedder_batch_size,
            dimension=settings.embedder_dimension,
        )

    def encode_documents(
        self, texts: Sequence[str], *, progress: Progress | None = None
    ) -> np.ndarray:
        """Encode in length-sorted batches, returned in input order."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for batch in length_sorted_batches(texts, self._batch_size):
            out[batch] = self._post([texts[i] for i in batch])
            if progress is not None:
                progress(len(batch))
        return out

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Queries go through the same endpoint."""
        return self.encode_documents(texts)

    def _post(self, texts: list[str]) -> np.ndarray:
        try:
            response = self._client.post("/embeddings", json={"model": self._model, "input": texts})
            response.raise_for_status()
            data = sorted(response.json()["data"], key=lambda row: row["index"])
        except (httpx.HTTPError, KeyError, ValueError) as exc:
            raise DependencyDown("embedder", str(exc)) from exc
        return normalise_rows(np.asarray([row["embedding"] for row in data], dtype=np.float32))

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()
