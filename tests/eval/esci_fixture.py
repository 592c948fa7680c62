"""Writes the two official ESCI parquet files (every official column, official types) from the
`esci-sample/` extracts, so the ESCI evaluation runs on a few hundred products in a test.

grandi9 rows are official examples (50 US train queries, all E) and vespa's labels are
official (one US test query, E/S/I). jahnavi's E matches carry no example ids, so this
fixture numbers them and files them under the test split, small_version 0, large_version 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from app.eval._esci_data import EXAMPLE_COLUMNS, EXAMPLES_FILE, PRODUCTS_FILE

PRODUCT_COLUMNS = (
    "product_id",
    "product_title",
    "product_description",
    "product_bullet_point",
    "product_brand",
    "product_color",
    "product_locale",
)
EXAMPLE_TYPES = {
    "example_id": pa.int64(),
    "query_id": pa.int64(),
    "small_version": pa.int64(),
    "large_version": pa.int64(),
}
_VESPA = {
    "id": "product_id",
    "title": "product_title",
    "description": "product_description",
    "bullets": "product_bullet_point",
    "brand": "product_brand",
    "color": "product_color",
    "locale": "product_locale",
}
_FIXTURE_IDS = 10_000_000


def write_official_files(
    sample_dir: Path, out_dir: Path, *, drop_products: Iterable[str] = ()
) -> tuple[Path, Path]:
    """Examples and products parquet files under `out_dir`; `drop_products` leaves those
    product ids out of the products file (labelled products the index will not hold)."""
    grandi9 = pd.read_csv(sample_dir / "grandi9/sample_2c_full_data.csv", dtype=str)
    vespa_labels = pd.read_parquet(sample_dir / "vespa/test-sample.parquet")
    jahnavi = pd.read_csv(sample_dir / "jahnavi/esci_E_exact_matches_sample100.csv", dtype=str)
    lines = (sample_dir / "vespa/sample-products.jsonl").read_text().splitlines()
    vespa_products = pd.DataFrame(
        [{_VESPA[k]: v for k, v in json.loads(line)["fields"].items()} for line in lines if line]
    )

    query_ids = {q: _FIXTURE_IDS + n for n, q in enumerate(dict.fromkeys(jahnavi["query"]))}
    jahnavi_examples = jahnavi.assign(
        example_id=[_FIXTURE_IDS + n for n in range(len(jahnavi))],
        query_id=jahnavi["query"].map(query_ids),
        esci_label="E",
        small_version=0,
        large_version=1,
        split="test",
    )
    examples = pd.concat(
        [
            grandi9[list(EXAMPLE_COLUMNS)],
            vespa_labels[list(EXAMPLE_COLUMNS)],
            jahnavi_examples[list(EXAMPLE_COLUMNS)],
        ],
        ignore_index=True,
    )
    products = pd.concat(
        [
            grandi9[list(PRODUCT_COLUMNS)],
            vespa_products[list(PRODUCT_COLUMNS)],
            jahnavi[list(PRODUCT_COLUMNS)],
        ],
        ignore_index=True,
    ).drop_duplicates(subset=["product_id", "product_locale"])
    products = products[~products["product_id"].isin(set(drop_products))]

    out_dir.mkdir(parents=True, exist_ok=True)
    schema = pa.schema([(c, EXAMPLE_TYPES.get(c, pa.string())) for c in EXAMPLE_COLUMNS])
    examples_path, products_path = out_dir / EXAMPLES_FILE, out_dir / PRODUCTS_FILE
    pq.write_table(
        pa.Table.from_pandas(
            examples.astype(dict.fromkeys(EXAMPLE_TYPES, "int64")),
            schema=schema,
            preserve_index=False,
        ),
        examples_path,
    )
    product_schema = pa.schema([(c, pa.string()) for c in PRODUCT_COLUMNS])
    pq.write_table(
        pa.Table.from_pandas(products, schema=product_schema, preserve_index=False), products_path
    )
    return examples_path, products_path
