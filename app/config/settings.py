"""Process settings: where things are and which engines to use, fixed at start-up.

Settings come from the environment and `.env`. They name infrastructure (paths, URLs,
model identities) and never change while a process runs; values that admins tune at
runtime live in the parameter registry instead (`app.config.registry`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["DEFAULT_EMBEDDER_MODEL", "Settings", "get_settings"]

DEFAULT_EMBEDDER_MODEL = "all-MiniLM-L6-v2"


class Settings(BaseSettings):
    """Infrastructure settings, read once per process from the environment and `.env`."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", frozen=True
    )

    data_dir: Path = Field(
        Path("../shared/datasets"),
        validation_alias=AliasChoices("PICKWISE_DATA_DIR", "data_dir"),
        description="Folder with the datasets: icecat/, ditto-er/, esci-sample/, webshop/.",
    )
    var_dir: Path = Field(
        Path("var"),
        validation_alias=AliasChoices("PICKWISE_VAR_DIR", "var_dir"),
        description="Folder for built indexes, trained models, SQLite stores and reports.",
    )
    esci_locale: str = Field(
        "us",
        validation_alias=AliasChoices("PICKWISE_ESCI_LOCALE", "esci_locale"),
        description="Which ESCI product locale goes into the catalog.",
    )

    qdrant_url: str | None = Field(None, validation_alias=AliasChoices("QDRANT_URL", "qdrant_url"))
    qdrant_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("QDRANT_API_KEY", "qdrant_api_key")
    )
    redis_url: str | None = Field(None, validation_alias=AliasChoices("REDIS_URL", "redis_url"))
    opensearch_url: str | None = Field(
        None,
        validation_alias=AliasChoices("OPENSEARCH_URL", "opensearch_url"),
        description="An OpenSearch server for lexical recall and the category KB; unset: "
        "both run in-process (bm25s).",
    )
    opensearch_index_prefix: str = Field(
        "pickwise-items-",
        pattern=r"^[a-z0-9][a-z0-9_.-]*$",
        validation_alias=AliasChoices("OPENSEARCH_INDEX_PREFIX", "opensearch_index_prefix"),
        description="Start of the OpenSearch index names of the catalog's lexical documents; "
        "the index version follows (one index per built version).",
    )

    embedder_backend: Literal["flag", "openai"] = Field(
        "flag", validation_alias=AliasChoices("EMBEDDER_BACKEND", "embedder_backend")
    )
    embedder_model: str = Field(
        DEFAULT_EMBEDDER_MODEL,
        validation_alias=AliasChoices("EMBEDDER_MODEL", "embedder_model"),
        description="A local model folder, or a model name resolved offline.",
    )
    embedder_pooling: Literal["mean", "cls"] = Field(
        "mean", validation_alias=AliasChoices("EMBEDDER_POOLING", "embedder_pooling")
    )
    embedder_max_length: int = Field(
        128,
        ge=16,
        le=8192,
        validation_alias=AliasChoices("EMBEDDER_MAX_LENGTH", "embedder_max_length"),
    )
    embedder_batch_size: int = Field(
        32,
        ge=1,
        le=4096,
        validation_alias=AliasChoices("EMBEDDER_BATCH_SIZE", "embedder_batch_size"),
    )
    embedder_url: str | None = Field(
        None,
        validation_alias=AliasChoices("EMBEDDER_URL", "embedder_url"),
        description="Base URL of an OpenAI-compatible /embeddings API (backend 'openai').",
    )
    embedder_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("EMBEDDER_API_KEY", "embedder_api_key")
    )
    embedder_dimension: int | None = Field(
        None,
        validation_alias=AliasChoices("EMBEDDER_DIMENSION", "embedder_dimension"),
        description="Vector size of a remote embedder when it cannot be probed.",
    )

    torch_device: str = Field(
        "auto",
        pattern=r"^(auto|cpu|cuda(:\d+)?)$",
        validation_alias=AliasChoices("TORCH_DEVICE", "torch_device"),
        description="Where the local embedder and cross-encoder run: auto (a CUDA GPU when "
        "torch sees one, else the CPU), cpu, cuda or cuda:N.",
    )

    reranker_backend: Literal["local", "remote"] = Field(
        "local", validation_alias=AliasChoices("RERANKER_BACKEND", "reranker_backend")
    )
    reranker_model: str | None = Field(
        None,
        validation_alias=AliasChoices("RERANKER_MODEL", "reranker_model"),
        description="Folder of a trained cross-encoder; default: the newest under var/models.",
    )
    reranker_int8: bool = Field(
        True,
        validation_alias=AliasChoices("RERANKER_INT8", "reranker_int8"),
        description="Quantise the local cross-encoder to int8 on load (faster on a CPU).",
    )
    reranker_min_auc: float = Field(
        0.7,
        ge=0.0,
        le=1.0,
        validation_alias=AliasChoices("RERANKER_MIN_AUC", "reranker_min_auc"),
        description="Held-out AUC the newest trained cross-encoder needs before the gate uses "
        "it; one trained on too few labels (a small catalog's) leaves the gate off instead.",
    )
    reranker_url: str | None = Field(
        None, validation_alias=AliasChoices("RERANKER_URL", "reranker_url")
    )
    reranker_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("RERANKER_API_KEY", "reranker_api_key")
    )

    openai_base_url: str | None = Field(
        None, validation_alias=AliasChoices("OPENAI_BASE_URL", "openai_base_url")
    )
    admin_tokens: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("ADMIN_TOKENS", "admin_tokens"),
        description="Comma-separated admin bearer tokens; unset turns the admin API off.",
    )
    log_level: str = Field("INFO", validation_alias=AliasChoices("LOG_LEVEL", "log_level"))
    log_json: bool = Field(False, validation_alias=AliasChoices("LOG_JSON", "log_json"))

    @property
    def index_dir(self) -> Path:
        """Root of the versioned search indexes."""
        return self.var_dir / "index"

    def lexical_index(self, version: str) -> str:
        """The OpenSearch index of one index version's lexical documents."""
        return f"{self.opensearch_index_prefix}{version}".lower()

    @property
    def models_dir(self) -> Path:
        """Root of models trained by Pickwise."""
        return self.var_dir / "models"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment and `.env`."""
    return Settings()
