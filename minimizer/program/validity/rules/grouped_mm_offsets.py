"""grouped-mm-offsets: grouped_mm's offsets are the groups' ends along the extent they split.

The check itself is the catalog's (``ops/grouped.py``: the ``ValueParam`` named after this rule,
whose ``make`` also gives the values a printed input holds, ``validity.input_values``)."""
from __future__ import annotations

from ..base import register
from ..value_params import ValueParamRule


@register
class GroupedMmOffsets(ValueParamRule):
    name = "grouped-mm-offsets"
    statement = ("grouped_mm's offsets are the groups' ends along the extent they split: "
                 "non-decreasing from 0 and ending at that extent (no empty group where they "
                 "split k); ATen's at::_grouped_mm leaves what lies past the last offset unwritten")
    order = 110
    tags = frozenset({"group-offsets"})
