"""The reduction passes, coarse to fine. ``PASSES`` is the order the driver runs them in.

``cosmetic_key`` is what the cosmetic passes make smaller, most important first: every cosmetic
candidate lowers one component and raises none before it, so ordering candidates by
``(cosmetic_key, printed bytes, text)`` accepts each intended simplification and can never loop.
"""
from . import dtypes as _dtypes, layout as _layout, order as _order, rename as _rename, shapes as _shapes
from .base import Pass, chunks
from .bypass import Bypass
from .cut import CutAtIntermediate
from .dtypes import SimplifyDtypes, SimplifyScalars
from .inputs import MergeInputs
from .layout import PlainLayouts
from .order import CanonicalInputOrder
from .outputs import DropOutputs
from .rename import Rename
from .shapes import ShrinkShapes
from .to_input import ValueToInput

PASSES: list[Pass] = [
    DropOutputs(),
    CutAtIntermediate(),
    ValueToInput(),
    Bypass(),
    MergeInputs(),
    CanonicalInputOrder(),
    PlainLayouts(),
    ShrinkShapes(),
    SimplifyDtypes(),
    SimplifyScalars(),
    Rename(),
]


def cosmetic_key(program, info=None) -> tuple[int, ...]:
    """(input elements, sum of extent-like ints, non-Float floating inputs, non-plain layout
    facts, non-simple scalar constants, input-order disorder, non-canonical names). ``info`` is
    the program's ``static.check`` result (computed when not given)."""
    if info is None:
        from ..static import check
        info = check(program)
    return (_shapes.elements(program), _shapes.extent_sum(program), _dtypes.dtype_cost(program),
            _layout.cost(program), _dtypes.scalar_cost(program), _order.cost(program), _rename.cost(program, info))


__all__ = ["PASSES", "Pass", "chunks", "cosmetic_key", "DropOutputs", "CutAtIntermediate", "ValueToInput",
           "Bypass", "MergeInputs", "CanonicalInputOrder", "PlainLayouts", "ShrinkShapes", "SimplifyDtypes",
           "SimplifyScalars", "Rename"]
