"""A fusion input as the generator declares it (``TensorSpec``: extents, dtype, declared
broadcasts, static extents, allocation order, contiguity claims) and the Hypothesis strategy that
draws one (``tensor_specs``).

No tensor values are drawn: an input is a spec, and the printed script builds its tensor with
``torch.testing.make_tensor`` (or ``randn(...).as_strided`` for a permuted layout).
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from ...model import DEFINE_TENSOR, LEGACY, DType, Stmt, TensorArg
from ...ops import bind, lookup

FLOATS = ("Float", "Half", "BFloat16", "Double")
INTS = ("Int", "Int32")
BOOL = "Bool"
INPUT_DTYPES = FLOATS + INTS + (BOOL,)  # simplest (Float) first

MAX_RANK = 4
MAX_EXTENT = 16

# the dtypes of each operand category of ``ops.Gen`` ("f" float, "i" int, "b" bool)
CATEGORY_DTYPES = {"f": FLOATS, "i": INTS, "b": (BOOL,)}


@dataclass(frozen=True)
class TensorSpec:
    """One fusion input: how it is declared and the concrete tensor that is passed for it."""
    shape: tuple[int, ...]       # concrete extents
    dtype: str                   # nvFuser DataType name
    bcast: tuple[bool, ...]      # declared broadcast (extent 1, declared 1, contiguity None)
    static: tuple[bool, ...]     # extent written in the declaration instead of -1
    alloc: tuple[int, ...]       # logical dims from outermost to innermost allocation position
    loose: tuple[bool, ...]      # per allocation position: contiguity False (no claim) instead of True

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def strides(self) -> tuple[int, ...]:
        st_ = [0] * self.ndim
        acc = 1
        for d in reversed(self.alloc):
            st_[d] = acc
            acc *= max(self.shape[d], 1)
        return tuple(st_)

    def stride_order(self) -> tuple[int, ...] | None:
        if list(self.alloc) == list(range(self.ndim)):
            return None
        order = [0] * self.ndim
        for pos, d in enumerate(self.alloc):
            order[d] = self.ndim - 1 - pos
        return tuple(order)

    def declared_shape(self) -> tuple[int, ...]:
        return tuple(1 if b else (e if s else -1) for e, b, s in zip(self.shape, self.bcast, self.static))

    def contiguity(self) -> tuple[bool | None, ...]:
        return tuple(None if self.bcast[d] else (not self.loose[pos]) for pos, d in enumerate(self.alloc))

    def declare(self, name: str, frontend: str = LEGACY) -> Stmt:
        kw = [("shape", self.declared_shape()), ("contiguity", self.contiguity()),
              ("dtype", DType(self.dtype)), ("is_cpu", False)]
        order = self.stride_order()
        if order is not None:
            kw.append(("stride_order", order))
        b = bind(lookup(DEFINE_TENSOR), (), tuple(kw), frontend)
        return Stmt((name,), DEFINE_TENSOR, b.args, b.npos)

    def arg(self) -> TensorArg:
        return TensorArg(self.shape, self.strides(), self.dtype, "cuda")


@st.composite
def tensor_specs(draw, shape=None, dtypes_=INPUT_DTYPES, min_rank=1, max_rank=MAX_RANK,
                 max_extent=MAX_EXTENT) -> TensorSpec:
    """A tensor input declaration. ``shape`` (optional) fixes the extents; dims of extent 1
    may then become declared broadcasts, and other dims may be turned into broadcasts too."""
    if shape is None:
        rank = draw(st.integers(min_rank, max_rank))
        shape = tuple(draw(st.integers(1, max_extent)) for _ in range(rank))
        ones = tuple(e == 1 for e in shape)
    else:
        shape = tuple(shape)
        # a dim of the base shape may be declared a broadcast (extent 1) in this input
        ones = tuple(draw(st.booleans()) if len(shape) > 1 else False for _ in shape)
        shape = tuple(1 if o else e for e, o in zip(shape, ones))
    rank = len(shape)
    dtype = draw(st.sampled_from(dtypes_))
    bcast, static = [], []
    for e, o in zip(shape, ones):
        # extent 1: declared broadcast unless drawn as symbolic (-1 with runtime extent 1)
        b = e == 1 and not draw(st.booleans()) if not o else True
        bcast.append(b)
        static.append(False if (b or e == 1) else draw(st.booleans()))
    permuted = draw(st.booleans())
    alloc = tuple(draw(st.permutations(range(rank)))) if permuted and rank > 1 else tuple(range(rank))
    loose = tuple(draw(st.integers(0, 9)) == 9 for _ in range(rank))
    return TensorSpec(shape, dtype, tuple(bcast), tuple(static), alloc, loose)
