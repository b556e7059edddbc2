"""A program's computation written out as plain torch code: the eager check a wrong result's
attachment ends with, for a maintainer who has torch and nvFuser but not fmin.

What each op computes is said once, by the catalog's torch references (``minimizer/ops/``), with
nvFuser's typing rules inside them (Half arithmetic computes in Float and returns Float, a
Python ``bool`` operand is Int64, ...). A second table of per-op torch spellings would drift from
them, so instead the interpreter (``interpret.run``) is traced with ``make_fx`` on ``meta``
tensors: nothing is computed, and the ATen ops it dispatches — the casts of the typing rules
included — become the lines of a function that needs only ``torch``. ``upcast=True`` traces the
exact reference (every floating value in float64), which tells rounding from a wrong result.

The function is specialised to the program's inputs list: shapes and dtypes as traced, a scalar
input's value written in (the parameter is kept, so calls pass the inputs list as it is).
Creation ops take their device from the ``device`` keyword. What cannot be traced this way — a
reference that reads a value (``.item()`` of a computed tensor), an op whose reference is not
torch — raises ``NotPlainTorch`` with the reason, and the caller says so in the script.
"""
from __future__ import annotations

import logging
import math
import operator

import torch

from .. import dtypes
from ..model import Program, ScalarArg, TensorArg, is_input_decl
from ..ops import Ctx
from .interpret import run


class NotPlainTorch(Exception):
    """The program's computation could not be written as plain torch code (the reason)."""


def _inputs(program: Program) -> list:
    """Meta tensors and Python scalars in inputs-list order (``static.meta_inputs``'s rule, kept
    here so that a list fmin could not read is refused with this module's exception)."""
    if program.inputs is None:
        raise NotPlainTorch("the script has no inputs list fmin can read")
    out = []
    for a in program.inputs:
        if isinstance(a, TensorArg):
            # uninitialised CPU memory, never read: the trace runs on fake tensors made of them
            out.append(torch.empty_strided(a.shape, a.strides, dtype=dtypes.to_torch(a.dtype)))
        elif isinstance(a, ScalarArg):
            out.append(a.value)
        else:
            raise NotPlainTorch(f"an input fmin cannot model: {a!r}")
    return out


def parameter_names(program: Program) -> list[str]:
    """One parameter per inputs-list entry: the fusion input's name (``tv0``), numbered for a
    ``define_vector`` of several scalars."""
    names: list[str] = []
    for s in program.stmts:
        if not is_input_decl(s):
            continue
        base = s.outs[0] if s.outs and s.outs[0] else f"input{len(names)}"
        n = s.arg("values") if s.call == "define_vector" else 1
        names += [base] if n == 1 else [f"{base}_{k}" for k in range(n)]
    return names


def trace(program: Program, *, upcast: bool = False) -> torch.fx.GraphModule:
    """The interpreter's run of ``program`` as an ATen graph (``make_fx`` on fake tensors)."""
    from torch.fx.experimental.proxy_tensor import make_fx
    fe = program.dialect.frontend
    ins = _inputs(program)

    def computation(*args):
        r = run(program.stmts, list(args), frontend=fe, ctx=Ctx(device="cpu", frontend=fe), upcast=upcast)
        return tuple(r.outputs)

    quiet = logging.getLogger("torch._subclasses.fake_tensor")   # it logs every op a reference fails on
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        gm = make_fx(computation, tracing_mode="fake")(*ins)
    except NotPlainTorch:
        raise
    except Exception as e:
        raise NotPlainTorch(f"tracing the reference failed: {type(e).__name__}: {str(e).splitlines()[0][:200]}") \
            from None
    finally:
        quiet.setLevel(level)
    gm.graph.eliminate_dead_code()
    return gm


def function_text(program: Program, name: str, *, upcast: bool = False, doc: str = "") -> str:
    """``def name(<one parameter per input>, *, device): ... return (outputs...)`` as source text
    that needs only ``torch``."""
    gm = trace(program, upcast=upcast)
    params = parameter_names(program)
    if len(params) != len(program.inputs or ()):
        raise NotPlainTorch(f"{len(program.inputs or ())} inputs for {len(params)} declared")
    body, names, k = [], {}, 0
    for n in gm.graph.nodes:
        if n.op == "placeholder":
            names[n] = params[k]
            k += 1
        elif n.op == "get_attr":   # a constant: written where it is used
            names[n] = _constant(getattr(gm, n.target))
        elif n.op == "call_function" and n.target is torch.ops.aten.lift_fresh_copy.default \
                and n.args[0].op == "get_attr":   # the constant itself, fresh
            names[n] = n.name
            body.append(f"{n.name} = {names[n.args[0]]}")
        elif n.op == "call_function":
            names[n] = n.name
            body.append(f"{n.name} = {_call(n, names)}")
        elif n.op == "output":
            body.append("return (" + ", ".join(_arg(o, names) for o in n.args[0]) + ("," if len(n.args[0]) == 1 else "") + ")")
        else:
            raise NotPlainTorch(f"a graph node fmin cannot write as torch code: {n.op} {n.target}")
    head = f"def {name}(" + "".join(p + ", " for p in params) + "*, device):"
    lines = [head] + ([f'    """{doc}"""'] if doc else []) + ["    " + b for b in body]
    return "\n".join(lines) + "\n"


def _constant(t) -> str:
    """A traced constant (a 0-d tensor the references made of a Python number) as a literal."""
    if not isinstance(t, torch.Tensor) or t.numel() > 64 or t.device.type == "meta":
        raise NotPlainTorch(f"a constant fmin cannot write as a literal: {type(t).__name__}")
    # a 0-d constant stays on the CPU (torch mixes it with tensors of any device), others follow
    # the inputs
    where = ", device=device" if t.dim() else ""
    return f"torch.tensor({_value(t.tolist())}, dtype={_dtype(t.dtype)}{where})"


def _call(n, names) -> str:
    t = n.target
    if t is operator.getitem:
        return f"{_arg(n.args[0], names)}[{_arg(n.args[1], names)}]"
    if not isinstance(t, torch._ops.OpOverload):
        raise NotPlainTorch(f"the reference calls {getattr(t, '__name__', t)!s}, which is not a torch op")
    args = [_arg(a, names) for a in n.args] + [f"{k}={_arg(v, names)}" for k, v in n.kwargs.items()]
    return f"torch.ops.{t.namespace}.{t._schema.name.split('::')[-1]}.{t._overloadname}({', '.join(args)})"


def _arg(v, names) -> str:
    if isinstance(v, torch.fx.Node):
        return names[v]
    if isinstance(v, (list, tuple)):
        inner = ", ".join(_arg(x, names) for x in v)
        return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
    if isinstance(v, torch.device):
        return "device"
    if isinstance(v, torch.dtype):
        return _dtype(v)
    if isinstance(v, torch.memory_format):
        return "torch." + str(v).removeprefix("torch.")
    if isinstance(v, torch.layout):
        return "torch." + str(v).removeprefix("torch.")
    if v is None or isinstance(v, (bool, int, float, complex, str)):
        return _value(v)
    raise NotPlainTorch(f"an argument fmin cannot write as torch code: {type(v).__name__}")


def _value(v) -> str:
    """A Python literal, with non-finite floats spelled so that they parse."""
    if isinstance(v, float) and not math.isfinite(v):
        return f"float({str(v)!r})"
    if isinstance(v, complex):
        return f"complex({_value(v.real)}, {_value(v.imag)})"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return repr(v)


def _dtype(dt: torch.dtype) -> str:
    return "torch." + str(dt).removeprefix("torch.")
