"""Unary, binary and ternary pointwise ops.

nvFuser's pointwise ops take tensors and scalars in any mix. When every operand is a scalar the
result is a scalar (``S61 = fd.ops.reciprocal(S60)``); the references below compute that case on
0-dim CPU tensors and hand back a Python number. Python scalars next to tensors keep torch's
"weak scalar" promotion, which is also nvFuser's (a Double scalar times a BFloat16 tensor promotes
to BFloat16) — and then nvFuser's arithmetic ops compute Half/BFloat16 in Float and return Float
(``HALF_TO_FLOAT``).

None of these bindings name their arguments (pybind lambdas without ``py::arg``), so scripts
pass them positionally; the parameter names here are the ones nvFuser's docstrings use.
"""
from __future__ import annotations

from functools import reduce

import torch
import torch.nn.functional as F

from .. import dtypes
from ..model import DType, Ref
from . import fp4
from .dims import POINTWISE
from .registry import register
from .spec import LEGACY_ONLY, DIRECT_ONLY, OpSpec, Param, generated, not_generated, tagged

_X = (Param("x", "operand"),)
_AB = (Param("lhs", "operand"), Param("rhs", "operand"))


def as_tensor(v):
    """A Python number as a 0-dim tensor of the dtype nvFuser gives it (bool/int64/float64/complex128)."""
    if isinstance(v, torch.Tensor):
        return v
    if isinstance(v, bool):
        return torch.tensor(v, dtype=torch.bool)
    if isinstance(v, int):
        return torch.tensor(v, dtype=torch.int64)
    if isinstance(v, float):
        return torch.tensor(v, dtype=torch.float64)
    if isinstance(v, complex):
        return torch.tensor(v, dtype=torch.complex128)
    raise TypeError(f"not an operand: {v!r}")


def weak(v, like: torch.Tensor):
    """A Python scalar as a 0-dim tensor that promotes like the Python scalar would next to
    ``like`` (for torch functions that reject a Number in that position). A 0-dim tensor of the
    same category never changes a dimensioned tensor's dtype, so it is kept at full precision
    (float64): rounding 0.000625 to bf16 before a bf16 op would not be what nvFuser computes.
    Next to a 0-dim ``like`` that trick fails (two 0-dim tensors promote as equals), so there the
    scalar takes the promoted dtype directly."""
    if isinstance(v, torch.Tensor):
        return v
    if like.ndim == 0:
        return torch.tensor(v, dtype=torch.result_type(like, v), device=like.device)
    t = like.dtype
    if isinstance(v, bool):
        dt = torch.bool
    elif isinstance(v, int):
        dt = torch.int64
    elif isinstance(v, float):
        dt = torch.float64 if (t.is_floating_point or t.is_complex) else torch.get_default_dtype()
    else:
        dt = torch.complex128 if t.is_complex else torch.complex64
    return torch.tensor(v, dtype=dt, device=like.device)


@torch.compiler.assume_constant_result
def result_dtype(*vals) -> torch.dtype:
    """torch's n-ary promotion over tensors and Python numbers: dimensioned tensors outrank
    0-dim tensors, which outrank numbers, unless a lower group holds a higher category.
    (A constant for the compiler: it depends on dtypes and Python types only, and lets the
    inductor backend trace the references that call it.)"""
    dims = [v.dtype for v in vals if isinstance(v, torch.Tensor) and v.ndim > 0]
    zeros = [v.dtype for v in vals if isinstance(v, torch.Tensor) and v.ndim == 0]
    nums = [v for v in vals if not isinstance(v, torch.Tensor) and v is not None]
    groups = [torch.empty((1,) if ds is dims else (), dtype=reduce(torch.promote_types, ds), device="meta")
              for ds in (dims, zeros) if ds]
    if not groups:
        return reduce(torch.promote_types, [as_tensor(n).dtype for n in nums])
    r = groups[0] if len(groups) == 1 else torch.empty(1, dtype=torch.result_type(*groups), device="meta")
    for n in nums:
        r = torch.empty(1, dtype=torch.result_type(r, n), device="meta")
    return r.dtype


def common(*vals):
    """Every operand as a tensor of the promoted dtype, on the tensors' device: for torch
    functions that take neither Numbers nor mixed dtypes (lerp, atan2, minimum, ...)."""
    dt = result_dtype(*vals)
    dev = next((v.device for v in vals if isinstance(v, torch.Tensor)), torch.device("cpu"))
    return [v.to(dt) if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dt, device=dev)
            for v in vals]


