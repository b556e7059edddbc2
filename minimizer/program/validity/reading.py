"""How validity rules read a program and a run's values: where a name is defined, its value in
the static check, a constant's value, an integer dtype's width."""
from __future__ import annotations

import torch

from ... import dtypes
from ...model import Program, Ref, TensorArg, is_input_decl


def definitions(program: Program) -> dict[str, int]:
    """Value name -> the index of the statement that defines it."""
    defs: dict[str, int] = {}
    for i, s in enumerate(program.stmts):
        for n in s.outs:
            if n:
                defs[n] = i
    return defs


def value_of(info, defs: dict[str, int], name: str):
    """What the static check ``info`` knows of ``name`` (a ``meta`` tensor, a number), or None."""
    i = defs.get(name)
    return info.value(i, name) if i is not None else None


def constant(program: Program, defs: dict[str, int], v):
    """An int literal, or the value of a ``define_scalar`` constant; None otherwise."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, Ref) and v.name in defs:
        s = program.stmts[defs[v.name]]
        if s.is_scalar_def and isinstance(s.arg("value"), int) and not isinstance(s.arg("value"), bool):
            return s.arg("value")
    return None


def bits(dtype: torch.dtype) -> int | None:
    """The width of an integer dtype (None: floating, complex or bool)."""
    if dtype.is_floating_point or dtype.is_complex or dtype == torch.bool:
        return None
    return torch.iinfo(dtype).bits


def dtype_name(t: torch.Tensor) -> str:
    """``t``'s dtype as nvFuser's ``DataType`` names it (``Float``, ``Int32``)."""
    return dtypes.from_torch(t.dtype)


def int_operand(v) -> torch.Tensor | None:
    """An integer operand as a tensor (a Python int too); None for anything else."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return torch.tensor(v)
    if isinstance(v, torch.Tensor) and bits(v.dtype) is not None:
        return v
    return None


def input_strides(program: Program, name: str) -> tuple[int, ...]:
    """The strides of the tensor the inputs list passes for input ``name`` (none where unknown)."""
    a = input_arg(program, name)
    return a.strides if isinstance(a, TensorArg) else ()


def input_arg(program: Program, name: str):
    """What the inputs list passes for input ``name`` (None where unknown)."""
    k = 0
    for s in program.stmts:
        if is_input_decl(s):
            if s.outs and s.outs[0] == name:
                return program.inputs[k] if program.inputs is not None and k < len(program.inputs) else None
            k += 1
    return None
