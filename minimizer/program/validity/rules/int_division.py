"""int-division: an integer division or remainder has no zero divisor (nor MIN / -1)."""
from __future__ import annotations

import torch

from ..base import Rule, register
from ..reading import dtype_name, int_operand


@register
class IntDivision(Rule):
    name = "int-division"
    statement = ("an integer division or remainder has no zero divisor (nor MIN / -1): undefined in "
                 "C++ and CUDA")
    order = 90
    tags = frozenset({"division"})

    def before(self, s, spec, args):
        """Before the op runs: torch enforces it on the CPU by raising."""
        a, b = int_operand(args.get("lhs")), int_operand(args.get("rhs"))
        if a is None or b is None:
            return None
        if bool((b == 0).any()):
            return f"fd.ops.{s.op} divides by zero"
        if a.dtype != torch.bool and bool(((a == torch.iinfo(a.dtype).min) & (b == -1)).any()):
            return f"fd.ops.{s.op} divides the smallest {dtype_name(a)} by -1"
        return None