def dtype_name(v) -> str | None:
    """``"Float"`` for a dtype argument. Refs get the string (resolved values, and Param
    defaults, which are kept in resolved form); a ``DType`` is accepted too, for a caller that
    hands over a model value unresolved."""
    return None if v is None else getattr(v, "name", v)


def torch_dtype(v) -> torch.dtype | None:
    """The torch dtype of a dtype argument; None for ``DataType.Null`` or no argument."""
    name = dtype_name(v)
    return None if name in (None, "Null") else dtypes.to_torch(name)


def _scalar_call(fn, vals):
    """A scalar-only op: nvFuser computes it in Int/Double/ComplexDouble, so a float32 that torch
    makes of ints (``exp(2)``, ``truediv(1, 3)``) is recomputed in float64."""
    ts = [as_tensor(v) for v in vals]
    r = fn(*ts)
    if r.dtype in (torch.float32, torch.complex64):
        r = fn(*[t.double() if not (t.is_floating_point() or t.is_complex()) else t for t in ts])
    return r.item()


_HALF = (torch.float16, torch.bfloat16)

#: nvFuser's ops that promote with ``computeTypes`` (csrc/type_promotion.cpp), whose
#: ``cast_half_to_float`` turns a Half/BFloat16 common dtype into Float: they compute in Float and
#: *return* Float (which is why real repros cast back after every op); ``neg`` too (arith.cpp
#: promotes it with the default config, a workaround for half negation intrinsics). Other pointwise
#: ops (abs, relu, ceil, floor, round, trunc, frac, silu, set, the bitwise and comparison ops)
#: keep their dtype or return Bool. Found by fuzz campaigns on nvFuser (docs/benchmarks.md).
HALF_TO_FLOAT = frozenset(
    "acos acosh asin asinh atan atanh cos cosh exp exp2 expm1 erf erfc erfinv erfcinv lgamma log log10 "
    "log1p log2 reciprocal rsqrt sigmoid sin sinh sqrt tan tanh neg "
    "truediv atan2 nextafter add sub mul div mod fmod pow remainder minimum maximum add_alpha sub_alpha "
    "lerp addcmul".split())


def half_to_float(*vals):
    """The operands with Half/BFloat16 tensors as Float when their common dtype is Half or
    BFloat16 (nvFuser's ``cast_half_to_float``); otherwise unchanged."""
    tensors = [v for v in vals if isinstance(v, torch.Tensor)]
    if not tensors or result_dtype(*vals) not in _HALF:
        return list(vals)
    return [v.float() if isinstance(v, torch.Tensor) and v.dtype in _HALF else v for v in vals]


def pointwise(fn, numbers: bool = True, float_compute: bool = False):
    """Lift ``fn(*tensors)`` to nvFuser's mixed tensor/scalar operands. Python scalars are passed
    through as Numbers where the first operand is a tensor (torch then keeps them at double
    precision); a leading scalar is turned into a weak 0-dim tensor. ``numbers=False`` is for
    torch functions that take no Numbers at all: every operand becomes a tensor of the promoted
    dtype."""
    def ref(ctx, **kw):
        vals = list(kw.values())
        tensors = [v for v in vals if isinstance(v, torch.Tensor)]
        if not tensors:
            return _scalar_call(fn, vals)
        if float_compute:
            vals = half_to_float(*vals)
        if not numbers:
            return fn(*common(*vals))
        if isinstance(vals[0], torch.Tensor):
            return fn(*vals)
        return fn(weak(vals[0], tensors[0]), *vals[1:])
    return ref


# ---- how the fuzzer writes these ops (``Gen.write``; the builder's interface: ``spec.Gen``) ----
def _write_one_operand(B, name, x, P, force) -> bool:
    """``op(x)``: unary ops."""
    B.op(name, (Ref(x.name),))
    return True


def _write_copy(B, name, x, P, force) -> bool:
    """``set``/``segment_set``: a copy keeps the operand's broadcast dims."""
    B.op(name, (Ref(x.name),), bcast=x.bcast)
    return True


def _rhs(B, x, P):
    """A second operand of ``x``'s kind that broadcasts with it: an earlier value, or a constant."""
    y = B.partner(x, P, lambda v: v.cat == x.cat and x.broadcasts_with(v))
    return Ref(y.name) if y is not None else B.const_for(x.cat, P)


def _write_binary(B, name, x, P, force) -> bool:
    B.op(name, (Ref(x.name), _rhs(B, x, P)))
    return True


