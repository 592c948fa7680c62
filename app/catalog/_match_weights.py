"""The matcher's fitted weights (`fit_matcher` on the ditto train splits), kept in code.

After changing a feature, copy here what `pickwise eval matching --refit` prints; the threshold
chosen on valid is also the default of `COMPARE_MATCH_THRESHOLD`.
"""

from app.catalog._match_model import LogisticModel

MAX_CODE_DF = 4
"""A code in more items than this (ddr3, cat5e, 802.11n) is a spec, not a model number."""

FITTED_THRESHOLD = 0.33

FITTED_MODEL = LogisticModel(
    weights={
        "model_exact": 6.1417,
        "model_conflict": -0.6807,
        "code_exact": 4.0105,
        "code_extends": 2.4225,
        "code_inside": 3.7844,
        "code_conflict": -2.2174,
        "trigram_jaccard": 3.0466,
        "idf_containment": 3.7131,
        "quantity_conflict": -3.0923,
        "number_conflict": -1.5775,
        "brand_same": 0.3585,
        "brand_conflict": -0.544,
        "colour_conflict": -4.4213,
        "edition_one_sided": -1.76,
        "price_log_ratio": -1.8891,
    },
    bias=-5.1634,
)
