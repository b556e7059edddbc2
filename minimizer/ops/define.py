"""``fd.define_tensor``/``define_scalar``/``define_vector``/``define_constant`` and ``add_output``.

Their meaning (declaring inputs, constants and outputs) lives in the interpreter; the entries here
give the binder their parameters, including the 2022-2023 spellings (``symbolic_sizes``,
``contiguous``) and the ``sizes``/``strides`` overload behind ``fd.from_pytorch``.
"""
from __future__ import annotations

from .registry import register
from ..model import DEFINE_SCALAR, DEFINE_TENSOR, DEFINE_VECTOR, OUTPUT, Ref, Stmt
from .dims import NOT_FOLLOWED, NotFollowed, Reach, dim_rule, renumbered_order
from .spec import LEGACY_ONLY, OpSpec, Param, not_generated

# the fuzzer writes declarations and outputs itself, around the ops it generates; FewerDims edits a
# declaration directly and follows a dim into add_output only
_DEFINITION = dict(generate=not_generated("a definition: the generator writes inputs and outputs itself"),
                   dim_rule=NOT_FOLLOWED)


@dim_rule("add_output", reads=("output", "alias_input"))
def ADD_OUTPUT(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """An output keeps its values with one dim fewer; an aliased input must drop the same dim;
    a legacy ``stride_order`` is renumbered."""
    out, alias = s.arg("output"), s.arg("alias_input")
    p = at.where.get(out.name) if isinstance(out, Ref) else None
    if alias is not None and (not isinstance(alias, Ref) or at.where.get(alias.name) != p):
        raise NotFollowed("alias")
    order = s.arg("stride_order")
    if p is not None and isinstance(order, tuple):
        if len(order) != at.rank[out.name]:
            raise NotFollowed("output stride_order")
        s = s.with_arg("stride_order", renumbered_order(order, p))
    return s, None


register(OpSpec(DEFINE_TENSOR, "define", (
    Param("shape", "shape", None, aliases=("symbolic_sizes",)),
    Param("contiguity", "contiguity", None),
    Param("dtype", "dtype", None),
    Param("is_cpu", "bool", False),
    Param("stride_order", "ints", None),
    Param("sizes", "ints", None, keyword_only=True),
    Param("strides", "ints", None, keyword_only=True),
    Param("static_sizes", "bool", False, keyword_only=True),
    # 2022-2023: one bool per logical dim, broadcast dims included; not today's ``contiguity``
    # (allocation order, None at broadcast dims), so it is a parameter of its own
    Param("contiguous", "contiguity", None, frontends=LEGACY_ONLY, keyword_only=True),
), doc="a tensor input", **_DEFINITION))

register(OpSpec(DEFINE_SCALAR, "define", (
    Param("value", "any", None),
    Param("dtype", "dtype", None),
), doc="a scalar input (value None) or constant", **_DEFINITION))

register(OpSpec("define_constant", "define", (
    Param("value", "any"),
    Param("dtype", "dtype", None),
), frontends=LEGACY_ONLY, doc="2022-2023 spelling of define_scalar(value)", **_DEFINITION))

register(OpSpec(DEFINE_VECTOR, "define", (
    Param("values", "any"),
    Param("dtype", "dtype", None),
), doc="legacy: a Vector of Int scalars, or (an int) that many scalar inputs", **_DEFINITION))

# The legacy binding has three overloads (python_frontend/python_bindings.cpp): (Scalar output),
# (Tensor output, Tensor alias_input=None) and (Tensor output, list[int] stride_order), so
# ``fd.add_output(T2, [2, 1, 0])`` is a stride order, not an alias; nvfuser_direct has no
# stride_order here (it says ``fd.ops.stride_order``).
register(OpSpec(OUTPUT, "define", (
    Param("output", "operand"),
    Param("alias_input", "tensor", None),
    Param("stride_order", "ints", None, frontends=LEGACY_ONLY, keyword_only=True),
), doc="mark a value as a fusion output; with alias_input, write it into that input in place; "
       "legacy stride_order: the output's memory layout",
   overloads=(("output", "stride_order"),), generate=_DEFINITION["generate"], dim_rule=ADD_OUTPUT,
   tags=frozenset({"alias-write", "fusion-output"})))
