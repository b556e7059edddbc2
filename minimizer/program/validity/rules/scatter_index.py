"""scatter-index: scatter's indices lie in range and are distinct along its dim.

The check itself is the catalog's (``ops/indexing.py``: scatter's ``ValueParam``, whose ``make``
also gives the range and the dim a printed input is drawn distinct along)."""
from __future__ import annotations

from ..base import register
from ..value_params import ValueParamRule


@register
class ScatterIndex(ValueParamRule):
    name = "scatter-index"
    statement = ("scatter's indices lie in [0, n), n the extent of dim of the tensor scattered into, and are "
                 "distinct along dim: of two writes to one element torch picks one arbitrarily "
                 "(torch.Tensor.scatter_'s documentation)")
    order = 130
    tags = frozenset({"index-scatter"})
