"""The store-only scale benchmark: synthetic items recombine real titles, one small size runs
end to end through its build and search children, and the growth summary reads the curve."""

from __future__ import annotations

from app.catalog.item import Item
from app.cli.bench_cmd import scale_lines
from app.config.settings import Settings
from app.eval.bench_scale import SHOPS, bench_scale, growth, synthetic_items

TITLES = [
    "Sony WH-1000XM4 Wireless Noise Cancelling Headphones",
    "Logitech MX Master 3 Advanced Wireless Mouse",
    "Anker PowerCore 10000 Portable Charger",
    "Samsung T7 Portable SSD 1TB",
    "Apple Magic Keyboard with Touch ID",
    "Bose SoundLink Flex Bluetooth Speaker",
]


def test_synthetic_items_recombine_real_title_halves() -> None:
    items = list(synthetic_items(TITLES, 500))
    assert len({i.item_id for i in items}) == 500
    assert {i.platform for i in items} == set(SHOPS)
    words = {w for t in TITLES for w in t.split()}
    assert all(isinstance(i, Item) and set(i.title.split()) <= words for i in items)
    assert len({i.title for i in items}) > len(TITLES) * 3, "halves of different titles meet"
    assert [i.title for i in synthetic_items(TITLES, 50)] == [i.title for i in items[:50]]


def test_one_small_size_runs_end_to_end() -> None:
    report = bench_scale(Settings(), [1_500], queries=12, hnsw_m=0, titles=TITLES)
    (row,) = report["sizes"]
    assert row["items"] == 1_500
    for key in ("vector_filtered", "vector_exact_filtered", "lexical", "lexical_filtered"):
        assert row[key]["n"] > 0
        assert row[key]["p50_ms"] > 0
    assert row["recall_at_10_vs_exact"] == 1.0, "without a graph every search is exact"
    assert row["rss_mb"] > 0
    assert "RANDOM unit vectors" in report["measures"]
    assert scale_lines(report)[0].startswith(
        "scale 1,500 items (random vectors, quantization none)"
    )


def test_a_quantized_vector_only_run_reports_its_recall_against_the_exact_scan() -> None:
    report = bench_scale(
        Settings(), [1_500], queries=12, hnsw_m=0, titles=TITLES, quantization="binary",
        oversampling=1.0, lexical=False,
    )  # fmt: skip
    (row,) = report["sizes"]
    assert (report["quantization"], report["oversampling"]) == ("binary", 1.0)
    assert "lexical" not in row
    assert "lexical_build_s" not in row
    assert row["vector_exact_filtered"]["n"] > 0
    assert 0.0 < row["recall_at_10_vs_exact"] < 1.0, "1-bit codes of random vectors, no slack"
    assert "quantization binary" in scale_lines(report)[0]


def test_growth_is_the_p50_factor_per_tenfold_items() -> None:
    def row(items: int, ms: float, rss: float) -> dict[str, object]:
        timing = {"p50_ms": ms}
        return {
            "items": items,
            "vector_filtered": timing,
            "vector_exact_filtered": timing,
            "lexical": timing,
            "lexical_filtered": timing,
            "rss_mb": rss,
        }

    found = growth([row(10_000, 2.0, 100.0), row(1_000_000, 200.0, 1_090.0)])
    assert found["vector_filtered_p50_x_per_10x_items"] == 10.0
    assert found["rss_mb_per_100k_items"] == 100.0
    assert growth([row(10_000, 2.0, 100.0)]) == {}
