"""index-range: an index lies in [0, n), n the extent of the dim it indexes.

The check itself is the catalog's (``ops/indexing.py``: the ``ValueParam`` of each index op named
after this rule, whose ``make`` also gives the range a printed input is drawn from,
``validity.input_values``)."""
from __future__ import annotations

from ..base import register
from ..value_params import ValueParamRule


@register
class IndexRange(ValueParamRule):
    name = "index-range"
    statement = ("an index lies in [0, n), n the extent of the dim it indexes (index_select, select, gather, "
                 "take_along_axis, index_put_accumulate, embedding_fwd): nvFuser's kernels address memory "
                 "with it unchecked, a device-side assert or garbage on the GPU, and torch refuses it")
    order = 120
    tags = frozenset({"index-read"})
