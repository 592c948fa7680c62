"""The matcher's fitted weights (`fit_matcher` on the ditto train splits), kept in code.

Refit with `pickwise eval matching --refit` after changing a feature; the threshold chosen on
valid is the default of `COMPARE_MATCH_THRESHOLD`.
"""

from app.catalog._match_model import LogisticModel

MAX_CODE_DF = 4
"""A code in more items than this (ddr3, cat5e, 802.11n) is a spec, not a model number."""

FITTED_THRESHOLD = 0.35

FITTED_MODEL = LogisticModel(
    weights={
        "model_exact": 6.1114,
        "code_exact": 3.9503,
        "code_extends": 2.2105,
        "code_inside": 3.5511,
        "code_conflict": -2.3967,
        "trigram_jaccard": 3.0735,
        "idf_containment": 3.6226,
        "quantity_conflict": -2.7719,
        "number_conflict": -1.4118,
        "brand_same": 0.3615,
        "brand_conflict": -0.6262,
        "colour_conflict": -4.5949,
        "edition_one_sided": -1.7601,
        "price_log_ratio": -1.9338,
    },
    bias=-5.0966,
)
