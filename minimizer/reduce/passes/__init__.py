"""The reduction passes, coarse to fine. ``PASSES`` is the order the driver runs them in.

Structural passes first: whole outputs, cuts (of all outputs, then of one), regions to inputs,
then single ops — exact bypasses, an output moved to its producer's operands, the inexact
bypasses (another dtype, a broadcast), and last the split, which removes an op at the price of an
input and outputs (the size order counts ops first, so it is smaller, but it is the move that
keeps the least of the program's shape). Then inputs merged, and the cosmetic passes.

``cosmetic_key`` is what the cosmetic passes make smaller, most important first: every cosmetic
candidate lowers one component and raises none before it, so ordering candidates by
``(cosmetic_key, printed bytes, text)`` accepts each intended simplification and can never loop.
"""
from . import constants as _constants, dims as _dims, dtypes as _dtypes, layout as _layout, order as _order
from . import rename as _rename
from ...program.cuts import chunks
from ...program.extents import elements, extent_sum
from .base import Pass
from .bypass import Bypass, BypassBroadcast, BypassCast
from .constants import MergeConstants
from .cut import CutAtIntermediate, RepointOutput, SplitAtOp
from .dims import FewerDims
from .dtypes import SimplifyDtypes, SimplifyScalars
from .inputs import MergeInputs
from .layout import PlainLayouts
from .order import CanonicalInputOrder
from .outputs import DropOutputs, OutputToOperand
from .rename import Rename
from .shapes import ShrinkShapes
from .to_input import ValueToInput

PASSES: list[Pass] = [
    DropOutputs(),
    CutAtIntermediate(),
    RepointOutput(),
    ValueToInput(),
    Bypass(),
    OutputToOperand(),
    BypassCast(),
    BypassBroadcast(),
    SplitAtOp(),
    MergeInputs(),
    CanonicalInputOrder(),
    PlainLayouts(),
    ShrinkShapes(),
    FewerDims(),
    SimplifyDtypes(),
    SimplifyScalars(),
    MergeConstants(),
    Rename(),
]


def passes_for(*, min_extent: int = 1) -> list[Pass]:
    """``PASSES`` with the options of one reduction (see ``ShrinkShapes.min_extent``)."""
    return [ShrinkShapes(min_extent) if isinstance(p, ShrinkShapes) else p for p in PASSES]


def cosmetic_key(program, info=None) -> tuple[int, ...]:
    """(input elements, sum of extent-like ints, summed input rank, non-Float floating inputs,
    non-plain layout facts, non-simple scalar constants, duplicate scalar constants, duplicate
    vectors, input-order disorder, non-canonical names). ``info`` is the program's
    ``static.check`` result (computed when not given).

    The rank sum comes right after the extents: dropping an extent-1 dim (FewerDims) leaves the
    element count as it is and never raises the extents (at most a slice bound goes), so its
    candidates are strictly smaller by this key whatever they do to the components after it;
    and no cosmetic pass adds a dim, so rank ahead of dtypes, layouts, scalars, order and names
    blocks none of their candidates, and rank after elements and extents none of ShrinkShapes'
    or PlainLayouts'."""
    if info is None:
        from ...program.static import check_partial
        info = check_partial(program)
    return (elements(program), extent_sum(program), _dims.rank_sum(program),
            _dtypes.dtype_cost(program), _layout.cost(program), _dtypes.scalar_cost(program),
            *_constants.cost(program), _order.cost(program), _rename.cost(program, info))


__all__ = ["PASSES", "Pass", "chunks", "cosmetic_key", "passes_for", "DropOutputs", "CutAtIntermediate", "RepointOutput",
           "ValueToInput", "Bypass", "OutputToOperand", "BypassCast", "BypassBroadcast", "SplitAtOp", "MergeInputs",
           "CanonicalInputOrder", "PlainLayouts", "ShrinkShapes", "FewerDims", "SimplifyDtypes", "SimplifyScalars",
           "MergeConstants", "Rename"]
