"""Simpler dtypes and scalars (cosmetic).

``SimplifyDtypes``: BFloat16/Half/Double (any floating dtype but Float) inputs become Float, in
the ``define_tensor`` and in the ``TensorArg`` together; casts of them may then be no-ops that
``Bypass`` removes. All such inputs at once, then one at a time.

``SimplifyScalars``: scalar constants become 1, 0 or 2: float constants (``define_scalar`` and,
in the direct frontend, float literals in op operands) wherever they are, and int constants only
where they feed arithmetic (never shape lists, vectors, dims or indices: those are extents, which
``ShrinkShapes`` handles). All at once to 1 first, then one at a time to 1, 0, 2.
"""
from __future__ import annotations

import dataclasses
import math

from ... import dtypes
from ...ops import lookup
from ...model import DType, Ref, TensorArg
from .base import Candidates, Pass
from .common import input_decls
from ...program.edits import input_arg, replace_input

SIMPLE = (1, 0, 2)


def _complex_inputs(program) -> list[int]:
    out = []
    for i in input_decls(program):
        s, a = program.stmts[i], input_arg(program, i)
        if s.is_tensor_decl and isinstance(a, TensorArg) and a.dtype in dtypes.FLOATING \
                and a.dtype != "Float" and isinstance(s.arg("dtype"), DType):
            out.append(i)
    return out


def dtype_cost(program) -> int:
    return len(_complex_inputs(program))


def to_float(program, decls: list[int]):
    for i in decls:
        s, a = program.stmts[i], input_arg(program, i)
        program = replace_input(program, i, s.with_arg("dtype", DType("Float")), dataclasses.replace(a, dtype="Float"))
    return program


class SimplifyDtypes(Pass):
    name = "simplify-dtypes"
    cosmetic = True

    def candidates(self, program, info, start=0) -> Candidates:
        decls = _complex_inputs(program)
        plans = ([decls] if len(decls) > 1 else []) + [[i] for i in decls]
        for pos, plan in enumerate(plans):
            if pos >= start:
                yield pos, to_float(program, plan)


# ---- scalars ----
def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _simple(v) -> bool:
    return not (isinstance(v, float) and math.isnan(v)) and v in SIMPLE


def _arith_only(program, name: str, at: int) -> bool:
    """Whether every use of the binding made at ``at`` is an operand of an op."""
    for s in program.stmts[at + 1:]:
        for p, v in s.args:
            if isinstance(v, Ref) and v.name == name:
                spec = lookup(s.call)
                if spec is None or not s.is_op or spec.param(p).kind != "operand":
                    return False
            elif isinstance(v, tuple) and any(r.name == name for r in v if isinstance(r, Ref)):
                return False
        if name in s.outs:
            break
    return True


def scalar_sites(program) -> list[tuple]:
    """("def", stmt) and ("lit", stmt, param) of the constants this pass may change."""
    out = []
    for i, s in enumerate(program.stmts):
        if s.is_scalar_def and s.outs and s.outs[0]:
            v = s.arg("value")
            if isinstance(v, float) or (_is_num(v) and _arith_only(program, s.outs[0], i)):
                out.append(("def", i))
        elif s.is_op:
            spec = lookup(s.call)
            for p, v in s.args:
                if _is_num(v) and spec is not None and spec.param(p).kind == "operand":
                    out.append(("lit", i, p))
    return out


def _get(program, site):
    s = program.stmts[site[1]]
    return s.arg("value") if site[0] == "def" else s.arg(site[2])


def scalar_cost(program) -> int:
    return sum(1 for site in scalar_sites(program) if not _simple(_get(program, site)))


def set_scalars(program, changes: list[tuple[tuple, int]]):
    stmts = list(program.stmts)
    for site, target in changes:
        s = stmts[site[1]]
        old = _get(program, site)
        new = float(target) if isinstance(old, float) else target
        stmts[site[1]] = s.with_arg("value" if site[0] == "def" else site[2], new)
    return program.replace(stmts=tuple(stmts))


class SimplifyScalars(Pass):
    name = "simplify-scalars"
    cosmetic = True

    def candidates(self, program, info, start=0) -> Candidates:
        todo = [site for site in scalar_sites(program) if not _simple(_get(program, site))]
        plans = [[(site, 1) for site in todo]] if len(todo) > 1 else []
        plans += [[(site, t)] for site in todo for t in SIMPLE]
        for pos, plan in enumerate(plans):
            if pos >= start:
                yield pos, set_scalars(program, plan)
