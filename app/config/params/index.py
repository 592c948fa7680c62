"""Parameters of the index build."""

from app.config.registry import REGISTRY

__all__ = [
    "BM25_B",
    "BM25_K1",
    "BM25_TITLE_REPEAT",
    "INDEX_DESCRIPTION_CHARS",
    "INDEX_HNSW_FULL_SCAN_KB",
    "INDEX_HNSW_M",
    "INDEX_HNSW_PAYLOAD_M",
    "INDEX_QUANTIZATION",
    "INDEX_UPSERT_BATCH",
    "QUANTIZATIONS",
    "SPEC_CATEGORY_MIN_SIMILARITY",
    "SPEC_CATEGORY_NEIGHBOURS",
    "SPEC_CATEGORY_VOTES",
    "VECTOR_ACORN",
    "VECTOR_HNSW_EF",
    "VECTOR_OVERSAMPLING",
]

INDEX_UPSERT_BATCH = REGISTRY.declare(
    "INDEX_UPSERT_BATCH",
    int,
    512,
    group="index",
    minimum=16,
    maximum=10_000,
    description="Points sent to the vector store per upsert call during an index build.",
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
INDEX_HNSW_M = REGISTRY.declare(
    "INDEX_HNSW_M",
    int,
    0,
    group="index",
    minimum=0,
    maximum=64,
    description="Links per node of the HNSW graph a build gives an embedded (Qdrant Edge) "
    "collection; 0 builds none and every search is an exact scan (best recall, a few ms at "
    "30k items). Set 16 for large catalogs: see docs/benchmarks.md (scale).",
)
INDEX_HNSW_FULL_SCAN_KB = REGISTRY.declare(
    "INDEX_HNSW_FULL_SCAN_KB",
    int,
    10_000,
    group="index",
    minimum=1,
    maximum=1_000_000,
    description="Below this many kilobytes of vectors passing a filter (~6,700 MiniLM vectors "
    "at the default) a search scans them through the payload index instead of walking the "
    "HNSW graph; fixed when a collection is created.",
)
INDEX_HNSW_PAYLOAD_M = REGISTRY.declare(
    "INDEX_HNSW_PAYLOAD_M",
    int,
    0,
    group="index",
    minimum=0,
    maximum=64,
    description="Links per node of the extra HNSW graphs built per indexed payload value (shop, "
    "brand, price block); 0 builds none: filters are checked while walking the main graph, "
    "and the build is several times faster. See docs/benchmarks.md (scale).",
)
QUANTIZATIONS = ("none", "scalar", "binary")
INDEX_QUANTIZATION = REGISTRY.declare(
    "INDEX_QUANTIZATION",
    str,
    "none",
    group="index",
    choices=QUANTIZATIONS,
    description="Compressed copy of the vectors a build gives a new embedded (Qdrant Edge) "
    "collection, scanned first and rescored with the originals: none (exact floats), scalar "
    "(int8) or binary (1 bit per dimension). Existing collections keep theirs; see "
    "docs/benchmarks.md (scale).",
)
VECTOR_OVERSAMPLING = REGISTRY.declare(
    "VECTOR_OVERSAMPLING",
    float,
    4.0,
    group="index",
    minimum=1.0,
    maximum=32.0,
    description="Candidates a search over quantized vectors keeps per hit asked, then rescores "
    "with the original vectors (no effect on an unquantized collection or an exact search).",
)
VECTOR_HNSW_EF = REGISTRY.declare(
    "VECTOR_HNSW_EF",
    int,
    128,
    group="index",
    minimum=16,
    maximum=1_024,
    description="Candidates a search keeps while walking an HNSW graph (no effect on an exact "
    "scan): higher finds more of the true neighbours, slower.",
)
VECTOR_ACORN = REGISTRY.declare(
    "VECTOR_ACORN",
    bool,
    True,
    group="index",
    description="Walk an HNSW graph through neighbours' neighbours when a filter rejects most "
    "points (ACORN), so a filtered search keeps its recall without per-value graphs "
    "(INDEX_HNSW_PAYLOAD_M=0); no effect on an exact scan.",
)
BM25_TITLE_REPEAT = REGISTRY.declare(
    "BM25_TITLE_REPEAT",
    int,
    2,
    group="index",
    minimum=1,
    maximum=5,
    description="Times the title appears in the BM25 text: a field boost for title words.",
)
BM25_K1 = REGISTRY.declare(
    "BM25_K1",
    float,
    0.9,
    group="index",
    minimum=0.0,
    maximum=5.0,
    description="BM25 term-frequency saturation k1 of the product index.",
)
BM25_B = REGISTRY.declare(
    "BM25_B",
    float,
    0.9,
    group="index",
    minimum=0.0,
    maximum=1.0,
    description="BM25 length normalisation b of the product index.",
)
SPEC_CATEGORY_NEIGHBOURS = REGISTRY.declare(
    "SPEC_CATEGORY_NEIGHBOURS",
    int,
    5,
    group="index",
    minimum=1,
    maximum=50,
    description="Nearest categorised Icecat items, by the spec fields they fill, that vote on "
    "the category of an Icecat item whose title names none.",
)
SPEC_CATEGORY_VOTES = REGISTRY.declare(
    "SPEC_CATEGORY_VOTES",
    int,
    4,
    group="index",
    minimum=1,
    maximum=50,
    description="Votes of those neighbours one category needs before it is inferred "
    "(above SPEC_CATEGORY_NEIGHBOURS, nothing is inferred).",
)
SPEC_CATEGORY_MIN_SIMILARITY = REGISTRY.declare(
    "SPEC_CATEGORY_MIN_SIMILARITY",
    float,
    0.6,
    group="index",
    minimum=0.0,
    maximum=1.0,
    description="Cosine similarity of spec-field sets the nearest neighbour needs before a "
    "category is inferred from the neighbours.",
)
