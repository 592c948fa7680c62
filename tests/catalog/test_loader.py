"""load_catalog on the real datasets: counts, labels that resolve, aliases, clear errors."""

from __future__ import annotations

import csv
import os
from collections import Counter
from pathlib import Path

import pytest

from app.catalog.loader import Catalog, catalog_files, load_catalog
from app.errors import ConfigError, NotFound


def _mirror(data_dir: Path, target: Path, *, leave_out: Path | None = None) -> Path:
    """A datasets folder of links to the real files (nothing is copied), less one file."""
    for path in catalog_files(data_dir):
        if path == leave_out:
            continue
        link = target / path.relative_to(data_dir)
        link.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(path, link)
    return target


def test_real_counts_per_platform(catalog: Catalog) -> None:
    # icecat: 19,406 rows, 54 identical listings merged; amazon: 5,247 walmart-amazon
    # + 1,288 amazon-google + 546 ESCI US records, 5 merged (2 ditto listings, 3 ESCI
    # ASINs sharing a title and brand: "Fathers", "Big Express"…); buy: 1,035, 1 merged.
    assert catalog.platform_counts() == {
        "icecat": 19_352,
        "walmart": 1_688,
        "amazon": 7_076,
        "google": 2_074,
        "abt": 1_068,
        "buy": 1_034,
    }
    assert len(catalog.items) == 32_292
    assert len(catalog.aliases) == 60
    assert dict(catalog.skipped) == {}


def test_every_item_id_is_unique_and_indexed(catalog: Catalog) -> None:
    index = catalog.by_id()
    assert len(index) == len(catalog.items)
    assert catalog.by_id()["icecat:3920564"].brand == "Xerox"


def test_by_id_is_built_once(catalog: Catalog) -> None:
    first, second = catalog.by_id(), catalog.by_id()
    assert first == second
    assert first["amazon:B08CZ6TC2L"] is second["amazon:B08CZ6TC2L"]


def test_match_labels_resolve_after_dedupe(catalog: Catalog) -> None:
    index = catalog.by_id()
    assert len(catalog.matches) == 31_277
    assert all(m.left_id in index and m.right_id in index for m in catalog.matches)
    assert not any(
        m.left_id in catalog.aliases or m.right_id in catalog.aliases for m in catalog.matches
    )
    counts = Counter((m.dataset, m.same_product) for m in catalog.matches)
    assert counts == {
        ("walmart-amazon", True): 962,
        ("walmart-amazon", False): 9_280,
        ("amazon-google", True): 1_167,
        ("amazon-google", False): 10_293,
        ("abt-buy", True): 1_028,
        ("abt-buy", False): 8_547,
    }


def test_aliases_point_at_kept_items(catalog: Catalog) -> None:
    index = catalog.by_id()
    assert all(alias not in index and target in index for alias, target in catalog.aliases.items())
    assert catalog.aliases["icecat:77192162"] == "icecat:77192161"
    assert catalog.resolve("icecat:77192162").item_id == "icecat:77192161"
    assert catalog.resolve("icecat:3920564").item_id == "icecat:3920564"
    with pytest.raises(NotFound):
        catalog.resolve("icecat:does-not-exist")


def test_every_icecat_judgment_resolves(catalog: Catalog, data_dir: Path) -> None:
    with (data_dir / "icecat" / "judgments_dev.csv").open(encoding="utf-8", newline="") as f:
        docids = {row["docid"] for row in csv.DictReader(f)}
    for docid in docids:
        assert catalog.resolve(f"icecat:{docid}").platform == "icecat"


def test_source_files_are_the_files_read(catalog: Catalog, data_dir: Path) -> None:
    assert catalog.source_files == catalog_files(data_dir)
    assert len(catalog.source_files) == 4 + 9 + 3
    assert all(path.is_file() for path in catalog.source_files)


def test_other_locale(data_dir: Path) -> None:
    spanish = load_catalog(data_dir, locale="es")
    # 5,247 + 1,288 ditto records, 2 merged, and the 55 Spanish ESCI products
    assert spanish.platform_counts()["amazon"] == 5_247 + 1_288 - 2 + 55


def test_missing_folder_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="PICKWISE_DATA_DIR"):
        load_catalog(tmp_path / "nowhere")


def test_missing_file_is_a_config_error(data_dir: Path, tmp_path: Path) -> None:
    missing = data_dir / "ditto-er" / "Textual" / "Abt-Buy" / "valid.txt"
    mirror = _mirror(data_dir, tmp_path / "datasets", leave_out=missing)
    with pytest.raises(ConfigError, match=r"Abt-Buy/valid\.txt"):
        load_catalog(mirror)


def test_bad_rows_surface_in_skipped(data_dir: Path, tmp_path: Path) -> None:
    bad = data_dir / "ditto-er" / "Textual" / "Abt-Buy" / "valid.txt"
    mirror = _mirror(data_dir, tmp_path / "datasets", leave_out=bad)
    lines = bad.read_text(encoding="utf-8").splitlines()
    broken = [
        *lines,
        "half a line without tabs",
        lines[0].replace("COL price VAL", "COL price VAL x"),
    ]
    (mirror / bad.relative_to(data_dir)).write_text("\n".join(broken) + "\n", encoding="utf-8")
    loaded = load_catalog(mirror)
    assert dict(loaded.skipped) == {"ditto-abt-buy:malformed_line": 1, "ditto-abt-buy:bad_price": 1}
    assert len(loaded.items) == 32_292
