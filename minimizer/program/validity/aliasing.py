"""Which values a program writes into its inputs (``add_output(v, alias_input=x)``): what the alias
rules judge, and what the seeded mutations read to keep them.

What the rules say about nvFuser was read in its source (NVIDIA/Fuser): ``Fusion::aliasOutputToInput``
(csrc/fusion.cpp) accepts any output for any fusion input and checks no dtype (the Python tutorial
says so: "alias_input does not check if output and alias_input have the same type"); it keeps one
alias per output (``AliasInfoMap`` is keyed by the output: a second input for the same output
replaces the first). A fusion may read an input it also writes: the preseg pass
``segment_inplace_update`` puts the writes into fusion inputs after the reads, and nvFuser's own
tests expect the right answer from such fusions (``test_issue2664_repro1``..``4``,
``test_issue4888``, the fused add-rmsnorm of ``test_pdl``), so no rule here judges the reads.
"""
from __future__ import annotations

import torch

from ...model import Program, Ref, Stmt
from .base import Rule
from .reading import value_of


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
