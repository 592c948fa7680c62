"""The matcher's fitted weights (`fit_matcher` on the ditto train splits), kept in code.

Refit with `pickwise eval matching --refit` after changing a feature; the threshold chosen on
valid is the default of `COMPARE_MATCH_THRESHOLD`.
"""

from app.catalog._match_model import LogisticModel

MAX_CODE_DF = 4
"""A code in more items than this (ddr3, cat5e, 802.11n) is a spec, not a model number."""

FITTED_THRESHOLD = 0.34

FITTED_MODEL = LogisticModel(
    weights={
        "model_exact": 6.0681,
        "model_conflict": -0.7292,
        "code_exact": 3.9843,
        "code_extends": 2.4444,
        "code_inside": 3.7413,
        "code_conflict": -2.1564,
        "trigram_jaccard": 3.0775,
        "idf_containment": 3.7271,
        "quantity_conflict": -2.6857,
        "number_conflict": -1.4027,
        "brand_same": 0.3935,
        "brand_conflict": -0.5383,
        "colour_conflict": -4.4126,
        "edition_one_sided": -1.7915,
        "price_log_ratio": -1.8778,
    },
    bias=-5.2012,
)
