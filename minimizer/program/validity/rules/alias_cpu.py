"""alias-cpu: an output is written only into an input on the GPU."""
from __future__ import annotations

from ..aliasing import AliasRule, fusion_inputs, written_input
from ..base import violation_at, register


@register
class AliasCpu(AliasRule):
    name = "alias-cpu"
    statement = ("an output is written only into an input on the GPU: a CPU scalar input (is_cpu) is no "
                 "memory a kernel writes; nvFuser asserts 'KernelExecutor does not support the Fusion provided'")
    order = 20

    def static(self, program, facts, at):
        inputs = fusion_inputs(program)
        return [violation_at(program, i, self.name, f"{program.stmts[i].arg('output')} is written into {name}, "
                                                    f"a CPU scalar input")
                for i in at for name, where in [written_input(program, i, inputs)] if where == "cpu"]
