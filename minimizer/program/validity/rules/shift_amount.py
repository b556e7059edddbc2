"""shift-amount: a shift amount lies in [0, bit width of the shifted dtype).

Static where the amount is a constant, a value rule where it is a tensor's values."""
from __future__ import annotations

import torch

from ....model import Ref
from ..base import Rule, register, violation_at
from ..reading import bits, constant, dtype_name, int_operand, value_of


@register
class ShiftAmount(Rule):
    name = "shift-amount"
    statement = ("a shift amount lies in [0, bit width of the shifted dtype): other amounts are "
                 "undefined in C++ and CUDA")
    order = 70
    tags = frozenset({"shift"})
    needs = frozenset({"static", "definitions"})

    def static(self, program, facts, at):
        """Constant shift amounts out of range (a tensor's amounts are values: ``after``)."""
        defs, found = facts["definitions"], []
        for i in at:
            s = program.stmts[i]
            x, amount = ([v for _, v in s.args] + [None, None])[:2]
            t = value_of(facts["static"], defs, x.name) if isinstance(x, Ref) else None
            k = constant(program, defs, amount)
            width = bits(t.dtype) if isinstance(t, torch.Tensor) else None
            if width is not None and isinstance(k, int) and not 0 <= k < width:
                found.append(violation_at(program, i, self.name, f"fd.ops.{s.op} shifts {dtype_name(t)} by {k}"))
        return found

    def after(self, s, spec, args, results):
        x, k = args.get("lhs"), int_operand(args.get("rhs"))
        width = bits(x.dtype) if isinstance(x, torch.Tensor) else None
        if width is not None and k is not None and k.numel() and bool(((k < 0) | (k >= width)).any()):
            return f"fd.ops.{s.op} shifts {dtype_name(x)} by amounts from {int(k.min())} to {int(k.max())}"
        return None
