"""Which values a program writes into its inputs (``add_output(v, alias_input=x)``) and what
reads them: what the alias rules judge, and what the seeded mutations read to keep them.

What the rules say about nvFuser was read in its source (NVIDIA/Fuser): ``Fusion::aliasOutputToInput``
(csrc/fusion.cpp) accepts any output for any fusion input, checks no dtype (the Python tutorial
says so: "alias_input does not check if output and alias_input have the same type"), and
fusion.h calls the in-place alias "not always safe", used by batch norm's running statistics, and
"not aware of segmentation": a kernel or a segment that reads the input is not ordered after the
one that writes it.
"""
from __future__ import annotations

import torch

from ...model import Program, Ref, Stmt
from ...ops import lookup
from .base import Rule
from .reading import definitions, value_of


class AliasRule(Rule):
    """A rule on the in-place writes: it judges each ``add_output`` that names an input."""
    tags = frozenset({"alias-write"})

    def judges(self, s: Stmt) -> bool:
        return isinstance(s.arg("alias_input"), Ref)


def fusion_inputs(program: Program) -> dict[str, int]:
    """Tensor input name -> the index of its ``define_tensor``."""
    return {s.outs[0]: i for i, s in enumerate(program.stmts) if s.is_tensor_decl and s.outs and s.outs[0]}


def written_input(program: Program, i: int, inputs: dict[str, int]) -> tuple[str, str]:
    """(the name statement ``i`` writes into, where it lies): ``"not-input"`` (no fusion input),
    ``"cpu"`` (a CPU scalar input) or ``"gpu"`` (an input a kernel can write)."""
    name = program.stmts[i].arg("alias_input").name
    if name not in inputs:
        return name, "not-input"
    return name, "cpu" if program.stmts[inputs[name]].arg("is_cpu") is True else "gpu"


def gpu_writes(program: Program, at: list[int]) -> dict[str, list[int]]:
    """Input name -> the statements among ``at`` that write into it, for inputs a kernel can
    write (what the rules on a write's dtype, shape, count and reads judge)."""
    inputs = fusion_inputs(program)
    out: dict[str, list[int]] = {}
    for i in at:
        name, where = written_input(program, i, inputs)
        if where == "gpu":
            out.setdefault(name, []).append(i)
    return out


def written_values(program: Program, facts, i: int):
    """(the output written by statement ``i``, the input's name, the output's value, the input's
    value) in the static check, or None where either is not a tensor there."""
    s = program.stmts[i]
    out, name, defs = s.arg("output"), s.arg("alias_input").name, facts["definitions"]
    v = value_of(facts["static"], defs, out.name) if isinstance(out, Ref) else None
    t = value_of(facts["static"], defs, name)
    if not isinstance(v, torch.Tensor) or not isinstance(t, torch.Tensor):
        return None
    return out, name, v, t


def aliased_inputs(program: Program) -> dict[str, list[str]]:
    """Input name -> the names of the values written into it (``add_output(v, alias_input=x)``)."""
    out: dict[str, list[str]] = {}
    for s in program.stmts:
        target, v = s.arg("alias_input"), s.arg("output")
        if s.is_output and isinstance(target, Ref) and isinstance(v, Ref):
            out.setdefault(target.name, []).append(v.name)
    return out


def computed_from(program: Program, info, name: str) -> tuple[set[str], str | None]:
    """The names of every value computed from ``name`` (itself included; reading its metadata
    does not count), and why one of them is not an elementwise value of its shape (None: all are)."""
    defs = definitions(program)
    shape = tuple(getattr(value_of(info, defs, name), "shape", ()))
    cone, bad = {name}, None
    for i, s in enumerate(program.stmts):
        if not s.is_op or not cone.intersection(s.uses()) or "metadata" in _tags(s):
            continue
        for n in s.outs:
            v = info.value(i, n) if n else None
            if isinstance(v, torch.Tensor) and (not _elementwise(s) or tuple(v.shape) != shape):
                bad = bad or f"{name} is written by an output and read by fd.ops.{s.op} ({n} {list(v.shape)})"
            if n:
                cone.add(n)
    return cone, bad


def _tags(s: Stmt) -> frozenset:
    spec = lookup(s.call)
    return spec.tags if spec is not None else frozenset()


def _elementwise(s: Stmt) -> bool:
    """An elementwise op that stays in the segment of its operand (``segment_set`` starts another)."""
    spec = lookup(s.call)
    return spec is not None and spec.elementwise and "new-segment" not in spec.tags