def _write_alpha(B, name, x, P, force) -> bool:
    """``add_alpha``/``sub_alpha``: a float alpha after the operands."""
    B.op(name, (Ref(x.name), _rhs(B, x, P), B.const_for("f", P)))
    return True


#: a shift by a negative amount or by the bit width or more is undefined in C++ and CUDA:
#: compilers legitimately disagree there (Triton and eager do), so the
#: amount is a small non-negative constant
SHIFT_AMOUNTS = (1, 0, 2, 3)


def _write_shift(B, name, x, P, force) -> bool:
    B.op(name, (Ref(x.name), B.const(SHIFT_AMOUNTS[P(len(SHIFT_AMOUNTS))])))
    return True


def _write_where(B, name, x, P, force) -> bool:
    """A Bool condition (``x`` itself, a Bool value that broadcasts with it, or ``x > c``), then
    ``x`` and an operand that broadcasts with the condition too."""
    X = Ref(x.name)
    if x.cat == "b":
        cond = x
    else:
        cond = B.partner(x, P, lambda v: v.cat == "b" and x.broadcasts_with(v))
        if cond is None:
            cond = B.op("gt", (X, B.const_for(x.cat, P)))[0]
    y = B.partner(x, P, lambda v: v.cat == x.cat and x.broadcasts_with(v) and cond.broadcasts_with(v))
    other = Ref(y.name) if y is not None else B.const_for(x.cat, P)
    B.op("where", (Ref(cond.name), X, other))
    return True


def _write_clamp(B, name, x, P, force) -> bool:
    lo, hi = (-1.0, 1.0) if x.cat == "f" else (-1, 2)
    B.op("clamp", (Ref(x.name), B.const(lo), B.const(hi)))
    return True


def _write_threshold(B, name, x, P, force) -> bool:
    t, v = (0.5, 0.0) if x.cat == "f" else (1, 0)
    B.op("threshold", (Ref(x.name), B.const(t), B.const(v)))
    return True


def _write_lerp(B, name, x, P, force) -> bool:
    y = B.partner(x, P, lambda v: v.cat == x.cat and x.broadcasts_with(v))
    other = Ref(y.name) if y is not None else B.const(2.0)
    B.op("lerp", (Ref(x.name), other, B.const(0.25)))
    return True


def _write_addcmul(B, name, x, P, force) -> bool:
    X = Ref(x.name)
    y = B.partner(x, P, lambda v: v.cat == x.cat and x.broadcasts_with(v))
    other = Ref(y.name) if y is not None else X
    B.op("addcmul", (X, other, X, B.const(0.5)))
    return True


#: the dtypes a generated cast converts to, simplest first
CAST_DTYPES = ("Float", "Double", "Half", "BFloat16", "Int", "Int32", "Bool")


def _write_cast(B, name, x, P, force) -> bool:
    to = CAST_DTYPES[P(len(CAST_DTYPES))]
    B.op("cast", (Ref(x.name),), (("dtype", DType(to)),))
    return True


# ---- what the fuzzer draws for an operand of each category, simplest first (``Gen``) ----
_NO_COMPLEX = not_generated("complex operands or results, which the generator never makes")
_NOT_ADDED = not_generated("not added to the generator yet (no known obstacle)")
GEN = {
    **generated("unary", _write_one_operand,
                f="neg abs exp log sqrt sin cos tanh sigmoid relu reciprocal rsqrt ceil floor round "
                  "trunc frac sign exp2 expm1 log1p log2 log10 erf erfc tan sinh cosh asin acos atan "
                  "asinh acosh atanh silu isfinite isinf isnan isneginf isposinf signbit",
                i="neg abs sign bitwise_not logical_not",
                b="logical_not bitwise_not"),
    **generated("binary", _write_binary, special={
                    **dict.fromkeys(("bitwise_left_shift", "bitwise_right_shift"), _write_shift),
                    **dict.fromkeys(("add_alpha", "sub_alpha"), _write_alpha)},
                f="add sub mul div truediv maximum minimum pow atan2 fmod remainder eq ne lt le gt ge "
                  "logical_and logical_or add_alpha sub_alpha",
                i="add sub mul maximum minimum eq ne lt le gt ge bitwise_and bitwise_or bitwise_xor "
                  "bitwise_left_shift bitwise_right_shift gcd logical_and logical_or",
                b="logical_and logical_or bitwise_and bitwise_or bitwise_xor eq ne"),
    **generated("ternary", None, special={"where": _write_where, "clamp": _write_clamp, "lerp": _write_lerp,
                                          "threshold": _write_threshold, "addcmul": _write_addcmul},
                f="where clamp lerp threshold addcmul", i="where clamp threshold", b="where"),
    **generated("copy", _write_copy, every="set segment_set"),
    **generated("cast", _write_cast, every="cast"),
    **dict.fromkeys(("erfinv", "erfcinv"), not_generated(
        "not added to the generator yet (its domain is narrower than make_tensor's operands)")),
    **dict.fromkeys(("real", "imag", "isreal", "complex"), _NO_COMPLEX),
    **dict.fromkeys(("lgamma", "nextafter", "mod", "logical_right_shift"), _NOT_ADDED),
}


