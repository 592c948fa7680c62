"""The shopping plan and the rules that read shopper text into one: plan types, plan
changes, the per-turn readings counter and the lexicon, amount, budget, category,
keyword and preference rules."""

from app.tools.plan._lexicon_rules import (
    COLOUR_NAMES,
    COMPONENT_MAKERS,
    PART_HOSTS,
    beside_product,
    catalog_alias,
    is_catalog_kind,
    is_product_noun,
)
from app.tools.plan._text_rules import NUMBER_WORDS, SETUP_WORDS
from app.tools.plan.catalog_words import (
    catalog_vocabulary,
    current_vocabulary,
    use_catalog_vocabulary,
)
from app.tools.plan.plan_change import PlanChange
from app.tools.plan.planner_rules import RulesReading, apply_change, plan_from_text, read_plan
from app.tools.plan.readings import (
    Readings,
    count_readings_on,
    counting_readings,
    note_reading,
    one_reading,
)
from app.tools.plan.shopping_plan import BundleSlot, Constraint, ShoppingPlan

__all__ = [
    "COLOUR_NAMES",
    "COMPONENT_MAKERS",
    "NUMBER_WORDS",
    "PART_HOSTS",
    "SETUP_WORDS",
    "BundleSlot",
    "Constraint",
    "PlanChange",
    "Readings",
    "RulesReading",
    "ShoppingPlan",
    "apply_change",
    "beside_product",
    "catalog_alias",
    "catalog_vocabulary",
    "count_readings_on",
    "counting_readings",
    "current_vocabulary",
    "is_catalog_kind",
    "is_product_noun",
    "note_reading",
    "one_reading",
    "plan_from_text",
    "read_plan",
    "use_catalog_vocabulary",
]
