"""Parameters of the index build."""

from app.config.registry import REGISTRY

INDEX_UPSERT_BATCH = REGISTRY.declare(
    "INDEX_UPSERT_BATCH",
    int,
    512,
    group="index",
    minimum=16,
    maximum=10_000,
    description="Points sent to the vector store per upsert call during an index build.",
)
INDEX_EMBED_CHUNK = REGISTRY.declare(
    "INDEX_EMBED_CHUNK",
    int,
    1024,
    group="index",
    minimum=32,
    maximum=100_000,
    description="Texts embedded per chunk during an index build (one progress-bar step).",
)
INDEX_DESCRIPTION_CHARS = REGISTRY.declare(
    "INDEX_DESCRIPTION_CHARS",
    int,
    300,
    group="index",
    minimum=0,
    maximum=5_000,
    description="Characters of the description kept in the dense text recipe.",
)
