"""The item_picker tool: the picks for each plan slot, from search results through hard
filters, scoring, the gate and selection, with a report per slot."""

from app.tools.picker._result import PickOffer
from app.tools.picker.item_picker import (
    STAGES,
    ItemPickerArgs,
    ItemPickerResult,
    ItemPickerTool,
    Pick,
    SlotPicks,
)

__all__ = [
    "STAGES",
    "ItemPickerArgs",
    "ItemPickerResult",
    "ItemPickerTool",
    "Pick",
    "PickOffer",
    "SlotPicks",
]