#: the ``OpSpec.tags`` of the elementwise ops the validity rules judge (``spec.TAGS``)
_TAGGED = tagged({"int-arith": "add sub mul neg abs add_alpha sub_alpha",
                  "shift": "bitwise_left_shift bitwise_right_shift logical_right_shift",
                  "division": "div fmod remainder mod",
                  "dtype-cast": "cast",
                  "copy": "set segment_set",
                  "segment-output": "segment_set"})


def _pointwise_op(name, family, params, ref, **extra):
    """An elementwise op: no dim arguments (FewerDims carries a dim through it as ``POINTWISE``)."""
    register(OpSpec(name, family, params, ref=ref, elementwise=True, generate=GEN.get(name),
                    dim_rule=POINTWISE, tags=_TAGGED.get(name, frozenset()), **extra))


def _unary(name, fn, **extra):
    _pointwise_op(name, "unary", _X, pointwise(fn, float_compute=name in HALF_TO_FLOAT), bypass=("x",), **extra)


def _binary(name, fn, numbers=True, **extra):
    _pointwise_op(name, "binary", _AB, pointwise(fn, numbers, float_compute=name in HALF_TO_FLOAT),
                  bypass=("lhs", "rhs"), **extra)


# ---- unary: the same-named torch function unless noted ----
for _name in ("abs acos acosh asin asinh atan atanh ceil cos cosh exp exp2 expm1 erf erfc erfinv "
              "floor frac lgamma log log10 log1p log2 neg logical_not bitwise_not relu reciprocal "
              "round rsqrt sign sigmoid signbit sin sinh sqrt tan tanh trunc isfinite isinf isnan "
              "isneginf isposinf isreal real imag").split():
    _unary(_name, getattr(torch, _name))
_unary("erfcinv", lambda x: torch.erfinv(1 - x), doc="torch has no erfcinv: erfinv(1 - x)")
_unary("silu", lambda x: F.silu(x if x.is_floating_point() or x.is_complex() else x.float()),
       doc="F.silu rejects ints; nvFuser promotes them to Float")


# ---- binary ----
def _both_integral(a, b) -> bool:
    def integral(v):
        if isinstance(v, torch.Tensor):
            return not (v.is_floating_point() or v.is_complex())
        return isinstance(v, int)
    return integral(a) and integral(b)


def _div(a, b):
    """nvFuser's ``div`` is C++ ``/``: it truncates when both operands are integers."""
    return torch.div(a, b, rounding_mode="trunc") if _both_integral(a, b) else torch.div(a, b)


def _logical_right_shift(x, s):
    """``>>`` on the bits as unsigned: an arithmetic shift with the sign-filled bits masked off
    (both operands already of one integer dtype)."""
    bits = x.dtype.itemsize * 8
    shifted = torch.bitwise_right_shift(x, s)
    keep = torch.bitwise_left_shift(torch.ones_like(shifted), bits - s) - 1
    return torch.where((x < 0) & (s > 0), shifted & keep, shifted)


def _eager_refuses(fn, refused, why: str):
    """``fn``, raising where eager torch has no kernel though its meta kernel (the static check)
    accepts: mutants that swapped an op for one of another result dtype reached such operands
    downstream (``sub`` of a ``logical_or``'s bool, ``bitwise_and`` of a bool and a float
    number), which would otherwise be filed as fmin's own findings on the reference. ``refused`` sees the
    operands as passed (tensors and Python numbers)."""
    def checked(*args):
        if refused(*args):
            raise RuntimeError(f"{fn.__name__}: {why}")
        return fn(*args)
    checked.__name__ = fn.__name__
    return checked


def _bool_tensor(*args) -> bool:
    return any(isinstance(v, torch.Tensor) and v.dtype == torch.bool for v in args)


def _floating_result(*args) -> bool:
    """A floating or complex operand, tensor or Python number, makes the result one (written
    without ``torch.result_type``, which Dynamo cannot trace into the Inductor translation)."""
    return any(isinstance(v, (float, complex))
               or (isinstance(v, torch.Tensor) and (v.is_floating_point() or v.is_complex())) for v in args)


_EAGER_RULES = {"sub": (_bool_tensor, "eager torch refuses a bool tensor operand"),
                **dict.fromkeys(("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                                 "bitwise_right_shift"),
                                (_floating_result, "eager torch has no kernel for a floating result"))}

for _name in ("add sub mul remainder pow eq ne lt le gt ge bitwise_and bitwise_or bitwise_xor "
              "bitwise_left_shift bitwise_right_shift").split():
    _fn = getattr(torch, _name)
    _binary(_name, _eager_refuses(_fn, *_EAGER_RULES[_name]) if _name in _EAGER_RULES else _fn)
for _name in "atan2 nextafter minimum maximum logical_and logical_or gcd".split():
    _binary(_name, getattr(torch, _name), numbers=False)
_binary("div", _div, doc="C++ '/': truncating for two integers, true division otherwise")
_binary("truediv", torch.true_divide, doc="Python '/'")
_binary("fmod", torch.fmod, doc="C fmod: the result takes the dividend's sign")
_binary("mod", torch.fmod, doc="C '%' (fmod for floats): the result takes the dividend's sign")
_binary("logical_right_shift", _logical_right_shift, numbers=False)


def _alpha_ref(fn):
    """add_alpha/sub_alpha: ``lhs ± rhs * alpha`` with alpha cast to the operands' common dtype."""
    def ref(ctx, lhs, rhs, alpha):
        if not any(isinstance(v, torch.Tensor) for v in (lhs, rhs)):
            return _scalar_call(lambda a, b, c: fn(a, b * c.to(torch.result_type(a, b))), (lhs, rhs, alpha))
        a, b = common(*half_to_float(lhs, rhs))
        return fn(a, b * torch.tensor(alpha, device=b.device).to(b.dtype))
    return ref


for _name, _fn in (("add_alpha", torch.add), ("sub_alpha", torch.sub)):
    _pointwise_op(_name, "binary", _AB + (Param("alpha", "scalar"),), _alpha_ref(_fn),
                  frontends=LEGACY_ONLY, bypass=("lhs", "rhs"), doc="torch.add/sub(lhs, rhs, alpha=alpha)")

_pointwise_op("complex", "binary", (Param("real", "operand"), Param("imag", "operand")),
              pointwise(torch.complex, numbers=False), frontends=DIRECT_ONLY,
              doc="torch.complex: Float parts make ComplexFloat, Double parts ComplexDouble")


# ---- ternary ----
def _where(ctx, condition, x, y):
    if not any(isinstance(v, torch.Tensor) for v in (condition, x, y)):
        return _scalar_call(torch.where, (condition, x, y))
    like = next(v for v in (condition, x, y) if isinstance(v, torch.Tensor))
    if not isinstance(condition, torch.Tensor):
        condition = torch.tensor(bool(condition), device=like.device)
    if not isinstance(x, torch.Tensor) and not isinstance(y, torch.Tensor):
        # two scalars picked by a tensor condition: a tensor of their (Python) promoted dtype
        dt = result_dtype(x, y)
        x, y = (torch.tensor(v, dtype=dt, device=like.device) for v in (x, y))
    return torch.where(condition, x, y)


def _lerp(ctx, x, y, weight):
    """nvFuser promotes start, end and weight to one dtype; torch.lerp wants exactly that."""
    if not any(isinstance(v, torch.Tensor) for v in (x, y, weight)):
        return _scalar_call(torch.lerp, (x, y, weight))
    return torch.lerp(*common(*half_to_float(x, y, weight)))


def _like_input(v, x):
    """A scalar bound cast to the input's dtype, as nvFuser's clamp/threshold do (so clamping an
    Int tensor at 2.7 clamps at 2, where torch would promote to float)."""
    if isinstance(v, torch.Tensor):
        raise TypeError("the bounds of clamp/threshold must be scalars, not tensors")
    if v is None:
        return None
    dt = x.dtype if isinstance(x, torch.Tensor) else as_tensor(x).dtype
    return torch.tensor(v).to(dt).item()


def _clamp(ctx, input, min, max):
    lo, hi = _like_input(min, input), _like_input(max, input)
    if not isinstance(input, torch.Tensor):
        return torch.clamp(as_tensor(input), lo, hi).item()
    return torch.clamp(input, lo, hi)


def _threshold(ctx, input, threshold, value):
    """F.threshold: ``input if input > threshold else value``, in the input's dtype."""
    th, val = _like_input(threshold, input), _like_input(value, input)
    if not isinstance(input, torch.Tensor):
        return F.threshold(as_tensor(input), th, val).item()
    return F.threshold(input, th, val)


def _addcmul(ctx, input1, input2, input3, alpha):
    """``input1 + alpha * input2 * input3``; alpha takes the three operands' dtype."""
    if not any(isinstance(v, torch.Tensor) for v in (input1, input2, input3)):
        return _scalar_call(lambda a, b, c, s: torch.addcmul(a, b, c, value=s.item()),
                            (input1, input2, input3, alpha))
    a, b, c = common(*half_to_float(input1, input2, input3))
    return torch.addcmul(a, b, c, value=_like_input(alpha, a))


_pointwise_op("where", "ternary", (Param("condition", "operand"), Param("x", "operand"), Param("y", "operand")),
              _where, bypass=("x", "y"), doc="torch.where")
_pointwise_op("lerp", "ternary", (Param("x", "operand"), Param("y", "operand"), Param("weight", "operand")),
              _lerp, bypass=("x", "y"), doc="torch.lerp(start, end, weight)")
_pointwise_op("clamp", "ternary", (Param("input", "operand"), Param("min", "scalar"), Param("max", "scalar")),
              _clamp, bypass=("input",), doc="torch.clamp, bounds in the input's dtype")
_pointwise_op("threshold", "ternary", (Param("input", "operand"), Param("threshold", "scalar"),
                                       Param("value", "scalar")),
              _threshold, bypass=("input",), doc="F.threshold")
_pointwise_op("addcmul", "ternary", (Param("input1", "operand"), Param("input2", "operand"),
                                     Param("input3", "operand"), Param("alpha", "scalar")),
              _addcmul, bypass=("input1", "input2", "input3"),
              doc="torch.addcmul(input1, input2, input3, value=alpha)")


# ---- copies and casts (family "special": pointwise, but they compute nothing) ----
def _copy(ctx, x):
    """``set``/``segment_set``: a new tensor with the same values (a scalar passes through)."""
    return x.clone() if isinstance(x, torch.Tensor) else x


#: what nvFuser casts to and from Float4_e2m1fn (its cast table, csrc/type.cpp)
_FP4_PEERS = frozenset({"Float", "Double", "Half", "BFloat16", "Float4_e2m1fn"})


def _cast(ctx, arg, dtype):
    name = dtype_name(dtype)
    if isinstance(arg, torch.Tensor) and (fp4.is_fp4(arg) or name == "Float4_e2m1fn"):
        return _cast_fp4(arg, name)
    if isinstance(arg, torch.Tensor):
        return arg.to(dtypes.to_torch(name))
    if name == "Bool":
        return bool(arg)
    if name in dtypes.INTEGRAL:
        return int(arg.real) if isinstance(arg, complex) else int(arg)
    if name in dtypes.COMPLEX:
        return complex(arg)
    return float(arg.real) if isinstance(arg, complex) else float(arg)


def _cast_fp4(arg, name):
    """Casts into or out of fp4 go through Float (``ops.fp4``); nvFuser has no other."""
    src = "Float4_e2m1fn" if fp4.is_fp4(arg) else dtypes.from_torch(arg.dtype)
    if src not in _FP4_PEERS or name not in _FP4_PEERS:
        raise TypeError(f"no cast from {src} to {name}: Float4_e2m1fn casts only to and from "
                        "Float, Double, Half and BFloat16")
    if src == name:
        return arg.clone()
    if name == "Float4_e2m1fn":
        return fp4.encode(arg.to(torch.float32))
    return fp4.decode(arg).to(dtypes.to_torch(name))


for _name, _doc in (("set", "a copy"), ("segment_set", "a copy that nvFuser must place in a new segment")):
    _pointwise_op(_name, "special", _X, _copy, bypass=("x",), doc=_doc)
_pointwise_op("cast", "special", (Param("arg", "operand"), Param("dtype", "dtype")), _cast,
              bypass=("arg",), doc="x.to(dtype); C++ casts truncate floats to ints")
